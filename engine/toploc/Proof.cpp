#include "toploc/Proof.h"

#include "toploc/Gf65497.h"

#include <algorithm>
#include <bit>
#include <cmath>
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

std::vector<size_t> topK(const float *values, size_t n, int k)
{
    if (k <= 0 || values == nullptr || n == 0)
        return {};
    const size_t keep = std::min(n, size_t(k));
    // NaN gets magnitude -1 so `better` is a strict total order (no NaN comparisons, index tie-break).
    struct Entry {
        float magnitude;
        size_t index;
    };
    auto better = [](const Entry &a, const Entry &b) {
        return a.magnitude != b.magnitude ? a.magnitude > b.magnitude : a.index < b.index;
    };
    // One pass with a heap of the best `keep` so far, its worst entry on top: most values cost one comparison,
    // which matters at 32 x 4096 values per chunk. Indices arrive in increasing order, so a newcomer only displaces
    // the worst on a strictly larger magnitude (an equal one loses the index tie-break).
    std::vector<Entry> heap;
    heap.reserve(keep);
    for (size_t i = 0; i < n; ++i) {
        const float v = values[i];
        const Entry e{std::isnan(v) ? -1.0f : std::fabs(v), i};
        if (heap.size() < keep) {
            heap.push_back(e);
            std::push_heap(heap.begin(), heap.end(), better);
        } else if (e.magnitude > heap.front().magnitude) {
            std::pop_heap(heap.begin(), heap.end(), better);
            heap.back() = e;
            std::push_heap(heap.begin(), heap.end(), better);
        }
    }
    std::sort(heap.begin(), heap.end(), better);
    std::vector<size_t> order(heap.size());
    for (size_t i = 0; i < heap.size(); ++i)
        order[i] = heap[i].index;
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
