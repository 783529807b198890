#pragma once
// The policy as a plain language model, for collective training (DiLoCo): its weights as one flat float vector
// (canonical tensor order, the checkpoint's), and next-token cross-entropy with its gradient in the same layout.
// Flat vectors let the caller run its own optimiser and all-reduce without touching LibTorch. Qt-free.
#include "base/Result.h"
#include "rl/Policy.h"

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

namespace cohort::rl {

// Number of floats in the flat layout (= PolicyConfig::parameterCount()).
size_t flatParameterCount(const Policy &policy);
// Copies every weight into `out` (size flatParameterCount) in canonical order.
Outcome readFlatParameters(const Policy &policy, std::span<float> out);
// Overwrites every weight from `in` (same layout); the fused decoder's packed copy is rebuilt on next use.
Outcome writeFlatParameters(Policy &policy, std::span<const float> in);

// Mean next-token cross-entropy (nats per token) over `sequences` (each >= 2 tokens, <= maxSeqLen, every id valid):
// every token after the first is a target. With `gradient` (size flatParameterCount), also d(loss)/d(weights)
// in the flat layout. Returns "cancelled" when *cancel became true before the work started.
Result<double> languageModelLoss(Policy &policy, const std::vector<std::vector<int32_t>> &sequences,
                                 std::span<float> gradient = {}, const std::atomic<bool> *cancel = nullptr);

} // namespace cohort::rl
