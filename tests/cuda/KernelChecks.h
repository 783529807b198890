#pragma once
// GPU-vs-CPU comparisons for engine/cuda, in plain C++ so that both the Qt Test suite (tst_cuda_kernels) and the
// Qt-free device check (tests/device/device_check) run the same checks. Each check returns "" when the kernel's
// output equals its CPU reference bit for bit, otherwise a description of the first difference (or of the error).
// All inputs are seeded: the same call always sees the same numbers.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cohort::kernelchecks {

enum class Pattern {
    Gaussian,  // N(0, 1)
    Offset,    // 1000 + N(0, 0.01): the step is a few ulps of the values
    Ties,      // a handful of distinct magnitudes, both signs and +-0: ties everywhere
    Bf16Grid,  // N(0, 1) rounded to bf16, as real bf16 hidden states are: many exact ties
    Special,   // N(0, 1) with subnormals, +-0 and huge (finite) values sprinkled in
    NonFinite, // N(0, 1) with NaNs (both signs, several payloads) and +-inf sprinkled in
    Constant,  // every value the same
};
const char *patternName(Pattern pattern);

// The standard matrix both runners use: odd sizes (1, 7, 1023, 4097, 65537, 2^22 + 3) x uint8/uint16 x patterns,
// and chunk shapes (partial last chunks, chunks smaller than k, the reference width 256, a Llama-8B-like 4096).
struct QuantCase {
    size_t n;
    int bits;
    Pattern pattern;
    std::string name() const;
};
struct TopKCase {
    size_t tokens, dim;
    int k;
    Pattern pattern;
    std::string name() const;
};
std::vector<QuantCase> quantCases();
std::vector<TopKCase> topKCases();
std::string run(const QuantCase &c); // quantMatches with a seed derived from the case
std::string run(const TopKCase &c);  // topKMatches with chunks of toploc::kChunkTokens

// computeParams, quantize, dequantize and dequantizeAccumulate (uint8 when bits == 8, else uint16) on n values.
// For NaN/inf inputs both sides must refuse computeParams and then agree on the codes and the NonFinite report of
// quantize with a header from elsewhere.
std::string quantMatches(size_t n, int bits, Pattern pattern, uint64_t seed);

// chunkTopK on tokens x dim hidden states against toploc::topK / toploc::bf16Bits per chunk.
std::string topKMatches(size_t tokens, size_t dim, size_t chunkTokens, int k, Pattern pattern, uint64_t seed);

// bf16Pack against toploc::bf16Bits, including NaN payloads, infinities, and every rounding tie.
std::string bf16Matches(size_t n, uint64_t seed);

// Argument errors come back as values: null pointers, size mismatches, k out of range, bad headers.
std::string argumentErrorsAreValues();

// Without a device every call must return NoDevice (with the reason), never crash. "" when that holds.
std::string noDeviceIsAnErrorValue();

// Throughput of the kernels next to the CPU reference on this machine, as printable lines.
std::string benchmarkReport();

} // namespace cohort::kernelchecks
