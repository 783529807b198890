#pragma once
// The DiLoCo task's training text: an endless, seeded stream of short English sentences from a small grammar
// ("the quiet fox finds 3 red apples near the river."). Structured enough that a tiny byte-level model's loss falls
// well below the uniform ln(259) = 5.56 nats within a few hundred steps, varied enough that it cannot be memorised.
// Each node draws its own batches (its seed differs), so the nodes' pseudo-gradients differ as in real data-parallel
// training. Qt-free; deterministic for a seed on every platform (own RNG, no std::*_distribution).
#include <cstdint>
#include <string>
#include <vector>

namespace cohort::diloco {

class SyntheticText {
public:
    // The `count`-th sentence group of the stream for `seed` (a few sentences; deterministic).
    static std::string paragraph(uint64_t seed, uint64_t index);
    // `batch` byte-token windows of exactly `length` tokens, cut from paragraphs drawn for (seed, step).
    static std::vector<std::vector<int32_t>> batch(uint64_t seed, uint64_t step, int batch, int length);
};

// SplitMix64: tiny, fast, and the same sequence everywhere.
class SplitMix64 {
public:
    explicit SplitMix64(uint64_t seed)
        : m_state(seed)
    {}
    uint64_t next();
    uint32_t below(uint32_t n) { return uint32_t(next() % n); } // modulo bias is irrelevant for n < 100
private:
    uint64_t m_state;
};

} // namespace cohort::diloco
