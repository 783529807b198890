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
