#include "rl/FastDecode.h"

#include <ATen/Functions.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#if defined(__unix__) || defined(__APPLE__)
#  include <dlfcn.h>
#endif
#if defined(_OPENMP)
#  include <omp.h>
#endif

namespace cohort::rl {

namespace {

// CBLAS is looked up at run time rather than linked: Debian's LibTorch already loaded OpenBLAS into the process
// (libblas.so.3), while an official LibTorch keeps MKL's symbols private and we fall back to at::mm_out.
enum { kRowMajor = 101, kNoTrans = 111, kTrans = 112 };
using SgemmFn = void (*)(int, int, int, int, int, int, float, const float *, int, const float *, int, float, float *,
                         int);
using SgemvFn = void (*)(int, int, int, int, float, const float *, int, const float *, int, float, float *, int);

struct Cblas {
    SgemmFn sgemm = nullptr;
    SgemvFn sgemv = nullptr;
    Cblas()
    {
#if defined(__unix__) || defined(__APPLE__)
        sgemm = reinterpret_cast<SgemmFn>(dlsym(RTLD_DEFAULT, "cblas_sgemm"));
        sgemv = reinterpret_cast<SgemvFn>(dlsym(RTLD_DEFAULT, "cblas_sgemv"));
        if (!sgemm || !sgemv)
            sgemm = nullptr, sgemv = nullptr;
#endif
    }
};
const Cblas &cblas()
{
    static const Cblas c;
    return c;
}
GemmBackend g_backend = GemmBackend::Packed;

int threadIndex()
{
#if defined(_OPENMP)
    return omp_get_thread_num();
#else
    return 0;
#endif
}
int maxThreads()
{
#if defined(_OPENMP)
    return omp_get_max_threads();
#else
    return 1;
#endif
}

// The hot loops are written as axpys (no reductions), which the compiler vectorises without -ffast-math; on
// x86-64 GCC also emits an AVX2 clone picked at load time, while the binary still runs on any x86-64.
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#  define COHORT_HOT __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#  define COHORT_HOT
#endif

inline void axpy(float a, const float *x, float *y, int n)
{
    for (int i = 0; i < n; ++i)
        y[i] += a * x[i];
}

// Softmax of scores[0..n) in place (max-subtracted, scaled), returning 1 / sum.
inline float softmaxInPlace(float *scores, int n, float scale)
{
    float mx = -INFINITY;
    for (int s = 0; s < n; ++s)
        mx = std::max(mx, scores[s]);
    float sum = 0;
    for (int s = 0; s < n; ++s) {
        scores[s] = std::exp((scores[s] - mx) * scale);
        sum += scores[s];
    }
    return 1.0f / sum;
}

// One (row, head) of decode attention over cache slots 0..p. Keys and values are both [seqCap][headDim], so
// a head's cache is two contiguous runs of (p + 1) * headDim floats: decoding is bound by reading the cache
// (20 MB a step at batch 32 for the reference model), and contiguous runs stream at the memory's pace where the
// earlier transposed key layout read 64 short strided runs per head.
COHORT_HOT void attendHead(const float *q, const float *keys, const float *values, int p, int hd, float scale,
                           float *scores, float *out)
{
    const int n = p + 1;
    for (int s = 0; s < n; ++s) {
        const float *k = keys + size_t(s) * size_t(hd);
        float dot = 0;
        for (int j = 0; j < hd; ++j)
            dot += q[j] * k[j];
        scores[s] = dot;
    }
    const float inv = softmaxInPlace(scores, n, scale);
    std::fill(out, out + hd, 0.0f);
    for (int s = 0; s < n; ++s)
        axpy(scores[s] * inv, values + size_t(s) * size_t(hd), out, hd);
}

#if defined(__GNUC__)
typedef float V8 __attribute__((vector_size(32)));
typedef float V8u __attribute__((vector_size(32), aligned(4))); // unaligned loads/stores

[[gnu::always_inline]] inline float lanesSum(const V8 &v)
{
    return ((v[0] + v[4]) + (v[1] + v[5])) + ((v[2] + v[6]) + (v[3] + v[7]));
}

// attendHead for a head size known at compile time (a multiple of 16): the query and the output stay in
// registers; four slots at a time with two accumulators each keep eight multiply-add chains going. Always inlined,
// so that it is compiled into each target clone of its callers (AVX2 and baseline).
template <int HD>
[[gnu::always_inline]] inline void attendHeadFixed(const float *q, const float *keys, const float *values, int p,
                                                   float scale, float *scores, float *out)
{
    static_assert(HD % 16 == 0);
    constexpr int C = HD / 8;
    const int n = p + 1;
    V8 qv[C];
    for (int c = 0; c < C; ++c)
        qv[c] = *reinterpret_cast<const V8u *>(q + 8 * c);
    int s = 0;
    for (; s + 4 <= n; s += 4) {
        V8 a[4][2];
        for (int r = 0; r < 4; ++r) {
            const float *k = keys + size_t(s + r) * HD;
            a[r][0] = qv[0] * *reinterpret_cast<const V8u *>(k);
            a[r][1] = qv[1] * *reinterpret_cast<const V8u *>(k + 8);
            for (int c = 2; c < C; c += 2) {
                a[r][0] += qv[c] * *reinterpret_cast<const V8u *>(k + 8 * c);
                a[r][1] += qv[c + 1] * *reinterpret_cast<const V8u *>(k + 8 * c + 8);
            }
        }
        for (int r = 0; r < 4; ++r)
            scores[s + r] = lanesSum(a[r][0] + a[r][1]);
    }
    for (; s < n; ++s) {
        const float *k = keys + size_t(s) * HD;
        V8 a0 = qv[0] * *reinterpret_cast<const V8u *>(k), a1 = qv[1] * *reinterpret_cast<const V8u *>(k + 8);
        for (int c = 2; c < C; c += 2) {
            a0 += qv[c] * *reinterpret_cast<const V8u *>(k + 8 * c);
            a1 += qv[c + 1] * *reinterpret_cast<const V8u *>(k + 8 * c + 8);
        }
        scores[s] = lanesSum(a0 + a1);
    }
    const float inv = softmaxInPlace(scores, n, scale);
    V8 o[C];
    for (int c = 0; c < C; ++c)
        o[c] = V8{};
    for (s = 0; s < n; ++s) {
        const float w = scores[s] * inv;
        const float *v = values + size_t(s) * HD;
        for (int c = 0; c < C; ++c)
            o[c] += w * *reinterpret_cast<const V8u *>(v + 8 * c);
    }
    for (int c = 0; c < C; ++c)
        *reinterpret_cast<V8u *>(out + 8 * c) = o[c];
}

COHORT_HOT void attendHead64(const float *q, const float *keys, const float *values, int p, float scale, float *scores,
                             float *out)
{
    attendHeadFixed<64>(q, keys, values, p, scale, scores, out);
}
COHORT_HOT void attendHead32(const float *q, const float *keys, const float *values, int p, float scale, float *scores,
                             float *out)
{
    attendHeadFixed<32>(q, keys, values, p, scale, scores, out);
}
#endif

void attend(const float *q, const float *keys, const float *values, int p, int hd, float scale, float *scores,
            float *out)
{
#if defined(__GNUC__)
    if (hd == 64)
        return attendHead64(q, keys, values, p, scale, scores, out);
    if (hd == 32)
        return attendHead32(q, keys, values, p, scale, scores, out);
#endif
    attendHead(q, keys, values, p, hd, scale, scores, out);
}

// Exact GELU in place on [n, f], by LibTorch's own vectorized kernel: the same values the reference forward (and
// the hub's TOPLOC prefill) computes, at a quarter of the cost of a scalar erf per element. The rows are split
// between the threads here; inside the parallel region LibTorch runs each part on the calling thread.
void geluRows(float *x, int n, int f)
{
    const auto opts = at::TensorOptions().dtype(at::kFloat);
    if (int64_t(n) * f < 8192) {
        at::Tensor rows = at::from_blob(x, {n, f}, opts);
        at::gelu_(rows);
        return;
    }
#if defined(_OPENMP)
#  pragma omp parallel
#endif
    {
        int parts = 1, part = 0;
#if defined(_OPENMP)
        parts = omp_get_num_threads();
        part = omp_get_thread_num();
#endif
        const int first = int(int64_t(n) * part / parts), last = int(int64_t(n) * (part + 1) / parts);
        if (last > first) {
            at::Tensor rows = at::from_blob(x + size_t(first) * size_t(f), {last - first, f}, opts);
            at::gelu_(rows);
        }
    }
}

} // namespace

bool FastDecoder::hasCblas()
{
    return cblas().sgemm != nullptr;
}
void FastDecoder::setGemmBackend(GemmBackend backend)
{
    g_backend = backend;
}
GemmBackend FastDecoder::gemmBackend()
{
    return g_backend;
}

std::shared_ptr<const PackedWeights> PackedWeights::build(const PolicyConfig &c, const FastWeights &w)
{
    auto p = std::make_shared<PackedWeights>();
    const int d = c.dModel, f = c.dFF;
    for (const FastLayer &L : w.layers)
        p->layers.push_back({PackedMatrix::pack(L.qkvw, 3 * d, d), PackedMatrix::pack(L.outw, d, d),
                             PackedMatrix::pack(L.fc1w, f, d), PackedMatrix::pack(L.fc2w, d, f)});
    p->head = PackedMatrix::pack(w.head, c.vocabSize, d);
    return p;
}

FastDecoder::FastDecoder(const PolicyConfig &config, FastWeights weights, std::shared_ptr<const PackedWeights> packed,
                         int batch, int seqCap)
    : m_c(config),
      m_w(std::move(weights)),
      m_batch(batch),
      m_seqCap(seqCap),
      m_headDim(config.dModel / config.nHeads),
      m_packed(std::move(packed))
{
    const size_t d = size_t(m_c.dModel), b = size_t(batch);
    m_x.resize(b * d);
    m_y.resize(b * d);
    m_qkv.resize(b * 3 * d);
    m_att.resize(b * d);
    m_ff.resize(b * size_t(m_c.dFF));
    const size_t cacheSize = b * size_t(seqCap) * d;
    m_k.assign(size_t(m_c.nLayers), std::vector<float>(cacheSize));
    m_v.assign(size_t(m_c.nLayers), std::vector<float>(cacheSize));
    m_scores.resize(size_t(maxThreads()) * size_t(seqCap));
}

float *FastDecoder::keyRow(int layer, int row, int head, int slot)
{
    return m_k[size_t(layer)].data() +
           ((size_t(row) * size_t(m_c.nHeads) + size_t(head)) * size_t(m_seqCap) + size_t(slot)) * size_t(m_headDim);
}
float *FastDecoder::valueRow(int layer, int row, int head, int slot)
{
    return m_v[size_t(layer)].data() +
           ((size_t(row) * size_t(m_c.nHeads) + size_t(head)) * size_t(m_seqCap) + size_t(slot)) * size_t(m_headDim);
}

void FastDecoder::importCache(int layer, const float *keys, const float *values, int len)
{
    const int H = m_c.nHeads, hd = m_headDim;
    for (int b = 0; b < m_batch; ++b)
        for (int t = 0; t < len; ++t)
            for (int h = 0; h < H; ++h) {
                const size_t src = ((size_t(b) * size_t(len) + size_t(t)) * size_t(H) + size_t(h)) * size_t(hd);
                std::memcpy(keyRow(layer, b, h, t), keys + src, size_t(hd) * sizeof(float));
                std::memcpy(valueRow(layer, b, h, t), values + src, size_t(hd) * sizeof(float));
            }
}

void FastDecoder::linear(const float *x, int n, int in, const float *w, const PackedMatrix &pw, int out, float *y,
                         float beta)
{
    if (g_backend == GemmBackend::Packed && pw.out == out && pw.in == in) {
        packedGemm(x, n, pw, y, beta != 0.0f);
        return;
    }
    const Cblas &blas = cblas();
    if (blas.sgemm && g_backend != GemmBackend::Torch) {
        if (n == 1) // a matrix-vector product: OpenBLAS's sgemm does not special-case M = 1
            blas.sgemv(kRowMajor, kNoTrans, out, in, 1.0f, w, in, x, 1, beta, y, 1);
        else
            blas.sgemm(kRowMajor, kNoTrans, kTrans, n, out, in, 1.0f, x, in, w, in, beta, y, out);
        return;
    }
    auto opts = at::TensorOptions().dtype(at::kFloat);
    at::Tensor X = at::from_blob(const_cast<float *>(x), {n, in}, opts);
    at::Tensor W = at::from_blob(const_cast<float *>(w), {out, in}, opts);
    at::Tensor Y = at::from_blob(y, {n, out}, opts);
    if (beta == 0.0f)
        at::mm_out(Y, X, W.t());
    else
        Y.addmm_(X, W.t());
}

void FastDecoder::layerNorm(const float *x, int n, const float *w, const float *b, float *y) const
{
    const int d = m_c.dModel;
    for (int i = 0; i < n; ++i) {
        const float *xi = x + size_t(i) * size_t(d);
        float *yi = y + size_t(i) * size_t(d);
        double mean = 0, var = 0;
        for (int j = 0; j < d; ++j)
            mean += xi[j];
        mean /= d;
        for (int j = 0; j < d; ++j) {
            const double c = xi[j] - mean;
            var += c * c;
        }
        var /= d; // biased variance, as LayerNorm
        const float rstd = float(1.0 / std::sqrt(var + double(m_c.normEps)));
        const float m = float(mean);
        for (int j = 0; j < d; ++j)
            yi[j] = (xi[j] - m) * rstd * w[j] + b[j];
    }
}

void FastDecoder::attention(int layer, const int *rows, const int *pos, int n)
{
    const int H = m_c.nHeads, hd = m_headDim, d = m_c.dModel;
    const float scale = 1.0f / std::sqrt(float(hd));
    const int tasks = n * H;
    // Forking costs a few microseconds (more when the cores are shared): only for enough multiply-adds.
    const long long work = (long long)tasks * (*std::max_element(pos, pos + n) + 1) * hd;
    // Each (row, head) task touches only its own cache block and output columns: no sharing between threads.
#if defined(_OPENMP)
#  pragma omp parallel for schedule(static) if (tasks > 1 && work >= 65536)
#endif
    for (int t = 0; t < tasks; ++t) {
        const int i = t / H, h = t % H, b = rows[i], p = pos[i];
        const float *qkv = m_qkv.data() + size_t(i) * 3 * size_t(d);
        std::memcpy(keyRow(layer, b, h, p), qkv + d + h * hd, size_t(hd) * sizeof(float));
        std::memcpy(valueRow(layer, b, h, p), qkv + 2 * d + h * hd, size_t(hd) * sizeof(float));
        attend(qkv + h * hd, keyRow(layer, b, h, 0), valueRow(layer, b, h, 0), p, hd, scale,
               m_scores.data() + size_t(threadIndex()) * size_t(m_seqCap),
               m_att.data() + size_t(i) * size_t(d) + size_t(h * hd));
    }
    (void)work;
}

void FastDecoder::step(const int *rows, const int32_t *tokens, const int *pos, int n, float *hidden, float *logits)
{
    const int d = m_c.dModel, f = m_c.dFF;
    const size_t ud = size_t(d);
    float *x = m_x.data(), *y = m_y.data(), *qkv = m_qkv.data(), *att = m_att.data(), *ff = m_ff.data();
    for (int i = 0; i < n; ++i) {
        const float *te = m_w.tokEmb + size_t(tokens[i]) * ud, *pe = m_w.posEmb + size_t(pos[i]) * ud;
        for (int j = 0; j < d; ++j)
            x[size_t(i) * ud + size_t(j)] = te[j] + pe[j];
    }
    for (int l = 0; l < m_c.nLayers; ++l) {
        const FastLayer &L = m_w.layers[size_t(l)];
        const PackedWeights::Layer &P = m_packed->layers[size_t(l)];
        layerNorm(x, n, L.ln1w, L.ln1b, y);
        for (int i = 0; i < n; ++i) // bias first, then the GEMM accumulates onto it (beta = 1)
            std::memcpy(qkv + size_t(i) * 3 * ud, L.qkvb, 3 * ud * sizeof(float));
        linear(y, n, d, L.qkvw, P.qkv, 3 * d, qkv, 1.0f);
        attention(l, rows, pos, n);
        for (int i = 0; i < n; ++i) // residual: x += bias + att * Wout^T
            for (int j = 0; j < d; ++j)
                x[size_t(i) * ud + size_t(j)] += L.outb[j];
        linear(att, n, d, L.outw, P.out, d, x, 1.0f);

        layerNorm(x, n, L.ln2w, L.ln2b, y);
        for (int i = 0; i < n; ++i)
            std::memcpy(ff + size_t(i) * size_t(f), L.fc1b, size_t(f) * sizeof(float));
        linear(y, n, d, L.fc1w, P.fc1, f, ff, 1.0f);
        geluRows(ff, n, f);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < d; ++j)
                x[size_t(i) * ud + size_t(j)] += L.fc2b[j];
        linear(ff, n, f, L.fc2w, P.fc2, d, x, 1.0f);
    }
    layerNorm(x, n, m_w.lnfW, m_w.lnfB, hidden);
    linear(hidden, n, d, m_w.head, m_packed->head, m_c.vocabSize, logits, 0.0f);
}

} // namespace cohort::rl
