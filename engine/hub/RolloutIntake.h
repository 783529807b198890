#pragma once
// Checks a rollout submission before anything is credited. The node's numbers are never trusted: the hub
// regenerates the problems from the work item's seed, re-scores every completion with the environment's own reward
// function, recomputes the group advantages and refuses the batch if anything the node claimed differs.
#include "core/TaskInfo.h"
#include "hub/Ledger.h"
#include "rl/Environment.h"
#include "toploc/Proof.h"

#include <QJsonObject>
#include <optional>
#include <vector>

namespace cohort {

struct RolloutSampleData {
    std::vector<int32_t> tokens; // completion, ending with kEos when finished
    bool finished = false;
    double reward = 0;                      // recomputed by the hub
    double advantage = 0;                   // recomputed by the hub
    std::vector<toploc::ChunkProof> proofs; // TOPLOC, one per 32 tokens (task with toploc on)
};

struct RolloutGroupData {
    rl::Problem problem;
    std::vector<int32_t> promptTokens;
    std::vector<RolloutSampleData> samples;
};

struct ValidatedBatch {
    QString submissionId;
    QString nodeId;
    QString taskId;
    QString workId;
    quint64 workSeed = 0; // the work item's seed: the problems and (rl/VerifiableSampling.h) the sampling stream
    int version = 0;
    std::vector<RolloutGroupData> groups;
    qint64 tokens = 0; // completion tokens in the batch
    // The tokens that earn credit (docs/CREDIT.md): those of distinct completions in groups whose rewards differ.
    // A group whose samples all scored the same teaches GRPO nothing (every advantage is 0), and a copy of a
    // completion in its group adds nothing the first did not.
    qint64 creditedTokens = 0;
    int signalGroups = 0; // groups whose rewards differ
    int duplicateSamples = 0;
    double meanReward = 0; // over all samples
};

struct IntakeResult {
    std::optional<ValidatedBatch> batch; // set when accepted
    QString code;    // machine-readable reason when rejected ("reward_mismatch", "stale_version", ...)
    QString message; // for people
};

// Parses the submission id only (for duplicate detection before the full check); empty if malformed.
QString submissionIdOf(const QJsonObject &body);

// work: the work item named by the body (already looked up; nullopt = unknown). latestVersion: newest published.
// resuming: the hub accepted this submission before a restart and verifies it again: its work item is already
// marked submitted and the versions may have moved on; every other check applies as before.
IntakeResult checkSubmission(const QJsonObject &body, const QString &nodeId, const TaskInfo &task,
                             const std::optional<WorkRecord> &work, int latestVersion, bool resuming = false);

} // namespace cohort
Q_DECLARE_METATYPE(cohort::ValidatedBatch)
