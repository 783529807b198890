// The master's shared-state collective (Master.h, "Shared state"): the declared digests, the election anchored at
// the record, the plans, the distributors' strikes, the record once every member holds the elected state.
#include "collectives/Master.h"

#include "collectives/Logging.h"
#include "collectives/MasterPeer.h"

#include <QTimer>

#include <algorithm>

namespace cohort::collectives {

void Master::handleSyncState(Peer &peer, const SyncStateMsg &msg)
{
    if (m_forming || votesOutstanding() || !m_ops.empty()) {
        send(peer, encode(SyncCompleteMsg{false, QStringLiteral("the group is busy; retry")}));
        return;
    }
    if (!m_sync) {
        m_sync = StateSync{};
        m_sync->participants = m_ring;
        startSyncDeadline();
    }
    if (m_sync->planned || m_sync->states.count(peer.id))
        return kick(peer, QStringLiteral("SyncState twice"));
    m_sync->states[peer.id] = msg;
    if (m_sync->states.size() == m_sync->participants.size())
        planSync();
}

void Master::planSync()
{
    StateSync &sync = *m_sync;
    // Every peer must declare the same tensors: names, sizes, order.
    const SyncStateMsg &first = sync.states.begin()->second;
    for (const auto &[id, state] : sync.states) {
        if (state.tensors.size() != first.tensors.size())
            return finishSync(false, QStringLiteral("peers declare different shared state"));
        for (size_t i = 0; i < state.tensors.size(); ++i)
            if (state.tensors[i].name != first.tensors[i].name || state.tensors[i].bytes != first.tensors[i].bytes)
                return finishSync(
                    false, QStringLiteral("peers declare different shared state (%1)").arg(state.tensors[i].name));
    }
    // Elect (Master.h, "Shared state"): the heaviest group of identical (revision, digests) among the voters.
    const auto digestsOf = [](const SyncStateMsg &s) {
        std::vector<QByteArray> d;
        for (const TensorDigest &t : s.tensors)
            d.push_back(t.digest);
        return d;
    };
    // Holders by key: a member that reconnected (a new peer id) still took the step it declares.
    const auto holds = [&](uint32_t id) {
        const Peer *peer = peerById(id);
        return peer && m_recordHolders.count(peer->publicKey) > 0;
    };
    if (m_haveStateRevision && m_restoredRecordGrace.hasExpired() &&
        std::none_of(sync.states.begin(), sync.states.end(), [&](const auto &entry) { return holds(entry.first); })) {
        // Nobody who held the record is here any more: a new group, which starts afresh (as after a restart).
        qCInfo(lcCollectives) << "no holder of shared state revision" << m_stateRevision << "is left: a new record";
        m_haveStateRevision = false;
    }
    const auto votes = [&](uint32_t id, const SyncStateMsg &state) {
        if (!m_haveStateRevision)
            return true; // a group's first sync: nothing recorded yet
        return state.revision == m_stateRevision + 1 && holds(id);
    };
    std::map<std::pair<uint64_t, std::vector<QByteArray>>, std::vector<uint32_t>> groups; // ids ascending per group
    size_t voters = 0;
    for (const auto &[id, state] : sync.states)
        if (votes(id, state)) {
            groups[{state.revision, digestsOf(state)}].push_back(id);
            ++voters;
        }
    if (groups.empty() && m_haveStateRevision) {
        // Nobody who holds the record advanced it (no operation completed since): the record stands.
        for (const auto &[id, state] : sync.states)
            if (state.revision == m_stateRevision && stateDigestOf(digestsOf(state)) == m_recordStateDigest)
                groups[{m_stateRevision, digestsOf(state)}].push_back(id);
        if (groups.empty())
            return finishSync(false,
                              QStringLiteral("no member holds the recorded shared state (revision %1) or advanced "
                                             "it by one")
                                  .arg(m_stateRevision));
    }
    if (groups.empty())
        return finishSync(false, QStringLiteral("no peer declared a shared state"));
    // With the hub's weights (MasterOptions::auditedWork: the work its audits confirmed), the group that did the most
    // verified work wins, so identities alone win nothing; without any weight, the larger group; ties: the group
    // holding the smallest peer id.
    const auto weightOf = [&](const std::vector<uint32_t> &ids) {
        double total = 0;
        for (const uint32_t id : ids)
            if (const Peer *peer = peerById(id))
                total += auditedWorkOf(*peer);
        return total;
    };
    std::map<const std::vector<uint32_t> *, double> weights;
    for (const auto &[key, ids] : groups)
        weights[&ids] = weightOf(ids);
    const auto outweighs = [&](const std::vector<uint32_t> &a, const std::vector<uint32_t> &b) {
        if (weights[&a] != weights[&b])
            return weights[&a] > weights[&b];
        if (a.size() != b.size())
            return a.size() > b.size();
        return a.front() < b.front();
    };
    auto best = groups.begin();
    for (auto it = groups.begin(); it != groups.end(); ++it)
        if (outweighs(it->second, best->second))
            best = it;
    const std::vector<QByteArray> elected = best->first.second;
    const std::vector<uint32_t> distributors = best->second;
    // Voters that computed another state from the same record and the same average diverged, or the others lie:
    // the master cannot tell which, so nobody is excluded and no voter is told to fetch — each keeps the step it
    // took itself (an honest member's own step is right by construction), and only members that were not there
    // (joiners, peers that were away) take the elected state. A sybil group can thus mislead newcomers at worst,
    // never replace the model of the members that trained (docs/ROBUSTNESS.md).
    std::set<uint32_t> keepOwn;
    for (const auto &[key, ids] : groups)
        if (m_haveStateRevision && key != best->first && key.first == best->first.first) { // not a first sync
            keepOwn.insert(ids.begin(), ids.end());
            Q_EMIT stateSplit(quint64(key.first), int(best->second.size()), int(ids.size()));
            qCWarning(lcCollectives) << "shared state revision" << key.first << "split:" << ids.size()
                                     << "voter(s) of weight" << weights[&ids] << "hold another state than the"
                                     << best->second.size() << "elected, of weight" << weights[&best->second];
        }
    sync.revision = best->first.first;
    sync.elected = elected;
    sync.planned = true;
    const QByteArray stateDigest = stateDigestOf(elected);
    const QByteArray signature =
        m_options.signRecord ? m_options.signRecord(recordMessage(m_options.recordContext, sync.revision, stateDigest))
                             : QByteArray();
    size_t next = size_t(m_plans++); // a retried sync sends fetchers to other distributors
    for (const auto &[id, state] : sync.states) {
        SyncPlanMsg plan;
        plan.revision = sync.revision;
        plan.stateDigest = stateDigest;
        plan.signature = signature;
        if (keepOwn.count(id)) { // its own step, recorded as its own
            plan.stateDigest = stateDigestOf(digestsOf(state));
            plan.signature =
                m_options.signRecord
                    ? m_options.signRecord(recordMessage(m_options.recordContext, sync.revision, plan.stateDigest))
                    : QByteArray();
            send(id, encode(plan));
            continue;
        }
        for (size_t i = 0; i < state.tensors.size(); ++i)
            if (state.tensors[i].digest != elected[i])
                plan.fetch.emplace_back(uint16_t(i), elected[i]);
        if (!plan.fetch.empty()) {
            const Peer *from = peerById(distributors[next++ % distributors.size()]);
            if (!from)
                return finishSync(false, QStringLiteral("the distributor left"));
            sync.distributorOf[id] = from->id;
            plan.distributor = from->address;
            plan.port = from->p2pPort;
        }
        send(id, encode(plan));
    }
}

void Master::handleSyncDone(Peer &peer, bool ok)
{
    if (!m_sync || !m_sync->planned || !m_sync->states.count(peer.id))
        return; // late: that sync already failed and the peer has (or gets) its SyncComplete
    if (m_sync->done.count(peer.id))
        return kick(peer, QStringLiteral("SyncDone twice"));
    if (!ok) {
        const auto assigned = m_sync->distributorOf.find(peer.id);
        Peer *distributor = assigned == m_sync->distributorOf.end() ? nullptr : peerById(assigned->second);
        finishSync(false, QStringLiteral("peer %1 could not fetch the shared state%2")
                              .arg(peer.id)
                              .arg(distributor ? QStringLiteral(" from peer %1").arg(distributor->id) : QString()));
        if (!distributor)
            return;
        if (noteAccusation(peer, *distributor))
            return exclude(peer, QStringLiteral("peer %1 blamed a second distributor (%2) for its failed fetches; "
                                                "excluded as the liar")
                                     .arg(peer.id)
                                     .arg(distributor->id));
        if (++m_serveStrikes[distributor->publicKey] >= m_options.strikes)
            exclude(*distributor, QStringLiteral("peer %1 failed to serve the elected shared state %2 times in a row "
                                                 "(bytes that do not match its digest, or none)")
                                      .arg(distributor->id)
                                      .arg(m_options.strikes));
        return;
    }
    if (const auto assigned = m_sync->distributorOf.find(peer.id); assigned != m_sync->distributorOf.end())
        if (const Peer *distributor = peerById(assigned->second))
            m_serveStrikes.erase(distributor->publicKey); // it served: the strikes were "in a row"
    m_sync->done.insert(peer.id);
    if (m_sync->done.size() == m_sync->participants.size()) {
        // The record: every participant holds the elected state now, and only they vote on the next revision.
        m_stateRevision = m_sync->revision;
        m_haveStateRevision = true;
        m_recordStateDigest = stateDigestOf(m_sync->elected);
        m_recordHolders.clear();
        QList<QByteArray> holders;
        for (const uint32_t id : m_sync->participants)
            if (const Peer *peer = peerById(id)) {
                m_recordHolders.insert(peer->publicKey);
                holders.append(peer->publicKey);
            }
        Q_EMIT stateRecorded(quint64(m_stateRevision), m_recordStateDigest, holders);
        finishSync(true, QString());
    }
}

void Master::finishSync(bool ok, const QString &reason)
{
    if (!m_sync)
        return;
    const StateSync sync = std::move(*m_sync);
    m_sync.reset();
    for (const auto &[id, state] : sync.states)
        send(id, encode(SyncCompleteMsg{ok, reason}));
    if (!ok)
        qCInfo(lcCollectives) << "shared-state sync failed:" << reason;
}

} // namespace cohort::collectives
