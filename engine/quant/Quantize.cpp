#include "quant/Quantize.h"

#include <bit>
#include <cmath>
#include <limits>

namespace cohort::quant {

const char *describe(ErrorCode code)
{
    switch (code) {
    case ErrorCode::None: return "ok";
    case ErrorCode::NonFinite: return "input holds NaN or infinity";
    case ErrorCode::RangeTooLarge: return "max - min overflows float";
    case ErrorCode::SizeMismatch: return "source and destination lengths differ";
    case ErrorCode::BadParams: return "invalid quantization header (min, scale)";
    default: break;
    }
    return errorCodeName(code); // a code quantization never returns
}

ParamsResult paramsFromRange(float lo, float hi, uint32_t levels)
{
    if (!std::isfinite(lo) || !std::isfinite(hi))
        return {{}, ErrorCode::NonFinite};
    if (!(lo <= hi) || levels == 0)
        return {{}, ErrorCode::BadParams};
    // -0 and +0 compare equal, so which one a reduction returns depends on the order it saw them; take +0 always.
    if (lo == 0.0f)
        lo = 0.0f;
    if (hi == lo)
        return {{lo, 0.0f}, ErrorCode::None};
    const float range = math::sub(hi, lo);
    if (!std::isfinite(range))
        return {{}, ErrorCode::RangeTooLarge};
    // Rounded to nearest, the step can fall short so the top code decodes below hi (by an ulp when normal, by far
    // more when subnormal or underflowed to 0): then one ulp up, until levels * scale reaches the range.
    float scale = math::div(range, float(levels));
    for (int i = 0; i < 4 && math::mul(float(levels), scale) < range; ++i)
        scale = std::nextafter(scale, std::numeric_limits<float>::infinity());
    const QuantParams params{lo, scale};
    if (!validParams(params, levels))
        return {{}, ErrorCode::RangeTooLarge}; // the rounded-up top code would decode past FLT_MAX
    return {params, ErrorCode::None};
}

bool validParams(const QuantParams &params, uint32_t levels)
{
    return std::isfinite(params.min) && std::isfinite(params.scale) && params.scale >= 0.0f &&
           std::isfinite(math::decode(levels, params.min, params.scale));
}

template <Word Q>
ParamsResult computeParams(std::span<const float> src)
{
    if (src.empty())
        return {{0.0f, 0.0f}, ErrorCode::None};
    float lo = src[0], hi = src[0];
    bool finite = true;
    for (const float x : src) {
        finite &= std::isfinite(x);
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    if (!finite)
        return {{}, ErrorCode::NonFinite};
    return paramsFromRange(lo, hi, kLevels<Q>);
}

template <Word Q>
ErrorCode quantize(std::span<const float> src, const QuantParams &params, std::span<Q> dst)
{
    if (src.size() != dst.size())
        return ErrorCode::SizeMismatch;
    if (!validParams(params, kLevels<Q>))
        return ErrorCode::BadParams;
    bool finite = true;
    for (size_t i = 0; i < src.size(); ++i) {
        finite &= std::isfinite(src[i]);
        dst[i] = Q(math::encode(src[i], params.min, params.scale, kLevels<Q>));
    }
    return finite ? ErrorCode::None : ErrorCode::NonFinite;
}

template <Word Q>
ErrorCode dequantize(std::span<const Q> src, const QuantParams &params, std::span<float> dst)
{
    if (src.size() != dst.size())
        return ErrorCode::SizeMismatch;
    if (!validParams(params, kLevels<Q>))
        return ErrorCode::BadParams;
    for (size_t i = 0; i < src.size(); ++i)
        dst[i] = math::decode(src[i], params.min, params.scale);
    return ErrorCode::None;
}

template <Word Q>
ErrorCode dequantizeAccumulate(std::span<const Q> src, const QuantParams &params, std::span<float> dst)
{
    if (src.size() != dst.size())
        return ErrorCode::SizeMismatch;
    if (!validParams(params, kLevels<Q>))
        return ErrorCode::BadParams;
    for (size_t i = 0; i < src.size(); ++i)
        dst[i] = math::decodeAccumulate(dst[i], src[i], params.min, params.scale);
    return ErrorCode::None;
}

template <Word Q>
ParamsResult requantize(std::span<float> values, std::span<Q> codes)
{
    if (values.size() != codes.size())
        return {{}, ErrorCode::SizeMismatch};
    const ParamsResult params = computeParams<Q>(values);
    if (!params)
        return params;
    if (const ErrorCode s = quantize<Q>(values, params.params, codes); s != ErrorCode::None)
        return {{}, s};
    if (const ErrorCode s = dequantize<Q>(codes, params.params, values); s != ErrorCode::None)
        return {{}, s};
    return params;
}

std::array<uint8_t, kParamsWireBytes> encodeParams(const QuantParams &params)
{
    std::array<uint8_t, kParamsWireBytes> out{};
    const uint32_t words[2] = {std::bit_cast<uint32_t>(params.min), std::bit_cast<uint32_t>(params.scale)};
    for (size_t w = 0; w < 2; ++w)
        for (size_t b = 0; b < 4; ++b)
            out[w * 4 + b] = uint8_t(words[w] >> (24 - 8 * b));
    return out;
}

ParamsResult decodeParams(std::span<const uint8_t, kParamsWireBytes> bytes, uint32_t levels)
{
    uint32_t words[2] = {0, 0};
    for (size_t w = 0; w < 2; ++w)
        for (size_t b = 0; b < 4; ++b)
            words[w] = (words[w] << 8) | bytes[w * 4 + b];
    const QuantParams params{std::bit_cast<float>(words[0]), std::bit_cast<float>(words[1])};
    if (levels == 0 || !validParams(params, levels))
        return {{}, ErrorCode::BadParams};
    return {params, ErrorCode::None};
}

#define COHORT_QUANT_INSTANTIATE(Q)                                                                                    \
  template ParamsResult computeParams<Q>(std::span<const float>);                                                      \
  template ErrorCode quantize<Q>(std::span<const float>, const QuantParams &, std::span<Q>);                           \
  template ErrorCode dequantize<Q>(std::span<const Q>, const QuantParams &, std::span<float>);                         \
  template ErrorCode dequantizeAccumulate<Q>(std::span<const Q>, const QuantParams &, std::span<float>);               \
  template ParamsResult requantize<Q>(std::span<float>, std::span<Q>);

COHORT_QUANT_INSTANTIATE(uint8_t)
COHORT_QUANT_INSTANTIATE(uint16_t)
#undef COHORT_QUANT_INSTANTIATE

} // namespace cohort::quant
