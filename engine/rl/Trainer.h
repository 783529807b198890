#pragma once
// Training for the policy: GRPO (the INTELLECT-2 recipe, prime-stack.md §4.1) and supervised warm-up. Qt-free.
#include "base/Result.h"
#include "rl/Policy.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace cohort::rl {

struct GrpoConfig {
    float learningRate = 3e-4f;
    float weightDecay = 0.0f;
    float clipLow = 0.2f;       // epsilon_low
    float clipHigh = 0.2f;      // epsilon_high
    float ratioCap = 4.0f;      // delta: ratio = clamp(exp(logp - logp_old), 0, delta)
    float entropyCoef = 0.001f; // loss -= entropyCoef * mean token entropy
    float temperature = 1.0f;   // logits / temperature, as when sampling
    float gradClip = 1.0f;      // global L2 norm
    int maxTokens = 0;          // token-sum normalisation; 0 = number of completion tokens in the batch
};

struct RolloutSample {
    std::vector<int32_t> prompt;
    std::vector<int32_t> completion; // generated tokens (with kEos if emitted)
    std::vector<float> oldLogProbs;  // log p_old per completion token (the version that generated it)
    float advantage = 0.0f;          // group-normalised; samples with advantage 0 are dropped by the trainer
};

struct SupervisedSample {
    std::vector<int32_t> prompt;     // not trained on
    std::vector<int32_t> completion; // trained on (include kEos to teach stopping)
};

struct StepStats {
    double loss = 0;
    double entropy = 0;      // mean per-token entropy
    double clipFraction = 0; // share of tokens where the clipped branch was taken
    double meanRatio = 0;
    double gradNorm = 0; // before clipping
    int tokens = 0;      // completion tokens that contributed
    int samples = 0;     // samples that contributed (after dropping zero advantages)
};

// Pure loss for one token, the hand-checkable core of grpoStep: max(-r*A, -clamp(r, 1-eL, 1+eH)*A) with
// r = min(exp(logp - logpOld), ratioCap).
double grpoTokenLoss(double logp, double logpOld, double advantage, const GrpoConfig &config);

class Trainer {
public:
    // Holds an AdamW optimiser over `policy`'s parameters; `policy` must outlive the trainer.
    Trainer(Policy &policy, const GrpoConfig &config);
    ~Trainer();

    // One optimiser step on the batch (zero-advantage samples dropped; an all-zero batch is a no-op with samples 0).
    Result<StepStats> grpoStep(const std::vector<RolloutSample> &batch, const std::atomic<bool> *cancel = nullptr);
    // One optimiser step of cross-entropy on the completion tokens.
    Result<StepStats> supervisedStep(const std::vector<SupervisedSample> &batch,
                                     const std::atomic<bool> *cancel = nullptr);

private:
    class Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace cohort::rl
