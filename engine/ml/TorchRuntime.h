#pragma once
// What LibTorch this build runs on, checked with a real tensor operation. Qt-free on purpose.
#include <cstdint>
#include <string>
#include <vector>

namespace cohort::ml {

struct TorchRuntimeInfo {
    std::string version; // "1.13.1"
    int intraOpThreads = 0;
    bool cudaAvailable = false;
    int cudaDeviceCount = 0;
    bool selfTestPassed = false; // a small matmul gave the right answer
    std::string error;           // set if LibTorch threw
};

TorchRuntimeInfo torchRuntimeInfo();                // never throws
std::string describe(const TorchRuntimeInfo &info); // "CPU (LibTorch 1.13.1, 2 threads)"

// Single-precision matrix product speed on the CPU, in GFLOP/s: the median of `repeats` n x n products after one
// warm-up (what the BLAS LibTorch loaded can do; the reference BLAS is about 8x slower than OpenBLAS). Negative on
// failure, with *error set. Never throws.
double measureMatmulGflops(int n, int repeats, std::string *error);

// Where a model runs when one device is wanted (DiLoCo training, the tests): the first visible CUDA device when
// there is one, else the CPU. Rollouts run on every GPU the user allows, one worker each (core/ComputePlan).
// float32 everywhere for now: bf16 weights on GPUs that support them would change TOPLOC's honest thresholds
// (RlTaskConfig.h) and are not enabled yet.
struct ComputeDevice {
    std::string device = "cpu"; // a LibTorch device string: "cpu", "cuda:0"
    std::string dtype = "float32";
};
ComputeDevice chooseComputeDevice(const TorchRuntimeInfo &info);

// The UUID of each CUDA device this process sees, in CUDA's order, as NVML writes it ("GPU-" and 32 hex digits in
// 8-4-4-4-12 groups): how a GPU the user chose (by NVML UUID) is found among CUDA's devices (core/ComputePlan).
// Empty without a CUDA build or device. Never throws.
std::vector<std::string> cudaDeviceUuids();
// The 16 bytes of a cudaUUID_t in NVML's spelling.
std::string nvmlStyleUuid(const unsigned char bytes[16]);

// GPU memory, for the user's cap (Settings → Compute). Both need a CUDA build of LibTorch (COHORT_TORCH_CUDA);
// elsewhere cudaTotalMemory is 0 and capCudaMemory says why it cannot. Never throw.
int64_t cudaTotalMemory(int device);
// LibTorch's caching allocator refuses to hold more than `fraction` of the device's memory: an allocation past it
// fails (an error value in the engine) instead of taking memory the user kept for other programs.
bool capCudaMemory(int device, double fraction, std::string *error);

} // namespace cohort::ml
