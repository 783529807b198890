#include "toploc/Verify.h"

#include "toploc/Gf65497.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace cohort::toploc {

namespace {

constexpr float kSignificantFraction = 1.0f / 1024.0f;

constexpr uint32_t exponentOf(uint32_t bits)
{
    return (bits >> 7) & 0xFFu;
}
constexpr uint32_t mantissaOf(uint32_t bits)
{
    return bits & 0x7Fu;
}

// The proof's threshold is for 128 points; a smaller chunk needs the same fraction, rounded up.
int requiredMatches(int minExpMatches, int points)
{
    if (points >= kTopK)
        return minExpMatches;
    return int((int64_t(minExpMatches) * points + kTopK - 1) / kTopK);
}

double median(std::vector<int> &values)
{
    const size_t n = values.size();
    std::sort(values.begin(), values.end());
    return n % 2 == 1 ? double(values[n / 2]) : (double(values[n / 2 - 1]) + double(values[n / 2])) / 2.0;
}

} // namespace

ChunkVerdict verifyChunk(const ChunkProof &proof, const float *hidden, size_t tokens, size_t dim,
                         const VerifyThresholds &thresholds)
{
    ChunkVerdict verdict;
    if (proof.isNull() || proof.modulus > kMaxModulus || hidden == nullptr || tokens == 0 || dim == 0 ||
        tokens > std::numeric_limits<size_t>::max() / dim)
        return verdict;
    const size_t n = tokens * dim;
    std::vector<size_t> indices = topK(hidden, n, kTopK);
    // A short chunk (tokens x dim <= 128: a completion of a token or two) has every value in its "top 128", near-zero
    // ones included. Their bf16 mantissas are float rounding noise — a value 1e-4 of the chunk's largest moves by
    // several mantissa units when two honest machines sum in another order — so only values at least 2^-10 of the
    // largest are compared. In a full chunk the top 128 are far above that and nothing changes.
    float largest = 0;
    for (const size_t index : indices)
        largest = std::max(largest, std::fabs(hidden[index]));
    std::erase_if(indices, [&](size_t index) { return std::fabs(hidden[index]) < largest * kSignificantFraction; });
    verdict.points = int(indices.size());
    std::vector<int> mantissaErrors;
    mantissaErrors.reserve(indices.size());
    for (const size_t index : indices) {
        const uint32_t claimed =
            gf::evaluate(std::span<const uint16_t>(proof.coefficients), uint32_t(index % proof.modulus));
        const uint32_t own = gf::reduce(bf16Bits(hidden[index])); // same aliasing as the builder
        if (exponentOf(claimed) != exponentOf(own))
            continue;
        mantissaErrors.push_back(std::abs(int(mantissaOf(claimed)) - int(mantissaOf(own))));
    }
    verdict.expMatches = int(mantissaErrors.size());
    if (!mantissaErrors.empty()) {
        double sum = 0;
        for (const int e : mantissaErrors)
            sum += e;
        verdict.mantissaMean = sum / double(mantissaErrors.size());
        verdict.mantissaMedian = median(mantissaErrors);
    }
    verdict.accepted = meetsThresholds(verdict, thresholds);
    return verdict;
}

bool meetsThresholds(const ChunkVerdict &verdict, const VerifyThresholds &thresholds)
{
    return verdict.points > 0 && verdict.expMatches >= requiredMatches(thresholds.minExpMatches, verdict.points) &&
           verdict.mantissaMean <= thresholds.maxMantissaMean && verdict.mantissaMedian <= thresholds.maxMantissaMedian;
}

VerifyReport verifyProofs(const std::vector<ChunkProof> &proofs, const float *hidden, size_t tokens, size_t dim,
                          const VerifyThresholds &thresholds, size_t chunk)
{
    VerifyReport report;
    const size_t expected = chunkCount(tokens, chunk);
    if (expected == 0) {
        report.error =
            "no chunks to verify (tokens " + std::to_string(tokens) + ", chunk " + std::to_string(chunk) + ")";
        return report;
    }
    if (proofs.size() != expected) {
        report.error =
            "proof has " + std::to_string(proofs.size()) + " chunks, the completion needs " + std::to_string(expected);
        return report;
    }
    report.chunks.reserve(expected);
    bool all = true;
    for (size_t c = 0; c < expected; ++c) {
        const size_t first = c * chunk;
        const size_t rows = std::min(chunk, tokens - first);
        report.chunks.push_back(verifyChunk(proofs[c], hidden ? hidden + first * dim : nullptr, rows, dim, thresholds));
        all = all && report.chunks.back().accepted;
    }
    report.accepted = all;
    return report;
}

} // namespace cohort::toploc
