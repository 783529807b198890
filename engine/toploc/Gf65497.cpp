#include "toploc/Gf65497.h"

namespace cohort::toploc::gf {

std::optional<uint32_t> inverse(uint32_t a)
{
    // Invariant: r_i = s_i * a (mod p); stop when r reaches gcd = 1 (p prime, a != 0).
    int64_t r0 = kP, r1 = a % kP;
    int64_t s0 = 0, s1 = 1;
    if (r1 == 0)
        return std::nullopt;
    while (r1 != 0) {
        const int64_t q = r0 / r1;
        const int64_t r2 = r0 - q * r1;
        const int64_t s2 = s0 - q * s1;
        r0 = r1, r1 = r2;
        s0 = s1, s1 = s2;
    }
    // r0 == 1 here since p is prime; s0 may be negative.
    int64_t s = s0 % int64_t(kP);
    if (s < 0)
        s += kP;
    return uint32_t(s);
}

std::optional<std::vector<uint32_t>> interpolate(std::span<const uint32_t> xs, std::span<const uint32_t> ys)
{
    const size_t k = xs.size();
    if (k == 0 || ys.size() != k)
        return std::nullopt;
    std::vector<uint32_t> x(k), d(k);
    for (size_t i = 0; i < k; ++i) {
        x[i] = xs[i] % kP;
        d[i] = ys[i] % kP;
    }
    // Divided differences in place: afterwards d[j] = f[x_0, ..., x_j]. Each level needs k - level inverses of
    // x[i] - x[i - level]; they are batch-inverted (one extended Euclid per level, three multiplications per
    // element) since k^2/2 separate inversions would dominate a proof. A zero denominator means duplicate xs.
    std::vector<uint32_t> prefix(k), inv(k);
    for (size_t level = 1; level < k; ++level) {
        uint32_t running = 1;
        for (size_t i = level; i < k; ++i) {
            prefix[i] = running; // product of the denominators before i
            running = mul(running, sub(x[i], x[i - level]));
        }
        const auto all = inverse(running);
        if (!all)
            return std::nullopt;
        uint32_t suffix = *all; // inverse of the product of denominators level..i
        for (size_t i = k - 1; i >= level; --i) {
            inv[i] = mul(suffix, prefix[i]);
            suffix = mul(suffix, sub(x[i], x[i - level]));
        }
        for (size_t i = k - 1; i >= level; --i)
            d[i] = mul(sub(d[i], d[i - 1]), inv[i]);
    }
    // Expand P(x) = d0 + (x - x0)(d1 + (x - x1)(d2 + ...)) from the innermost bracket outwards; `poly` holds the
    // current bracket in the monomial basis, and each step multiplies it by (x - x_j) and adds d_j.
    std::vector<uint32_t> poly(k, 0);
    poly[0] = d[k - 1];
    size_t degree = 0;
    for (size_t j = k - 1; j-- > 0;) {
        // poly * (x - x_j): shift up by one, add (p - x_j) * poly; one reduction per term (the sum fits 64 bits).
        const uint64_t minusX = (kP - x[j]) % kP;
        poly[degree + 1] = poly[degree];
        for (size_t i = degree; i > 0; --i)
            poly[i] = reduce(poly[i - 1] + minusX * poly[i]);
        poly[0] = reduce(d[j] + minusX * poly[0]);
        ++degree;
    }
    return poly;
}

namespace {
template <typename T> uint32_t horner(std::span<const T> coefficients, uint32_t x)
{
    const uint32_t xr = x % kP;
    uint32_t acc = 0;
    for (size_t i = coefficients.size(); i-- > 0;)
        acc = reduce(uint64_t(acc) * xr + uint64_t(coefficients[i]) % kP); // one reduction per step
    return acc;
}
} // namespace

uint32_t evaluate(std::span<const uint32_t> coefficients, uint32_t x)
{
    return horner(coefficients, x);
}
uint32_t evaluate(std::span<const uint16_t> coefficients, uint32_t x)
{
    return horner(coefficients, x);
}

} // namespace cohort::toploc::gf
