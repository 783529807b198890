#pragma once
// One in-process round of PRIME-RL without the network: sample G completions per problem with a policy, score
// them with the environments, and turn them into GRPO training samples. The node and hub do the same steps split
// over processes; this keeps a single-process version for deterministic tests, tuning and evaluation. Qt-free.
#include "rl/Environment.h"
#include "rl/Policy.h"
#include "rl/Trainer.h"

#include <vector>

namespace cohort::rl {

struct ScoredRollouts {
    std::vector<Problem> problems;
    int samplesPerPrompt = 0;
    std::vector<Completion> completions; // problems x G, problem-major
    std::vector<double> rewards;         // per completion
    std::vector<double> advantages;      // per completion, group-normalised
    double meanReward() const;
    long long tokens() const;
};

Result<ScoredRollouts> sampleAndScore(Policy &policy, const std::vector<Problem> &problems, int samplesPerPrompt,
                                      const SamplingConfig &sampling, const std::atomic<bool> *cancel = nullptr);

// A policy's score on a fixed problem set (the held-out set, WorkSampling.h): one completion per problem, the
// environment's reward split into its parts (Environment.h), each a mean over the problems.
struct HeldOutScore {
    int problems = 0;
    double reward = 0;      // mean total
    double correctness = 0; // mean correctness, format aside
    double format = 0;      // share of well-formed answers
};
Result<HeldOutScore> scoreProblems(Policy &policy, const std::vector<Problem> &problems, const SamplingConfig &sampling,
                                   const std::atomic<bool> *cancel = nullptr);

// GRPO samples with the generation-time log-probs as the old policy's.
std::vector<RolloutSample> toRolloutSamples(const ScoredRollouts &rollouts);

// Supervised warm-up data: the prompt and the right answer followed by EOS.
std::vector<SupervisedSample> supervisedSamples(const std::vector<Problem> &problems);

} // namespace cohort::rl
