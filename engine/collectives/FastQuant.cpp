#include "collectives/FastQuant.h"
#include "collectives/Prefetch.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>

// Built with -O3 (CMakeLists.txt) and, through cohort_quant, -ffp-contract=off: every operation rounds separately,
// exactly as QuantMath.h does.
//
// With GCC on x86-64 ELF the kernels are also compiled for AVX2 and picked at load time (target_clones): twice the
// lanes, the same IEEE operations (AVX2 brings no FMA, and contraction is off anyway), so the same bits.
#include "collectives/VectorClones.h"
// Quantizing is also written with AVX2 intrinsics, picked at run time (GCC and Clang on x86-64).
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#  define COHORT_QUANT_AVX2 1
#  include <immintrin.h>
#endif

namespace cohort::collectives::fastquant {

// A float's bits as an integer that orders like the float (for non-NaN values; -0 just below +0), so the min/max
// reductions are integer ones, which the compiler vectorizes (float min/max reductions it does not, without
// -ffast-math). Min and max of finite values do not depend on the order they are taken in; the only order-dependent
// detail of the reference, the sign of a zero, paramsFromRange normalizes.
inline int32_t orderedKey(float x)
{
    const int32_t bits = std::bit_cast<int32_t>(x);
    return bits ^ int32_t(uint32_t(bits >> 31) >> 1);
}

// Loops over values that stream from memory run in tiles of kTile, each prefetching the tile kAhead values on.
constexpr size_t kTile = 1024, kAhead = 4 * kTile;

inline float fromOrderedKey(int32_t key)
{
    return std::bit_cast<float>(key ^ int32_t(uint32_t(key >> 31) >> 1));
}

template <quant::Word Q>
COHORT_VECTOR_CLONES quant::ParamsResult computeParams(std::span<const float> src)
{
    if (src.empty())
        return quant::computeParams<Q>(src);
    const size_t n = src.size();
    int32_t lo = orderedKey(src[0]), hi = lo;
    uint32_t exponentOr = 0; // any all-ones exponent (inf/NaN) shows up as a lane with 0x7f800000 set
    // Tiles with a prefetch ahead, as in dequantizeAddTracked: the values come from memory.
    for (size_t first = 0; first < n; first += kTile) {
        const size_t last = std::min(n, first + kTile);
        for (size_t k = first + kAhead; k < std::min(n, last + kAhead); k += 16)
            prefetchRead(src.data() + k);
        for (size_t i = first; i < last; ++i) {
            const uint32_t b = std::bit_cast<uint32_t>(src[i]);
            const int32_t key = int32_t(b ^ (uint32_t(int32_t(b) >> 31) >> 1));
            lo = key < lo ? key : lo;
            hi = key > hi ? key : hi;
            exponentOr |= uint32_t((b & 0x7f800000u) == 0x7f800000u);
        }
    }
    if (exponentOr)
        return {{}, ErrorCode::NonFinite};
    return quant::paramsFromRange(fromOrderedKey(lo), fromOrderedKey(hi), quant::kLevels<Q>);
}

// encode() rounds v in (0, L) half away from zero. For every float v in [0, 65535], truncating v + kJustUnderHalf
// (the largest float below 0.5, added with one IEEE rounding) gives exactly that: a tie k + 0.5 sums to k + 1 after
// rounding, and the float just below k + 0.5 stays below k + 1 (checked for every float of the range, and in
// tst_collectives). A plain + 0.5 would round 0.49999997 up to 1.
constexpr float kJustUnderHalf = 0.49999997f;
static_assert(kJustUnderHalf < 0.5f && kJustUnderHalf + 0x1p-25f == 0.5f);

template <quant::Word Q>
COHORT_VECTOR_CLONES void quantizePortable(const float *p, size_t n, const quant::QuantParams &params, Q *dst)
{
    const float min = params.min, scale = params.scale, top = float(quant::kLevels<Q>);
    for (size_t i = 0; i < n; ++i) {
        float v = (p[i] - min) / scale;
        // encode(): v <= 0 -> 0, v >= L -> L, otherwise round half away from zero.
        v = v > 0.0f ? v : 0.0f;
        v = v < top ? v : top;
        dst[i] = Q(int32_t(v + kJustUnderHalf));
    }
}

#if defined(COHORT_QUANT_AVX2)
// The same operations as quantizePortable, 32 values a round, written out: the compiler's own vectorization of the
// loop above juggles masks through the stack and runs at a third of this speed, and quantizing is the ring's most
// expensive step (a division per value). max/min take the same branches as the ternaries (x > 0 ? x : 0 is
// max_ps(x, 0); x < top ? x : top is min_ps(x, top)), so the codes are the same bits.
struct Avx2Encoder {
    __m256 min, scale, zero, top, justUnderHalf;
};

__attribute__((target("avx2"), always_inline)) inline __m256i encode8(const Avx2Encoder &e, const float *at)
{
    __m256 v = _mm256_div_ps(_mm256_sub_ps(_mm256_loadu_ps(at), e.min), e.scale);
    v = _mm256_min_ps(_mm256_max_ps(v, e.zero), e.top);
    return _mm256_cvttps_epi32(_mm256_add_ps(v, e.justUnderHalf));
}

template <quant::Word Q>
__attribute__((target("avx2"))) void quantizeAvx2(const float *p, size_t n, const quant::QuantParams &params, Q *dst)
{
    const Avx2Encoder e{_mm256_set1_ps(params.min), _mm256_set1_ps(params.scale), _mm256_setzero_ps(),
                        _mm256_set1_ps(float(quant::kLevels<Q>)), _mm256_set1_ps(kJustUnderHalf)};
    size_t i = 0;
    if constexpr (sizeof(Q) == 1) {
        const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        for (; i + 32 <= n; i += 32) {
            if (i + kAhead + 32 <= n) {
                _mm_prefetch(reinterpret_cast<const char *>(p + i + kAhead), _MM_HINT_T0);
                _mm_prefetch(reinterpret_cast<const char *>(p + i + kAhead + 16), _MM_HINT_T0);
            }
            const __m256i a = encode8(e, p + i), b = encode8(e, p + i + 8);
            const __m256i c = encode8(e, p + i + 16), d = encode8(e, p + i + 24);
            // Packs work within 128-bit lanes; the permutation puts the 32 bytes back in order.
            const __m256i bytes = _mm256_packus_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, d));
            _mm256_storeu_si256(reinterpret_cast<__m256i *>(dst + i), _mm256_permutevar8x32_epi32(bytes, order));
        }
    } else {
        for (; i + 16 <= n; i += 16) {
            if (i + kAhead + 16 <= n)
                _mm_prefetch(reinterpret_cast<const char *>(p + i + kAhead), _MM_HINT_T0);
            const __m256i words = _mm256_packus_epi32(encode8(e, p + i), encode8(e, p + i + 8));
            _mm256_storeu_si256(reinterpret_cast<__m256i *>(dst + i), _mm256_permute4x64_epi64(words, 0xD8));
        }
    }
    quantizePortable<Q>(p + i, n - i, params, dst + i);
}

bool haveAvx2()
{
    static const bool have = [] {
        __builtin_cpu_init();
        return bool(__builtin_cpu_supports("avx2"));
    }();
    return have;
}
#endif

template <quant::Word Q>
void quantize(std::span<const float> src, const quant::QuantParams &params, Q *dst)
{
    const size_t n = src.size();
    if (!(params.scale > 0.0f)) { // QuantMath::encode: every value is code 0
        for (size_t i = 0; i < n; ++i)
            dst[i] = 0;
        return;
    }
#if defined(COHORT_QUANT_AVX2)
    if (haveAvx2())
        return quantizeAvx2<Q>(src.data(), n, params, dst);
#endif
    quantizePortable<Q>(src.data(), n, params, dst);
}

template <quant::Word Q>
COHORT_VECTOR_CLONES void dequantize(const Q *src, const quant::QuantParams &params, std::span<float> dst)
{
    const float min = params.min, scale = params.scale;
    float *d = dst.data();
    for (size_t i = 0; i < dst.size(); ++i)
        d[i] = min + float(src[i]) * scale;
}

#if defined(COHORT_QUANT_AVX2)
// dequantize with non-temporal stores: no read-for-ownership of the destination lines and no eviction of what the
// ring still needs from the caches. Same arithmetic (min + code * scale, two roundings). The fence orders the
// streamed stores before whatever this thread publishes next (the operation's completion).
template <quant::Word Q>
__attribute__((target("avx2"))) void dequantizeStreamAvx2(const Q *src, const quant::QuantParams &params, float *d,
                                                          size_t n)
{
    const float min = params.min, scale = params.scale;
    size_t i = 0;
    for (; i < n && (reinterpret_cast<uintptr_t>(d + i) & 31) != 0; ++i)
        d[i] = min + float(src[i]) * scale;
    const __m256 vmin = _mm256_set1_ps(min), vscale = _mm256_set1_ps(scale);
    for (; i + 8 <= n; i += 8) {
        __m256i codes;
        if constexpr (sizeof(Q) == 1)
            codes = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i *>(src + i)));
        else
            codes = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i)));
        _mm256_stream_ps(d + i, _mm256_add_ps(vmin, _mm256_mul_ps(_mm256_cvtepi32_ps(codes), vscale)));
    }
    for (; i < n; ++i)
        d[i] = min + float(src[i]) * scale;
    _mm_sfence();
}
#endif

template <quant::Word Q>
void dequantizeStreaming(const Q *src, const quant::QuantParams &params, std::span<float> dst)
{
#if defined(COHORT_QUANT_AVX2)
    if (haveAvx2())
        return dequantizeStreamAvx2<Q>(src, params, dst.data(), dst.size());
#endif
    dequantize<Q>(src, params, dst);
}

template <quant::Word Q>
COHORT_VECTOR_CLONES void dequantizeAccumulate(const Q *src, const quant::QuantParams &params, std::span<float> dst)
{
    const float min = params.min, scale = params.scale;
    float *d = dst.data();
    for (size_t i = 0; i < dst.size(); ++i)
        d[i] = d[i] + (min + float(src[i]) * scale);
}

template <quant::Word Q>
COHORT_VECTOR_CLONES void dequantizeAdd(const Q *src, const quant::QuantParams &params, const float *in,
                                        std::span<float> out)
{
    const float min = params.min, scale = params.scale;
    float *d = out.data();
    for (size_t i = 0; i < out.size(); ++i)
        d[i] = in[i] + (min + float(src[i]) * scale);
}

template <quant::Word Q>
COHORT_VECTOR_CLONES void dequantizeAddTracked(const Q *src, const quant::QuantParams &params, const float *in,
                                               std::span<float> out, RangeKeys &range)
{
    const float min = params.min, scale = params.scale;
    float *d = out.data();
    int32_t lo = range.lo, hi = range.hi;
    uint32_t special = range.nonFinite;
    // In tiles, each asking for the input a few tiles ahead: the addend streams from memory (a peer's own input
    // is read once per operation), and without the hint the loop waits on it instead of overlapping it.
    const size_t n = out.size();
    for (size_t first = 0; first < n; first += kTile) {
        const size_t last = std::min(n, first + kTile);
        for (size_t k = first + kAhead; k < std::min(n, last + kAhead); k += 16)
            prefetchRead(in + k);
        for (size_t i = first; i < last; ++i) {
            const float v = in[i] + (min + float(src[i]) * scale);
            d[i] = v;
            const uint32_t b = std::bit_cast<uint32_t>(v);
            const int32_t key = int32_t(b ^ (uint32_t(int32_t(b) >> 31) >> 1));
            lo = key < lo ? key : lo;
            hi = key > hi ? key : hi;
            special |= uint32_t((b & 0x7f800000u) == 0x7f800000u);
        }
    }
    range.lo = lo;
    range.hi = hi;
    range.nonFinite = special;
}

COHORT_VECTOR_CLONES void addStreamed(const float *own, const float *received, float *dst, size_t count)
{
    for (size_t first = 0; first < count; first += kTile) {
        const size_t last = std::min(count, first + kTile);
        for (size_t k = first + kAhead; k < std::min(count, last + kAhead); k += 16)
            prefetchRead(own + k);
        for (size_t i = first; i < last; ++i)
            dst[i] = own[i] + received[i];
    }
}

template <quant::Word Q>
quant::ParamsResult paramsOf(const RangeKeys &range)
{
    if (range.nonFinite)
        return {{}, ErrorCode::NonFinite};
    if (range.lo > range.hi) // nothing tracked
        return quant::computeParams<Q>(std::span<const float>());
    return quant::paramsFromRange(fromOrderedKey(range.lo), fromOrderedKey(range.hi), quant::kLevels<Q>);
}

#define COHORT_FASTQUANT_INSTANTIATE(Q)                                                                                \
  template quant::ParamsResult computeParams<Q>(std::span<const float>);                                               \
  template void quantize<Q>(std::span<const float>, const quant::QuantParams &, Q *);                                  \
  template void dequantize<Q>(const Q *, const quant::QuantParams &, std::span<float>);                                \
  template void dequantizeStreaming<Q>(const Q *, const quant::QuantParams &, std::span<float>);                       \
  template void dequantizeAccumulate<Q>(const Q *, const quant::QuantParams &, std::span<float>);                      \
  template void dequantizeAdd<Q>(const Q *, const quant::QuantParams &, const float *, std::span<float>);              \
  template void dequantizeAddTracked<Q>(const Q *, const quant::QuantParams &, const float *, std::span<float>,        \
                                        RangeKeys &);                                                                  \
  template quant::ParamsResult paramsOf<Q>(const RangeKeys &);

COHORT_FASTQUANT_INSTANTIATE(uint8_t)
COHORT_FASTQUANT_INSTANTIATE(uint16_t)

} // namespace cohort::collectives::fastquant
