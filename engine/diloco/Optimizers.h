#pragma once
// DiLoCo's two optimisers on flat float vectors (prime-stack.md §1.9). Plain loops in a fixed order with no
// floating-point contraction (see CMakeLists.txt), so peers that apply the same averaged pseudo-gradient to the same
// state end bit-identical: the shared state then needs no retransmission after a node's first sync. Qt-free.
#include <cstdint>
#include <span>
#include <vector>

namespace cohort::diloco {

// Inner optimiser: AdamW (decoupled weight decay), the state kept by the caller so it can be checkpointed.
struct AdamWState {
    std::vector<float> m, v; // first and second moments, one per weight
    uint64_t step = 0;
    void reset(size_t count);
};

struct AdamWOptions {
    double learningRate = 1e-3;
    double beta1 = 0.9;
    double beta2 = 0.95;
    double epsilon = 1e-8;
    double weightDecay = 0.01;
    double gradClip = 1.0; // global L2 norm; 0: none
};

// One step; returns the gradient's L2 norm before clipping. A non-finite gradient changes nothing (and returns it).
double adamWStep(std::span<float> weights, std::span<const float> gradient, AdamWState &state,
                 const AdamWOptions &options);

// Outer optimiser: SGD with Nesterov momentum on the averaged pseudo-gradient delta = global - local:
//   buf = mu * buf + delta;  global -= lr * (delta + mu * buf)
void nesterovOuterStep(std::span<float> global, std::span<float> momentum, std::span<const float> delta,
                       float learningRate, float mu);

} // namespace cohort::diloco
