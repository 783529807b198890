// Device queries and the error plumbing shared by the kernels (plain C++ against the CUDA runtime API).
#include "cuda/Internal.h"

#include <algorithm>
#include <string>

namespace cohort::cuda {

namespace detail {

Status check(cudaError_t error, const char *what)
{
    if (error == cudaSuccess)
        return {};
    cudaGetLastError(); // clear a non-sticky error so the next call does not see it again
    return Outcome::failure(std::string(what) + ": " + cudaGetErrorName(error) + " (" + cudaGetErrorString(error) + ")",
                            ErrorCode::DeviceError);
}

Status requireDevice()
{
    if (cudaAvailable())
        return {};
    return Outcome::failure(unavailableReason(), ErrorCode::NoDevice);
}

Status invalid(const char *message)
{
    return Outcome::failure(message, ErrorCode::InvalidArgument);
}

Status fromQuant(ErrorCode code)
{
    if (code == ErrorCode::None)
        return {};
    return Outcome::failure(quant::describe(code), code);
}

unsigned gridFor(size_t n, unsigned threads)
{
    // Enough blocks to fill any current GPU several times over; the kernels loop over the rest.
    const size_t blocks = (n + threads - 1) / threads;
    return unsigned(std::clamp<size_t>(blocks, 1, 8192));
}

} // namespace detail

namespace {

struct Probe {
    int count = 0;
    std::string reason;
};

Probe probe()
{
    Probe p;
    int count = 0;
    const cudaError_t error = cudaGetDeviceCount(&count);
    if (error != cudaSuccess) {
        cudaGetLastError();
        if (error == cudaErrorInsufficientDriver)
            p.reason = "no usable CUDA driver (cudaErrorInsufficientDriver: not installed, or older than this CUDA "
                       "runtime)";
        else if (error == cudaErrorNoDevice)
            p.reason = "no CUDA device (cudaErrorNoDevice)";
        else
            p.reason =
                std::string("CUDA unavailable: ") + cudaGetErrorName(error) + " (" + cudaGetErrorString(error) + ")";
        return p;
    }
    if (count <= 0) {
        p.reason = "no CUDA device";
        return p;
    }
    p.count = count;
    return p;
}

const Probe &cachedProbe()
{
    static const Probe p = probe(); // the device set of a process does not change
    return p;
}

} // namespace

int deviceCount()
{
    return cachedProbe().count;
}

bool cudaAvailable()
{
    return deviceCount() > 0;
}

std::string unavailableReason()
{
    return cachedProbe().reason;
}

std::vector<DeviceInfo> devices()
{
    std::vector<DeviceInfo> out;
    int current = 0;
    if (deviceCount() == 0 || cudaGetDevice(&current) != cudaSuccess)
        return out;
    for (int i = 0; i < deviceCount(); ++i) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) {
            cudaGetLastError();
            continue;
        }
        DeviceInfo info;
        info.index = i;
        info.name = prop.name;
        info.major = prop.major;
        info.minor = prop.minor;
        info.multiprocessors = prop.multiProcessorCount;
        info.totalBytes = prop.totalGlobalMem;
        info.bf16 = prop.major >= 8;
        if (cudaSetDevice(i) == cudaSuccess) {
            size_t freeBytes = 0, totalBytes = 0;
            if (cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess)
                info.freeBytes = freeBytes;
        }
        cudaGetLastError();
        out.push_back(std::move(info));
    }
    cudaSetDevice(current);
    return out;
}

Status selectDevice(int index)
{
    if (Status s = detail::requireDevice(); !s)
        return s;
    if (index < 0 || index >= deviceCount())
        return detail::invalid("selectDevice: no such device");
    return detail::check(cudaSetDevice(index), "cudaSetDevice");
}

size_t chunkCount(size_t tokens, size_t chunkTokens)
{
    return chunkTokens == 0 ? 0 : tokens / chunkTokens + (tokens % chunkTokens != 0 ? 1 : 0);
}

} // namespace cohort::cuda
