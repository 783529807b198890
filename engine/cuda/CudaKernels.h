#pragma once
// Cohort's own CUDA kernels behind a plain C++ API (no CUDA types here, so any C++ file can include it): min-max
// quantization for the collectives and TOPLOC's chunk top-k with bf16 packing. Built with COHORT_CUDA=ON
// (cohort_cuda_kernels); it needs only the CUDA runtime, not a CUDA LibTorch.
//
// Every result equals the CPU reference bit for bit:
//   quantization          quant::computeParams / quantize / dequantize / dequantizeAccumulate (quant/Quantize.h)
//   top-k, bf16 packing   toploc::topK (order and tie-break: larger |value| first, equal magnitudes by lower index,
//                         NaN below every number) and toploc::bf16Bits (toploc/Proof.h)
//
// Pointers: functions ending in `Device` take device pointers (cudaMalloc'd, or a CUDA tensor's data_ptr) and run
// on `stream` (a cudaStream_t; nullptr = the legacy default stream). Those that must report something the host needs
// (params, a NaN seen) synchronize that stream; the others only enqueue work. Functions ending in `Host` take host
// pointers, copy to and from the current device and synchronize: for tests and one-off calls.
// Errors are values (Status, the engine's Outcome); nothing throws. Without a driver or a device every call returns
// ErrorCode::NoDevice.
#include "base/Result.h"
#include "quant/Quantize.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace cohort::cuda {

// Every call returns the engine's Outcome (base/Result.h): its code is NoDevice (no driver or device),
// InvalidArgument (null pointer, k out of range), the CPU reference's own codes where it would fail the same input
// (SizeMismatch, BadParams, NonFinite, RangeTooLarge), or DeviceError (a CUDA runtime call failed; the message names
// it).
using Status = Outcome;

// ---- devices -------------------------------------------------------------------------------------------------
// Number of CUDA devices this process can use; 0 when there is no driver or no device (never fails).
int deviceCount();
bool cudaAvailable(); // deviceCount() > 0
// Why no device is usable ("CUDA driver not found (cudaErrorInsufficientDriver)", ...), or "" when one is.
std::string unavailableReason();

struct DeviceInfo {
    int index = 0;
    std::string name;         // "NVIDIA H200"
    int major = 0, minor = 0; // compute capability
    int multiprocessors = 0;
    size_t totalBytes = 0, freeBytes = 0;
    bool bf16 = false; // native bf16 arithmetic (compute capability >= 8.0)
};
// One entry per device (empty without devices).
std::vector<DeviceInfo> devices();
// Makes `index` the calling thread's current device (the one the Host functions use).
Status selectDevice(int index);

// ---- min-max quantization (quant/Quantize.h) ------------------------------------------------------------------
// Reduces min/max on the device, then quant::paramsFromRange on the host. NonFinite on NaN/inf. Synchronizes.
Status computeParamsDevice(const float *src, size_t n, uint32_t levels, quant::QuantParams *out,
                           void *stream = nullptr);
// Codes for src; invalid params are refused before launching. Reports NonFinite (codes still written, NaN -> 0),
// so it synchronizes.
Status quantizeDevice(const float *src, size_t n, const quant::QuantParams &params, uint8_t *dst,
                      void *stream = nullptr);
Status quantizeDevice(const float *src, size_t n, const quant::QuantParams &params, uint16_t *dst,
                      void *stream = nullptr);
// dst = min + code * scale. Enqueues only.
Status dequantizeDevice(const uint8_t *src, size_t n, const quant::QuantParams &params, float *dst,
                        void *stream = nullptr);
Status dequantizeDevice(const uint16_t *src, size_t n, const quant::QuantParams &params, float *dst,
                        void *stream = nullptr);
// dst += min + code * scale. Enqueues only.
Status dequantizeAccumulateDevice(const uint8_t *src, size_t n, const quant::QuantParams &params, float *dst,
                                  void *stream = nullptr);
Status dequantizeAccumulateDevice(const uint16_t *src, size_t n, const quant::QuantParams &params, float *dst,
                                  void *stream = nullptr);

// Host-pointer forms (copy, run on the current device, copy back). Spans of different lengths: InvalidArgument.
Status computeParamsHost(std::span<const float> src, uint32_t levels, quant::QuantParams *out);
Status quantizeHost(std::span<const float> src, const quant::QuantParams &params, std::span<uint8_t> dst);
Status quantizeHost(std::span<const float> src, const quant::QuantParams &params, std::span<uint16_t> dst);
Status dequantizeHost(std::span<const uint8_t> src, const quant::QuantParams &params, std::span<float> dst);
Status dequantizeHost(std::span<const uint16_t> src, const quant::QuantParams &params, std::span<float> dst);
Status dequantizeAccumulateHost(std::span<const uint8_t> src, const quant::QuantParams &params, std::span<float> dst);
Status dequantizeAccumulateHost(std::span<const uint16_t> src, const quant::QuantParams &params, std::span<float> dst);

// ---- TOPLOC: chunk top-k and bf16 packing (toploc/Proof.h) ----------------------------------------------------
inline constexpr int kMaxTopK = 1024;
inline constexpr uint32_t kNoIndex = 0xFFFFFFFFu; // fills the slots of a chunk with fewer than k values

// Number of chunks of `chunkTokens` rows in `tokens` rows (the last partial chunk counts), as toploc::chunkCount.
size_t chunkCount(size_t tokens, size_t chunkTokens);

// hidden: tokens x dim floats, row-major. Chunk c is rows [c * chunkTokens, min(tokens, (c+1) * chunkTokens)),
// flattened (flat index = row-in-chunk * dim + column). For every chunk: the k indices of largest |value| in
// toploc::topK's order, and the bf16 bits (toploc::bf16Bits) of the values at them.
// indices / bf16: chunkCount(tokens, chunkTokens) * k entries, chunk-major; a chunk with m < k values fills slots
// m..k-1 with kNoIndex / 0. 1 <= k <= kMaxTopK; a chunk must hold fewer than 2^32 - 1 values. Enqueues only.
Status chunkTopKDevice(const float *hidden, size_t tokens, size_t dim, size_t chunkTokens, int k, uint32_t *indices,
                       uint16_t *bf16, void *stream = nullptr);

struct ChunkTopK {
    std::vector<uint32_t> indices; // min(k, values in the chunk) entries, best first
    std::vector<uint16_t> bf16;    // bf16 bits of hidden[chunk start + indices[i]]
};
Status chunkTopKHost(const float *hidden, size_t tokens, size_t dim, size_t chunkTokens, int k,
                     std::vector<ChunkTopK> *out);

// dst[i] = toploc::bf16Bits(src[i]). Enqueues only.
Status bf16PackDevice(const float *src, size_t n, uint16_t *dst, void *stream = nullptr);
Status bf16PackHost(std::span<const float> src, std::span<uint16_t> dst);

} // namespace cohort::cuda
