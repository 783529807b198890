// TOPLOC verification (../shared/reference/prime-stack.md §3.2): the verifier recomputes the hidden states of the
// claimed completion itself (one teacher-forced prefill), takes its own top-128 per chunk, evaluates the committed
// polynomial there, and compares bf16 exponents and mantissas. Tolerant of kernel/reordering noise, not of a
// different model, prompt or precision.
#pragma once

#include "toploc/Proof.h"

#include <cstddef>
#include <string>
#include <vector>

namespace cohort::toploc {

// Mean and median reported when no exponent matched at all (the reference's 2^64 sentinel).
inline constexpr double kNoMatchError = 18446744073709551616.0;

struct VerifyThresholds {
    int minExpMatches = 90; // of 128 points; scaled by k_eff/128 (rounded up) when a chunk has fewer values
    double maxMantissaMean = 10;
    double maxMantissaMedian = 8;
};

struct ChunkVerdict {
    int expMatches = 0;                    // points whose bf16 exponent (bits 7-14) agrees
    double mantissaMean = kNoMatchError;   // |Δ mantissa (bits 0-6)| over those points
    double mantissaMedian = kNoMatchError; // the middle value, or the mean of the two middle values
    bool accepted = false;
    int points = 0; // k_eff: the points compared (128 unless the chunk holds fewer values)
};

// Whether a chunk's statistics pass `thresholds` (the exponent threshold scaled for chunks with fewer than 128
// points). verifyChunk sets `accepted` with this; callers may re-judge stored statistics under other thresholds.
bool meetsThresholds(const ChunkVerdict &verdict, const VerifyThresholds &thresholds);

// One chunk: `hidden` holds the verifier's own tokens x dim floats for it, row-major. A null proof, a null or
// empty matrix rejects.
ChunkVerdict verifyChunk(const ChunkProof &proof, const float *hidden, size_t tokens, size_t dim,
                         const VerifyThresholds &thresholds = {});

struct VerifyReport {
    std::vector<ChunkVerdict> chunks; // one per proof when the counts agree, else empty
    bool accepted = false;            // every chunk accepted (and at least the right number of them)
    std::string error;                // why nothing was compared (chunk count mismatch), else empty
};

// A whole completion of `tokens` generated tokens, chunked like buildProofs. Sequential; callers that want the
// reference's per-chunk threads can call verifyChunk themselves.
VerifyReport verifyProofs(const std::vector<ChunkProof> &proofs, const float *hidden, size_t tokens, size_t dim,
                          const VerifyThresholds &thresholds = {}, size_t chunk = kChunkTokens);

} // namespace cohort::toploc
