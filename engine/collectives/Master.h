#pragma once
// The collectives master: membership, admission, ring order, topology votes and per-operation bookkeeping for a group
// of peers (prime-stack.md §1). It never carries tensor data. Event-driven (QTcpServer) in whichever thread owns it:
// its own process (cohort-collective-peer master) or, later, inside cohort-hub.
//
// Peers and phases:
//   connect -> Hello -> Challenge (random nonce) -> Proof (ed25519 signature over admissionMessage) -> Welcome: the
//   peer is *pending*. A peer whose signature does not verify, whose key `admit` refuses, or whose key is already
//   connected is sent Refused and closed; so is any connection that breaks the wire format (Wire.h) or the protocol.
//   Pending peers join the ring when every ring member has voted (Vote); with no ring at all, they form one at once.
// Ring formation (one at a time): the master sends Topology{epoch, token, ring order} to every member; each links to
//   its successor and predecessor and answers Ready; when all are ready it sends Committed, and the epoch is in use.
//   Ready{ok=false} or a member vanishing sends Failed to the rest, and a new formation follows.
// Operations: every ring member sends Begin{tag, descriptor}; when all have, the master assigns an opId and sends
//   Commence with a link (a peer that gives up waiting sends Done{tag, opId 0, aborted}, which aborts the operation).
//   Several operations (distinct tags) may run at once, each on its own link pair: the master hands every commenced
//   operation the lowest link no running operation holds, and holds Commence back while all links are busy.
//   Each then sends Done{aborted?}; when all are done, Outcome{ok}. A member vanishing, a Done{aborted} or
//   mismatching descriptors abort the operation: Outcome{aborted} to every member that began it — exactly one
//   Outcome per operation per peer — and, since the ring links may hold a half-sent block, a new ring is formed with
//   whoever is left (a new epoch: fresh links).
// Shared state (a collective, like an operation): every ring member sends SyncState{revision, tensor digests}. The
//   declared tensors (names, sizes, order) must agree. The master elects the content: among peers whose revision is
//   exactly one past the last sync (any revision at the first sync), the largest group with identical hashes (ties:
//   the group holding the smallest peer id). Every peer gets a SyncPlan naming the tensors whose hash differs and a
//   distributor from the elected group; it fetches them from that peer directly (the master carries no tensor data),
//   checks the hashes and answers SyncDone; when all have, SyncComplete{ok}. A peer leaving fails the sync for all.
#include "collectives/Wire.h"
#include "core/Expected.h"
#include "net/ConnectionGate.h"

#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QTcpServer>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

class QTcpSocket;

namespace cohort::collectives {

struct MasterOptions {
    // Whether a public key (32 bytes) that proved possession of its secret key may join. Null: every key that answers
    // the challenge. (cohort-hub will pass "registered with the hub for this task".)
    std::function<bool(const QByteArray &publicKey)> admit;
    int handshakeTimeoutMs = 10'000;
    int reformDelayMs = 100; // pause before a new formation after a failed one
    // A ring member that has not answered a formation by then is disconnected (the others go on without it).
    int formationTimeoutMs = 60'000;
    // Connections per ring neighbour and direction (Topology.links): how many operations can run at once.
    int linksPerNeighbour = 4;
    // Connection caps (total, per source address). The handshake timeout is the deadline for an unproven
    // connection; once a peer proved its key no deadline applies (members wait for minutes between operations).
    int maxConnections = 2048;
    int maxConnectionsPerSource = 64;
};

class Master : public QObject {
    Q_OBJECT
public:
    explicit Master(MasterOptions options = {}, QObject *parent = nullptr);
    ~Master() override;

    Status listen(const QHostAddress &address, uint16_t port);
    uint16_t port() const;
    int ringSize() const { return int(m_ring.size()); }
    int pendingPeers() const;
    uint64_t epoch() const { return m_committedEpoch; }

Q_SIGNALS:
    void peerRefused(const QString &reason);
    void peerAdmitted(quint32 peerId);
    void peerLeft(quint32 peerId);
    void topologyCommitted(quint64 epoch, int worldSize);
    void operationFinished(quint64 tag, quint64 opId, bool aborted, const QString &reason);
    // An operation every participant completed, with the participants' public keys (the hub credits them).
    void operationCompleted(quint64 tag, quint64 opId, const QList<QByteArray> &publicKeys);

private:
    struct Peer;
    struct Operation {
        uint64_t tag = 0;
        uint64_t opId = 0;
        BeginMsg descriptor;
        std::set<uint32_t> participants;
        std::set<uint32_t> begun;
        std::set<uint32_t> done;
        bool commenced = false;
        uint16_t link = 0; // once commenced
    };
    struct StateSync {
        std::vector<uint32_t> participants;
        std::map<uint32_t, SyncStateMsg> states;
        std::set<uint32_t> done;
        bool planned = false;
        uint64_t revision = 0; // elected
    };
    struct Formation {
        uint64_t epoch = 0;
        std::vector<uint32_t> members;
        std::set<uint32_t> ready;
        uint16_t links = 1;
    };

    void onNewConnection();
    void onReadyRead(QTcpSocket *socket);
    void onDisconnected(QTcpSocket *socket);
    void handleFrame(Peer &peer, const Frame &frame);
    void handleHello(Peer &peer, const HelloMsg &msg);
    void handleProof(Peer &peer, const ProofMsg &msg);
    void handleVote(Peer &peer);
    void handleReady(Peer &peer, const ReadyMsg &msg);
    void handleBegin(Peer &peer, const BeginMsg &msg);
    void handleDone(Peer &peer, const DoneMsg &msg);
    void handleSyncState(Peer &peer, const SyncStateMsg &msg);
    void handleSyncDone(Peer &peer, bool ok);
    void planSync();
    void finishSync(bool ok, const QString &reason);
    void refuse(Peer &peer, const QString &reason);
    void kick(Peer &peer, const QString &reason);
    void send(uint32_t peerId, const QByteArray &frame);
    void send(Peer &peer, const QByteArray &frame);
    Peer *peerById(uint32_t peerId);
    std::vector<uint32_t> pendingIds() const;
    void broadcastPending();
    void formRing(std::vector<uint32_t> members);
    void failFormation(const QString &reason);
    void commitFormation();
    // Sends Outcome{aborted} to the operation's members that began it, forgets it. Returns whether it had commenced.
    bool abortOperation(uint64_t tag, const QString &reason);
    void abortOperationsOf(uint32_t peerId, const QString &reason);
    // Commences every operation all participants began, while a link is free (in the order they were created).
    void commenceReady();
    bool votesOutstanding() const;
    void checkVotes();

    MasterOptions m_options;
    QTcpServer m_server;
    ConnectionGate *m_gate = nullptr; // a child of m_server
    std::map<QTcpSocket *, std::unique_ptr<Peer>> m_peers;
    uint32_t m_nextPeerId = 1;
    uint64_t m_nextEpoch = 1;
    uint64_t m_nextOpId = 1;
    uint64_t m_committedEpoch = 0;
    uint16_t m_links = 1; // of the committed ring
    std::vector<uint32_t> m_ring; // committed ring order
    std::optional<Formation> m_forming;
    std::set<uint32_t> m_votes;
    std::map<uint64_t, Operation> m_ops; // by tag
    bool m_reformScheduled = false;
    std::optional<StateSync> m_sync;
    uint64_t m_stateRevision = 0; // of the last completed shared-state sync
    bool m_haveStateRevision = false;
    int m_lastPendingBroadcast = -1;
};

} // namespace cohort::collectives
