// TOPLOC's detection table (issue: honest vs other weights, noise, a changed prompt, lower precision) run on a
// real policy: a prover generates rollouts and proofs, the verifier (the hub's side: one teacher-forced prefill of
// the claimed weights) recomputes its top-128 per chunk. Shared by the test that asserts the verdicts and the
// bench that prints the statistics. Plain C++ + LibTorch (through cohort_rl), no Qt.
#pragma once

#include "rl/PolicyConfig.h"
#include "toploc/Verify.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cohort::testing {

struct DetectionSetup {
    rl::PolicyConfig model; // the policy both sides claim to run
    int samples = 50;       // rollouts per case; each has newTokens / 32 chunks
    int newTokens = 128;
    uint64_t seed = 1;   // weights, noise and sampling all follow from it
    std::string workDir; // where the variant checkpoints are written
};

struct DetectionCase {
    std::string name;
    bool honest = false;                      // the verdict the table expects: accept all (true) or reject all
    std::vector<toploc::ChunkVerdict> chunks; // statistics per chunk (accepted under the thresholds given)
    std::vector<int> chunksPerSample;         // to judge whole rollouts
};

// The reference policy's detection cases, verified under `thresholds`. Returns an error string through `error`
// (and no cases) when a model cannot be built.
std::vector<DetectionCase> runDetectionTable(const DetectionSetup &setup, const toploc::VerifyThresholds &thresholds,
                                             std::string *error);

struct DetectionSummary {
    int chunks = 0, acceptedChunks = 0, samples = 0, acceptedSamples = 0;
    double meanExpMatches = 0, meanMantissaMean = 0, meanMantissaMedian = 0;
    int worstExpMatches = 128;     // the fewest exponent matches of any chunk
    double worstMantissaMean = 0;  // the largest mantissa mean of any chunk (128 when nothing matched)
    double bestMantissaMean = 128; // the smallest: how close a dishonest case came to acceptance
};

// Re-judges a case's stored statistics under `thresholds` (no model run).
DetectionSummary summarize(const DetectionCase &c, const toploc::VerifyThresholds &thresholds);

rl::PolicyConfig referencePolicyConfig(); // d_model 256, 4 layers, 4 heads, d_ff 1024, 160 positions

} // namespace cohort::testing
