#pragma once
// The hub's PRIME-RL side: hands out seeded work, takes rollout submissions through intake, keeps the ledger,
// runs one trainer per RL task on a compute thread (started when the first node joins the task) and publishes
// the trainer's versions through SHARDCAST. Lives in the hub's thread.
#include "core/KeyedRateLimit.h"
#include "core/OwnedThread.h"
#include "hub/HubStore.h"
#include "hub/Ledger.h"
#include "hub/RolloutIntake.h"
#include "net/ApiTypes.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QTimer>
#include <deque>
#include <functional>
#include <memory>

namespace cohort {

class ApiServer;
class RlTrainer;
class TaskCatalogue;
struct VerifiedRequest;
namespace shardcast {
class Publisher;
}

struct RlCoordinatorConfig {
    QString stateDir;             // <hub data>/trainer: the trainer's own copies of each version, learning curves
    int ackDelayMs = 0;           // test knob: answer rollout submissions this much later
    bool trainersOnDemand = true; // a work request or heartbeat for an RL task starts its trainer (HubConfig)
    int maxOpenWorkPerNode = 8;   // older open work items of a node expire beyond this
    // Verification is fair across nodes: each node has at most this many batches accepted and not yet verified
    // (more work and more submissions wait: 503 busy), and the trainer takes the nodes' batches in turn. In all at
    // most maxQueuedBatches wait (memory); a node with none waiting is still served up to twice that.
    int maxInFlightPerNode = 2;
    int maxQueuedBatches = 64;
    // Quotas per node (429 with Retry-After beyond them): work requests and submissions a second (a burst of
    // twice that), and rejected submissions (a burst of rejectionBurst, then this many a second).
    double workRequestsPerSecond = 20;
    double submissionsPerSecond = 20;
    double rejectionsPerSecond = 1;
    double rejectionBurst = 30;
    // What earns nothing is kept this long (expired work, rejected submissions), and at most this much per node.
    qint64 retentionMs = 7LL * 24 * 3600 * 1000;
    int keepExpiredWorkPerNode = 256;
    int keepRejectedPerNode = 1000;
};

class RlCoordinator : public QObject {
    Q_OBJECT
public:
    using Authenticate = std::function<std::optional<ApiResponse>(const ApiRequest &, VerifiedRequest *)>;

    RlCoordinator(RlCoordinatorConfig config, HubStore &store, const TaskCatalogue &catalogue,
                  shardcast::Publisher &publisher, Authenticate authenticate, QObject *parent = nullptr);
    ~RlCoordinator() override; // stops the trainer threads (30 s at most in all)

    void registerRoutes(ApiServer &server);
    // What another coordinator adds to a task's progress reply (the DiLoCo tasks' held-out loss), read at each request.
    void setProgressExtension(std::function<QJsonObject(const QString &taskId)> extension)
    {
        m_progressExtension = std::move(extension);
    }
    // Starts the task's trainer if it is an RL task and not started yet (the operator's command, the catalogue).
    void ensureTrainer(const QString &taskId);
    // A node joined or asked for work of the task: starts its trainer only when trainers start on demand.
    void nodeWantsTask(const QString &taskId);
    Ledger &ledger() { return m_ledger; }
    // The node's part in an RL task, for its heartbeat reply: its accepted batches, their share of all accepted
    // ones, its rank among the task's contributors and how many there are — no other node named. Counted at most
    // every 30 s per task (a GROUP BY over the task's submissions); empty for a task that is not RL.
    QJsonObject contributionOf(const QString &taskId, const QString &nodeId);
    // What GET /metrics shows of each RL task that has a trainer or had a submission (hub/HubMetrics). Counts since
    // this hub started, kept in memory: a scrape reads no table.
    struct TaskMetrics {
        qint64 submissionsAccepted = 0;
        qint64 submissionsRefused = 0; // by the intake checks (422)
        qint64 verificationsConfirmed = 0;
        qint64 verificationsRefused = 0;
        int queuedBatches = 0; // accepted, awaiting verification or at the trainer
        int trainerStep = 0;
        bool hasTrainer = false;
        bool trainerReady = false; // a version is published and the trainer takes batches
    };
    QHash<QString, TaskMetrics> metrics() const;
    // How many times a progress reply was read from the ledger rather than served from its cache (tests).
    int progressComputations() const { return m_progressComputations; }

Q_SIGNALS:
    void versionPublished(const QString &taskId, int version);

private:
    struct TaskRuntime {
        OwnedThread thread{QStringLiteral("cohort-trainer")};
        RlTrainer *trainer = nullptr; // lives in `thread`, which deletes it
        bool ready = false;           // a version is published and the trainer accepts batches
        QString error;
        int steps = 0;
        double lastLoss = 0;
        // Accepted batches waiting for verification, per node, taken in turn (round robin over `turns`).
        QHash<QString, std::deque<ValidatedBatch>> waiting;
        QStringList turns;            // nodes with waiting batches, in the order they are served
        QHash<QString, int> inFlight; // per node: waiting + the one at the trainer
        int queued = 0;               // all batches waiting or at the trainer
        QString atTrainer;            // submission id being verified (empty: the trainer is free)
        QString atTrainerNode;
        bool resumed = false; // the pending submissions of an earlier run were queued again
    };
    // Queues again what an earlier run accepted and never verified (the ledger keeps the bodies until a verdict).
    void resumePending(const QString &taskId, TaskRuntime &runtime);
    void enqueue(TaskRuntime &runtime, ValidatedBatch batch);
    // Hands the trainer the next node's batch when it is free.
    void dispatch(TaskRuntime &runtime);
    // 503 busy when `nodeId` has its share of batches awaiting verification (or the queue is full), else nullopt.
    std::optional<ApiResponse> verificationBusy(const TaskRuntime &runtime, const QString &nodeId) const;

    // The common checks of the signed RL routes: signature, known RL task, registered node. Fills task and node.
    std::optional<ApiResponse> rlRequest(const ApiRequest &request, const TaskInfo **task,
                                         std::optional<NodeRecord> *node);
    ApiResponse work(const ApiRequest &request);
    ApiResponse rollouts(const ApiRequest &request);
    ApiResponse earnings(const ApiRequest &request);
    ApiResponse progress(const ApiRequest &request);
    QJsonObject computeProgress(const TaskInfo &task);
    void onVersionReady(const QString &taskId, const QString &path, int resumedVersion, const QString &summary);
    void onVerdict(const QString &submissionId, bool confirmed, const QString &reason,
                   const cohort::VerificationStats &stats);
    void appendCurve(const QString &taskId, int version);
    int latestVersion(const QString &taskId) const;

    RlCoordinatorConfig m_config;
    HubStore &m_store;
    const TaskCatalogue &m_catalogue;
    shardcast::Publisher &m_publisher;
    Authenticate m_authenticate;
    Ledger m_ledger;
    QHash<QString, TaskRuntime *> m_tasks;
    // Refuses a node over its quota in `limit` (429 with Retry-After); nullopt when it may go on.
    std::optional<ApiResponse> overQuota(KeyedRateLimit &limit, const QString &nodeId, const char *what);
    void pruneHistory();
    KeyedRateLimit m_workRequests;
    KeyedRateLimit m_submissions;
    KeyedRateLimit m_rejections;
    QTimer m_pruneTimer;
    struct Contributions {
        QHash<QString, qint64> accepted; // by node id
        std::vector<qint64> descending;  // the same counts, most first (a node's rank by binary search)
        qint64 total = 0;
        QElapsedTimer counted;
    };
    QHash<QString, Contributions> m_contributions; // by task
    QHash<QString, TaskMetrics> m_counts;          // by task: the counters of metrics()
    // GET /v1/tasks/{id}/progress is unauthenticated and reads the ledger (a GROUP BY over the task's submissions,
    // every evaluation, two counts): what it derives from the ledger is kept until the ledger is written again, so a
    // flood of it costs the hub copies of one reply, not SQL work, and no answer is ever stale.
    struct CachedProgress {
        QJsonObject reply;
        Ledger::ChangeStamp ledger;
        bool valid = false;
    };
    QHash<QString, CachedProgress> m_progressCache; // by task (catalogue ids only: bounded)
    int m_progressComputations = 0;
    std::function<QJsonObject(const QString &taskId)> m_progressExtension;
    // Testing only (COHORT_TESTING_HOLD_VERIFICATION): accept batches but never verify them, so a test can stop
    // the hub with credit pending. Loud in the log.
    bool m_holdVerification = false;
};

} // namespace cohort
