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
// Exclusion: a member whose ring successor names it in Done (it sent values or quantization parameters beyond the
//   operation's bounds, ValueBounds.h) is disconnected and its key refused for MasterOptions::exclusionMs; the
//   operation is aborted with the sender named, and the ring re-forms without it. The accused is the accuser's
//   predecessor in the master's own ring order (no peer can name anyone else). A liar can thus push out one honest
//   predecessor; the next time it accuses a different peer within the exclusion period, it is the one excluded (an
//   honest peer's accusations all name the same bad predecessor, which is gone after the first). An accuser with
//   less audited work than the accused (MasterOptions::auditedWork) cannot exclude it alone: the link is disputed
//   (as a stall's, below), the ring re-forms around it, and the accused goes once a second peer names it — so a
//   fresh identity cannot push out a member that trained. In a ring of two the heavier member stays.
// Stallers: a member that does not vote, begin an operation or declare its shared state within the master's deadline
//   while most of the others did (MasterOptions), or that does not answer a formation within formationTimeoutMs, is
//   excluded — the master saw it itself (when only a minority joined in, that collective is abandoned instead: the
//   minority is the odd one out, and excluding the rest would hand the group to it). A member named by `strikes`
//   formations in a row as the neighbour that would not link (Ready's blamed) is excluded. In an operation, each member
//   says in Done what it had been waiting on for half its I/O timeout when it stopped — its predecessor's data
//   (starved), or its successor reading (blocked) — and how far it had received. 2 s after the first such Done, the
//   links whose ends' claims cannot both be true are disputed (StallJudge.h: a stall upstream is a consistent chain, so
//   only the staller's own links are disputed, whichever end lies). The ring re-forms in an order that avoids every
//   disputed link, and a member in disputes with two different partners within the exclusion period is excluded (a
//   staller meets a new neighbour in the new order; an honest one meets only the liars). A link disputed `strikes`
//   times (a ring of two cannot avoid it) excludes its sender. Formation accusations count toward the liar rule above.
// Shared state (a collective, like an operation): every ring member sends SyncState{revision, tensor digests}. The
//   declared tensors (names, sizes, order) must agree. The master elects the content, anchored at its record (the
//   state the last sync completed with, and the members that completed it): only those members vote, with a
//   revision exactly one past the record (they took the step from it); newcomers and peers that were away never do,
//   however many identities they bring. The group of identical digests whose voters weigh most wins
//   (MasterOptions::auditedWork, the work the hub's audits confirmed; then the larger group; then the group holding
//   the smallest peer id) for the members that must fetch; a voter that declared another state keeps its own (it took
//   the step itself; the master cannot tell who is right). With no voter, the record itself is elected when a
//   member holds it. Holders are known by key (one that reconnected still votes); when none is left, the group starts
//   a new record, as at its first sync. At a group's first sync (no record): the largest
//   group among everyone. The plan carries the elected state's digest, signed with the hub's key when given
//   (signRecord), which peers check before they take it. Fetchers are spread over the elected group, starting
//   elsewhere at each sync; a distributor whose fetcher reports a failed fetch (its bytes did not match the digest,
//   or it did not serve) gets a strike, and `strikes` in a row (a fetch it served clears them) exclude it — under the
//   liar rule, so a fetcher that blames a second distributor is the one excluded. Every peer gets a SyncPlan naming the
//   tensors whose hash differs and a distributor from the elected group; it fetches them from that peer directly (the
//   master carries no tensor data), checks the hashes and answers SyncDone; when all have, SyncComplete{ok}. A peer
//   leaving fails the sync for all.
#include "collectives/StallJudge.h"
#include "collectives/Wire.h"
#include "core/Expected.h"
#include "net/ConnectionGate.h"

#include <QDeadlineTimer>
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

// The record of a group's shared state ("Shared state" above): the revision every member of the last completed
// sync holds, its state digest (stateDigestOf), and the keys of those members (they vote on the next revision).
struct RecordedState {
    uint64_t revision = 0;
    QByteArray stateDigest;
    std::vector<QByteArray> holders;
};

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
    // How long a peer the master excluded (see "Exclusion" above) is refused.
    int exclusionMs = 10 * 60'000;
    // Liveness (see "Stallers" above): how long the master waits, once one member voted / began an operation /
    // declared its shared state, for the rest; members that have not by then are excluded. Below the peers' own
    // waits (CommunicatorOptions::beginTimeoutMs, 60 s by default), so the master decides before they give up.
    int voteTimeoutMs = 45'000;
    int beginTimeoutMs = 45'000;
    int syncTimeoutMs = 45'000;
    // Formations in a row naming a member (Ready's blamed), failed fetches in a row from a distributor, or disputes of
    // the one link of a ring of two, before exclusion.
    int strikes = 2;
    // Signs the shared state's record (recordMessage, Wire.h) with the hub's key, so that peers given that key
    // (CommunicatorOptions::masterKey) accept only recorded state; `recordContext` names the group (the task's id).
    std::function<QByteArray(const QByteArray &message)> signRecord;
    QByteArray recordContext;
    // The record a restarted master continues from (the hub keeps it in its database): without it the first sync
    // after a restart elects by headcount, which a sybil group could win.
    std::optional<RecordedState> initialRecord;
    // A member's audited work (0 or more): cohort-hub passes the node's outer steps in the task whose credit its
    // audits confirmed (docs/CREDIT.md). It weighs a record holder's vote on the next revision, so a sybil group must
    // have done more verified training than the members it outvotes, not merely outnumber them (null, or every
    // weight 0: the larger group wins); and it weighs an accusation ("Exclusion" above).
    std::function<double(const QByteArray &publicKey)> auditedWork;
    // For this long the restored record stands even while none of its holders is back (their nodes reconnect at
    // their own pace): a group without them cannot start afresh meanwhile, so sybils that come first win nothing.
    int initialRecordGraceMs = 600'000;
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
    // Excludes a key for the exclusion time (the hub's verdict, e.g. a failed audit): a member with it is removed
    // from the ring now, and the key is refused until then. The hub refuses a flagged node at admission for good.
    void excludeKey(const QByteArray &publicKey, const QString &reason);

Q_SIGNALS:
    void peerRefused(const QString &reason);
    void peerAdmitted(quint32 peerId);
    void peerLeft(quint32 peerId);
    void topologyCommitted(quint64 epoch, int worldSize);
    void operationFinished(quint64 tag, quint64 opId, bool aborted, const QString &reason);
    // An operation every participant completed, with the participants' public keys (the hub credits them).
    void operationCompleted(quint64 tag, quint64 opId, const QList<QByteArray> &publicKeys);
    // A peer was excluded (Exclusion above): the hub records it against the node.
    void peerExcluded(quint32 peerId, const QByteArray &publicKey, const QString &reason);
    // A shared-state sync completed: the record is now this revision with this state digest (stateDigestOf).
    void stateRecorded(quint64 revision, const QByteArray &stateDigest, const QList<QByteArray> &holders);
    // Voters of a revision declared different states (one group elected for the members that fetch; the others keep
    // their own): someone diverged or lies. The hub counts it; an operator looks.
    void stateSplit(quint64 revision, int electedVoters, int otherVoters);

private:
    struct Peer;
    struct Operation {
        uint64_t tag = 0;
        uint64_t opId = 0;
        BeginMsg descriptor;
        std::set<uint32_t> participants;
        std::vector<uint32_t> order; // the ring order it runs on (who is whose predecessor)
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
        uint64_t revision = 0;                      // elected
        std::vector<QByteArray> elected;            // its tensors' digests
        std::map<uint32_t, uint32_t> distributorOf; // fetching peer -> the peer it fetches from
        std::set<uint32_t> begunInstead;            // members that asked to begin an operation while it gathered states
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
    // `accuser` says its predecessor in `order` sent out-of-bound data in operation opId (aborted already, or not).
    void handleBlame(Peer &accuser, const std::vector<uint32_t> &order, uint64_t tag, uint64_t opId);
    void exclude(Peer &peer, const QString &reason);
    double auditedWorkOf(const Peer &peer) const;
    // handleBlame when the accuser carries less audited work than the accused: a disputed link, not an exclusion.
    void disputeBlame(Peer &accuser, Peer &accused, size_t ringSize, uint64_t runningTag);
    // Records that `accuser` named `accused`; true when the accuser named someone else within the exclusion period
    // (the liar rule): then it is the one to exclude.
    bool noteAccusation(const Peer &accuser, const Peer &accused);
    // What a member's Done said about aborted operation opId (in m_recentAborts); the first stall reason schedules
    // findStaller.
    void noteStall(Peer &from, const DoneMsg &msg, uint64_t opId);
    void findStaller(uint64_t opId);
    // The disputed links among the connected peers, by peer id, for formRing to avoid.
    std::set<Link> disputedLinkIds();
    void forgetExpiredDisputes();
    void forgetDisputesOf(const QByteArray &publicKey); // the member goes: its partners' disputes with it end too
    void startVoteDeadline();
    void startBeginDeadline(uint64_t tag, uint64_t opId);
    void startSyncDeadline();
    bool excluded(const QByteArray &publicKey, QString *why);
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
    uint16_t m_links = 1;         // of the committed ring
    std::vector<uint32_t> m_ring; // committed ring order
    std::optional<Formation> m_forming;
    std::set<uint32_t> m_votes;
    std::map<uint64_t, Operation> m_ops; // by tag
    bool m_reformScheduled = false;
    std::optional<StateSync> m_sync;
    uint64_t m_stateRevision = 0; // of the last completed shared-state sync: the record
    bool m_haveStateRevision = false;
    QByteArray m_recordStateDigest;       // the record's state digest (stateDigestOf its tensors' digests)
    QDeadlineTimer m_restoredRecordGrace; // a restored record stands without holders until then
    std::set<QByteArray> m_recordHolders; // the keys of the members that completed that sync (they vote next)
    int m_lastPendingBroadcast = -1;
    struct Exclusion {
        QDeadlineTimer until;
        QString reason;
    };
    std::map<QByteArray, Exclusion> m_excluded; // by public key
    struct Accusation {
        QByteArray accused; // public key
        QDeadlineTimer until;
    };
    std::map<QByteArray, Accusation> m_accusations; // by the accuser's public key: its last one
    // Operations aborted lately, by opId, with their ring order: a blame can arrive after another member's Done
    // aborted the operation (the accuser closing its links is what that member noticed).
    struct RecentOp {
        std::vector<uint32_t> order;
        std::map<uint32_t, StallReport> reports; // what each member said as it stopped (completed ones included)
        bool judging = false;                    // findStaller is scheduled
    };
    std::map<uint64_t, RecentOp> m_recentAborts;
    std::map<QByteArray, int> m_formationStrikes; // by public key: formations in a row it was named in
    // Disputed ring links (StallJudge.h), by the ends' public keys, each kept for the exclusion period: the partners
    // each member was in a dispute with, and how often each directed link was disputed.
    std::map<QByteArray, std::map<QByteArray, QDeadlineTimer>> m_disputePartners;
    struct DisputedLink {
        int times = 0;
        QDeadlineTimer until;
    };
    std::map<std::pair<QByteArray, QByteArray>, DisputedLink> m_disputedLinks;
    std::map<QByteArray, int> m_serveStrikes; // by public key: fetches from it that failed, in a row
    uint64_t m_plans = 0;                     // syncs planned: where the distributors' rotation starts
    uint64_t m_voteRound = 0;
    uint64_t m_syncRound = 0;
};

} // namespace cohort::collectives
