#include "KernelChecks.h"

#include "cuda/CudaKernels.h"
#include "quant/Quantize.h"
#include "toploc/Proof.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <span>
#include <vector>

namespace cohort::kernelchecks {

namespace {

using Clock = std::chrono::steady_clock;

std::string format(const char *fmt, auto... args)
{
    char buf[512];
    std::snprintf(buf, sizeof buf, fmt, args...);
    return buf;
}

template <typename T>
bool deviceAlloc(T **ptr, size_t bytes)
{
    return cudaMalloc(reinterpret_cast<void **>(ptr), bytes) == cudaSuccess;
}

float fromBits(uint32_t bits)
{
    return std::bit_cast<float>(bits);
}
uint32_t bitsOf(float f)
{
    return std::bit_cast<uint32_t>(f);
}

std::vector<float> makeValues(size_t n, Pattern pattern, uint64_t seed)
{
    std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + uint64_t(pattern));
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::uniform_int_distribution<int> pick(0, 1 << 20);
    std::vector<float> v(n);
    switch (pattern) {
    case Pattern::Gaussian:
        for (float &x : v)
            x = normal(rng);
        break;
    case Pattern::Offset:
        for (float &x : v)
            x = 1000.0f + 0.01f * normal(rng);
        break;
    case Pattern::Ties: {
        static const float levels[] = {0.0f, -0.0f, 0.5f, -0.5f, 1.0f, -1.0f, 2.0f, -2.0f, 3.5f};
        for (float &x : v)
            x = levels[size_t(pick(rng)) % std::size(levels)];
        break;
    }
    case Pattern::Bf16Grid:
        for (float &x : v)
            x = fromBits(uint32_t(toploc::bf16Bits(normal(rng))) << 16);
        break;
    case Pattern::Special:
    case Pattern::NonFinite: {
        const float finiteSpecials[] = {0.0f,
                                        -0.0f,
                                        fromBits(1),
                                        fromBits(0x80000001u),
                                        fromBits(0x007FFFFFu),
                                        std::numeric_limits<float>::min(),
                                        1e30f,
                                        -1e30f,
                                        std::numeric_limits<float>::max() / 8,
                                        -std::numeric_limits<float>::max() / 8};
        const float nonFinite[] = {std::numeric_limits<float>::quiet_NaN(),
                                   -std::numeric_limits<float>::quiet_NaN(),
                                   fromBits(0x7F800001u),
                                   fromBits(0xFFC12345u),
                                   fromBits(0x7FFFFFFFu),
                                   std::numeric_limits<float>::infinity(),
                                   -std::numeric_limits<float>::infinity()};
        for (float &x : v) {
            x = normal(rng);
            const int r = pick(rng);
            if (r % 50 == 0)
                x = pattern == Pattern::Special ? finiteSpecials[size_t(r / 50) % std::size(finiteSpecials)]
                                                : nonFinite[size_t(r / 50) % std::size(nonFinite)];
        }
        if (pattern == Pattern::NonFinite && n > 0)
            v[n / 2] = std::numeric_limits<float>::quiet_NaN(); // at least one, whatever the draw
        break;
    }
    case Pattern::Constant: {
        const float c = normal(rng);
        std::fill(v.begin(), v.end(), c);
        break;
    }
    }
    return v;
}

template <typename T>
std::string firstDifference(const char *what, std::span<const T> cpu, std::span<const T> gpu)
{
    if (cpu.size() != gpu.size())
        return format("%s: %zu CPU values, %zu GPU values", what, cpu.size(), gpu.size());
    for (size_t i = 0; i < cpu.size(); ++i) {
        if constexpr (std::is_same_v<T, float>) {
            if (bitsOf(cpu[i]) != bitsOf(gpu[i]))
                return format("%s differ at %zu of %zu: CPU %.9g (0x%08x), GPU %.9g (0x%08x)", what, i, cpu.size(),
                              double(cpu[i]), bitsOf(cpu[i]), double(gpu[i]), bitsOf(gpu[i]));
        } else if (cpu[i] != gpu[i]) {
            return format("%s differ at %zu of %zu: CPU %llu, GPU %llu", what, i, cpu.size(),
                          (unsigned long long)cpu[i], (unsigned long long)gpu[i]);
        }
    }
    return {};
}

template <quant::Word Q>
std::string quantCheck(const std::vector<float> &values, uint64_t seed)
{
    constexpr uint32_t L = quant::kLevels<Q>;
    const size_t n = values.size();
    const quant::ParamsResult cpu = quant::computeParams<Q>(values);
    quant::QuantParams gpuParams;
    const cuda::Status g = cuda::computeParamsHost(values, L, &gpuParams);
    if (g.code != cpu.code)
        return format("computeParams: CPU says \"%s\", GPU says \"%s\"", quant::describe(cpu.code), g.error.c_str());
    if (cpu.ok() &&
        (bitsOf(cpu.params.min) != bitsOf(gpuParams.min) || bitsOf(cpu.params.scale) != bitsOf(gpuParams.scale)))
        return format("params differ: CPU (%.9g, %.9g), GPU (%.9g, %.9g)", double(cpu.params.min),
                      double(cpu.params.scale), double(gpuParams.min), double(gpuParams.scale));
    // A refused span is still quantized with a header from elsewhere (what a receiver's buffer could hold).
    const quant::QuantParams params = cpu.ok() ? cpu.params : quant::QuantParams{-4.0f, 8.0f / float(L)};

    std::vector<Q> cpuCodes(n), gpuCodes(n, Q(0xAB));
    const ErrorCode cq = quant::quantize<Q>(values, params, cpuCodes);
    const cuda::Status gq = cuda::quantizeHost(values, params, std::span<Q>(gpuCodes));
    if (gq.code != cq)
        return format("quantize: CPU says \"%s\", GPU says \"%s\"", quant::describe(cq), gq.error.c_str());
    if (auto d = firstDifference<Q>("codes", cpuCodes, gpuCodes); !d.empty())
        return d;

    std::vector<float> cpuBack(n), gpuBack(n, -1.0f);
    if (quant::dequantize<Q>(cpuCodes, params, cpuBack) != ErrorCode::None)
        return "CPU dequantize failed";
    if (auto s = cuda::dequantizeHost(std::span<const Q>(cpuCodes), params, gpuBack); !s)
        return "GPU dequantize: " + s.error;
    if (auto d = firstDifference<float>("de-quantized values", cpuBack, gpuBack); !d.empty())
        return d;

    const std::vector<float> acc0 = makeValues(n, Pattern::Gaussian, seed + 1);
    std::vector<float> cpuAcc = acc0, gpuAcc = acc0;
    if (quant::dequantizeAccumulate<Q>(cpuCodes, params, cpuAcc) != ErrorCode::None)
        return "CPU dequantizeAccumulate failed";
    if (auto s = cuda::dequantizeAccumulateHost(std::span<const Q>(cpuCodes), params, gpuAcc); !s)
        return "GPU dequantizeAccumulate: " + s.error;
    return firstDifference<float>("accumulated values", cpuAcc, gpuAcc);
}

} // namespace

const char *patternName(Pattern pattern)
{
    switch (pattern) {
    case Pattern::Gaussian: return "gaussian";
    case Pattern::Offset: return "offset";
    case Pattern::Ties: return "ties";
    case Pattern::Bf16Grid: return "bf16-grid";
    case Pattern::Special: return "special";
    case Pattern::NonFinite: return "non-finite";
    case Pattern::Constant: return "constant";
    }
    return "?";
}

std::string QuantCase::name() const
{
    return format("n=%zu u%d %s", n, bits, patternName(pattern));
}

std::string TopKCase::name() const
{
    return format("%zux%zu k=%d %s", tokens, dim, k, patternName(pattern));
}

std::vector<QuantCase> quantCases()
{
    std::vector<QuantCase> cases;
    for (const size_t n : {size_t(1), size_t(7), size_t(1023), size_t(4097), size_t(65537), (size_t(1) << 22) + 3})
        for (const int bits : {8, 16})
            for (const Pattern p : {Pattern::Gaussian, Pattern::Offset, Pattern::Ties, Pattern::Special,
                                    Pattern::NonFinite, Pattern::Constant})
                cases.push_back({n, bits, p});
    return cases;
}

std::vector<TopKCase> topKCases()
{
    std::vector<TopKCase> cases;
    const std::pair<size_t, size_t> shapes[] = {{1, 1}, {3, 7}, {33, 5}, {32, 4}, {97, 256}, {64, 4096}, {45, 1023}};
    for (const auto &[tokens, dim] : shapes)
        for (const Pattern p : {Pattern::Gaussian, Pattern::Ties, Pattern::Bf16Grid, Pattern::Special,
                                Pattern::NonFinite, Pattern::Constant})
            cases.push_back({tokens, dim, toploc::kTopK, p});
    cases.push_back({70, 33, 1, Pattern::Ties});
    cases.push_back({70, 33, 1000, Pattern::Bf16Grid});
    cases.push_back({64, 64, 1024, Pattern::Ties});
    return cases;
}

std::string run(const QuantCase &c)
{
    return quantMatches(c.n, c.bits, c.pattern, c.n * 131 + uint64_t(c.bits));
}

std::string run(const TopKCase &c)
{
    return topKMatches(c.tokens, c.dim, toploc::kChunkTokens, c.k, c.pattern, c.tokens * 7919 + c.dim);
}

std::string quantMatches(size_t n, int bits, Pattern pattern, uint64_t seed)
{
    const std::vector<float> values = makeValues(n, pattern, seed);
    return bits == 8 ? quantCheck<uint8_t>(values, seed) : quantCheck<uint16_t>(values, seed);
}

std::string topKMatches(size_t tokens, size_t dim, size_t chunkTokens, int k, Pattern pattern, uint64_t seed)
{
    const std::vector<float> hidden = makeValues(tokens * dim, pattern, seed);
    std::vector<cuda::ChunkTopK> gpu;
    if (auto s = cuda::chunkTopKHost(hidden.data(), tokens, dim, chunkTokens, k, &gpu); !s)
        return "GPU chunkTopK: " + s.error;
    const size_t chunks = toploc::chunkCount(tokens, chunkTokens);
    if (gpu.size() != chunks)
        return format("%zu GPU chunks, %zu expected", gpu.size(), chunks);
    for (size_t c = 0; c < chunks; ++c) {
        const size_t rows = std::min(chunkTokens, tokens - c * chunkTokens);
        const float *base = hidden.data() + c * chunkTokens * dim;
        const std::vector<size_t> ref = toploc::topK(base, rows * dim, k);
        std::vector<uint32_t> refIndices(ref.begin(), ref.end());
        std::vector<uint16_t> refBits;
        for (const size_t i : ref)
            refBits.push_back(toploc::bf16Bits(base[i]));
        const std::string where = format("chunk %zu: ", c);
        if (auto d = firstDifference<uint32_t>("indices", refIndices, gpu[c].indices); !d.empty())
            return where + d;
        if (auto d = firstDifference<uint16_t>("bf16 bits", refBits, gpu[c].bf16); !d.empty())
            return where + d;
    }
    return {};
}

std::string bf16Matches(size_t n, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::vector<float> values(n);
    for (size_t i = 0; i < n; ++i) {
        uint32_t bits = uint32_t(rng());
        switch (i % 4) {
        case 0: break;                                            // any pattern: NaNs, infinities, subnormals
        case 1: bits = (bits & 0xFFFF0000u) | 0x8000u; break;     // exactly half way: ties to even
        case 2: bits = (bits & 0x807FFFFFu) | 0x7F800000u; break; // exponent all ones: inf and NaN payloads
        case 3: bits = (bits & 0xFFFF0000u) | 0x7FFFu; break;     // just below half way
        }
        values[i] = fromBits(bits);
    }
    std::vector<uint16_t> gpu(n);
    if (auto s = cuda::bf16PackHost(values, gpu); !s)
        return "GPU bf16Pack: " + s.error;
    std::vector<uint16_t> cpu(n);
    for (size_t i = 0; i < n; ++i)
        cpu[i] = toploc::bf16Bits(values[i]);
    return firstDifference<uint16_t>("bf16 bits", cpu, gpu);
}

std::string argumentErrorsAreValues()
{
    using Code = ErrorCode;
    std::string failures;
    auto expect = [&failures](const char *what, const cuda::Status &s, Code code) {
        if (s.code != code)
            failures += format("%s: got code %d (\"%s\"), want %d; ", what, int(s.code), s.error.c_str(), int(code));
        else if (code != Code::None && s.error.empty())
            failures += format("%s: no message; ", what);
    };
    quant::QuantParams p;
    const std::vector<float> five{1, 2, 3, 4, 5};
    std::vector<uint8_t> four(4), fiveCodes(5);
    std::vector<float> out(5);
    expect("computeParamsDevice(null)", cuda::computeParamsDevice(nullptr, 5, 255, &p), Code::InvalidArgument);
    // No levels: the CPU reference's paramsFromRange refuses it as BadParams; the device path says the same.
    expect("computeParamsDevice(no levels)", cuda::computeParamsDevice(five.data(), 5, 0, &p), Code::BadParams);
    expect("computeParamsHost(empty)", cuda::computeParamsHost({}, 255, &p), Code::None);
    expect("quantizeHost(size mismatch)", cuda::quantizeHost(five, {0.0f, 1.0f}, four), Code::SizeMismatch);
    expect("quantizeHost(NaN header)", cuda::quantizeHost(five, {std::nanf(""), 1.0f}, std::span<uint8_t>(fiveCodes)),
           Code::BadParams);
    expect("dequantizeHost(negative scale)",
           cuda::dequantizeHost(std::span<const uint8_t>(fiveCodes), {0.0f, -1.0f}, out), Code::BadParams);
    expect("quantizeDevice(null)", cuda::quantizeDevice(nullptr, 5, {0.0f, 1.0f}, static_cast<uint8_t *>(nullptr)),
           Code::InvalidArgument);
    expect("quantizeDevice(n = 0, null)",
           cuda::quantizeDevice(nullptr, 0, {0.0f, 1.0f}, static_cast<uint16_t *>(nullptr)), Code::None);
    const float big = std::numeric_limits<float>::max();
    const std::vector<float> huge{-big, big}, withNan{1.0f, std::nanf(""), 2.0f};
    expect("computeParamsHost(range overflow)", cuda::computeParamsHost(huge, 255, &p), Code::RangeTooLarge);
    expect("computeParamsHost(NaN)", cuda::computeParamsHost(withNan, 65535, &p), Code::NonFinite);
    std::vector<cuda::ChunkTopK> topk;
    const std::vector<float> hidden(64, 1.0f);
    expect("chunkTopKHost(k = 0)", cuda::chunkTopKHost(hidden.data(), 8, 8, 4, 0, &topk), Code::InvalidArgument);
    expect("chunkTopKHost(k = 1025)", cuda::chunkTopKHost(hidden.data(), 8, 8, 4, 1025, &topk), Code::InvalidArgument);
    expect("chunkTopKHost(chunk 0)", cuda::chunkTopKHost(hidden.data(), 8, 8, 0, 128, &topk), Code::InvalidArgument);
    expect("chunkTopKHost(null output)", cuda::chunkTopKHost(hidden.data(), 8, 8, 4, 128, nullptr),
           Code::InvalidArgument);
    expect("chunkTopKHost(no tokens)", cuda::chunkTopKHost(hidden.data(), 0, 8, 4, 128, &topk), Code::None);
    expect("chunkTopKHost(dim 0)", cuda::chunkTopKHost(hidden.data(), 8, 0, 4, 128, &topk), Code::None);
    if (topk.size() != 2 || !topk[0].indices.empty())
        failures += "chunkTopKHost(dim 0): want 2 empty chunks; ";
    expect("selectDevice(-1)", cuda::selectDevice(-1), Code::InvalidArgument);
    expect("selectDevice(count)", cuda::selectDevice(cuda::deviceCount()), Code::InvalidArgument);
    expect("selectDevice(0)", cuda::selectDevice(0), Code::None);
    return failures;
}

std::string noDeviceIsAnErrorValue()
{
    using Code = ErrorCode;
    if (cuda::deviceCount() != 0)
        return "a device is present";
    if (cuda::unavailableReason().empty())
        return "no reason given for the missing device";
    if (!cuda::devices().empty())
        return "devices() lists devices";
    std::string failures;
    auto expect = [&failures](const char *what, const cuda::Status &s) {
        if (s.code != Code::NoDevice || s.error.empty())
            failures += format("%s: got code %d (\"%s\"); ", what, int(s.code), s.error.c_str());
    };
    quant::QuantParams p;
    const std::vector<float> values{1, 2, 3};
    std::vector<uint8_t> c8(3);
    std::vector<uint16_t> c16(3);
    std::vector<float> out(3);
    std::vector<cuda::ChunkTopK> topk;
    expect("computeParamsHost", cuda::computeParamsHost(values, 255, &p));
    expect("computeParamsDevice", cuda::computeParamsDevice(values.data(), 3, 255, &p));
    expect("quantizeHost/8", cuda::quantizeHost(values, {0.0f, 1.0f}, std::span<uint8_t>(c8)));
    expect("quantizeHost/16", cuda::quantizeHost(values, {0.0f, 1.0f}, std::span<uint16_t>(c16)));
    expect("dequantizeHost", cuda::dequantizeHost(std::span<const uint8_t>(c8), {0.0f, 1.0f}, out));
    expect("dequantizeAccumulateHost",
           cuda::dequantizeAccumulateHost(std::span<const uint16_t>(c16), {0.0f, 1.0f}, out));
    expect("dequantizeAccumulateDevice", cuda::dequantizeAccumulateDevice(c8.data(), 3, {0.0f, 1.0f}, out.data()));
    expect("chunkTopKHost", cuda::chunkTopKHost(values.data(), 3, 1, 32, 128, &topk));
    expect("bf16PackHost", cuda::bf16PackHost(values, c16));
    expect("selectDevice", cuda::selectDevice(0));
    return failures;
}

std::string benchmarkReport()
{
    if (!cuda::cudaAvailable())
        return "no CUDA device: " + cuda::unavailableReason() + "\n";
    std::string report;
    auto seconds = [](Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); };
    auto best = [&](int repeats, auto &&fn) {
        double b = 1e30;
        for (int r = 0; r < repeats; ++r) {
            const auto t0 = Clock::now();
            fn();
            b = std::min(b, seconds(t0));
        }
        return b;
    };

    // Quantization: params + codes (what a sender does), and de-quantize-accumulate (a receiver), on 64 Mi floats.
    {
        const size_t n = size_t(1) << 26, nCpu = size_t(1) << 24;
        const std::vector<float> host = makeValues(n, Pattern::Gaussian, 1);
        float *dSrc = nullptr, *dAcc = nullptr;
        uint8_t *dCodes = nullptr;
        if (!deviceAlloc(&dSrc, n * 4) || !deviceAlloc(&dAcc, n * 4) || !deviceAlloc(&dCodes, n)) {
            cudaFree(dSrc);
            cudaFree(dAcc);
            return "cudaMalloc failed for the benchmark\n";
        }
        cudaMemcpy(dSrc, host.data(), n * 4, cudaMemcpyHostToDevice);
        cudaMemcpy(dAcc, host.data(), n * 4, cudaMemcpyHostToDevice);
        quant::QuantParams p;
        bool ok = true;
        const double tq = best(5, [&] {
            ok =
                ok && cuda::computeParamsDevice(dSrc, n, 255, &p).ok() && cuda::quantizeDevice(dSrc, n, p, dCodes).ok();
        });
        const double ta = best(5, [&] {
            ok = ok && cuda::dequantizeAccumulateDevice(dCodes, n, p, dAcc).ok();
            cudaDeviceSynchronize();
        });
        cudaFree(dSrc);
        cudaFree(dAcc);
        cudaFree(dCodes);
        const std::span<const float> cpuSrc(host.data(), nCpu);
        std::vector<uint8_t> codes(nCpu);
        std::vector<float> acc(host.begin(), host.begin() + ptrdiff_t(nCpu));
        const double cq = best(2, [&] {
            const auto cp = quant::computeParams<uint8_t>(cpuSrc);
            (void)quant::quantize<uint8_t>(cpuSrc, cp.params, codes);
        });
        const auto cp = quant::computeParams<uint8_t>(cpuSrc);
        const double ca = best(2, [&] { (void)quant::dequantizeAccumulate<uint8_t>(codes, cp.params, acc); });
        // Bytes moved: params read the floats once, quantize reads them again and writes a byte each.
        report += format("quantize uint8 (min/max + codes), %zu Mi floats: GPU %.2f ms = %.0f GB/s; CPU reference "
                         "%.0f GB/s (one thread)%s\n",
                         n >> 20, tq * 1e3, double(n) * 9 / tq / 1e9, double(nCpu) * 9 / cq / 1e9,
                         ok ? "" : " [a GPU call failed]");
        report +=
            format("de-quantize-accumulate uint8, %zu Mi floats: GPU %.2f ms = %.0f GB/s; CPU reference %.0f GB/s\n",
                   n >> 20, ta * 1e3, double(n) * 9 / ta / 1e9, double(nCpu) * 9 / ca / 1e9);
    }

    // TOPLOC top-128 per 32-token chunk: the reference width (256) and a Llama-8B-like width (4096).
    for (const size_t dim : {size_t(256), size_t(4096)}) {
        const size_t chunks = dim == 256 ? 4096 : 512, tokens = chunks * toploc::kChunkTokens;
        const std::vector<float> host = makeValues(tokens * dim, Pattern::Bf16Grid, 2);
        float *dHidden = nullptr;
        uint32_t *dIdx = nullptr;
        uint16_t *dBits = nullptr;
        if (!deviceAlloc(&dHidden, host.size() * 4) || !deviceAlloc(&dIdx, chunks * toploc::kTopK * 4) ||
            !deviceAlloc(&dBits, chunks * toploc::kTopK * 2)) {
            cudaFree(dHidden);
            cudaFree(dIdx);
            return report + "cudaMalloc failed for the benchmark\n";
        }
        cudaMemcpy(dHidden, host.data(), host.size() * 4, cudaMemcpyHostToDevice);
        bool ok = true;
        const double tg = best(5, [&] {
            ok = ok &&
                 cuda::chunkTopKDevice(dHidden, tokens, dim, toploc::kChunkTokens, toploc::kTopK, dIdx, dBits).ok();
            cudaDeviceSynchronize();
        });
        cudaFree(dHidden);
        cudaFree(dIdx);
        cudaFree(dBits);
        const size_t cpuChunks = std::min<size_t>(chunks, 64);
        const double tc = best(2, [&] {
            for (size_t c = 0; c < cpuChunks; ++c) {
                const float *base = host.data() + c * toploc::kChunkTokens * dim;
                const auto idx = toploc::topK(base, toploc::kChunkTokens * dim, toploc::kTopK);
                volatile uint16_t sink = toploc::bf16Bits(base[idx.back()]);
                (void)sink;
            }
        });
        report += format("TOPLOC top-128 + bf16, chunks of 32 x %zu: GPU %.1f us/chunk (%zu chunks in %.2f ms); CPU "
                         "reference %.1f us/chunk%s\n",
                         dim, tg * 1e6 / double(chunks), chunks, tg * 1e3, tc * 1e6 / double(cpuChunks),
                         ok ? "" : " [a GPU call failed]");
    }
    return report;
}

} // namespace cohort::kernelchecks
