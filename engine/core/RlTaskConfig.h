#pragma once
// How an RL task runs: its environments, rollout shape, staleness limit, trainer schedule and policy size.
// Part of the task's JSON ("rl": {...}) so nodes and hub read the same numbers; strict because it comes over the
// network.
#include "core/Expected.h"

#include <QJsonObject>
#include <QStringList>
#include <string>
#include <vector>

namespace cohort {

struct RlModelShape {
    int dModel = 128;
    int nLayers = 3;
    int nHeads = 4;
    int dFF = 512;
    int maxSeqLen = 64;
    bool operator==(const RlModelShape &) const = default;

    QJsonObject toJson() const; // {"d_model", "n_layers", "n_heads", "d_ff", "max_seq_len"}
    // Missing fields keep `defaults`; the same limits for every task kind; `context` names it in errors ("rl model").
    static Expected<RlModelShape> fromJson(const QJsonObject &json, const QString &context, RlModelShape defaults);
};

// TOPLOC acceptance per chunk (prime-stack.md §3.2). The paper's 90/128, 10, 8 absorb bf16 GPU kernel noise; the
// default here is for tasks that run in fp32, where an honest prefill reproduces the prover's bf16 bit patterns
// almost exactly (worst honest chunk measured: 128/128 exponents, mantissa mean 0.008) while bf16 weights, 1e-3
// weight noise or a changed prompt token give chunk mantissa means of 0.07-3.9 (tst_toploc_detection, 200 chunks
// each). Not lower: a batch of 64 x 200 tokens has ~450 chunks and every one must pass, and 0.025 refused honest
// batches of a small model in tst_rl_e2e; 0.05 allows 6 of 128 values one bf16 step off.
struct RlToplocPolicy {
    int minExpMatches = 126;       // of 128 points
    double maxMantissaMean = 0.05; // mean |Δ mantissa| over the matching exponents
    double maxMantissaMedian = 0;
    double verifyFraction = 1.0; // share of rollouts whose proofs the hub checks (chosen at random per rollout)
    int flagAfterFailures = 3; // proof failures after which the ledger flags a node (and the hub stops giving it work)
    bool operator==(const RlToplocPolicy &) const = default;
};

struct RlTaskConfig {
    QStringList environments; // ids from engine/rl (add-sub, sort-digits, reverse, linear-eq)
    int promptsPerBatch = 8;  // problems per work item
    int samplesPerPrompt = 8; // G completions per problem
    int maxNewTokens = 12;
    double temperature = 1.0;
    double topP = 1.0;
    int asyncLevel = 2;      // rollouts from versions older than latest - asyncLevel are stale
    int batchesPerStep = 2;  // accepted batches per trainer step
    int stepsPerVersion = 2; // trainer steps between published versions
    int warmupSteps = 120;   // supervised warm-up of a new task (steps of warmupBatch problems)
    int warmupBatch = 32;
    // How many worked examples the warm-up has: 0 draws a fresh solved problem for every slot (the environments can
    // solve any problem they make), N > 0 cycles over a fixed set of N (an operator's finite demonstrations, the usual
    // case outside generated tasks). The verifier scores any problem either way; RL is what uses that.
    int warmupDemonstrations = 0;
    double learningRate = 5e-4; // GRPO
    double warmupLearningRate = 2e-3;
    // Verification until TOPLOC: under the version that sampled them, honest tokens' log-probabilities average minus
    // the entropy of their distributions. A batch whose mean (log p + entropy) falls below -margin nats (or one
    // sample below -20 x margin) was not sampled from that version and is refused.
    double plausibilityMargin = 1.0;
    // Verifiable sampling (rl/VerifiableSampling.h): each token's uniform comes from the hub's sampling seed, and a
    // token whose uniform lies more than this much probability mass outside the interval the claimed version gives
    // it was not sampled by that version. Honest hardware differences stay below 1e-5 (bench_sampling_margin).
    double samplingTolerance = 1e-3;
    // TOPLOC: every sample carries a proof (258 bytes per 32 generated tokens) of the final-norm hidden states that
    // produced it; the hub re-runs prefill with the claimed version and checks it (prime-stack.md §3).
    bool toploc = true;
    RlToplocPolicy toplocPolicy; // JSON "toploc_policy": {min_exp_matches, max_mantissa_mean, ...}
    RlModelShape model;

    std::vector<std::string> environmentIds() const; // for the Qt-free engine/rl functions
    QJsonObject toJson() const;
    static Expected<RlTaskConfig> fromJson(const QJsonObject &json);
    bool operator==(const RlTaskConfig &) const = default;
};

} // namespace cohort
