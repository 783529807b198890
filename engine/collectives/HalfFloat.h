#pragma once
// bfloat16 and IEEE half (f16) <-> float32, in plain C++. Widening is exact; narrowing rounds to nearest, ties to
// even, keeps NaN a NaN (quiet) and overflows to infinity, as torch does.
#include <cstdint>
#include <span>

namespace cohort::collectives {

float bf16ToFloat(uint16_t bits);
uint16_t floatToBf16(float value);
float f16ToFloat(uint16_t bits);
uint16_t floatToF16(float value);

void bf16ToFloat(std::span<const uint16_t> src, std::span<float> dst);
void floatToBf16(std::span<const float> src, std::span<uint16_t> dst);
void f16ToFloat(std::span<const uint16_t> src, std::span<float> dst);
void floatToF16(std::span<const float> src, std::span<uint16_t> dst);

} // namespace cohort::collectives
