#pragma once
// The RL ledger in the hub database: work handed out (seeded per node, step and batch counter), rollout submissions
// with their verdicts, and the earnings that follow from them. Same thread and database as HubStore.
//
// Credit lifecycle: a submission that passes intake is "accepted" (its credit is pending); verification on the
// trainer thread makes it "confirmed" or "refused" (credit cancelled). A submission that fails intake is "rejected"
// and never earned anything. Every submission, whatever its verdict, is kept with the response the node got, so a
// retry with the same id (after a crash before the ack) gets the same answer and is credited once.
#include "core/EarningsReport.h"
#include "core/Expected.h"
#include "hub/VerificationStats.h"

#include <QByteArray>
#include <QString>
#include <optional>

namespace cohort {

struct WorkRecord {
    QString workId;
    QString nodeId;
    QString taskId;
    qint64 step = 0;  // the published version when the work was issued
    qint64 batch = 0; // the node's batch counter for this task
    quint64 seed = 0;
    qint64 issuedAtMs = 0;
    QString status; // open, submitted
};

struct SubmissionRecord {
    QString submissionId;
    QString nodeId;
    QString taskId;
    QString workId;
    int version = 0;
    QString status; // accepted, rejected, confirmed, refused
    QString reason;
    qint64 tokens = 0;
    double credit = 0;
    double meanReward = 0;
    qint64 createdAtMs = 0;
    QByteArray response;    // the JSON the node was answered with
    QByteArray pendingBody; // accepted: the submission as sent, kept (compressed) until the verdict
};

// An accepted submission still waiting for its verdict, as stored (a restarted hub verifies it again).
struct PendingSubmission {
    QString submissionId;
    QString nodeId;
    QString workId;
    QByteArray body; // the submission JSON as the node sent it
};

class Ledger {
public:
    // Changes whenever the database may hold something else than before: this object's own writes, counted, and
    // commits by any other connection (SQLite's data_version: the operator's `cohort-hub --unflag` on the same file).
    // Whoever caches what it read (RlCoordinator's progress replies) recomputes only when this changed.
    struct ChangeStamp {
        quint64 ownWrites = 0;
        qint64 dataVersion = -1;
        bool operator==(const ChangeStamp &) const = default;
    };
    ChangeStamp changeStamp() const;
    explicit Ledger(QString connectionName)
        : m_connection(std::move(connectionName))
    {}

    // Issues the node's next work item for a task: batch counter + 1, seed from (node, step, batch).
    Expected<WorkRecord> issueWork(const QString &nodeId, const QString &taskId, qint64 step, qint64 nowMs);
    std::optional<WorkRecord> work(const QString &workId) const;
    int openWorkCount(const QString &nodeId, const QString &taskId) const;
    // Marks all but the newest `keep` open work items of the node for the task as expired (a crashed node's).
    void expireOpenWork(const QString &nodeId, const QString &taskId, int keep);

    // What earns nothing is kept bounded: per node at most `keepExpired` expired work items and `keepRejected`
    // rejected submissions (the newest), so one hostile node cannot grow the database without end.
    void trimNodeHistory(const QString &nodeId, int keepExpired, int keepRejected);
    // Retention: expired work, and rejected submissions with the work they consumed, older than cutoffMs are
    // deleted. Credited submissions (accepted, confirmed, refused) and their work are kept: they are the ledger.
    // Returns the rows deleted.
    int pruneOlderThan(qint64 cutoffMs);

    std::optional<SubmissionRecord> submission(const QString &submissionId) const;
    // Stores the submission and marks its work item submitted, atomically. Fails if the id exists.
    Status recordSubmission(const SubmissionRecord &record);
    // accepted -> confirmed / refused, with the verification statistics. A failed TOPLOC proof also counts against
    // the node for the task; at `flagAfterFailures` the node is flagged (the hub then hands it no more work).
    struct VerdictOutcome {
        bool updated = false;         // false if the submission was not in state accepted
        int verificationFailures = 0; // the node's failed proofs for the task so far
        bool flagged = false;         // the node is flagged for the task (now or before)
    };
    Expected<VerdictOutcome> setVerdict(const QString &submissionId, bool confirmed, const QString &reason,
                                        const VerificationStats &stats, int flagAfterFailures, qint64 nowMs);
    std::optional<VerificationStats> verificationStats(const QString &submissionId) const;
    // Accepted submissions of a task without a verdict, oldest first, with their bodies (empty body: stored by a
    // hub before v5, which cannot be verified again).
    QList<PendingSubmission> pendingSubmissions(const QString &taskId) const;

    struct NodeFlag {
        int verificationFailures = 0;
        qint64 flaggedAtMs = 0; // 0: not flagged
        QString reason;         // the last failure's reason
    };
    NodeFlag nodeFlag(const QString &nodeId, const QString &taskId) const;
    int flaggedNodeCount(const QString &taskId) const;
    // An operator's decision (cohort-hub --unflag): failures forgotten, work handed out again.
    Status clearNodeFlag(const QString &nodeId, const QString &taskId);

    // Totals, today (UTC), last 7 days, per task and hourly history for the last 7 days.
    EarningsReport earnings(const QString &nodeId, qint64 nowMs) const;
    // Mean reward of accepted (and later confirmed) rollouts per policy version of a task: the learning curve.
    struct VersionReward {
        int version = 0;
        double meanReward = 0;
        qint64 batches = 0;
    };
    QList<VersionReward> meanRewardByVersion(const QString &taskId) const;
    qint64 acceptedCount(const QString &taskId) const;

    // Held-out evaluations of published versions (RlTrainer::evaluated), one row per version and mode.
    struct Evaluation {
        int version = 0;
        QString mode; // "greedy" or "sampled"
        int problems = 0;
        double reward = 0, correctness = 0, format = 0;
    };
    bool recordEvaluation(const QString &taskId, const Evaluation &evaluation, qint64 nowMs);
    // Accepted (or confirmed) batches per node in a task: each contributor's share of the accepted work.
    QHash<QString, qint64> acceptedByNode(const QString &taskId) const;
    QList<Evaluation> evaluations(const QString &taskId) const; // by version, then mode

private:
    QString m_connection;
    quint64 m_writes = 0;
};

} // namespace cohort
