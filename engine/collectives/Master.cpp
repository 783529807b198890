#include "collectives/Master.h"

#include "collectives/Logging.h"
#include "collectives/MasterPeer.h"
#include "net/Ed25519.h"

#include <QRandomGenerator>
#include <QTcpSocket>
#include <QTimer>

#include <algorithm>

namespace cohort::collectives {

// Master::Peer: MasterPeer.h.

namespace {

QByteArray randomBytes(size_t n)
{
    QByteArray out(qsizetype(n), Qt::Uninitialized);
    QRandomGenerator *rng = QRandomGenerator::system();
    for (qsizetype i = 0; i < out.size(); ++i)
        out[i] = char(rng->generate() & 0xff);
    return out;
}

} // namespace

Master::Master(MasterOptions options, QObject *parent)
    : QObject(parent),
      m_options(std::move(options)),
      m_server(this) // a child: moveToThread takes it along
{
    connect(&m_server, &QTcpServer::newConnection, this, &Master::onNewConnection);
    if (m_options.initialRecord) {
        m_stateRevision = m_options.initialRecord->revision;
        m_recordStateDigest = m_options.initialRecord->stateDigest;
        m_recordHolders.insert(m_options.initialRecord->holders.begin(), m_options.initialRecord->holders.end());
        m_haveStateRevision = true;
        m_restoredRecordGrace = QDeadlineTimer(m_options.initialRecordGraceMs);
    }
    ListenerLimits limits;
    limits.maxConnections = m_options.maxConnections;
    limits.maxPerSource = std::clamp(m_options.maxConnectionsPerSource, 1, m_options.maxConnections);
    // The master's own handshake timer names the reason first; the gate's deadline is the backstop.
    limits.headerTimeoutMs = m_options.handshakeTimeoutMs + 1000;
    limits.idleTimeoutMs = std::max(limits.idleTimeoutMs, limits.headerTimeoutMs);
    m_gate =
        new ConnectionGate(&m_server, limits, encodeRefused(QStringLiteral("too many connections; try again later")),
                           "collectives master");
}

Master::~Master()
{
    for (auto &[socket, peer] : m_peers) {
        socket->disconnect(this);
        socket->abort();
        socket->deleteLater();
    }
}

Status Master::listen(const QHostAddress &address, uint16_t port)
{
    if (!m_server.listen(address, port))
        return fail(QStringLiteral("collectives master cannot listen on %1:%2: %3")
                        .arg(address.toString())
                        .arg(port)
                        .arg(m_server.errorString()));
    return Status::success();
}

uint16_t Master::port() const
{
    return m_server.serverPort();
}

int Master::pendingPeers() const
{
    return int(pendingIds().size());
}

void Master::onNewConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        // Only control messages come here (no tensor data): a small read buffer bounds what one peer can queue.
        socket->setReadBufferSize(256 * 1024);
        ConnectionClock *clock = m_gate->admit(socket);
        if (!clock)
            continue;
        auto peer = std::make_unique<Peer>();
        peer->clock = clock;
        peer->socket = socket;
        peer->address = socket->peerAddress();
        peer->handshakeTimer = new QTimer(socket);
        peer->handshakeTimer->setSingleShot(true);
        connect(peer->handshakeTimer, &QTimer::timeout, socket, [this, socket] {
            auto it = m_peers.find(socket);
            if (it != m_peers.end() &&
                (it->second->phase == Peer::Phase::AwaitHello || it->second->phase == Peer::Phase::AwaitProof))
                kick(*it->second, QStringLiteral("handshake timed out"));
        });
        peer->handshakeTimer->start(m_options.handshakeTimeoutMs);
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] { onDisconnected(socket); });
        m_peers.emplace(socket, std::move(peer));
    }
}

void Master::onReadyRead(QTcpSocket *socket)
{
    auto it = m_peers.find(socket);
    if (it == m_peers.end())
        return;
    Peer &peer = *it->second;
    if (peer.phase == Peer::Phase::Closing) {
        socket->readAll();
        return;
    }
    peer.decoder.feed(socket->readAll());
    Frame frame;
    for (;;) {
        const FrameDecoder::Result r = peer.decoder.next(frame);
        if (r == FrameDecoder::Result::NeedMore)
            return;
        if (r == FrameDecoder::Result::Error) {
            kick(peer, peer.decoder.error());
            return;
        }
        handleFrame(peer, frame);
        // handleFrame may have closed the connection (and onDisconnected erased it).
        it = m_peers.find(socket);
        if (it == m_peers.end() || it->second->phase == Peer::Phase::Closing)
            return;
    }
}

void Master::handleFrame(Peer &peer, const Frame &frame)
{
    const QByteArrayView p = frame.payload;
    switch (frame.type) {
    case Type::Hello:
        if (peer.phase != Peer::Phase::AwaitHello)
            return kick(peer, QStringLiteral("unexpected Hello"));
        if (const auto m = parseHello(p))
            return handleHello(peer, *m);
        return kick(peer, QStringLiteral("malformed Hello"));
    case Type::Proof:
        if (peer.phase != Peer::Phase::AwaitProof)
            return kick(peer, QStringLiteral("unexpected Proof"));
        if (const auto m = parseProof(p))
            return handleProof(peer, *m);
        return kick(peer, QStringLiteral("malformed Proof"));
    case Type::Vote:
        if (peer.phase != Peer::Phase::Member || !parseVote(p))
            return kick(peer, QStringLiteral("unexpected Vote"));
        return handleVote(peer);
    case Type::Ready:
        if (peer.phase != Peer::Phase::Member && peer.phase != Peer::Phase::Pending)
            return kick(peer, QStringLiteral("unexpected Ready"));
        if (const auto m = parseReady(p))
            return handleReady(peer, *m);
        return kick(peer, QStringLiteral("malformed Ready"));
    case Type::Begin:
        if (peer.phase != Peer::Phase::Member)
            return kick(peer, QStringLiteral("Begin from a peer outside the ring"));
        if (const auto m = parseBegin(p))
            return handleBegin(peer, *m);
        return kick(peer, QStringLiteral("malformed Begin"));
    case Type::Done:
        if (peer.phase != Peer::Phase::Member)
            return kick(peer, QStringLiteral("Done from a peer outside the ring"));
        if (const auto m = parseDone(p))
            return handleDone(peer, *m);
        return kick(peer, QStringLiteral("malformed Done"));
    case Type::SyncState:
        if (peer.phase != Peer::Phase::Member)
            return kick(peer, QStringLiteral("SyncState from a peer outside the ring"));
        if (const auto m = parseSyncState(p))
            return handleSyncState(peer, *m);
        return kick(peer, QStringLiteral("malformed SyncState"));
    case Type::SyncDone:
        if (peer.phase != Peer::Phase::Member)
            return kick(peer, QStringLiteral("SyncDone from a peer outside the ring"));
        if (const auto ok = parseSyncDone(p))
            return handleSyncDone(peer, *ok);
        return kick(peer, QStringLiteral("malformed SyncDone"));
    default: return kick(peer, QStringLiteral("frame type %1 not expected by the master").arg(uint16_t(frame.type)));
    }
}

void Master::handleHello(Peer &peer, const HelloMsg &msg)
{
    if (msg.version != kProtocolVersion)
        return refuse(peer, QStringLiteral("protocol version %1 not supported (master speaks %2)")
                                .arg(msg.version)
                                .arg(kProtocolVersion));
    peer.publicKey = msg.publicKey;
    peer.p2pPort = msg.p2pPort;
    peer.nonce = randomBytes(kNonceBytes);
    peer.phase = Peer::Phase::AwaitProof;
    send(peer, encode(ChallengeMsg{peer.nonce}));
}

void Master::handleProof(Peer &peer, const ProofMsg &msg)
{
    if (!ed25519::verify(admissionMessage(peer.nonce, peer.publicKey), msg.signature, peer.publicKey))
        return refuse(peer, QStringLiteral("challenge not answered: bad signature"));
    if (QString why; excluded(peer.publicKey, &why))
        return refuse(peer, why);
    if (m_options.admit && !m_options.admit(peer.publicKey))
        return refuse(peer, QStringLiteral("not admitted: key %1 is not registered for this group")
                                .arg(ed25519::fingerprint(peer.publicKey)));
    for (const auto &[socket, other] : m_peers)
        if (other.get() != &peer && other->id != 0 && other->publicKey == peer.publicKey)
            return refuse(peer, QStringLiteral("this key is already connected"));
    peer.handshakeTimer->stop();
    peer.clock->settle();
    peer.id = m_nextPeerId++;
    peer.phase = Peer::Phase::Pending;
    send(peer, encode(WelcomeMsg{peer.id}));
    qCInfo(lcCollectives) << "peer" << peer.id << "admitted from" << peer.address.toString()
                          << ed25519::fingerprint(peer.publicKey);
    Q_EMIT peerAdmitted(peer.id);
    if (m_ring.empty() && !m_forming)
        formRing(pendingIds()); // nobody to vote: the first peers form the ring at once
    else
        broadcastPending();
}

void Master::handleVote(Peer &peer)
{
    if (m_forming)
        return; // the voter is a member of the formation under way and gets its Topology anyway
    // With nobody waiting there is nothing to decide: answer at once, record nothing (a member that votes again and
    // again would otherwise hold every Begin and sync of the others back as "the topology is changing").
    if (m_votes.empty() && pendingIds().empty() && !m_ring.empty()) {
        send(peer, encodeCommitted(m_committedEpoch));
        return;
    }
    if (m_sync)
        finishSync(false, QStringLiteral("peer %1 voted during a shared-state sync").arg(peer.id));
    if (m_votes.empty())
        startVoteDeadline();
    m_votes.insert(peer.id);
    // A topology vote and an operation cannot overlap: operations still gathering Begins are refused.
    std::vector<uint64_t> gathering;
    for (const auto &[tag, op] : m_ops)
        if (!op.commenced)
            gathering.push_back(tag);
    for (const uint64_t tag : gathering)
        abortOperation(tag, QStringLiteral("a topology vote is under way"));
    checkVotes();
}

void Master::checkVotes()
{
    if (m_forming || m_ring.empty() || m_votes.empty())
        return;
    for (const uint32_t id : m_ring)
        if (!m_votes.count(id))
            return;
    m_votes.clear();
    const std::vector<uint32_t> pending = pendingIds();
    if (pending.empty()) {
        for (const uint32_t id : m_ring)
            send(id, encodeCommitted(m_committedEpoch));
        return;
    }
    std::vector<uint32_t> members = m_ring;
    members.insert(members.end(), pending.begin(), pending.end());
    formRing(std::move(members));
}

bool Master::votesOutstanding() const
{
    return !m_votes.empty();
}

void Master::handleReady(Peer &peer, const ReadyMsg &msg)
{
    if (!m_forming || msg.epoch != m_forming->epoch)
        return; // a late answer to a formation that already failed
    if (std::find(m_forming->members.begin(), m_forming->members.end(), peer.id) == m_forming->members.end())
        return kick(peer, QStringLiteral("Ready from a peer outside the formation"));
    if (!msg.ok) {
        Peer *named = msg.blamed ? peerById(msg.blamed) : nullptr;
        const auto &members = m_forming->members;
        const bool neighbour = named && members.size() >= 2 && [&] {
            const auto at = std::find(members.begin(), members.end(), peer.id);
            const size_t i = size_t(at - members.begin()), n = members.size();
            return members[(i + 1) % n] == named->id || members[(i + n - 1) % n] == named->id;
        }();
        failFormation(QStringLiteral("peer %1 could not link to its neighbours").arg(peer.id));
        if (!neighbour)
            return;
        if (noteAccusation(peer, *named))
            return exclude(peer, QStringLiteral("peer %1 named a second peer (%2) as unreachable; excluded as the liar")
                                     .arg(peer.id)
                                     .arg(named->id));
        if (++m_formationStrikes[named->publicKey] >= m_options.strikes)
            exclude(*named, QStringLiteral("peer %1 would not link to its ring neighbours in %2 formations in a row")
                                .arg(named->id)
                                .arg(m_options.strikes));
        return;
    }
    m_forming->ready.insert(peer.id);
    if (m_forming->ready.size() == m_forming->members.size())
        commitFormation();
}

void Master::handleBegin(Peer &peer, const BeginMsg &msg)
{
    m_votes.erase(peer.id); // a peer that begins an operation is not waiting on a vote any more (it gave up on it)
    if (m_sync && !m_sync->planned && !m_forming && !votesOutstanding()) {
        // A sync still gathering states while members begin an operation instead: once most of the ring has begun,
        // the syncers are the odd ones out and the sync is abandoned, so that the operation (with its begin deadline)
        // can form. Otherwise one member that syncs again and again, never beginning, held every Begin of the others
        // back as "the topology is changing" and was never named (its sync deadline excludes only a silent majority).
        m_sync->begunInstead.insert(peer.id);
        if (2 * m_sync->begunInstead.size() > m_sync->participants.size())
            finishSync(false, QStringLiteral("most members began an operation instead of syncing"));
    }
    if (m_forming || votesOutstanding() || m_sync) {
        send(peer, encode(OutcomeMsg{msg.tag, 0, true, QStringLiteral("the topology is changing; retry")}));
        return;
    }
    // Begun on a ring that is gone (the peer had not heard of the new one yet): the others, on the new ring, retry
    // their operations in order, so this one must fail too rather than wait for a Begin that never comes.
    if (msg.epoch != m_committedEpoch) {
        send(peer, encode(OutcomeMsg{msg.tag, 0, true,
                                     QStringLiteral("begun on ring epoch %1, the ring is at %2; retry")
                                         .arg(msg.epoch)
                                         .arg(m_committedEpoch)}));
        return;
    }
    auto it = m_ops.find(msg.tag);
    if (it == m_ops.end()) {
        Operation op;
        op.tag = msg.tag;
        op.opId = m_nextOpId++;
        op.descriptor = msg;
        op.participants = std::set<uint32_t>(m_ring.begin(), m_ring.end());
        op.order = m_ring;
        startBeginDeadline(op.tag, op.opId);
        it = m_ops.emplace(msg.tag, std::move(op)).first;
    }
    Operation &op = it->second;
    if (op.commenced || op.begun.count(peer.id))
        return kick(peer, QStringLiteral("Begin for tag %1 twice").arg(msg.tag));
    op.begun.insert(peer.id);
    if (!(op.descriptor == msg)) {
        abortOperation(
            msg.tag,
            QStringLiteral("peers disagree on the operation (count, op, type, quantization, bound or block size)"));
        return;
    }
    if (op.begun == op.participants)
        commenceReady();
}

void Master::commenceReady()
{
    std::vector<bool> busy(m_links, false);
    for (const auto &[tag, op] : m_ops)
        if (op.commenced && op.link < m_links)
            busy[op.link] = true;
    // Oldest first (opIds grow), so an operation every peer began is not overtaken for ever.
    std::vector<Operation *> ready;
    for (auto &[tag, op] : m_ops)
        if (!op.commenced && op.begun == op.participants)
            ready.push_back(&op);
    std::sort(ready.begin(), ready.end(), [](const Operation *a, const Operation *b) { return a->opId < b->opId; });
    for (Operation *op : ready) {
        const auto freeLink = std::find(busy.begin(), busy.end(), false);
        if (freeLink == busy.end())
            return; // the next Done that finishes an operation frees one
        op->link = uint16_t(freeLink - busy.begin());
        *freeLink = true;
        op->commenced = true;
        for (const uint32_t id : op->participants)
            send(id, encode(CommenceMsg{op->tag, op->opId, m_committedEpoch, op->link}));
    }
}

void Master::handleDone(Peer &peer, const DoneMsg &msg)
{
    if (msg.opId == 0) {
        // The peer gave up waiting for the others to begin `tag`: it will not take part, so nobody can.
        auto op = m_ops.find(msg.tag);
        if (op != m_ops.end() && op->second.participants.count(peer.id) &&
            abortOperation(msg.tag, QStringLiteral("peer %1 stopped waiting for the others").arg(peer.id)))
            formRing(m_ring);
        return;
    }
    auto it = m_ops.find(msg.tag);
    if (it == m_ops.end() || it->second.opId != msg.opId) {
        // Already aborted: that peer has its Outcome (or gets it) from the abort. Its blame still counts.
        const auto recent = m_recentAborts.find(msg.opId);
        if (recent == m_recentAborts.end())
            return;
        if (msg.blamePredecessor)
            return handleBlame(peer, std::vector<uint32_t>(recent->second.order), msg.tag, msg.opId);
        noteStall(peer, msg, msg.opId);
        return;
    }
    Operation &op = it->second;
    if (!op.commenced || !op.participants.count(peer.id) || op.done.count(peer.id))
        return kick(peer, QStringLiteral("unexpected Done for tag %1").arg(msg.tag));
    if (msg.blamePredecessor)
        return handleBlame(peer, std::vector<uint32_t>(op.order), msg.tag, msg.opId);
    if (msg.aborted) {
        const bool stalled = msg.starvedByPredecessor || msg.blockedBySuccessor;
        const QString reason = stalled ? QStringLiteral("peer %1 waited too long on its ring neighbour").arg(peer.id)
                                       : QStringLiteral("peer %1 lost its ring link").arg(peer.id);
        const uint64_t opId = op.opId;
        if (abortOperation(msg.tag, reason))
            formRing(m_ring);
        noteStall(peer, msg, opId); // the others' reports arrive after the abort: they land in the recent record too
        return;
    }
    op.done.insert(peer.id);
    if (op.done == op.participants) {
        const uint64_t tag = op.tag, opId = op.opId;
        QList<QByteArray> keys;
        for (const uint32_t id : op.participants) {
            if (Peer *member = peerById(id))
                keys.append(member->publicKey);
            send(id, encode(OutcomeMsg{tag, opId, false, QString()}));
        }
        m_ops.erase(it);
        Q_EMIT operationFinished(tag, opId, false, QString());
        Q_EMIT operationCompleted(tag, opId, keys);
        commenceReady(); // its link is free
    }
}

// Exclusion and liveness (blame, accusations, stalls, deadlines): MasterLiveness.cpp. Shared state: MasterSync.cpp.

bool Master::abortOperation(uint64_t tag, const QString &reason)
{
    auto it = m_ops.find(tag);
    if (it == m_ops.end())
        return false;
    const Operation op = std::move(it->second);
    m_ops.erase(it);
    RecentOp recent{op.order, {}, false};
    for (const uint32_t id : op.done) // those finished: they received and sent everything
        recent.reports[id].completed = true;
    m_recentAborts[op.opId] = std::move(recent);
    while (m_recentAborts.size() > 64) // opIds grow: the oldest go first
        m_recentAborts.erase(m_recentAborts.begin());
    for (const uint32_t id : op.begun)
        send(id, encode(OutcomeMsg{op.tag, op.opId, true, reason}));
    qCInfo(lcCollectives) << "operation" << op.opId << "tag" << op.tag << "aborted:" << reason;
    Q_EMIT operationFinished(op.tag, op.opId, true, reason);
    return op.commenced;
}

void Master::abortOperationsOf(uint32_t peerId, const QString &reason)
{
    std::vector<uint64_t> tags;
    for (const auto &[tag, op] : m_ops)
        if (op.participants.count(peerId))
            tags.push_back(tag);
    for (const uint64_t tag : tags)
        abortOperation(tag, reason);
}

void Master::formRing(std::vector<uint32_t> members)
{
    // Only members still connected.
    members.erase(std::remove_if(members.begin(), members.end(), [this](uint32_t id) { return !peerById(id); }),
                  members.end());
    // A link whose ends' stall reports disagreed is not used again while the dispute stands (StallJudge.h).
    members = orderAvoiding(members, disputedLinkIds());
    m_votes.clear();
    // Operations still running belong to the old ring's links, which the members close for the new ones.
    std::vector<uint64_t> running;
    for (const auto &[tag, op] : m_ops)
        running.push_back(tag);
    for (const uint64_t tag : running)
        abortOperation(tag, QStringLiteral("the ring is re-forming"));
    if (members.empty()) {
        m_forming.reset();
        m_ring.clear();
        return;
    }
    Formation formation;
    formation.epoch = m_nextEpoch++;
    formation.members = members;
    TopologyMsg topology;
    topology.epoch = formation.epoch;
    topology.ringToken = randomBytes(kRingTokenBytes);
    topology.links = uint16_t(std::clamp<int>(m_options.linksPerNeighbour, 1, int(kMaxLinks)));
    formation.links = topology.links;
    for (const uint32_t id : members) {
        const Peer *peer = peerById(id);
        topology.ring.push_back(Member{id, peer->address, peer->p2pPort, peer->publicKey});
    }
    const std::vector<uint32_t> pending = pendingIds();
    topology.pendingPeers = uint32_t(std::count_if(pending.begin(), pending.end(), [&](uint32_t id) {
        return std::find(members.begin(), members.end(), id) == members.end();
    }));
    m_forming = std::move(formation);
    // Members that never answer (alive but not calling their communicator) must not stall the group for ever.
    const uint64_t epoch = topology.epoch;
    QTimer::singleShot(m_options.formationTimeoutMs, this, [this, epoch] {
        if (!m_forming || m_forming->epoch != epoch)
            return;
        std::vector<uint32_t> silent;
        for (const uint32_t id : m_forming->members)
            if (!m_forming->ready.count(id))
                silent.push_back(id);
        for (const uint32_t id : silent)
            if (Peer *peer = peerById(id))
                exclude(*peer, QStringLiteral("peer %1 did not answer ring formation %2 in time").arg(id).arg(epoch));
        if (m_forming && m_forming->epoch == epoch)
            failFormation(QStringLiteral("ring formation %1 timed out").arg(epoch));
    });
    const QByteArray frame = encode(topology);
    for (const uint32_t id : members)
        send(id, frame);
    qCDebug(lcCollectives) << "forming ring epoch" << topology.epoch << "of" << members.size() << "peers";
}

void Master::failFormation(const QString &reason)
{
    if (!m_forming)
        return;
    const Formation failed = std::move(*m_forming);
    m_forming.reset();
    qCInfo(lcCollectives) << "ring formation" << failed.epoch << "failed:" << reason;
    for (const uint32_t id : failed.members)
        send(id, encodeFailed(failed.epoch));
    // Members of the committed ring that vanished are gone from m_ring already; try again shortly.
    std::vector<uint32_t> members = failed.members;
    if (m_reformScheduled)
        return;
    m_reformScheduled = true;
    QTimer::singleShot(m_options.reformDelayMs, this, [this, members] {
        m_reformScheduled = false;
        if (!m_forming)
            formRing(members);
    });
}

void Master::commitFormation()
{
    const Formation formation = std::move(*m_forming);
    m_forming.reset();
    // A ring with nobody from the previous one and no holder of the record (by key: a restarted master's ring is all
    // new connections) starts the shared state's revision count afresh.
    if (std::none_of(formation.members.begin(), formation.members.end(),
                     [this](uint32_t id) {
                         const Peer *peer = peerById(id);
                         return std::find(m_ring.begin(), m_ring.end(), id) != m_ring.end() ||
                                (peer && m_recordHolders.count(peer->publicKey) > 0);
                     }) &&
        m_restoredRecordGrace.hasExpired())
        m_haveStateRevision = false;
    m_ring = formation.members;
    m_committedEpoch = formation.epoch;
    m_links = formation.links;
    for (const uint32_t id : m_ring) {
        Peer *peer = peerById(id);
        peer->phase = Peer::Phase::Member;
        m_formationStrikes.erase(peer->publicKey); // it linked: the strikes were "in a row"
        send(*peer, encodeCommitted(formation.epoch));
    }
    qCInfo(lcCollectives) << "ring epoch" << formation.epoch << "committed with" << m_ring.size() << "peers";
    Q_EMIT topologyCommitted(formation.epoch, int(m_ring.size()));
    m_lastPendingBroadcast = -1;
    broadcastPending();
}

void Master::onDisconnected(QTcpSocket *socket)
{
    auto it = m_peers.find(socket);
    if (it == m_peers.end())
        return;
    std::unique_ptr<Peer> peer = std::move(it->second);
    m_peers.erase(it);
    socket->deleteLater();
    if (peer->id == 0)
        return;
    const uint32_t id = peer->id;
    qCInfo(lcCollectives) << "peer" << id << "left";
    Q_EMIT peerLeft(id);
    const bool inRing = std::find(m_ring.begin(), m_ring.end(), id) != m_ring.end();
    const bool inFormation =
        m_forming && std::find(m_forming->members.begin(), m_forming->members.end(), id) != m_forming->members.end();
    m_votes.erase(id);
    abortOperationsOf(id, QStringLiteral("peer %1 left").arg(id));
    if (m_sync && std::find(m_sync->participants.begin(), m_sync->participants.end(), id) != m_sync->participants.end())
        finishSync(false, QStringLiteral("peer %1 left").arg(id));
    if (inRing)
        m_ring.erase(std::remove(m_ring.begin(), m_ring.end(), id), m_ring.end());
    if (inFormation) {
        failFormation(QStringLiteral("peer %1 left").arg(id));
    } else if (inRing) {
        // The ring is broken: re-link whoever is left (their operations were aborted above).
        if (!m_forming)
            formRing(m_ring);
    } else {
        broadcastPending();
    }
}

void Master::refuse(Peer &peer, const QString &reason)
{
    qCInfo(lcCollectives) << "refused" << peer.address.toString() << reason;
    Q_EMIT peerRefused(reason);
    send(peer, encodeRefused(reason));
    peer.phase = Peer::Phase::Closing;
    peer.socket->disconnectFromHost(); // flushes the Refused frame, then onDisconnected
}

void Master::kick(Peer &peer, const QString &reason)
{
    qCInfo(lcCollectives) << "closing connection of peer" << peer.id << peer.address.toString() << reason;
    if (peer.id == 0)
        Q_EMIT peerRefused(reason);
    peer.phase = Peer::Phase::Closing;
    peer.socket->abort(); // emits disconnected synchronously when connected
}

void Master::send(Peer &peer, const QByteArray &frame)
{
    if (peer.phase != Peer::Phase::Closing)
        peer.socket->write(frame);
}

void Master::send(uint32_t peerId, const QByteArray &frame)
{
    if (Peer *peer = peerById(peerId))
        send(*peer, frame);
}

Master::Peer *Master::peerById(uint32_t peerId)
{
    for (auto &[socket, peer] : m_peers)
        if (peer->id == peerId && peer->phase != Peer::Phase::Closing)
            return peer.get();
    return nullptr;
}

std::vector<uint32_t> Master::pendingIds() const
{
    std::vector<uint32_t> ids;
    for (const auto &[socket, peer] : m_peers)
        if (peer->phase == Peer::Phase::Pending)
            ids.push_back(peer->id);
    std::sort(ids.begin(), ids.end());
    return ids;
}

void Master::broadcastPending()
{
    const int pending = pendingPeers();
    if (pending == m_lastPendingBroadcast)
        return;
    m_lastPendingBroadcast = pending;
    const QByteArray frame = encode(PendingMsg{uint32_t(pending)});
    for (const uint32_t id : m_ring)
        send(id, frame);
    // With the ring gone (everyone left) the pending peers form a new one themselves.
    if (m_ring.empty() && !m_forming && pending > 0)
        formRing(pendingIds());
}

} // namespace cohort::collectives
