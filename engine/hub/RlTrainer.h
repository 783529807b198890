#pragma once
// The hub's trainer for one RL task. Lives on its own compute thread ("cohort-trainer"); the hub talks to it only
// through queued calls and signals. It
//  - starts a new task from a short supervised warm-up on the environments' own problems (so the first policy
//    already earns some reward), or resumes from its newest saved version;
//  - verifies each accepted batch against the policy version that claims to have produced it (teacher-forced
//    scoring: a rollout that version would not plausibly sample is refused; TOPLOC proofs plug in here);
//  - runs a GRPO step every `batchesPerStep` verified batches and asks the hub to publish a new version every
//    `stepsPerVersion` steps.
// Its own copies of every version (trusted, never downloaded) live in <stateDir>/v<N>.safetensors.
#include "core/RlTaskConfig.h"
#include "hub/RolloutIntake.h"
#include "hub/VerificationStats.h"

#include <QElapsedTimer>
#include <QMutex>
#include <QObject>
#include <QRandomGenerator>
#include <atomic>
#include <map>
#include <memory>

namespace cohort {

namespace rl {
class Policy;
class Trainer;
} // namespace rl

class RlTrainer : public QObject {
    Q_OBJECT
public:
    RlTrainer(QString taskId, RlTaskConfig config, QString stateDir, QObject *parent = nullptr);
    ~RlTrainer() override;

    void cancel() { m_cancel = true; } // any thread: stops a warm-up or step at the next optimiser step
    // Any thread: the hub published the file from versionReady as `version`. Applied before the next batch,
    // so a backlog of queued batches cannot delay it.
    void notifyPublished(const QString &path, int version);

public Q_SLOTS:
    // Resume from the newest version in stateDir, or warm up a fresh policy. Emits versionReady or failed.
    void bootstrap(int latestPublished);
    // Verifies and (when confirmed) trains on an accepted batch. Emits verdict, maybe versionReady.
    void submit(const cohort::ValidatedBatch &batch);
    // Applies a notifyPublished() (also queued by it, for an idle trainer).
    void applyPublished();

Q_SIGNALS:
    // A checkpoint to publish: the hub publishes `path` and answers with published(path, N).
    // resumed: the file is an existing version (already published as `resumedVersion`).
    void versionReady(const QString &taskId, const QString &path, int resumedVersion, const QString &summary);
    void verdict(const QString &submissionId, bool confirmed, const QString &reason,
                 const cohort::VerificationStats &stats);
    void stepDone(const QString &taskId, int step, double loss, double meanReward, int samples);
    // A published version scored on the task's held-out problems (rl::heldOutProblems), mode "greedy" (the most
    // likely answer) or "sampled" (at the task's temperature and top-p, a fixed seed).
    // Versions published within 19 x the last evaluation's time are not scored (at most ~5 % of the trainer's time).
    void evaluated(const QString &taskId, int version, const QString &mode, int problems, double reward,
                   double correctness, double format);
    void failed(const QString &taskId, const QString &error);

private:
    struct SamplingFinding {
        double worstGap = 0;
        size_t worstRow = 0, worstToken = 0;
        int offSample = 0; // tokens beyond the tolerance
    };
    rl::Policy *policyForVersion(int version, QString *error);
    void evaluate(int version);
    void trainStep();
    // Both return the refusal reason, empty when the batch passes; they fill in `stats`.
    QString checkPlausibility(const std::vector<std::vector<float>> &logProbs,
                              const std::vector<std::vector<float>> &entropies, int version,
                              VerificationStats *stats) const;
    QString checkProofs(const ValidatedBatch &batch, const std::vector<std::vector<float>> &hidden, size_t dim,
                        VerificationStats *stats);
    QString versionPath(int version) const;

    QString m_taskId;
    RlTaskConfig m_config;
    QString m_stateDir;
    std::atomic<bool> m_cancel{false};
    std::unique_ptr<rl::Policy> m_policy; // being trained
    std::unique_ptr<rl::Trainer> m_trainer;
    std::map<int, std::unique_ptr<rl::Policy>> m_versions; // published versions still accepted (verification)
    std::unique_ptr<rl::Policy> m_unpublished;             // snapshot handed to the hub, waiting for its number
    std::vector<ValidatedBatch> m_buffer;
    std::vector<std::vector<std::vector<float>>> m_bufferLogProbs;  // per batch, per sample (flattened groups)
    QRandomGenerator m_random = QRandomGenerator::securelySeeded(); // which rollouts verify_fraction checks
    int m_steps = 0;
    int m_stepsSinceVersion = 0;
    int m_latestVersion = 0;
    QElapsedTimer m_sinceEvaluation; // since the last held-out evaluation ended
    qint64 m_lastEvaluationMs = 0;
    bool m_ready = false;
    bool m_publishing = false;
    QMutex m_publishedMutex;
    QString m_publishedPath;    // guarded by m_publishedMutex
    int m_publishedVersion = 0; // guarded by m_publishedMutex; 0: nothing new
};

} // namespace cohort
