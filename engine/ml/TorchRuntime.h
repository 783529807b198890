#pragma once
// What LibTorch this build runs on, checked with a real tensor operation. Qt-free on purpose.
#include <string>

namespace cohort::ml {

struct TorchRuntimeInfo {
    std::string version;        // "1.13.1"
    int intraOpThreads = 0;
    bool cudaAvailable = false;
    int cudaDeviceCount = 0;
    bool selfTestPassed = false; // a small matmul gave the right answer
    std::string error;           // set if LibTorch threw
};

TorchRuntimeInfo torchRuntimeInfo(); // never throws
std::string describe(const TorchRuntimeInfo &info); // "CPU (LibTorch 1.13.1, 2 threads)"

} // namespace cohort::ml
