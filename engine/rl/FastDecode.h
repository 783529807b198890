#pragma once
// The fused CPU decode step: one generated token for n rows on raw float buffers. The weights are read in place
// from the policy's (contiguous, float32, CPU) parameter tensors, so an optimiser step needs no re-extraction.
// Per layer it is: LayerNorm, one GEMM for q/k/v, attention over the row's own cache written by plain loops,
// one GEMM into the residual, LayerNorm, two GEMMs around GELU. All buffers are preallocated: a step allocates
// only the tensor headers that wrap a buffer for gelu_, the one LibTorch operator it dispatches (the reference's
// own vectorized kernel). The GEMMs go through the packed kernel, or CBLAS when found in the process, or
// at::mm_out on wrapped buffers. Internal to cohort_rl.
#include "rl/PackedGemm.h"
#include "rl/PolicyConfig.h"

#include <memory>

#include <cstdint>
#include <vector>

namespace cohort::rl {

struct FastLayer {
    const float *ln1w, *ln1b, *qkvw, *qkvb, *outw, *outb, *ln2w, *ln2b, *fc1w, *fc1b, *fc2w, *fc2b;
};
struct FastWeights {
    const float *tokEmb, *posEmb, *lnfW, *lnfB, *head;
    std::vector<FastLayer> layers;
};

// The weight matrices packed for packedGemm; built once per weights version and cached by the policy.
struct PackedWeights {
    struct Layer {
        PackedMatrix qkv, out, fc1, fc2;
    };
    std::vector<Layer> layers;
    PackedMatrix head;
    static std::shared_ptr<const PackedWeights> build(const PolicyConfig &config, const FastWeights &weights);
};

enum class GemmBackend { Packed, Cblas, Torch };

class FastDecoder {
public:
    FastDecoder(const PolicyConfig &config, FastWeights weights, std::shared_ptr<const PackedWeights> packed, int batch,
                int seqCap);

    // Row-major [batch, len, heads, headDim] keys and values of positions 0..len-1 from the prefill.
    void importCache(int layer, const float *keys, const float *values, int len);
    // One token for each of n rows: rows[i] is the cache row, tokens[i] its input, pos[i] its position (the cache
    // slot written). Outputs: hidden [n, d] (final-norm states), logits [n, V].
    void step(const int *rows, const int32_t *tokens, const int *pos, int n, float *hidden, float *logits);

    // True when a CBLAS sgemm/sgemv was found in the process (OpenBLAS behind Debian's LibTorch).
    static bool hasCblas();
    // The GEMMs of a step: the packed kernel (default), CBLAS (when found) or at::mm_out on wrapped buffers.
    // Process-wide; for tests and benchmarks.
    static void setGemmBackend(GemmBackend backend);
    static GemmBackend gemmBackend();

private:
    // Y[n, out] = X[n, in] * W[out, in]^T + beta * Y (beta 0 or 1); pw is W packed.
    void linear(const float *x, int n, int in, const float *w, const PackedMatrix &pw, int out, float *y, float beta);
    void layerNorm(const float *x, int n, const float *w, const float *b, float *y) const;
    void attention(int layer, const int *rows, const int *pos, int n);
    float *keyRow(int layer, int row, int head, int slot);
    float *valueRow(int layer, int row, int head, int slot);

    PolicyConfig m_c;
    FastWeights m_w;
    int m_batch, m_seqCap, m_headDim;
    std::vector<float> m_x, m_y, m_qkv, m_att, m_ff;
    // Per layer, per (row, head): keys and values [seqCap][headDim].
    std::vector<std::vector<float>> m_k, m_v;
    std::vector<float> m_scores;
    std::shared_ptr<const PackedWeights> m_packed; // per thread [seqCap]
};

} // namespace cohort::rl
