#include "rl/PackedGemm.h"

#include <algorithm>
#include <cstddef>

namespace cohort::rl {

namespace {

constexpr int P = PackedMatrix::kPanel;

namespace generic {
#include "rl/PackedGemmKernel.inc"
} // namespace generic

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#  define COHORT_HAVE_AVX2_KERNEL 1
#  pragma GCC push_options
#  pragma GCC target("avx2,fma")
namespace avx2 {
#  include "rl/PackedGemmKernel.inc"
} // namespace avx2
#  pragma GCC pop_options
#endif

using PanelFn = void (*)(const float *, int, int, const float *, float *, int, int, bool);
PanelFn pickKernel()
{
#if defined(COHORT_HAVE_AVX2_KERNEL)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return &avx2::panelProduct;
#endif
    return &generic::panelProduct;
}

} // namespace

PackedMatrix PackedMatrix::pack(const float *w, int out, int in)
{
    PackedMatrix m;
    m.out = out;
    m.in = in;
    const int panels = (out + P - 1) / P;
    m.data.assign(size_t(panels) * size_t(in) * P, 0.0f);
    for (int o = 0; o < out; ++o) {
        float *dst = m.data.data() + size_t(o / P) * size_t(in) * P + size_t(o % P);
        const float *src = w + size_t(o) * size_t(in);
        for (int k = 0; k < in; ++k)
            dst[size_t(k) * P] = src[k];
    }
    return m;
}

void packedGemm(const float *x, int n, const PackedMatrix &w, float *y, bool accumulate)
{
    static const PanelFn panelProduct = pickKernel();
    const int panels = (w.out + P - 1) / P;
    const long long work = (long long)n * w.in * w.out;
#if defined(_OPENMP)
#  pragma omp parallel for schedule(static) if (work >= 65536 && panels > 1)
#endif
    for (int p = 0; p < panels; ++p) {
        const int cols = std::min(P, w.out - p * P);
        panelProduct(x, n, w.in, w.data.data() + size_t(p) * size_t(w.in) * P, y + size_t(p) * P, w.out, cols,
                     accumulate);
    }
    (void)work;
}

} // namespace cohort::rl
