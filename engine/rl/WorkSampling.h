#pragma once
// Which prompts a node works on, and how its samples are compared. Pure C++, shared by node and hub.
//
// The hub hands out a seed per (node id, step, batch counter) — as PRIME-RL does — and derives the problems from it;
// a node cannot choose easy prompts because the hub regenerates the same problems when the batch comes back and
// compares them with what was submitted.
#include "rl/Environment.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cohort::rl {

// Deterministic, platform-independent: FNV-1a of the node id, mixed with step and batch counter by SplitMix64.
uint64_t workSeed(std::string_view nodeId, int64_t step, int64_t batchCounter);

// `prompts` problems drawn from the environments in turn by the seed stream (each problem has its own sub-seed).
// Unknown environment ids are skipped; an empty list gives no problems. A held-out problem (below) is never drawn:
// its environment draws again from the stream (up to kHeldOutRedraws times), so node and hub still agree.
std::vector<Problem> problemsForWork(const std::vector<std::string> &environments, uint64_t seed, int prompts);

// The problems of one supervised warm-up step: `batch` fresh ones from the next seed of `stream`, or, when the task
// has a finite set of worked examples (`examples` not empty), `batch` picks from that set by the stream. Either way
// no held-out problem (below) is among them: the examples come from problemsForWork too.
std::vector<Problem> warmupProblems(const std::vector<std::string> &environments, SeedStream &stream, int batch,
                                    const std::vector<Problem> &examples);

// The task's held-out evaluation set: kHeldOutProblems distinct problems drawn from its environments by a seed stream
// of their own (heldOutSeed: "cohort held-out" mixed with the environment ids), which no work item, warm-up or
// training batch ever contains (problemsForWork skips them). The hub scores every published version on it.
inline constexpr int kHeldOutProblems = 128;
inline constexpr int kHeldOutRedraws = 64;
uint64_t heldOutSeed(const std::vector<std::string> &environments);
const std::vector<Problem> &heldOutProblems(const std::vector<std::string> &environments);
bool isHeldOut(const std::vector<std::string> &environments, std::string_view prompt);

// GRPO group advantages: (r - mean) / (std + 1e-6) with the sample standard deviation (ddof = 1, as PRIME-RL);
// a group of one, or with all rewards equal, has all advantages 0 (the trainer then drops it).
std::vector<double> groupAdvantages(const std::vector<double> &rewards);

} // namespace cohort::rl

namespace cohort::rl {
// The token ids a problem's prompt is fed as: kBos, then its bytes. Node and hub must agree exactly.
std::vector<int32_t> promptTokens(const Problem &problem);
} // namespace cohort::rl
