// Min-max quantization kernels. The per-element arithmetic is quant/QuantMath.h, the same code the CPU reference
// runs (device branch: explicitly rounded intrinsics), so codes and de-quantized values match it bit for bit.
#include "cuda/Internal.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

namespace cohort::cuda {

namespace {

constexpr unsigned kThreads = 256;

// Float -> unsigned key with the same order (negative values reversed below the positive ones); min/max become
// integer atomics, exact and independent of the order blocks finish in.
__device__ __forceinline__ uint32_t orderedKey(float f)
{
    const uint32_t u = __float_as_uint(f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

float fromOrderedKey(uint32_t k)
{
    const uint32_t u = (k & 0x80000000u) ? (k & 0x7FFFFFFFu) : ~k;
    float f;
    static_assert(sizeof f == sizeof u);
    std::memcpy(&f, &u, sizeof f);
    return f;
}

// result[0] = min key, result[1] = max key (finite values only), result[2] = 1 if any value was NaN/inf.
__global__ void __launch_bounds__(kThreads) minMaxKernel(const float *src, size_t n, uint32_t *result)
{
    uint32_t lo = 0xFFFFFFFFu, hi = 0u, bad = 0u;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        const float x = src[i];
        if (quant::math::finite(x)) {
            const uint32_t k = orderedKey(x);
            lo = min(lo, k);
            hi = max(hi, k);
        } else {
            bad = 1u;
        }
    }
    for (int offset = 16; offset > 0; offset >>= 1) {
        lo = min(lo, __shfl_down_sync(0xFFFFFFFFu, lo, offset));
        hi = max(hi, __shfl_down_sync(0xFFFFFFFFu, hi, offset));
        bad |= __shfl_down_sync(0xFFFFFFFFu, bad, offset);
    }
    __shared__ uint32_t warpLo[kThreads / 32], warpHi[kThreads / 32], warpBad[kThreads / 32];
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    if (lane == 0) {
        warpLo[warp] = lo;
        warpHi[warp] = hi;
        warpBad[warp] = bad;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (unsigned w = 1; w < kThreads / 32; ++w) {
            lo = min(lo, warpLo[w]);
            hi = max(hi, warpHi[w]);
            bad |= warpBad[w];
        }
        atomicMin(&result[0], lo);
        atomicMax(&result[1], hi);
        if (bad)
            atomicOr(&result[2], 1u);
    }
}

template <typename Q>
__global__ void __launch_bounds__(kThreads)
    quantizeKernel(const float *src, size_t n, float min, float scale, uint32_t levels, Q *dst, uint32_t *nonFinite)
{
    bool bad = false;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        const float x = src[i];
        bad |= !quant::math::finite(x);
        dst[i] = Q(quant::math::encode(x, min, scale, levels));
    }
    if (bad)
        atomicOr(nonFinite, 1u);
}

template <typename Q>
__global__ void __launch_bounds__(kThreads) dequantizeKernel(const Q *src, size_t n, float min, float scale, float *dst)
{
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        dst[i] = quant::math::decode(src[i], min, scale);
}

template <typename Q>
__global__ void __launch_bounds__(kThreads)
    dequantizeAccumulateKernel(const Q *src, size_t n, float min, float scale, float *dst)
{
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        dst[i] = quant::math::decodeAccumulate(dst[i], src[i], min, scale);
}

// A few words of device scratch on `stream`, freed (stream-ordered) on scope exit.
class Scratch {
public:
    explicit Scratch(cudaStream_t stream)
        : m_stream(stream)
    {}
    Scratch(const Scratch &) = delete;
    Scratch &operator=(const Scratch &) = delete;
    ~Scratch()
    {
        if (m_ptr)
            cudaFreeAsync(m_ptr, m_stream);
    }
    Status allocate(const uint32_t *init, size_t words)
    {
        if (Status s =
                detail::check(cudaMallocAsync(reinterpret_cast<void **>(&m_ptr), words * sizeof(uint32_t), m_stream),
                              "cudaMallocAsync");
            !s)
            return s;
        return detail::check(cudaMemcpyAsync(m_ptr, init, words * sizeof(uint32_t), cudaMemcpyHostToDevice, m_stream),
                             "cudaMemcpyAsync (scratch)");
    }
    Status read(uint32_t *out, size_t words)
    {
        if (Status s =
                detail::check(cudaMemcpyAsync(out, m_ptr, words * sizeof(uint32_t), cudaMemcpyDeviceToHost, m_stream),
                              "cudaMemcpyAsync (result)");
            !s)
            return s;
        return detail::check(cudaStreamSynchronize(m_stream), "cudaStreamSynchronize");
    }
    uint32_t *get() const { return m_ptr; }

private:
    cudaStream_t m_stream;
    uint32_t *m_ptr = nullptr;
};

Status checkArgs(const void *src, const void *dst, size_t n, const quant::QuantParams &params, uint32_t levels)
{
    if (Status s = detail::requireDevice(); !s)
        return s;
    if (n > 0 && (src == nullptr || dst == nullptr))
        return detail::invalid("null device pointer");
    if (!quant::validParams(params, levels))
        return detail::fromQuant(ErrorCode::BadParams);
    return {};
}

template <typename Q>
Status quantizeImpl(const float *src, size_t n, const quant::QuantParams &params, Q *dst, void *stream)
{
    if (Status s = checkArgs(src, dst, n, params, quant::kLevels<Q>); !s)
        return s;
    if (n == 0)
        return {};
    const cudaStream_t st = detail::asStream(stream);
    Scratch flag(st);
    const uint32_t zero = 0;
    if (Status s = flag.allocate(&zero, 1); !s)
        return s;
    quantizeKernel<Q><<<detail::gridFor(n, kThreads), kThreads, 0, st>>>(src, n, params.min, params.scale,
                                                                         quant::kLevels<Q>, dst, flag.get());
    if (Status s = detail::check(cudaGetLastError(), "quantize kernel launch"); !s)
        return s;
    uint32_t bad = 0;
    if (Status s = flag.read(&bad, 1); !s)
        return s;
    return bad ? detail::fromQuant(ErrorCode::NonFinite) : Status{};
}

template <typename Q>
Status dequantizeImpl(const Q *src, size_t n, const quant::QuantParams &params, float *dst, void *stream,
                      bool accumulate)
{
    if (Status s = checkArgs(src, dst, n, params, quant::kLevels<Q>); !s)
        return s;
    if (n == 0)
        return {};
    const cudaStream_t st = detail::asStream(stream);
    if (accumulate)
        dequantizeAccumulateKernel<Q>
            <<<detail::gridFor(n, kThreads), kThreads, 0, st>>>(src, n, params.min, params.scale, dst);
    else
        dequantizeKernel<Q><<<detail::gridFor(n, kThreads), kThreads, 0, st>>>(src, n, params.min, params.scale, dst);
    return detail::check(cudaGetLastError(),
                         accumulate ? "dequantize-accumulate kernel launch" : "dequantize kernel launch");
}

// ---- host-pointer forms ----

template <typename Q>
Status quantizeHostImpl(std::span<const float> src, const quant::QuantParams &params, std::span<Q> dst)
{
    if (Status s = detail::requireDevice(); !s)
        return s;
    if (src.size() != dst.size())
        return detail::fromQuant(ErrorCode::SizeMismatch);
    detail::DeviceArray<float> dSrc;
    detail::DeviceArray<Q> dDst;
    if (Status s = dSrc.allocate(src.size()); !s)
        return s;
    if (Status s = dDst.allocate(dst.size()); !s)
        return s;
    if (Status s = dSrc.upload(src.data(), src.size()); !s)
        return s;
    const Status result = quantizeImpl<Q>(dSrc.get(), src.size(), params, dDst.get(), nullptr);
    if (!result && result.code != ErrorCode::NonFinite)
        return result;
    if (Status s = dDst.download(dst.data(), dst.size()); !s)
        return s;
    return result;
}

template <typename Q>
Status dequantizeHostImpl(std::span<const Q> src, const quant::QuantParams &params, std::span<float> dst,
                          bool accumulate)
{
    if (Status s = detail::requireDevice(); !s)
        return s;
    if (src.size() != dst.size())
        return detail::fromQuant(ErrorCode::SizeMismatch);
    detail::DeviceArray<Q> dSrc;
    detail::DeviceArray<float> dDst;
    if (Status s = dSrc.allocate(src.size()); !s)
        return s;
    if (Status s = dDst.allocate(dst.size()); !s)
        return s;
    if (Status s = dSrc.upload(src.data(), src.size()); !s)
        return s;
    if (accumulate)
        if (Status s = dDst.upload(dst.data(), dst.size()); !s)
            return s;
    if (Status s = dequantizeImpl<Q>(dSrc.get(), src.size(), params, dDst.get(), nullptr, accumulate); !s)
        return s;
    return dDst.download(dst.data(), dst.size());
}

} // namespace

Status computeParamsDevice(const float *src, size_t n, uint32_t levels, quant::QuantParams *out, void *stream)
{
    if (Status s = detail::requireDevice(); !s)
        return s;
    if (out == nullptr || (n > 0 && src == nullptr))
        return detail::invalid("computeParamsDevice: null pointer");
    if (levels == 0)
        return detail::fromQuant(ErrorCode::BadParams); // as quant::paramsFromRange says of no levels
    if (n == 0) {
        *out = {0.0f, 0.0f}; // quant::computeParams on an empty span
        return {};
    }
    const cudaStream_t st = detail::asStream(stream);
    Scratch result(st);
    const uint32_t init[3] = {0xFFFFFFFFu, 0u, 0u};
    if (Status s = result.allocate(init, 3); !s)
        return s;
    minMaxKernel<<<detail::gridFor(n, kThreads), kThreads, 0, st>>>(src, n, result.get());
    if (Status s = detail::check(cudaGetLastError(), "min/max kernel launch"); !s)
        return s;
    uint32_t words[3] = {0, 0, 0};
    if (Status s = result.read(words, 3); !s)
        return s;
    if (words[2] != 0u)
        return detail::fromQuant(ErrorCode::NonFinite);
    const quant::ParamsResult params =
        quant::paramsFromRange(fromOrderedKey(words[0]), fromOrderedKey(words[1]), levels);
    if (!params)
        return detail::fromQuant(params.code);
    *out = params.params;
    return {};
}

Status quantizeDevice(const float *src, size_t n, const quant::QuantParams &params, uint8_t *dst, void *stream)
{
    return quantizeImpl<uint8_t>(src, n, params, dst, stream);
}
Status quantizeDevice(const float *src, size_t n, const quant::QuantParams &params, uint16_t *dst, void *stream)
{
    return quantizeImpl<uint16_t>(src, n, params, dst, stream);
}
Status dequantizeDevice(const uint8_t *src, size_t n, const quant::QuantParams &params, float *dst, void *stream)
{
    return dequantizeImpl<uint8_t>(src, n, params, dst, stream, false);
}
Status dequantizeDevice(const uint16_t *src, size_t n, const quant::QuantParams &params, float *dst, void *stream)
{
    return dequantizeImpl<uint16_t>(src, n, params, dst, stream, false);
}
Status dequantizeAccumulateDevice(const uint8_t *src, size_t n, const quant::QuantParams &params, float *dst,
                                  void *stream)
{
    return dequantizeImpl<uint8_t>(src, n, params, dst, stream, true);
}
Status dequantizeAccumulateDevice(const uint16_t *src, size_t n, const quant::QuantParams &params, float *dst,
                                  void *stream)
{
    return dequantizeImpl<uint16_t>(src, n, params, dst, stream, true);
}

Status computeParamsHost(std::span<const float> src, uint32_t levels, quant::QuantParams *out)
{
    if (Status s = detail::requireDevice(); !s)
        return s;
    detail::DeviceArray<float> dSrc;
    if (Status s = dSrc.allocate(src.size()); !s)
        return s;
    if (Status s = dSrc.upload(src.data(), src.size()); !s)
        return s;
    return computeParamsDevice(dSrc.get(), src.size(), levels, out, nullptr);
}

Status quantizeHost(std::span<const float> src, const quant::QuantParams &params, std::span<uint8_t> dst)
{
    return quantizeHostImpl<uint8_t>(src, params, dst);
}
Status quantizeHost(std::span<const float> src, const quant::QuantParams &params, std::span<uint16_t> dst)
{
    return quantizeHostImpl<uint16_t>(src, params, dst);
}
Status dequantizeHost(std::span<const uint8_t> src, const quant::QuantParams &params, std::span<float> dst)
{
    return dequantizeHostImpl<uint8_t>(src, params, dst, false);
}
Status dequantizeHost(std::span<const uint16_t> src, const quant::QuantParams &params, std::span<float> dst)
{
    return dequantizeHostImpl<uint16_t>(src, params, dst, false);
}
Status dequantizeAccumulateHost(std::span<const uint8_t> src, const quant::QuantParams &params, std::span<float> dst)
{
    return dequantizeHostImpl<uint8_t>(src, params, dst, true);
}
Status dequantizeAccumulateHost(std::span<const uint16_t> src, const quant::QuantParams &params, std::span<float> dst)
{
    return dequantizeHostImpl<uint16_t>(src, params, dst, true);
}

} // namespace cohort::cuda
