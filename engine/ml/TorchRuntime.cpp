#include "ml/TorchRuntime.h"

// Narrow headers only: this is the one translation unit of the foundation that touches LibTorch.
#include <ATen/Functions.h>
#include <ATen/Parallel.h>
#include <c10/util/Exception.h>
#include <torch/cuda.h>
#include <torch/version.h>
#if defined(COHORT_TORCH_CUDA)
#  include <ATen/cuda/CUDAContext.h>
#  include <c10/cuda/CUDACachingAllocator.h>
#endif

#include <algorithm>
#include <chrono>
#include <vector>

namespace cohort::ml {

TorchRuntimeInfo torchRuntimeInfo()
{
    TorchRuntimeInfo info;
    info.version = TORCH_VERSION;
    try {
        info.intraOpThreads = at::get_num_threads();
        info.cudaAvailable = torch::cuda::is_available();
        info.cudaDeviceCount = info.cudaAvailable ? int(torch::cuda::device_count()) : 0;
        // [[1,2],[3,4]] x [[1,0],[0,1]] summed is 10: proves the library and its BLAS actually run.
        const at::Tensor a = at::arange(1, 5, at::kFloat).reshape({2, 2});
        const at::Tensor product = at::matmul(a, at::eye(2, at::kFloat));
        info.selfTestPassed = product.sum().item<float>() == 10.0f;
    } catch (const c10::Error &e) {
        info.error = e.what_without_backtrace();
    } catch (const std::exception &e) {
        info.error = e.what();
    }
    return info;
}

double measureMatmulGflops(int n, int repeats, std::string *error)
{
    try {
        n = std::clamp(n, 16, 4096);
        repeats = std::clamp(repeats, 1, 50);
        const at::Tensor a = at::rand({n, n}, at::kFloat);
        const at::Tensor b = at::rand({n, n}, at::kFloat);
        at::Tensor c = at::matmul(a, b); // warm-up: thread pool, first-touch pages
        std::vector<double> seconds;
        for (int i = 0; i < repeats; ++i) {
            const auto start = std::chrono::steady_clock::now();
            c = at::matmul(a, b);
            seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        std::sort(seconds.begin(), seconds.end());
        const double median = std::max(seconds[seconds.size() / 2], 1e-9);
        return 2.0 * double(n) * n * n / median / 1e9;
    } catch (const c10::Error &e) {
        if (error)
            *error = e.what_without_backtrace();
    } catch (const std::exception &e) {
        if (error)
            *error = e.what();
    }
    return -1;
}

ComputeDevice chooseComputeDevice(const TorchRuntimeInfo &info)
{
    ComputeDevice d;
    if (info.error.empty() && info.cudaAvailable && info.cudaDeviceCount > 0)
        d.device = "cuda:0";
    return d;
}

std::string nvmlStyleUuid(const unsigned char bytes[16])
{
    static const char digits[] = "0123456789abcdef";
    std::string out = "GPU-";
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out += '-';
        out += digits[bytes[i] >> 4];
        out += digits[bytes[i] & 15];
    }
    return out;
}

std::vector<std::string> cudaDeviceUuids()
{
    std::vector<std::string> uuids;
#if defined(COHORT_TORCH_CUDA)
    try {
        if (!torch::cuda::is_available())
            return uuids;
        for (int i = 0; i < int(torch::cuda::device_count()); ++i) {
            const cudaDeviceProp *p = at::cuda::getDeviceProperties(i);
            uuids.push_back(nvmlStyleUuid(reinterpret_cast<const unsigned char *>(p->uuid.bytes)));
        }
    } catch (const std::exception &) {
        uuids.clear();
    }
#endif
    return uuids;
}

int64_t cudaTotalMemory(int device)
{
#if defined(COHORT_TORCH_CUDA)
    try {
        if (torch::cuda::is_available() && device >= 0 && device < int(torch::cuda::device_count()))
            return int64_t(at::cuda::getDeviceProperties(device)->totalGlobalMem);
    } catch (const std::exception &) {
    }
#else
    (void)device;
#endif
    return 0;
}

bool capCudaMemory(int device, double fraction, std::string *error)
{
#if defined(COHORT_TORCH_CUDA)
    try {
        if (!torch::cuda::is_available() || device < 0 || device >= int(torch::cuda::device_count())) {
            *error = "no CUDA device " + std::to_string(device);
            return false;
        }
        c10::cuda::CUDACachingAllocator::setMemoryFraction(std::clamp(fraction, 0.01, 1.0), device);
        return true;
    } catch (const std::exception &e) {
        *error = e.what();
        return false;
    }
#else
    (void)device;
    (void)fraction;
    *error = "this LibTorch has no CUDA";
    return false;
#endif
}

std::string describe(const TorchRuntimeInfo &info)
{
    if (!info.error.empty())
        return "LibTorch unavailable: " + info.error;
    std::string device = info.cudaAvailable ? "CUDA (" + std::to_string(info.cudaDeviceCount) + " GPU)" : "CPU";
    return device + " (LibTorch " + info.version + ", " + std::to_string(info.intraOpThreads) + " threads)";
}

} // namespace cohort::ml
