#pragma once
// Internal to cohort_cuda_kernels: CUDA error -> Status, device checks, a scoped device allocation.
#include "cuda/CudaKernels.h"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace cohort::cuda::detail {

// Success, or DeviceError with "<what>: <cudaErrorName> (<description>)".
Status check(cudaError_t error, const char *what);
// NoDevice with unavailableReason() when no device is usable; success otherwise.
Status requireDevice();
Status invalid(const char *message);
Status fromQuant(ErrorCode code); // the CPU reference's bare code, with its words

inline cudaStream_t asStream(void *stream)
{
    return static_cast<cudaStream_t>(stream);
}

// Grid for a grid-stride loop over n elements with `threads` per block (at least 1 block).
unsigned gridFor(size_t n, unsigned threads);

// cudaMalloc'd array freed on scope exit (the Host functions' staging buffers).
template <typename T>
class DeviceArray {
public:
    DeviceArray() = default;
    DeviceArray(const DeviceArray &) = delete;
    DeviceArray &operator=(const DeviceArray &) = delete;
    ~DeviceArray()
    {
        if (m_ptr)
            cudaFree(m_ptr);
    }
    Status allocate(size_t count)
    {
        if (count == 0)
            return {};
        return check(cudaMalloc(reinterpret_cast<void **>(&m_ptr), count * sizeof(T)), "cudaMalloc");
    }
    Status upload(const T *host, size_t count)
    {
        if (count == 0)
            return {};
        return check(cudaMemcpy(m_ptr, host, count * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy to device");
    }
    Status download(T *host, size_t count) const
    {
        if (count == 0)
            return {};
        return check(cudaMemcpy(host, m_ptr, count * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy to host");
    }
    T *get() const { return m_ptr; }

private:
    T *m_ptr = nullptr;
};

} // namespace cohort::cuda::detail
