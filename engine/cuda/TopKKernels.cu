// TOPLOC on the GPU: per chunk, the k values of largest magnitude (toploc::topK's order) and their bf16 bits
// (toploc::bf16Bits), one thread block per chunk.
//
// Every value gets a 64-bit key, unique and ordered exactly as toploc::topK ranks values:
//   high word: |value|'s bits + 1 (non-negative floats order like their bits), or 0 for NaN (below every number)
//   low word:  0xFFFFFFFF - index (an equal magnitude goes to the lower index)
// The block finds the k-th largest high word with a 4-pass radix select (8 bits per pass, shared-memory
// histograms), takes every value above it and, in index order, as many equal to it as are still needed, then
// sorts those k keys with a bitonic network. Counts are exact integers, so the result does not depend on
// scheduling.
#include "cuda/Internal.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

namespace cohort::cuda {

namespace {

constexpr unsigned kThreads = 512;
constexpr unsigned kWarps = kThreads / 32;

__device__ __forceinline__ uint32_t magnitudeKey(float v)
{
    const uint32_t a = __float_as_uint(v) & 0x7FFFFFFFu;
    return a > 0x7F800000u ? 0u : a + 1u;
}

__device__ __forceinline__ unsigned long long fullKey(uint32_t magnitude, uint32_t index)
{
    return (static_cast<unsigned long long>(magnitude) << 32) | (0xFFFFFFFFu - index);
}

// toploc::bf16Bits: round to nearest even; NaN stays a quiet NaN with its sign and high payload.
__device__ __forceinline__ uint16_t bf16Bits(float value)
{
    const uint32_t bits = __float_as_uint(value);
    if ((bits & 0x7FFFFFFFu) > 0x7F800000u)
        return uint16_t((bits >> 16) | 0x0040u);
    return uint16_t((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
}

__global__ void __launch_bounds__(kThreads)
    chunkTopKKernel(const float *hidden, size_t tokens, size_t dim, size_t chunkTokens, uint32_t k,
                    uint32_t *outIndices, uint16_t *outBits)
{
    __shared__ uint32_t histogram[256];
    __shared__ unsigned long long selected[kMaxTopK];
    __shared__ uint32_t warpCounts[kWarps];
    __shared__ uint32_t chosenBin, countAbove, aboveSlots;

    const size_t chunk = blockIdx.x;
    const size_t firstRow = chunk * chunkTokens;
    const size_t rows = min(chunkTokens, tokens - firstRow);
    const float *x = hidden + firstRow * dim;
    const uint32_t n = uint32_t(rows * dim); // the host checked it fits
    const uint32_t keep = min(k, n);
    const unsigned tid = threadIdx.x;

    if (tid == 0)
        aboveSlots = 0;
    if (n <= keep) {
        for (uint32_t i = tid; i < n; i += kThreads)
            selected[i] = fullKey(magnitudeKey(x[i]), i);
    } else {
        // Radix select: after the passes, `threshold` is the keep-th largest magnitude key and `wanted` how many
        // values with exactly that key belong to the top (the rest of the top is strictly above it).
        uint32_t prefix = 0, mask = 0, wanted = keep;
        for (int shift = 24; shift >= 0; shift -= 8) {
            for (unsigned b = tid; b < 256; b += kThreads)
                histogram[b] = 0;
            __syncthreads();
            // Warp-aggregated: values cluster in a few bins (the top byte is mostly the exponent), so lanes with
            // the same bin add once. The loop runs the same number of times in every thread (full-mask sync).
            for (uint32_t base = 0; base < n; base += kThreads) {
                const uint32_t i = base + tid;
                uint32_t bin = 256; // no bin: out of range, or not under the prefix
                if (i < n) {
                    const uint32_t m = magnitudeKey(x[i]);
                    if ((m & mask) == prefix)
                        bin = (m >> shift) & 0xFFu;
                }
                const unsigned peers = __match_any_sync(0xFFFFFFFFu, bin);
                if (bin < 256 && (tid & 31u) == unsigned(__ffs(int(peers)) - 1))
                    atomicAdd(&histogram[bin], unsigned(__popc(peers)));
            }
            __syncthreads();
            if (tid == 0) {
                // The values matching the prefix number at least `wanted`, so the scan stops at some bin >= 0.
                uint32_t above = 0;
                unsigned bin = 255;
                for (; bin > 0; --bin) {
                    if (above + histogram[bin] >= wanted)
                        break;
                    above += histogram[bin];
                }
                chosenBin = bin;
                countAbove = above;
            }
            __syncthreads();
            wanted -= countAbove;
            prefix |= chosenBin << shift;
            mask |= 0xFFu << shift;
            __syncthreads(); // everyone has read chosenBin/countAbove before the next pass overwrites them
        }
        const uint32_t threshold = prefix;
        const uint32_t strictlyAbove = keep - wanted;

        // Collect: values above the threshold in any order (the sort below orders them); values equal to it in
        // index order, tile by tile, until `wanted` are taken (the lowest indices, as the tie-break demands).
        const unsigned lane = tid & 31u, warp = tid >> 5;
        uint32_t equalSoFar = 0; // the same in every thread
        for (size_t base = 0; base < n; base += kThreads) {
            const size_t i = base + tid;
            const uint32_t m = i < n ? magnitudeKey(x[i]) : 0u;
            if (i < n && m > threshold) {
                const uint32_t slot = atomicAdd(&aboveSlots, 1u);
                selected[slot] = fullKey(m, uint32_t(i));
            }
            const bool equal = i < n && m == threshold && equalSoFar < wanted;
            const unsigned ballot = __ballot_sync(0xFFFFFFFFu, equal);
            if (lane == 0)
                warpCounts[warp] = __popc(ballot);
            __syncthreads();
            uint32_t rank = __popc(ballot & ((1u << lane) - 1u));
            uint32_t tileEqual = 0;
            for (unsigned w = 0; w < kWarps; ++w) {
                rank += w < warp ? warpCounts[w] : 0u;
                tileEqual += warpCounts[w];
            }
            if (equal && equalSoFar + rank < wanted)
                selected[strictlyAbove + equalSoFar + rank] = fullKey(m, uint32_t(i));
            equalSoFar += tileEqual;
            __syncthreads(); // warpCounts is rewritten by the next tile
        }
    }

    // Bitonic sort of the keep keys, descending, padded with zero keys (below every real key) to a power of two.
    uint32_t padded = 1;
    while (padded < keep)
        padded <<= 1;
    for (uint32_t i = keep + tid; i < padded; i += kThreads)
        selected[i] = 0ull;
    __syncthreads();
    for (uint32_t size = 2; size <= padded; size <<= 1) {
        for (uint32_t stride = size >> 1; stride > 0; stride >>= 1) {
            for (uint32_t i = tid; i < padded; i += kThreads) {
                const uint32_t j = i ^ stride;
                if (j > i) {
                    const unsigned long long a = selected[i], b = selected[j];
                    const bool descending = (i & size) == 0;
                    if (descending ? a < b : a > b) {
                        selected[i] = b;
                        selected[j] = a;
                    }
                }
            }
            __syncthreads();
        }
    }

    uint32_t *indices = outIndices + chunk * k;
    uint16_t *bits = outBits + chunk * k;
    for (uint32_t r = tid; r < k; r += kThreads) {
        if (r < keep) {
            const uint32_t index = 0xFFFFFFFFu - uint32_t(selected[r] & 0xFFFFFFFFull);
            indices[r] = index;
            bits[r] = bf16Bits(x[index]);
        } else {
            indices[r] = kNoIndex;
            bits[r] = 0;
        }
    }
}

__global__ void __launch_bounds__(256) bf16PackKernel(const float *src, size_t n, uint16_t *dst)
{
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        dst[i] = bf16Bits(src[i]);
}

Status checkTopKArgs(const float *hidden, size_t tokens, size_t dim, size_t chunkTokens, int k, const void *indices,
                     const void *bits)
{
    if (Status s = detail::requireDevice(); !s)
        return s;
    if (k < 1 || k > kMaxTopK)
        return detail::invalid("chunkTopK: k must be in 1..1024");
    if (chunkTokens == 0)
        return detail::invalid("chunkTopK: chunkTokens must be > 0");
    if (dim != 0 && chunkTokens > (size_t(0xFFFFFFFFu) - kThreads) / dim)
        return detail::invalid("chunkTopK: a chunk must hold fewer than 2^32 - 512 values");
    if (tokens > 0 && dim > 0 && (hidden == nullptr || indices == nullptr || bits == nullptr))
        return detail::invalid("chunkTopK: null device pointer");
    if (chunkCount(tokens, chunkTokens) > 0x7FFFFFFFu)
        return detail::invalid("chunkTopK: too many chunks for one launch");
    return {};
}

} // namespace

Status chunkTopKDevice(const float *hidden, size_t tokens, size_t dim, size_t chunkTokens, int k, uint32_t *indices,
                       uint16_t *bf16, void *stream)
{
    if (Status s = checkTopKArgs(hidden, tokens, dim, chunkTokens, k, indices, bf16); !s)
        return s;
    const size_t chunks = chunkCount(tokens, chunkTokens);
    if (chunks == 0)
        return {};
    if (dim == 0) { // every chunk is empty: all slots are fillers
        const cudaStream_t st = detail::asStream(stream);
        if (Status s = detail::check(cudaMemsetAsync(indices, 0xFF, chunks * size_t(k) * sizeof(uint32_t), st),
                                     "cudaMemsetAsync");
            !s)
            return s;
        return detail::check(cudaMemsetAsync(bf16, 0, chunks * size_t(k) * sizeof(uint16_t), st), "cudaMemsetAsync");
    }
    chunkTopKKernel<<<unsigned(chunks), kThreads, 0, detail::asStream(stream)>>>(hidden, tokens, dim, chunkTokens,
                                                                                 uint32_t(k), indices, bf16);
    return detail::check(cudaGetLastError(), "chunk top-k kernel launch");
}

Status chunkTopKHost(const float *hidden, size_t tokens, size_t dim, size_t chunkTokens, int k,
                     std::vector<ChunkTopK> *out)
{
    if (out == nullptr)
        return detail::invalid("chunkTopKHost: null output");
    out->clear();
    if (Status s = checkTopKArgs(hidden, tokens, dim, chunkTokens, k, out, out); !s)
        return s;
    const size_t chunks = chunkCount(tokens, chunkTokens);
    const size_t slots = chunks * size_t(k);
    detail::DeviceArray<float> dHidden;
    detail::DeviceArray<uint32_t> dIndices;
    detail::DeviceArray<uint16_t> dBits;
    if (Status s = dHidden.allocate(tokens * dim); !s)
        return s;
    if (Status s = dIndices.allocate(slots); !s)
        return s;
    if (Status s = dBits.allocate(slots); !s)
        return s;
    if (Status s = dHidden.upload(hidden, tokens * dim); !s)
        return s;
    if (Status s = chunkTopKDevice(dHidden.get(), tokens, dim, chunkTokens, k, dIndices.get(), dBits.get(), nullptr);
        !s)
        return s;
    std::vector<uint32_t> indices(slots);
    std::vector<uint16_t> bits(slots);
    if (Status s = dIndices.download(indices.data(), slots); !s)
        return s;
    if (Status s = dBits.download(bits.data(), slots); !s)
        return s;
    out->resize(chunks);
    for (size_t c = 0; c < chunks; ++c) {
        const size_t rows = std::min(chunkTokens, tokens - c * chunkTokens);
        const size_t keep = std::min(size_t(k), rows * dim);
        (*out)[c].indices.assign(indices.begin() + ptrdiff_t(c * size_t(k)),
                                 indices.begin() + ptrdiff_t(c * size_t(k) + keep));
        (*out)[c].bf16.assign(bits.begin() + ptrdiff_t(c * size_t(k)), bits.begin() + ptrdiff_t(c * size_t(k) + keep));
    }
    return {};
}

Status bf16PackDevice(const float *src, size_t n, uint16_t *dst, void *stream)
{
    if (Status s = detail::requireDevice(); !s)
        return s;
    if (n == 0)
        return {};
    if (src == nullptr || dst == nullptr)
        return detail::invalid("bf16Pack: null device pointer");
    bf16PackKernel<<<detail::gridFor(n, 256), 256, 0, detail::asStream(stream)>>>(src, n, dst);
    return detail::check(cudaGetLastError(), "bf16 pack kernel launch");
}

Status bf16PackHost(std::span<const float> src, std::span<uint16_t> dst)
{
    if (Status s = detail::requireDevice(); !s)
        return s;
    if (src.size() != dst.size())
        return detail::invalid("bf16PackHost: source and destination lengths differ");
    detail::DeviceArray<float> dSrc;
    detail::DeviceArray<uint16_t> dDst;
    if (Status s = dSrc.allocate(src.size()); !s)
        return s;
    if (Status s = dDst.allocate(dst.size()); !s)
        return s;
    if (Status s = dSrc.upload(src.data(), src.size()); !s)
        return s;
    if (Status s = bf16PackDevice(dSrc.get(), src.size(), dDst.get(), nullptr); !s)
        return s;
    return dDst.download(dst.data(), dst.size());
}

} // namespace cohort::cuda
