#pragma once
// Internal to cohort_rl: the policy's tensors and the LibTorch reference forward passes. The trainer, the fast
// CPU decoder and generate() all work on these; includers pay for ATen headers, so keep it out of public headers.
#include "rl/Policy.h"
#include "rl/VerifiableSampling.h"

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cohort::rl {

struct PackedWeights;

struct LayerWeights {
    at::Tensor ln1w, ln1b, qkvw, qkvb, outw, outb, ln2w, ln2b, fc1w, fc1b, fc2w, fc2b;
};

// Reference KV cache, one tensor per layer, [batch, seqCap, heads, headDim] so a decode step writes row b's
// slot pos[b] with one index_put.
struct KvCache {
    std::vector<at::Tensor> k, v;
};

class Policy::Impl {
public:
    PolicyConfig config;
    c10::Device device{c10::kCPU};
    std::map<std::string, std::string> metadata;
    bool fastDecode = true;
    // Bumped by every in-place weight update (the trainer's optimiser step); the fused decoder's packed copy of
    // the weights is rebuilt when it is stale.
    uint64_t weightsVersion = 0;
    uint64_t packedVersion = 0;
    std::shared_ptr<const PackedWeights> packed;

    // Canonical order (the checkpoint's tensor set); the named handles below alias these tensors.
    std::vector<std::string> names;
    std::vector<at::Tensor> params;
    at::Tensor tokEmb, posEmb, lnfW, lnfB, head;
    std::vector<LayerWeights> layers;

    // Every tensor of a checkpoint with its shape, in canonical order.
    static std::vector<std::pair<std::string, std::vector<int64_t>>> schema(const PolicyConfig &config);
    // Fills `names`/`params` from `tensors` (canonical order, float32, on `device`) and binds the handles.
    void adopt(std::vector<at::Tensor> tensors);

    // Full causal forward from position 0. tokens: [B, T] int64 on `device`. Returns the final-norm hidden
    // states [B, T, d]. With `cache`, the keys/values of positions 0..T-1 are written into it.
    at::Tensor forwardHidden(const at::Tensor &tokens, KvCache *cache = nullptr) const;
    at::Tensor logits(const at::Tensor &hidden) const; // [..., d] -> [..., V]
    // One reference decode step for the rows `rows` (cache row indices), each at its own position.
    // tokens/pos/rows: [n] int64 on `device`; maxPos = max(pos). Returns final-norm hidden [n, d].
    at::Tensor decodeStep(const at::Tensor &tokens, const at::Tensor &pos, const at::Tensor &rows, int64_t maxPos,
                          KvCache &cache) const;
    KvCache makeCache(int64_t batch, int64_t seqCap) const;
};

} // namespace cohort::rl
