#pragma once
// A small GEMM for decode steps, Y[n, out] (+)= X[n, in] * W^T with W [out, in] packed once into column
// panels of 16 outputs ([panel][in][16], zero-padded). BLAS libraries re-pack the weight matrix on every call,
// which for the skinny products of decoding (n = 1..64 rows) costs about as much as the multiply itself; a
// pre-packed panel is streamed contiguously and stays in L1/L2 while all rows pass over it. Internal to cohort_rl.
#include <vector>

namespace cohort::rl {

struct PackedMatrix {
    static constexpr int kPanel = 16;
    int out = 0, in = 0;
    std::vector<float> data;

    static PackedMatrix pack(const float *w, int out, int in);
};

// Parallel over panels (OpenMP) when the product is large enough to pay for the fork.
void packedGemm(const float *x, int n, const PackedMatrix &w, float *y, bool accumulate);

} // namespace cohort::rl
