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

namespace {
// inv[a] * a = 1 (mod p) for a in [1, p); inv[0] = 0. Built with inv[a] = -(p / a) * inv[p mod a], in O(p).
const uint16_t *inverseTable()
{
    static const std::vector<uint16_t> table = [] {
        std::vector<uint16_t> t(kP, 0);
        t[1] = 1;
        for (uint32_t a = 2; a < kP; ++a)
            t[a] = uint16_t(sub(0, mul(kP / a, t[kP % a])));
        return t;
    }();
    return table.data();
}
} // namespace

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
    // Divided differences in place: afterwards d[j] = f[x_0, ..., x_j]. The k^2/2 denominators x[i] - x[i - level]
    // are inverted through a table of all inverses in the field (128 KiB, built once): no dependency chain per
    // level, so the loop runs at the throughput of its multiplications. A zero denominator means duplicate xs.
    const uint16_t *inv = inverseTable();
    for (size_t level = 1; level < k; ++level) {
        for (size_t i = k - 1; i >= level; --i) {
            const uint32_t denominator = sub(x[i], x[i - level]);
            if (denominator == 0)
                return std::nullopt;
            d[i] = mul(sub(d[i], d[i - 1]), inv[denominator]);
        }
    }
    // Expand P(x) = d0 + (x - x0)(d1 + (x - x1)(d2 + ...)) from the innermost bracket outwards; `poly` holds the
    // current bracket in the monomial basis, and each step multiplies it by (x - x_j) and adds d_j.
    std::vector<uint32_t> poly(k, 0);
    poly[0] = d[k - 1];
    size_t degree = 0;
    for (size_t j = k - 1; j-- > 0;) {
        // poly * (x - x_j): shift up by one, add (p - x_j) * poly; one reduction per term (fits 32 bits, see mulAdd).
        const uint32_t minusX = sub(0, x[j]);
        poly[degree + 1] = poly[degree];
        for (size_t i = degree; i > 0; --i)
            poly[i] = mulAdd(minusX, poly[i], poly[i - 1]);
        poly[0] = mulAdd(minusX, poly[0], d[j]);
        ++degree;
    }
    return poly;
}

namespace {
template <typename T>
uint32_t horner(std::span<const T> coefficients, uint32_t x)
{
    const uint32_t xr = x % kP;
    uint32_t acc = 0;
    for (size_t i = coefficients.size(); i-- > 0;)
        acc = mulAdd(acc, xr, uint32_t(coefficients[i]) % kP); // one reduction per step (fits 32 bits)
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
