#include "collectives/ValueBounds.h"

#include <cmath>
#include <limits>

#include "collectives/VectorClones.h"

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#  define COHORT_SCAN_AVX2 1
#  include <immintrin.h>
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

// The values after the last whole group of lanes, one at a time.
inline void scanTail(const float *v, size_t from, size_t n, float limit, double &total, uint32_t &any)
{
    for (size_t i = from; i < n; ++i) {
        const float x = v[i];
        total += double(x) * double(x);
        any |= uint32_t(!(std::fabs(x) <= limit));
    }
}

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
    scanTail(v, i, n, limit, total, any);
    sumSquares += total;
    outside |= any;
}

#if COHORT_SCAN_AVX2
// The same pass with AVX2 intrinsics (GCC does not vectorize the lanes above): four independent sums of squares,
// and |x| <= limit as an unordered not-less-or-equal compare, which NaN fails as it should.
__attribute__((target("avx2"))) void scanAvx2(const float *v, size_t n, float limit, double &sumSquares,
                                              uint32_t &outside)
{
    const __m256 lim = _mm256_set1_ps(limit);
    const __m256 absMask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0, bad = s0;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m256 x0 = _mm256_loadu_ps(v + i), x1 = _mm256_loadu_ps(v + i + 8);
        const __m256 x2 = _mm256_loadu_ps(v + i + 16), x3 = _mm256_loadu_ps(v + i + 24);
        s0 = _mm256_add_ps(s0, _mm256_mul_ps(x0, x0));
        s1 = _mm256_add_ps(s1, _mm256_mul_ps(x1, x1));
        s2 = _mm256_add_ps(s2, _mm256_mul_ps(x2, x2));
        s3 = _mm256_add_ps(s3, _mm256_mul_ps(x3, x3));
        bad = _mm256_or_ps(bad, _mm256_cmp_ps(_mm256_and_ps(x0, absMask), lim, _CMP_NLE_UQ));
        bad = _mm256_or_ps(bad, _mm256_cmp_ps(_mm256_and_ps(x1, absMask), lim, _CMP_NLE_UQ));
        bad = _mm256_or_ps(bad, _mm256_cmp_ps(_mm256_and_ps(x2, absMask), lim, _CMP_NLE_UQ));
        bad = _mm256_or_ps(bad, _mm256_cmp_ps(_mm256_and_ps(x3, absMask), lim, _CMP_NLE_UQ));
    }
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, _mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3)));
    double total = 0;
    for (const float l : lanes)
        total += double(l);
    uint32_t any = _mm256_movemask_ps(bad) != 0;
    scanTail(v, i, n, limit, total, any);
    sumSquares += total;
    outside |= any;
}
#endif

} // namespace

ScanResult scanValues(const float *values, size_t count, double limit)
{
    // A limit beyond the float range is the float range itself: finiteness is always required.
    const float floatLimit =
        limit >= double(std::numeric_limits<float>::max()) ? std::numeric_limits<float>::max() : float(limit);
    ScanResult r;
    uint32_t outside = 0;
    // Float lanes overflow to inf for values above ~1.8e19 squared; such a square is far past any real bound, and an
    // inf sum only makes the norm check fail, which is the right answer then.
#if COHORT_SCAN_AVX2
    static const bool avx2 = __builtin_cpu_supports("avx2");
    if (avx2)
        scanAvx2(values, count, floatLimit, r.sumSquares, outside);
    else
#endif
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
