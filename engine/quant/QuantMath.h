#pragma once
// The per-element arithmetic of min-max quantization, shared word for word by the CPU reference (Quantize.cpp) and
// the CUDA kernels (engine/cuda), so both sides produce the same bits. Plain C++ and CUDA; no library dependencies.
//
// Every step is one IEEE-754 binary32 operation rounded to nearest-even, never fused:
//   encode:  d = x - min;  v = d / scale;  code = (v > 0) ? (v >= L ? L : round_half_away(v)) : 0
//   decode:  t = float(code) * scale;  y = min + t
//   accumulate: acc = acc + y            (y computed as above first; two roundings, no fma)
// with L = 255 (uint8) or 65535 (uint16); scale == 0 (a constant span) encodes everything as 0 and decodes to min.
// On the device the _rn intrinsics pin each operation (nvcc would otherwise contract a*b+c into an fma, and
// --use_fast_math would approximate the division); on the CPU the library is compiled with -ffp-contract=off.
// Denormals are computed exactly on both sides: do not enable flush-to-zero (FTZ/DAZ, -ffast-math, --ftz=true).
#include <cstdint>

#if defined(__CUDACC__)
#  define COHORT_QUANT_HD __host__ __device__
#else
#  define COHORT_QUANT_HD
#  include <cmath>
#endif

namespace cohort::quant::math {

COHORT_QUANT_HD inline float sub(float a, float b)
{
#if defined(__CUDA_ARCH__)
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
}

COHORT_QUANT_HD inline float add(float a, float b)
{
#if defined(__CUDA_ARCH__)
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}

COHORT_QUANT_HD inline float mul(float a, float b)
{
#if defined(__CUDA_ARCH__)
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}

COHORT_QUANT_HD inline float div(float a, float b)
{
#if defined(__CUDA_ARCH__)
    return __fdiv_rn(a, b);
#else
    return a / b;
#endif
}

// Round half away from zero (C's roundf), exact on both sides.
COHORT_QUANT_HD inline float roundHalfAway(float v)
{
#if defined(__CUDA_ARCH__)
    return ::roundf(v);
#else
    return std::round(v);
#endif
}

// x is finite (not NaN, not +-inf); the bit test avoids <cmath> classification functions on the device.
COHORT_QUANT_HD inline bool finite(float x)
{
#if defined(__CUDA_ARCH__)
    return (__float_as_uint(x) & 0x7F800000u) != 0x7F800000u;
#else
    return std::isfinite(x);
#endif
}

// The code of x for (min, scale) with `levels` = the largest code. A non-finite x encodes as 0 (callers report it).
COHORT_QUANT_HD inline uint32_t encode(float x, float min, float scale, uint32_t levels)
{
    if (!(scale > 0.0f) || !finite(x))
        return 0;
    const float v = div(sub(x, min), scale);
    if (!(v > 0.0f))
        return 0;
    if (v >= float(levels))
        return levels;
    return uint32_t(roundHalfAway(v)); // v in (0, levels): the result is in [0, levels]
}

COHORT_QUANT_HD inline float decode(uint32_t code, float min, float scale)
{
    return add(min, mul(float(code), scale));
}

COHORT_QUANT_HD inline float decodeAccumulate(float acc, uint32_t code, float min, float scale)
{
    return add(acc, decode(code, min, scale));
}

} // namespace cohort::quant::math
