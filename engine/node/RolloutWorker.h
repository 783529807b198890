#pragma once
// Generates rollouts on the compute thread ("cohort-compute"): loads the policy version (kept loaded between
// batches), samples G completions per problem, and scores them with the environment's reward function.
// Cancellable from any thread; a cancelled batch ends within one generated token.
#include "rl/Environment.h"

#include <QMetaType>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <vector>

namespace cohort {

namespace rl {
class Policy;
}

// Testing only (tst_rl_e2e's kill matrix): COHORT_TESTING_HALT_AT="<point>[@<index>][#<n>]" parks the calling
// thread for good the n-th time (default 1) the named point is reached with that index, after printing
// "COHORT_TESTING_HALT_AT: halted at <spec> (t=<epoch ms>)" to stderr, so that a test can kill -9 the node at
// exactly that moment instead of guessing from timing. Points: work-received, token@<tokens generated so far>,
// rollout@<samples finished>, batch-saved, ack-received (the hub's answer to a submission, not yet handled),
// bundle-part (an engine bundle written but not yet renamed into place). Unset: a relaxed atomic load per call.
bool testingHaltArmed();
void testingHaltPoint(const char *point, int index = -1);

struct RolloutJob {
    QString taskId;
    QString workId;
    int version = 0;
    QString modelPath;
    std::vector<rl::Problem> problems;
    int samplesPerPrompt = 8;
    int maxNewTokens = 12;
    double temperature = 1.0;
    double topP = 1.0;
    quint64 samplingSeed = 0;
    bool toploc = true;                     // build a TOPLOC proof for every sample
    QString device = QStringLiteral("cpu"); // where the policy runs (ComputeInfo::device)
    int maxRows = 0; // rows generated together at most (the GPU memory cap, core/MemoryBudget); 0: all at once
};

struct RolloutSampleResult {
    std::vector<int32_t> tokens;
    bool finished = false;
    double reward = 0;
    QByteArray proof; // serialized TOPLOC chunk proofs (258 bytes per 32 tokens); empty without TOPLOC
};

struct RolloutJobResult {
    RolloutJob job;
    QString error;                                        // empty on success; "cancelled" when cancelled
    std::vector<std::vector<RolloutSampleResult>> groups; // per problem, G samples
    qint64 tokens = 0;
    double seconds = 0;
    double proofSeconds = 0; // of `seconds`, spent building TOPLOC proofs
    double meanReward = 0;
};

class RolloutWorker : public QObject {
    Q_OBJECT
public:
    explicit RolloutWorker(QObject *parent = nullptr);
    ~RolloutWorker() override;

    void cancel() { m_cancel = true; } // any thread
    // Before the owner queues the next run (the owner's thread): a cancel that comes after this, even before that
    // run has started, stops it. (run() itself must not clear it: a pause between queueing and running was lost.)
    void rearm() { m_cancel = false; }

public Q_SLOTS:
    void run(const cohort::RolloutJob &job);
    void unload(); // frees the model (task left)

Q_SIGNALS:
    void finished(const cohort::RolloutJobResult &result);

private:
    std::atomic<bool> m_cancel{false};
    std::unique_ptr<rl::Policy> m_policy;
    QString m_loadedPath;
};

} // namespace cohort

Q_DECLARE_METATYPE(cohort::RolloutJob)
Q_DECLARE_METATYPE(cohort::RolloutJobResult)
