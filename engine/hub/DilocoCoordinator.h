#pragma once
// The hub's side of DiLoCo tasks (prime-stack.md §1.9): one collectives master per "diloco" task, listening next to
// the API; it admits only nodes registered with this hub that have joined that task and are not flagged for it (their
// ed25519 node key proves itself in the master's signed challenge), and every all-reduce that all participants
// completed credits each of them, once per outer step (the reduce's tag), at the task's reward rate x inner steps.
// That credit is pending until the evidence says the work was done (docs/CREDIT.md): each node commits digests of
// what it started from and contributed (POST /v1/tasks/{id}/diloco/commitments); the hub audits a share of those
// steps by replaying them (the node uploads the material, POST .../diloco/audits/{step}; hub/DilocoAuditor replays);
// a failed audit forfeits the node's credit for the task and flags it. The master carries no tensor data; the hub
// sees a model only in an audited step's material. Lives in the hub's thread.
#include "core/Expected.h"
#include "hub/DilocoAuditor.h"
#include "hub/DilocoEvidence.h"
#include "net/ApiTypes.h"
#include "net/ConnectionGate.h"
#include "net/RequestSigning.h"

#include <QHostAddress>
#include <QJsonObject>
#include <QObject>
#include <QTimer>

#include <QDeadlineTimer>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

namespace cohort {

class ApiServer;
class HubStore;
class TaskCatalogue;
namespace collectives {
class Master;
}

struct DilocoTaskStats {
    quint16 masterPort = 0;
    int ringSize = 0;
    qint64 outerSteps = 0; // all-reduces completed by every participant
    quint64 lastTag = 0;   // the last completed outer step (the nodes' tag)
    int lastWorldSize = 0;
    qint64 creditedSteps = 0;   // node x outer step credits written
    qint64 uncreditedSteps = 0; // outer steps of a ring below the task's min_ring_size: nobody earned
    qint64 refusedPeers = 0;
    qint64 abortedOperations = 0;
    qint64 excludedPeers = 0;     // excluded by the master: out-of-bound values, a lie, a stall (docs/ROBUSTNESS.md)
    quint64 recordedRevision = 0; // the shared state the master last recorded (and signed)
    QByteArray recordedDigest;
    QString lastExclusion;  // the last one's reason, naming the node
    qint64 stateSplits = 0; // revisions whose voters declared different states (Master::stateSplit)
    QString lastSplit;
    // The evidence (docs/CREDIT.md)
    qint64 commitments = 0;
    qint64 auditsRequested = 0, auditsPassed = 0, auditsFailed = 0, auditsMissed = 0, auditsInconclusive = 0;
    double auditSeconds = 0;     // the hub's replay compute
    double worstPassedError = 0; // the largest relative error an audit passed with (the honest margin)
    qint64 confirmedCredits = 0, refusedCredits = 0, forfeitedCredits = 0;
    QString lastAudit; // the last verdict, naming the node
    // The hub's own measure of the shared model (diloco::heldOutLoss on an audited step's start state)
    quint64 heldOutRevision = 0;
    double heldOutLoss = -1; // -1: none measured yet
    QJsonObject toJson() const;
};

class DilocoCoordinator : public QObject {
    Q_OBJECT
public:
    // limits: each master's caps, and its handshake deadline (headerTimeoutMs; the hub passes its API listener's).
    DilocoCoordinator(HubStore &store, TaskCatalogue &catalogue, const ListenerLimits &limits = {},
                      QObject *parent = nullptr);
    ~DilocoCoordinator() override;

    // Starts a master per diloco task on `address`; port 0: any free port, otherwise port, port + 1, ... in catalogue
    // order. Writes each master's port into the catalogue (nodes read it from GET /v1/tasks).
    Status start(const QHostAddress &address, quint16 firstPort);
    // Before start: signs each master's shared-state record (MasterOptions::signRecord; the context is the task id).
    void setRecordSigner(std::function<QByteArray(const QByteArray &message)> signer) { m_signer = std::move(signer); }
    const DilocoTaskStats *stats(const QString &taskId) const;
    // The "held_out_loss" part of GET /v1/tasks/{id}/progress for a DiLoCo task (empty for any other): the loss of
    // each revision the hub measured, at most kHeldOutCurvePoints of them evenly spread, the first and newest always.
    // Served from memory: the route is public and may be asked as often as anyone likes; the points are read from
    // the database again only after a new one was recorded.
    QJsonObject progress(const QString &taskId) const;
    int heldOutReads() const { return m_heldOutReads; } // database reads for progress() so far (tests)

    using Authenticate = std::function<std::optional<ApiResponse>(const ApiRequest &, VerifiedRequest *)>;
    void registerRoutes(ApiServer &server, Authenticate authenticate);

    static constexpr qsizetype kAuditPartBytes = 256 << 10; // the upload comes in parts below the API's body limit
    static constexpr int kAuditDeadlineMs = 120'000;        // from the request to the last part
    // Audits awaiting material, all tasks together. An audit costs memory only as its material arrives, which
    // kMaxAuditBytes bounds; the count is high so that identities that commit and never upload cannot take every
    // slot from the honest nodes' first audits (each node has one audit at a time).
    static constexpr int kMaxAuditsInFlight = 64;
    static constexpr qint64 kMaxAuditBytes = 256ll << 20;  // material buffered at once, all audits together
    static constexpr uint64_t kMaxAuditWeights = 4u << 20; // 64 MiB of material at most
    static constexpr int kMissedAuditsToFlag = 3;

private:
    struct PendingAudit {
        QString taskId, nodeId;
        QByteArray publicKey;
        quint64 step = 0;
        QByteArray material;
        qint64 expected = -1;
        QDeadlineTimer deadline;
    };

    void credit(const QString &taskId, quint64 tag, const QList<QByteArray> &publicKeys);
    ApiResponse commit(const ApiRequest &request);
    ApiResponse upload(const ApiRequest &request);
    // Checks the finished upload against the commitment and the record, then hands it to the auditor.
    void audit(PendingAudit pending);
    void onAudited(const AuditJob &job, const AuditResult &result);
    void concludeAudit(const QString &taskId, const QString &nodeId, const QByteArray &publicKey, quint64 step,
                       const QString &verdict, const QString &reason, double relativeError = -1, double seconds = 0);
    void expireAudits();
    bool flagged(const QString &nodeId, const QString &taskId) const;

    HubStore &m_store;
    TaskCatalogue &m_catalogue;
    ListenerLimits m_limits;
    std::function<QByteArray(const QByteArray &)> m_signer;
    Authenticate m_authenticate;
    DilocoEvidence m_evidence;
    DilocoAuditor *m_auditor = nullptr;
    std::map<std::tuple<QString, QString, quint64>, PendingAudit> m_audits; // (task, node, step)
    QTimer m_auditClock;
    std::map<QString, std::unique_ptr<collectives::Master>> m_masters;
    std::map<QString, DilocoTaskStats> m_stats;
    mutable std::map<QString, QJsonObject> m_heldOutProgress; // progress() by task; dropped when a point is recorded
    mutable int m_heldOutReads = 0;
};

} // namespace cohort
