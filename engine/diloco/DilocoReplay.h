#pragma once
// One DiLoCo inner step, and the audit that replays a node's H of them (docs/CREDIT.md). The runner and the audit
// share innerStep(), so what the hub replays is, line for line, what a node trains: the batch of (the node's data
// seed, the revision, the inner step), the loss and gradient, AdamW. LibTorch lives behind rl::Policy.
#include "core/DilocoTaskConfig.h"
#include "core/Expected.h"
#include "diloco/DilocoAudit.h"
#include "diloco/Optimizers.h"
#include "rl/PolicyConfig.h"

#include <atomic>
#include <span>
#include <string>
#include <vector>

namespace cohort::rl {
class Policy;
}

namespace cohort::diloco {

// The task's language model as a policy shape (every node and the audit build the same model from it).
rl::PolicyConfig policyConfigOf(const DilocoTaskConfig &config);

// Trains `local` (already written into `model`) by one inner step: returns the step's loss. `revision`: the shared
// state's revision the outer step started from (the outer step's tag - 1).
Expected<double> innerStep(rl::Policy &model, std::vector<float> &local, AdamWState &adam, std::vector<float> &gradient,
                           const DilocoTaskConfig &config, uint64_t dataSeed, uint64_t revision, int inner,
                           const std::atomic<bool> *cancel);

// Scales `values` to norm `bound` when above it (a hair under, so the communicator's own check passes after rounding).
void clipToNorm(std::span<float> values, double norm, double bound);

struct ReplayVerdict {
    bool passed = false;
    QString reason;            // why not, in words, naming the figures
    double relativeError = -1; // |replayed - committed| / |replayed|
    double replayedNorm = 0;
    double seconds = 0; // the replay's compute
};

// Replays the H inner steps of `material` (its weights and AdamW state, the node's data seed) and compares the
// pseudo-gradient that results, clipped as a node clips it, with the one the node contributed. Errors: the material
// does not fit the task's model, the model cannot be built, or the replay was cancelled.
Expected<ReplayVerdict> replayOuterStep(const DilocoTaskConfig &config, uint64_t dataSeed,
                                        const AuditMaterial &material, const std::atomic<bool> &cancel,
                                        const std::string &device = "cpu");

// The task's held-out text (issue 24): kHeldOutSequences windows of the task's sequence length from a seed no node
// trains on (a node's data seed is dataSeedFor(its id), a SHA-256 prefix; matching this one would take ~2^64 tries).
// The same for every task of one model shape and sequence length, so their losses compare.
inline constexpr uint64_t kHeldOutDataSeed = 0x636f686f72742d68ull; // "cohort-h"
inline constexpr int kHeldOutSequences = 32;

// Mean next-token loss (nats per byte token) of `weights` (the task's model in the flat layout) on the held-out text:
// what the hub reports as the shared model's quality per recorded revision. Errors: weights that do not fit the task's
// model, a model that cannot be built, a cancel.
Expected<double> heldOutLoss(const DilocoTaskConfig &config, std::span<const float> weights,
                             const std::atomic<bool> &cancel, const std::string &device = "cpu");

} // namespace cohort::diloco
