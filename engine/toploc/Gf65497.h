// Arithmetic in GF(p), p = 65497 (the largest prime below 2^16), and polynomial interpolation over it: the field a
// TOPLOC proof commits in. Values are uint32_t in [0, p); products go through 64 bits so nothing overflows.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace cohort::toploc::gf {

inline constexpr uint32_t kP = 65497;

// Operands must already be reduced (< kP). Every product of two reduced values plus one more reduced value stays
// below 2^32 (65496^2 + 65496 < 2^32), so the hot paths stay in 32-bit arithmetic: a 32-bit remainder by a
// constant compiles to a multiply and a shift, and sums need one conditional subtraction instead of a division.
constexpr uint32_t add(uint32_t a, uint32_t b)
{
    const uint32_t s = a + b;
    return s >= kP ? s - kP : s;
}
constexpr uint32_t sub(uint32_t a, uint32_t b)
{
    return a >= b ? a - b : a + kP - b;
}
constexpr uint32_t mul(uint32_t a, uint32_t b)
{
    return (a * b) % kP;
}
// a * b + c for reduced operands, one reduction.
constexpr uint32_t mulAdd(uint32_t a, uint32_t b, uint32_t c)
{
    return (a * b + c) % kP;
}
constexpr uint32_t reduce(uint64_t a)
{
    return uint32_t(a % kP);
}

// Multiplicative inverse by the extended Euclidean algorithm; nullopt for 0 (mod p), which has none.
std::optional<uint32_t> inverse(uint32_t a);

// Coefficients (monomial basis, coefficient i multiplies x^i, each in [0, p)) of the unique polynomial of degree < k
// through the k points (xs[i], ys[i]). Inputs are reduced mod p first. nullopt if the sizes differ, k = 0, or two xs
// coincide mod p. Newton divided differences, then the Newton form expanded: O(k^2).
std::optional<std::vector<uint32_t>> interpolate(std::span<const uint32_t> xs, std::span<const uint32_t> ys);

// Horner evaluation of a monomial-basis polynomial (coefficients reduced mod p first) at x.
uint32_t evaluate(std::span<const uint32_t> coefficients, uint32_t x);
uint32_t evaluate(std::span<const uint16_t> coefficients, uint32_t x);

} // namespace cohort::toploc::gf
