#include "toploc/Proof.h"

#include "toploc/Gf65497.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <limits>

namespace cohort::toploc {

static_assert(kMaxModulus == gf::kP, "the modulus bound and the field prime are the same number");

uint16_t bf16Bits(float value)
{
    const uint32_t bits = std::bit_cast<uint32_t>(value);
    if (std::isnan(value))
        return uint16_t((bits >> 16) | 0x0040u); // keep sign and high payload, force quiet so it cannot become inf
    // Adding 0x7FFF plus the lowest kept bit rounds to nearest with ties to even; a carry into the exponent is the
    // correct rounding (up to inf for values beyond bf16's range).
    const uint32_t rounded = bits + 0x7FFFu + ((bits >> 16) & 1u);
    return uint16_t(rounded >> 16);
}

namespace {
// |value| as an integer that orders like it (the bits of a non-negative float do), plus one, so that NaN (0) ranks
// below every number, zeros included.
inline uint32_t magnitudeKey(float value)
{
    const uint32_t bits = std::bit_cast<uint32_t>(value) & 0x7FFFFFFFu;
    return bits > 0x7F800000u ? 0u : bits + 1u;
}
} // namespace

std::vector<size_t> topK(const float *values, size_t n, int k)
{
    if (k <= 0 || values == nullptr || n == 0)
        return {};
    const size_t keep = std::min(n, size_t(k));
    // A histogram of the keys' top bits (exponent and 2 mantissa bits: buckets a quarter of an octave wide) finds
    // the highest bucket boundary with at least `keep` keys at or above it; only those candidates (a few percent of
    // a chunk's 32 x dim values) are sorted. Four interleaved histograms keep runs of equal buckets from waiting on
    // each other's increments. About 2x faster than a heap of the best `keep` at dim 128.
    constexpr unsigned kShift = 21;
    constexpr size_t kBuckets = (0x7F800001u >> kShift) + 1;
    std::vector<uint32_t> histogram(4 * kBuckets, 0);
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
        for (size_t lane = 0; lane < 4; ++lane)
            ++histogram[lane * kBuckets + (magnitudeKey(values[i + lane]) >> kShift)];
    for (; i < n; ++i)
        ++histogram[magnitudeKey(values[i]) >> kShift];
    size_t count = 0, bucket = kBuckets;
    while (count < keep) {
        --bucket;
        for (size_t lane = 0; lane < 4; ++lane)
            count += histogram[lane * kBuckets + bucket];
    }
    const uint32_t floor = uint32_t(bucket) << kShift;
    std::vector<size_t> order;
    order.reserve(count);
    for (i = 0; i < n; ++i)
        if (magnitudeKey(values[i]) >= floor)
            order.push_back(i);
    std::partial_sort(order.begin(), order.begin() + ptrdiff_t(keep), order.end(), [values](size_t x, size_t y) {
        const uint32_t a = magnitudeKey(values[x]), b = magnitudeKey(values[y]);
        return a != b ? a > b : x < y;
    });
    order.resize(keep);
    return order;
}

uint32_t findInjectiveModulus(const std::vector<size_t> &indices)
{
    const size_t k = indices.size();
    if (k > kMaxModulus)
        return 0; // pigeonhole: no m <= p gives that many distinct residues
    std::vector<size_t> residues(k);
    // m < k cannot be injective either, so stop there (m = 1 still works for a single index).
    const uint32_t lowest = std::max<uint32_t>(1, uint32_t(k));
    for (uint32_t m = kMaxModulus; m >= lowest; --m) {
        for (size_t i = 0; i < k; ++i)
            residues[i] = indices[i] % m;
        std::sort(residues.begin(), residues.end());
        if (std::adjacent_find(residues.begin(), residues.end()) == residues.end())
            return m;
    }
    return 0;
}

ChunkProof buildChunkProof(const float *hidden, size_t tokens, size_t dim)
{
    ChunkProof proof; // null until everything succeeded
    if (hidden == nullptr || tokens == 0 || dim == 0 || tokens > std::numeric_limits<size_t>::max() / dim)
        return proof;
    const size_t n = tokens * dim;
    const std::vector<size_t> indices = topK(hidden, n, kTopK);
    const uint32_t m = findInjectiveModulus(indices);
    if (m == 0)
        return proof;
    std::vector<uint32_t> xs(indices.size()), ys(indices.size());
    for (size_t i = 0; i < indices.size(); ++i) {
        xs[i] = uint32_t(indices[i] % m);                 // distinct and < m <= p, so distinct in the field
        ys[i] = gf::reduce(bf16Bits(hidden[indices[i]])); // bits >= p alias (documented in Proof.h)
    }
    const auto coefficients = gf::interpolate(xs, ys);
    if (!coefficients)
        return proof;
    for (size_t i = 0; i < coefficients->size(); ++i)
        proof.coefficients[i] = uint16_t((*coefficients)[i]);
    proof.modulus = uint16_t(m);
    return proof;
}

size_t chunkCount(size_t tokens, size_t chunk)
{
    return chunk == 0 ? 0 : tokens / chunk + (tokens % chunk != 0 ? 1 : 0);
}

std::vector<ChunkProof> buildProofs(const float *hidden, size_t tokens, size_t dim, size_t chunk)
{
    std::vector<ChunkProof> proofs;
    const size_t count = chunkCount(tokens, chunk);
    proofs.reserve(count);
    for (size_t c = 0; c < count; ++c) {
        const size_t first = c * chunk;
        const size_t rows = std::min(chunk, tokens - first);
        // A null hidden pointer gives null proofs (buildChunkProof checks), never pointer arithmetic on it.
        proofs.push_back(buildChunkProof(hidden ? hidden + first * dim : nullptr, rows, dim));
    }
    return proofs;
}

std::vector<std::vector<ChunkProof>> buildProofsForAll(const std::vector<CompletionStates> &completions, size_t dim,
                                                       const ParallelFor &parallel)
{
    std::vector<std::vector<ChunkProof>> proofs(completions.size());
    const std::function<void(size_t)> one = [&](size_t i) {
        proofs[i] = buildProofs(completions[i].hidden, completions[i].tokens, dim);
    };
    if (parallel)
        parallel(completions.size(), one);
    else
        for (size_t i = 0; i < completions.size(); ++i)
            one(i);
    return proofs;
}

std::string serialize(const std::vector<ChunkProof> &proofs)
{
    std::string out;
    out.reserve(proofs.size() * kProofBytes);
    auto put = [&out](uint16_t v) {
        out.push_back(char(uint8_t(v >> 8)));
        out.push_back(char(uint8_t(v & 0xFF)));
    };
    for (const ChunkProof &proof : proofs) {
        put(proof.modulus);
        for (const uint16_t c : proof.coefficients)
            put(c);
    }
    return out;
}

Result<std::vector<ChunkProof>> decode(std::string_view bytes, size_t expectedChunks)
{
    using R = Result<std::vector<ChunkProof>>;
    if (bytes.empty() && expectedChunks > 0)
        return R::failure("no proof bytes for a completion of " + std::to_string(expectedChunks) + " chunks");
    if (bytes.size() % kProofBytes != 0)
        return R::failure("proof length " + std::to_string(bytes.size()) + " is not a multiple of " +
                          std::to_string(kProofBytes) + " bytes");
    const size_t chunks = bytes.size() / kProofBytes;
    if (chunks != expectedChunks)
        return R::failure("proof has " + std::to_string(chunks) + " chunks, the completion needs " +
                          std::to_string(expectedChunks));
    auto get = [&bytes](size_t at) {
        return uint16_t((uint16_t(uint8_t(bytes[at])) << 8) | uint16_t(uint8_t(bytes[at + 1])));
    };
    std::vector<ChunkProof> proofs(chunks);
    for (size_t c = 0; c < chunks; ++c) {
        const size_t base = c * kProofBytes;
        ChunkProof &proof = proofs[c];
        proof.modulus = get(base);
        if (proof.modulus == 0)
            return R::failure("chunk " + std::to_string(c) + ": null proof (modulus 0)");
        if (proof.modulus > kMaxModulus)
            return R::failure("chunk " + std::to_string(c) + ": modulus " + std::to_string(proof.modulus) + " above " +
                              std::to_string(kMaxModulus));
        for (size_t i = 0; i < proof.coefficients.size(); ++i) {
            proof.coefficients[i] = get(base + 2 + 2 * i);
            if (proof.coefficients[i] >= gf::kP)
                return R::failure("chunk " + std::to_string(c) + ": coefficient " + std::to_string(i) + " = " +
                                  std::to_string(proof.coefficients[i]) +
                                  " is not below p = " + std::to_string(gf::kP));
        }
    }
    return R::success(std::move(proofs));
}

} // namespace cohort::toploc
