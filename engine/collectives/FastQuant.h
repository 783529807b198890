#pragma once
// The min-max quantization of engine/quant (Quantize.h), rewritten so the compiler can vectorize it: the same results
// bit for bit (tst_collectives compares them on random, tie, constant and extreme data), about 10x faster than the
// scalar reference at -O2. The ring calls these on every block, where the reference would cap the quantized
// all-reduce at a few hundred MB/s per core.
//
// Differences in contract from the reference: quantize() expects finite input and params from computeParams() (the
// ring checks computeParams' status first), and returns nothing.
#include "quant/Quantize.h"

#include <cstdint>
#include <span>

namespace cohort::collectives::fastquant {

template <quant::Word Q>
quant::ParamsResult computeParams(std::span<const float> src);
template <quant::Word Q>
void quantize(std::span<const float> src, const quant::QuantParams &params, Q *dst);
template <quant::Word Q>
void dequantize(const Q *src, const quant::QuantParams &params, std::span<float> dst);
// dequantize for destinations far larger than the caches (the ring's output of a big operation): the same values,
// written around the caches.
template <quant::Word Q>
void dequantizeStreaming(const Q *src, const quant::QuantParams &params, std::span<float> dst);
template <quant::Word Q>
void dequantizeAccumulate(const Q *src, const quant::QuantParams &params, std::span<float> dst);
// out[i] = in[i] + (min + src[i] * scale): dequantizeAccumulate with the addend elsewhere (in may equal out.data()).
template <quant::Word Q>
void dequantizeAdd(const Q *src, const quant::QuantParams &params, const float *in, std::span<float> out);

// dst[i] = own[i] + received[i] (dst may be own): the f32 ring's sum, vectorized, prefetching `own` (a peer's
// input, read from memory once per operation).
void addStreamed(const float *own, const float *received, float *dst, size_t count);

// A running min/max over values as they are produced, for params without a second pass (see rangeOf).
struct RangeKeys {
    int32_t lo = INT32_MAX;
    int32_t hi = INT32_MIN;
    uint32_t nonFinite = 0;
};
// dequantizeAdd that also folds the outputs into `range`.
template <quant::Word Q>
void dequantizeAddTracked(const Q *src, const quant::QuantParams &params, const float *in, std::span<float> out,
                          RangeKeys &range);
// The params computeParams<Q> would give for values whose range was tracked (an empty range: {0, 0}).
template <quant::Word Q>
quant::ParamsResult paramsOf(const RangeKeys &range);

} // namespace cohort::collectives::fastquant
