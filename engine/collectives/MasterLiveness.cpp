// The master's exclusions and deadlines (Master.h, "Exclusion" and "Stallers"): blame and the liar rule, stall
// reports and disputed links (StallJudge.h), the vote, begin and sync deadlines.
#include "collectives/Master.h"

#include "collectives/Logging.h"
#include "collectives/MasterPeer.h"
#include "net/Ed25519.h"

#include <QTimer>

#include <algorithm>

namespace cohort::collectives {

void Master::handleBlame(Peer &accuser, const std::vector<uint32_t> &order, uint64_t tag, uint64_t opId)
{
    const auto at = std::find(order.begin(), order.end(), accuser.id);
    Peer *accused =
        at == order.end() || order.size() < 2 ? nullptr : peerById(at == order.begin() ? order.back() : *std::prev(at));
    const auto running = m_ops.find(tag);
    const bool stillRunning = running != m_ops.end() && running->second.opId == opId;
    if (!accused) { // its predecessor left already: nothing to decide
        if (stillRunning && abortOperation(tag, QStringLiteral("peer %1 lost its ring link").arg(accuser.id)))
            formRing(m_ring);
        return;
    }
    const bool serialAccuser = noteAccusation(accuser, *accused);
    if (!serialAccuser && auditedWorkOf(accuser) < auditedWorkOf(*accused))
        return disputeBlame(accuser, *accused, order.size(), stillRunning ? tag : 0);
    Peer &culprit = serialAccuser ? accuser : *accused;
    const QString reason =
        serialAccuser
            ? QStringLiteral("peer %1 accused a second peer (%2) of sending out-of-bound values; excluded as the liar")
                  .arg(accuser.id)
                  .arg(accused->id)
            : QStringLiteral("peer %1 sent values beyond the operation's bounds (reported by peer %2)")
                  .arg(accused->id)
                  .arg(accuser.id);
    if (stillRunning)
        abortOperation(tag, reason);
    exclude(culprit, reason); // leaving re-forms the ring with the others
}

double Master::auditedWorkOf(const Peer &peer) const
{
    return m_options.auditedWork ? std::max(0.0, m_options.auditedWork(peer.publicKey)) : 0.0;
}

void Master::disputeBlame(Peer &accuser, Peer &accused, size_t ringSize, uint64_t runningTag)
{
    // The accuser's word alone does not outweigh the work the hub's audits confirmed of the accused: a fresh identity
    // cannot push out a member that trained. The link is disputed instead (as a stall's, StallJudge.h): the ring
    // re-forms around it, the accused goes once a second peer names it, the accuser once it names a second peer.
    const QString reason = QStringLiteral("peer %1 says its ring predecessor (peer %2) sent out-of-bound values; "
                                          "disputed (the accused carries more audited work)")
                               .arg(accuser.id)
                               .arg(accused.id);
    qCInfo(lcCollectives).noquote() << reason;
    if (runningTag)
        abortOperation(runningTag, reason);
    forgetExpiredDisputes();
    const QDeadlineTimer until(m_options.exclusionMs);
    m_disputePartners[accused.publicKey][accuser.publicKey] = until;
    m_disputePartners[accuser.publicKey][accused.publicKey] = until;
    DisputedLink &disputed = m_disputedLinks[{accused.publicKey, accuser.publicKey}];
    disputed.until = until;
    ++disputed.times;
    if (m_disputePartners[accused.publicKey].size() >= 2) {
        QStringList partners;
        for (const auto &[partnerKey, partnerUntil] : m_disputePartners[accused.publicKey])
            for (const auto &[socket, peer] : m_peers)
                if (peer->publicKey == partnerKey)
                    partners << QString::number(peer->id);
        forgetDisputesOf(accused.publicKey);
        return exclude(accused, QStringLiteral("peer %1 sent values beyond the operation's bounds (named by peers %2)")
                                    .arg(accused.id)
                                    .arg(partners.join(QStringLiteral(" and "))));
    }
    if (ringSize == 2 && disputed.times >= m_options.strikes) // a ring of two cannot avoid the link: the heavier stays
        return exclude(accuser, QStringLiteral("peer %1 accused its only ring partner (peer %2, more audited work) %3 "
                                               "times; excluded")
                                    .arg(accuser.id)
                                    .arg(accused.id)
                                    .arg(disputed.times));
    formRing(m_ring);
}

void Master::excludeKey(const QByteArray &publicKey, const QString &reason)
{
    for (auto &[socket, peer] : m_peers)
        if (peer->publicKey == publicKey) {
            exclude(*peer, reason);
            return;
        }
    m_excluded[publicKey] = {QDeadlineTimer(m_options.exclusionMs), reason};
}

void Master::exclude(Peer &peer, const QString &reason)
{
    m_excluded[peer.publicKey] = {QDeadlineTimer(m_options.exclusionMs), reason};
    qCWarning(lcCollectives) << "excluding peer" << peer.id << ed25519::fingerprint(peer.publicKey) << "for"
                             << m_options.exclusionMs / 1000 << "s:" << reason;
    Q_EMIT peerExcluded(peer.id, peer.publicKey, reason);
    kick(peer, reason);
}

bool Master::noteAccusation(const Peer &accuser, const Peer &accused)
{
    const auto last = m_accusations.find(accuser.publicKey);
    const bool serial =
        last != m_accusations.end() && !last->second.until.hasExpired() && last->second.accused != accused.publicKey;
    m_accusations[accuser.publicKey] = {accused.publicKey, QDeadlineTimer(m_options.exclusionMs)};
    return serial;
}

void Master::noteStall(Peer &from, const DoneMsg &msg, uint64_t opId)
{
    const auto it = m_recentAborts.find(opId);
    if (it == m_recentAborts.end() ||
        std::find(it->second.order.begin(), it->second.order.end(), from.id) == it->second.order.end())
        return;
    RecentOp &op = it->second;
    StallReport &report = op.reports[from.id];
    report.completed = !msg.aborted;
    report.starved = msg.starvedByPredecessor;
    report.blocked = msg.blockedBySuccessor;
    report.received = RingCursor{msg.receivedStep, msg.receivedBlock};
    if (op.judging || !(report.starved || report.blocked))
        return;
    op.judging = true;
    // The others learn of the abort at once and say what they were waiting on as they stop.
    QTimer::singleShot(2'000, this, [this, opId] { findStaller(opId); });
}

void Master::forgetDisputesOf(const QByteArray &key)
{
    // Its partners were in those disputes because of it: they start afresh (else an honest member that named it
    // would carry that dispute into its next one, and two partners exclude).
    for (auto &[partnerKey, partnerDisputes] : m_disputePartners)
        partnerDisputes.erase(key);
    m_disputePartners.erase(key);
    std::erase_if(m_disputedLinks,
                  [&](const auto &link) { return link.first.first == key || link.first.second == key; });
}

void Master::forgetExpiredDisputes()
{
    for (auto it = m_disputePartners.begin(); it != m_disputePartners.end();) {
        std::erase_if(it->second, [](const auto &partner) { return partner.second.hasExpired(); });
        it = it->second.empty() ? m_disputePartners.erase(it) : std::next(it);
    }
    std::erase_if(m_disputedLinks, [](const auto &link) { return link.second.until.hasExpired(); });
}

std::set<Link> Master::disputedLinkIds()
{
    forgetExpiredDisputes();
    std::map<QByteArray, uint32_t> idOf;
    for (const auto &[socket, peer] : m_peers)
        if (peer->id != 0)
            idOf[peer->publicKey] = peer->id;
    std::set<Link> links;
    for (const auto &[ends, link] : m_disputedLinks) {
        const auto from = idOf.find(ends.first), to = idOf.find(ends.second);
        if (from != idOf.end() && to != idOf.end())
            links.insert(Link{from->second, to->second});
    }
    return links;
}

void Master::findStaller(uint64_t opId)
{
    const auto it = m_recentAborts.find(opId);
    if (it == m_recentAborts.end())
        return;
    const RecentOp op = it->second;
    forgetExpiredDisputes();
    std::vector<Peer *> suspects; // at both ends of disputes with different partners
    bool repeated = false;
    for (const Link &link : disputedLinks(op.order, op.reports)) {
        Peer *from = peerById(link.from), *to = peerById(link.to);
        if (!from || !to)
            continue; // one end left already: the ring goes on without that link
        qCInfo(lcCollectives) << "operation" << opId << "stalled on the link from peer" << from->id << "to peer"
                              << to->id << "(their reports disagree)";
        const QDeadlineTimer until(m_options.exclusionMs);
        m_disputePartners[from->publicKey][to->publicKey] = until;
        m_disputePartners[to->publicKey][from->publicKey] = until;
        DisputedLink &disputed = m_disputedLinks[{from->publicKey, to->publicKey}];
        disputed.until = until;
        // A ring of two cannot avoid the link, and nothing tells its ends apart: after `strikes` disputes its sender
        // goes, as a lone member trains on. In larger rings the next order avoids the link (an operation that ran
        // on the old order may report it again: that is the same evidence, not a second partner).
        if (++disputed.times >= m_options.strikes && op.order.size() == 2) {
            suspects.push_back(from);
            repeated = true;
        }
        for (Peer *end : {from, to})
            if (m_disputePartners[end->publicKey].size() >= 2 &&
                std::find(suspects.begin(), suspects.end(), end) == suspects.end())
                suspects.push_back(end);
    }
    if (suspects.empty()) {
        // No verdict yet: re-form in an order without the disputed links when the ring in use has one of them.
        const std::vector<uint32_t> &ring = m_forming ? m_forming->members : m_ring;
        const std::set<Link> avoid = disputedLinkIds();
        if (!avoid.empty() && orderAvoiding(ring, avoid) != ring) {
            qCInfo(lcCollectives) << "re-forming the ring around its disputed links";
            formRing(ring);
        }
        return;
    }
    for (Peer *suspect : suspects) {
        const QByteArray key = suspect->publicKey;
        QStringList partners;
        for (const auto &[partnerKey, until] : m_disputePartners[key])
            for (const auto &[socket, peer] : m_peers)
                if (peer->publicKey == partnerKey)
                    partners << QString::number(peer->id);
        const QString reason =
            repeated && partners.size() < 2
                ? QStringLiteral("peer %1 stalled %2 operations in a row on its link to its ring successor")
                      .arg(suspect->id)
                      .arg(m_options.strikes)
                : QStringLiteral("peer %1 stalled operations: it is at one end of disputed ring links with peers %2 "
                                 "(its ring neighbours waited on it, or it claimed to wait on them)")
                      .arg(suspect->id)
                      .arg(partners.join(QStringLiteral(" and ")));
        forgetDisputesOf(key);
        if (Peer *still = peerById(suspect->id))
            exclude(*still, reason);
    }
}

void Master::startVoteDeadline()
{
    const uint64_t round = ++m_voteRound;
    QTimer::singleShot(m_options.voteTimeoutMs, this, [this, round] {
        if (round != m_voteRound || m_votes.empty() || m_forming)
            return;
        if (2 * m_votes.size() <= m_ring.size())
            return; // not most of the group: the voters may be the odd ones out (they retry)
        std::vector<uint32_t> silent;
        for (const uint32_t id : m_ring)
            if (!m_votes.count(id))
                silent.push_back(id);
        for (const uint32_t id : silent)
            if (Peer *peer = peerById(id))
                exclude(*peer, QStringLiteral("peer %1 did not vote within %2 s of the others")
                                   .arg(id)
                                   .arg(m_options.voteTimeoutMs / 1000.0));
    });
}

void Master::startBeginDeadline(uint64_t tag, uint64_t opId)
{
    QTimer::singleShot(m_options.beginTimeoutMs, this, [this, tag, opId] {
        const auto it = m_ops.find(tag);
        if (it == m_ops.end() || it->second.opId != opId || it->second.commenced)
            return;
        if (2 * it->second.begun.size() <= it->second.participants.size()) {
            // Not most of the group began it: whoever began is the odd one out; nobody is excluded.
            abortOperation(tag, QStringLiteral("most members did not begin operation %1 in time").arg(opId));
            return;
        }
        std::vector<uint32_t> silent;
        for (const uint32_t id : it->second.participants)
            if (!it->second.begun.count(id))
                silent.push_back(id);
        for (const uint32_t id : silent)
            if (Peer *peer = peerById(id))
                exclude(*peer, QStringLiteral("peer %1 did not begin operation %2 within %3 s of the others")
                                   .arg(id)
                                   .arg(opId)
                                   .arg(m_options.beginTimeoutMs / 1000.0));
    });
}

void Master::startSyncDeadline()
{
    const uint64_t round = ++m_syncRound;
    QTimer::singleShot(m_options.syncTimeoutMs, this, [this, round] {
        if (round != m_syncRound || !m_sync || m_sync->planned)
            return; // only the declarations have a deadline: fetching a large state may take long
        if (2 * m_sync->states.size() <= m_sync->participants.size())
            return finishSync(false, QStringLiteral("most members did not declare their shared state in time"));
        std::vector<uint32_t> silent;
        for (const uint32_t id : m_sync->participants)
            if (!m_sync->states.count(id))
                silent.push_back(id);
        for (const uint32_t id : silent)
            if (Peer *peer = peerById(id))
                exclude(*peer, QStringLiteral("peer %1 did not declare its shared state within %2 s of the others")
                                   .arg(id)
                                   .arg(m_options.syncTimeoutMs / 1000.0));
    });
}

bool Master::excluded(const QByteArray &publicKey, QString *why)
{
    const auto it = m_excluded.find(publicKey);
    if (it == m_excluded.end())
        return false;
    if (it->second.until.hasExpired()) {
        m_excluded.erase(it);
        return false;
    }
    *why = QStringLiteral("excluded for another %1 s: %2")
               .arg((it->second.until.remainingTime() + 999) / 1000)
               .arg(it->second.reason);
    return true;
}

} // namespace cohort::collectives
