// TOPLOC proof building and its wire format (../shared/reference/prime-stack.md §3.1). A proof commits to the 128
// largest-magnitude hidden-state values of each chunk of 32 generated tokens: with m the largest modulus <= p that
// keeps their flat indices distinct, the polynomial over GF(65497) through (index mod m, bf16 bits of the value).
//
// Rules both sides apply identically (the verifier in Verify.h relies on them):
//  - A chunk with fewer than 128 values proves all of them: k_eff = min(128, values) points, the interpolated
//    k_eff coefficients followed by zeros (the same polynomial, so evaluation is unchanged).
//  - bf16 bit patterns >= p (0xFFD9..0xFFFF, negative NaNs) are committed mod p, so they alias small positive
//    denormals; the verifier reduces its own bits mod p too, so an honest NaN still matches.
//  - On any failure the proof is "null" (modulus 0, zero coefficients); a verifier rejects it, a builder never throws.
#pragma once

#include "base/Result.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cohort::toploc {

inline constexpr int kTopK = 128;
inline constexpr size_t kChunkTokens = 32;                   // decode_batching_size
inline constexpr size_t kProofBytes = 2 + 2 * size_t(kTopK); // 258 per chunk
inline constexpr uint32_t kMaxModulus = 65497;               // = gf::kP

struct ChunkProof {
    uint16_t modulus = 0;                       // 0: null proof
    std::array<uint16_t, kTopK> coefficients{}; // monomial basis, coefficient i multiplies x^i, each < p

    bool isNull() const { return modulus == 0; }
    bool operator==(const ChunkProof &) const = default;
};

// float32 -> bf16 bit pattern, rounding to nearest, ties to even; NaN stays NaN (quiet, sign kept), overflow -> inf.
uint16_t bf16Bits(float value);

// Indices of the k values of largest |value|, in that order; ties go to the lower index, NaN ranks below every
// number, so the result is deterministic. Returns min(k, n) indices (none for k <= 0).
std::vector<size_t> topK(const float *values, size_t n, int k);

// Largest m <= 65497 such that the indices are pairwise distinct mod m; 0 if none (duplicate indices), 65497 for
// an empty list.
uint32_t findInjectiveModulus(const std::vector<size_t> &indices);

// The proof of one chunk: `hidden` holds tokens x dim floats, row-major (token-major). Null proof on bad input.
ChunkProof buildChunkProof(const float *hidden, size_t tokens, size_t dim);

// Number of chunks for a completion of `tokens` generated tokens (the last partial chunk counts); 0 if chunk is 0.
size_t chunkCount(size_t tokens, size_t chunk = kChunkTokens);

// One proof per `chunk` tokens of a completion, the last partial chunk too.
std::vector<ChunkProof> buildProofs(const float *hidden, size_t tokens, size_t dim, size_t chunk = kChunkTokens);

// The captured hidden states of one completion: `tokens` rows of the model width.
struct CompletionStates {
    const float *hidden = nullptr;
    size_t tokens = 0;
};
// Runs body(0) .. body(n - 1), possibly in parallel (the node passes rl::Policy::parallelFor: the compute threads).
using ParallelFor = std::function<void(size_t n, const std::function<void(size_t)> &body)>;
// buildProofs for every completion, a completion's chunks in one body call: the same proofs in the same order
// however `parallel` spreads them (an empty one runs them in turn).
std::vector<std::vector<ChunkProof>> buildProofsForAll(const std::vector<CompletionStates> &completions, size_t dim,
                                                       const ParallelFor &parallel = {});

// [u16 m big-endian][128 x u16 coefficient big-endian] per chunk, concatenated: 258 bytes per chunk.
std::string serialize(const std::vector<ChunkProof> &proofs);

// Strict inverse of serialize for a completion that must have `expectedChunks` chunks. Refuses, with a reason, a
// length that is not a multiple of 258, a chunk count other than expectedChunks (empty input included), a null or
// out-of-range modulus (0 or > 65497), and any coefficient >= p.
Result<std::vector<ChunkProof>> decode(std::string_view bytes, size_t expectedChunks);

} // namespace cohort::toploc
