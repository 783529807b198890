#pragma once
// Verifiable sampling: the hub, not the node, fixes the randomness of every sampled token, so the verifier can tell
// whether a completion is the one the claimed policy would have sampled — not just a plausible one.
//
// A work item carries a sampling seed the hub derives from the work seed. Row r of the batch (group g, sample s:
// r = g * samplesPerPrompt + s) draws the uniform of its t-th token from SamplingStream(seed, r), one per token.
// The sampler is inverse-CDF over the vocabulary in id order (nucleus: in descending-logit order), so each token
// owns an interval of [0, 1); the verifier recomputes the intervals from its own logits and measures how far the
// uniform lies outside the chosen token's. Honest hardware differences move interval edges by float rounding
// (~1e-6); a token from any other sampler lands outside by the distance to its interval, typically tenths.
// Pure C++: node (generate), hub (verify) and tests share it.
#include <cstdint>
#include <string_view>

namespace cohort::rl {

// The logit given to ids a completion may never contain (BOS, PAD): far below any real logit, but finite so that
// p * log p stays 0 instead of NaN. Sampler and verifier pin them the same way.
inline constexpr double kNeverLogit = -1e4;

// A splitmix64 stream per row: a row's samples depend on the seed and its index only, not on which other rows
// are still running, and the uniform is built from bits so it is the same on every platform and library.
struct SamplingStream {
    uint64_t state;
    SamplingStream(uint64_t seed, uint64_t row)
        : state(seed ^ (0x9E3779B97F4A7C15ull * (row + 1)))
    {}
    uint64_t next()
    {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return double(next() >> 11) * 0x1.0p-53; } // [0, 1)
};

// The sampling seed of a work item, from the work seed the hub drew (a separate stream: the problems and the
// sampling must not share bits).
uint64_t samplingSeedForWork(uint64_t workSeed);

// How far (in probability mass, 0..1) the uniform `u` lies outside the interval that token `chosen` owns under
// softmax(logits / temperature) restricted to the top-p nucleus, exactly as generate() draws: 0 when `chosen` is
// what the sampler picks for `u`. A token outside the nucleus adds how far past the nucleus edge it lies. Ids of
// a byte-tokenizer vocabulary that may never be generated are pinned as the sampler pins them. Non-finite logits
// or an id out of range give 1 (the largest gap).
double samplingGap(const float *logits, int vocab, double temperature, double topP, int chosen, double u);

} // namespace cohort::rl
