#include "collectives/HalfFloat.h"

#include <bit>
#include <cstddef>

namespace cohort::collectives {

float bf16ToFloat(uint16_t bits)
{
    return std::bit_cast<float>(uint32_t(bits) << 16);
}

uint16_t floatToBf16(float value)
{
    const uint32_t u = std::bit_cast<uint32_t>(value);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return uint16_t((u >> 16) | 0x0040u); // NaN stays NaN (quiet), sign kept
    const uint32_t roundingBias = 0x7fffu + ((u >> 16) & 1u);
    return uint16_t((u + roundingBias) >> 16);
}

float f16ToFloat(uint16_t bits)
{
    const uint32_t sign = uint32_t(bits & 0x8000u) << 16;
    const uint32_t exponent = (bits >> 10) & 0x1fu;
    uint32_t mantissa = bits & 0x3ffu;
    if (exponent == 0x1f) // inf / NaN
        return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
    if (exponent != 0)
        return std::bit_cast<float>(sign | ((exponent + 112u) << 23) | (mantissa << 13));
    if (mantissa == 0)
        return std::bit_cast<float>(sign);
    // Subnormal half: normalise.
    int e = -1;
    do {
        ++e;
        mantissa <<= 1;
    } while ((mantissa & 0x400u) == 0);
    return std::bit_cast<float>(sign | (uint32_t(112 - e) << 23) | ((mantissa & 0x3ffu) << 13));
}

uint16_t floatToF16(float value)
{
    const uint32_t u = std::bit_cast<uint32_t>(value);
    const uint16_t sign = uint16_t((u >> 16) & 0x8000u);
    const uint32_t absBits = u & 0x7fffffffu;
    if (absBits > 0x7f800000u)
        return uint16_t(sign | 0x7e00u | ((absBits >> 13) & 0x3ffu)); // quiet NaN
    if (absBits >= 0x477ff000u)                                       // rounds to >= 65520: infinity
        return uint16_t(sign | 0x7c00u);
    if (absBits < 0x38800000u) {   // below the smallest normal half (2^-14): subnormal or zero
        if (absBits < 0x33000000u) // below half the smallest subnormal (2^-25): +-0
            return sign;
        const uint32_t exponent = absBits >> 23;
        const uint32_t mantissa = (absBits & 0x7fffffu) | 0x800000u;
        const uint32_t shift = 126u - exponent; // value / 2^-24 = mantissa >> shift (14 <= shift <= 24)
        const uint32_t halfUnits = mantissa >> shift;
        // Round to nearest even on the bits shifted out.
        const uint32_t rest = mantissa & ((1u << shift) - 1u);
        const uint32_t halfway = 1u << (shift - 1);
        uint32_t result = halfUnits;
        if (rest > halfway || (rest == halfway && (result & 1u)))
            ++result;
        return uint16_t(sign | result);
    }
    // Normal: rebias the exponent (127 -> 15) and round the 13 dropped mantissa bits to nearest even.
    const uint32_t rebased = absBits - (112u << 23);
    const uint32_t rounded = rebased + 0xfffu + ((rebased >> 13) & 1u);
    return uint16_t(sign | (rounded >> 13));
}

void bf16ToFloat(std::span<const uint16_t> src, std::span<float> dst)
{
    for (size_t i = 0; i < src.size() && i < dst.size(); ++i)
        dst[i] = bf16ToFloat(src[i]);
}
void floatToBf16(std::span<const float> src, std::span<uint16_t> dst)
{
    for (size_t i = 0; i < src.size() && i < dst.size(); ++i)
        dst[i] = floatToBf16(src[i]);
}
void f16ToFloat(std::span<const uint16_t> src, std::span<float> dst)
{
    for (size_t i = 0; i < src.size() && i < dst.size(); ++i)
        dst[i] = f16ToFloat(src[i]);
}
void floatToF16(std::span<const float> src, std::span<uint16_t> dst)
{
    for (size_t i = 0; i < src.size() && i < dst.size(); ++i)
        dst[i] = floatToF16(src[i]);
}

} // namespace cohort::collectives
