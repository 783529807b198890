// The device check's correctness part, without Qt: the CPU references first (min-max quantization within its
// documented bound, NaN refused, TOPLOC top-k against a full sort), then, when built with COHORT_CUDA=ON and a
// device is present, every CUDA kernel against its CPU reference bit for bit on the same seeded matrix that
// tst_cuda_kernels runs. Prints PASS / FAIL / SKIP per check and a summary; exit status 0 when nothing failed.
//   device_check [--bench]   (--bench: kernel throughput next to the CPU reference)
#include "quant/Quantize.h"
#include "toploc/Proof.h"

#ifdef COHORT_HAVE_CUDA_KERNELS
#  include "KernelChecks.h"
#  include "cuda/CudaKernels.h"
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace cohort;

namespace {

int passed = 0, failed = 0, skipped = 0;

void report(const std::string &name, const std::string &failure)
{
    if (failure.empty()) {
        ++passed;
        std::printf("PASS  %s\n", name.c_str());
    } else {
        ++failed;
        std::printf("FAIL  %s: %s\n", name.c_str(), failure.c_str());
    }
    std::fflush(stdout);
}

void skip(const std::string &name, const std::string &why)
{
    ++skipped;
    std::printf("SKIP  %s: %s\n", name.c_str(), why.c_str());
}

std::vector<float> gaussian(size_t n, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> v(n);
    for (float &x : v)
        x = normal(rng);
    return v;
}

template <quant::Word Q>
std::string roundTrip(size_t n)
{
    const auto values = gaussian(n, n);
    const auto params = quant::computeParams<Q>(values);
    if (!params)
        return quant::describe(params.code);
    std::vector<Q> codes(n);
    std::vector<float> back(n);
    if (quant::quantize<Q>(values, params.params, codes) != ErrorCode::None ||
        quant::dequantize<Q>(codes, params.params, back) != ErrorCode::None)
        return "quantize/dequantize failed";
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    const double bound =
        0.5 * double(params.params.scale) + std::ldexp(std::fabs(double(*lo)) + std::fabs(double(*hi)), -21);
    for (size_t i = 0; i < n; ++i)
        if (std::fabs(double(back[i]) - double(values[i])) > bound)
            return "error above scale/2 at " + std::to_string(i);
    return {};
}

std::string nanRefused()
{
    auto values = gaussian(7, 3);
    values[4] = std::numeric_limits<float>::quiet_NaN();
    if (quant::computeParams<uint8_t>(values).code != ErrorCode::NonFinite)
        return "NaN accepted";
    values[4] = -std::numeric_limits<float>::infinity();
    if (quant::computeParams<uint16_t>(values).code != ErrorCode::NonFinite)
        return "-inf accepted";
    return {};
}

std::string topKAgainstSort(size_t n)
{
    auto values = gaussian(n, n + 5);
    for (size_t i = 0; i < n; i += 7)
        values[i] = std::round(values[i]); // ties
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return std::fabs(values[a]) > std::fabs(values[b]); });
    order.resize(std::min<size_t>(n, toploc::kTopK));
    return toploc::topK(values.data(), n, toploc::kTopK) == order ? std::string() : "differs from a full sort";
}

} // namespace

int main(int argc, char **argv)
{
    bool bench = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--bench") == 0) {
            bench = true;
        } else {
            std::fprintf(stderr, "usage: %s [--bench]\n", argv[0]);
            return 2;
        }
    }
    std::printf("== CPU references ==\n");
    for (const size_t n : {size_t(1), size_t(7), size_t(1023), size_t(4097)}) {
        report("quant u8 round trip n=" + std::to_string(n), roundTrip<uint8_t>(n));
        report("quant u16 round trip n=" + std::to_string(n), roundTrip<uint16_t>(n));
    }
    report("quant NaN/inf refused", nanRefused());
    for (const size_t n : {size_t(5), size_t(128), size_t(8192)})
        report("toploc topK vs full sort n=" + std::to_string(n), topKAgainstSort(n));

#ifdef COHORT_HAVE_CUDA_KERNELS
    std::printf("== CUDA kernels vs CPU references ==\n");
    if (!cuda::cudaAvailable()) {
        skip("all GPU comparisons", "no CUDA device (" + cuda::unavailableReason() + ")");
        const std::string nd = kernelchecks::noDeviceIsAnErrorValue();
        report("no device: every call returns NoDevice", nd);
    } else {
        for (const cuda::DeviceInfo &d : cuda::devices())
            std::printf("device %d: %s, compute capability %d.%d, %d SMs, %zu MiB (%zu free)\n", d.index,
                        d.name.c_str(), d.major, d.minor, d.multiprocessors, d.totalBytes >> 20, d.freeBytes >> 20);
        report("argument errors are values", kernelchecks::argumentErrorsAreValues());
        for (const auto &c : kernelchecks::quantCases())
            report("quant " + c.name(), kernelchecks::run(c));
        for (const auto &c : kernelchecks::topKCases())
            report("top-k " + c.name(), kernelchecks::run(c));
        for (const size_t n : {size_t(1), size_t(7), size_t(1023), size_t(1) << 20})
            report("bf16 pack n=" + std::to_string(n), kernelchecks::bf16Matches(n, n));
        if (bench) {
            std::printf("== kernel throughput ==\n%s", kernelchecks::benchmarkReport().c_str());
        }
    }
#else
    skip("all GPU comparisons", "built without COHORT_CUDA (no nvcc at configure time)");
    (void)bench;
#endif
    std::printf("== %d passed, %d failed, %d skipped ==\n", passed, failed, skipped);
    return failed == 0 ? 0 : 1;
}
