#include "collectives/ValueBounds.h"

#include <cmath>
#include <limits>

// Like FastQuant.cpp: -O3, AVX2 clones picked at load time with GCC on x86-64 ELF.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__)
#  define COHORT_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#  define COHORT_VECTOR_CLONES
#endif

namespace cohort::collectives {

double valueLimit(float normBound, int contributions)
{
    if (!(normBound > 0))
        return std::numeric_limits<double>::infinity();
    return double(normBound) * double(contributions) * kBoundSlack;
}

namespace {

constexpr size_t kLanes = 16;

// Sum of squares in kLanes independent float lanes (so the compiler vectorizes without reassociating), folded into
// double per call; `outside` counts values that are not finite or exceed the limit (NaN fails every comparison).
COHORT_VECTOR_CLONES void scanLanes(const float *v, size_t n, float limit, double &sumSquares, uint32_t &outside)
{
    float acc[kLanes] = {};
    uint32_t bad[kLanes] = {};
    size_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
        for (size_t l = 0; l < kLanes; ++l) {
            const float x = v[i + l];
            acc[l] += x * x;
            bad[l] |= uint32_t(!(std::fabs(x) <= limit));
        }
    double total = 0;
    uint32_t any = 0;
    for (size_t l = 0; l < kLanes; ++l) {
        total += double(acc[l]);
        any |= bad[l];
    }
    for (; i < n; ++i) {
        const float x = v[i];
        total += double(x) * double(x);
        any |= uint32_t(!(std::fabs(x) <= limit));
    }
    sumSquares += total;
    outside |= any;
}

} // namespace

ScanResult scanValues(const float *values, size_t count, double limit)
{
    // A limit beyond the float range is the float range itself: finiteness is always required.
    const float floatLimit = limit >= double(std::numeric_limits<float>::max()) ? std::numeric_limits<float>::max()
                                                                                 : float(limit);
    ScanResult r;
    uint32_t outside = 0;
    // Float lanes overflow to inf for values above ~1.8e19 squared; such a square is far past any real bound, and an
    // inf sum only makes the norm check fail, which is the right answer then.
    scanLanes(values, count, floatLimit, r.sumSquares, outside);
    r.withinLimit = outside == 0;
    return r;
}

NormResult l2Norm(const float *values, size_t count)
{
    const ScanResult s = scanValues(values, count, std::numeric_limits<double>::infinity());
    return {s.withinLimit && std::isfinite(s.sumSquares), std::sqrt(s.sumSquares)};
}

} // namespace cohort::collectives
