#include "rl/FastDecode.h"

#include <ATen/Functions.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#if defined(__unix__) || defined(__APPLE__)
#include <dlfcn.h>
#endif
#if defined(_OPENMP)
#include <omp.h>
#endif

namespace cohort::rl {

namespace {

// CBLAS is looked up at run time rather than linked: Debian's LibTorch already loaded OpenBLAS into the process
// (libblas.so.3), while an official LibTorch keeps MKL's symbols private and we fall back to at::mm_out.
enum { kRowMajor = 101, kNoTrans = 111, kTrans = 112 };
using SgemmFn = void (*)(int, int, int, int, int, int, float, const float *, int, const float *, int, float, float *, int);
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
#define COHORT_HOT __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define COHORT_HOT
#endif

inline void axpy(float a, const float *x, float *y, int n)
{
    for (int i = 0; i < n; ++i)
        y[i] += a * x[i];
}

// One (row, head) of decode attention over cache slots 0..p. keysT is [headDim][seqCap] (transposed, so the
// scores are axpys over slots), values [seqCap][headDim].
COHORT_HOT void attendHead(const float *q, const float *keysT, const float *values, int p, int hd, int seqCap,
                           float scale, float *scores, float *out)
{
    const int n = p + 1;
    std::fill(scores, scores + n, 0.0f);
    // The key rows are short strided runs the hardware prefetcher picks up late: ask a few rows ahead.
    constexpr int kAhead = 4;
    for (int j = 0; j < hd; ++j) {
        if (j + kAhead < hd)
            for (int off = 0; off < n; off += 16)
                __builtin_prefetch(keysT + size_t(j + kAhead) * size_t(seqCap) + size_t(off));
        axpy(q[j], keysT + size_t(j) * size_t(seqCap), scores, n);
    }
    float mx = -INFINITY;
    for (int s = 0; s < n; ++s)
        mx = std::max(mx, scores[s]);
    float sum = 0;
    for (int s = 0; s < n; ++s) {
        scores[s] = std::exp((scores[s] - mx) * scale);
        sum += scores[s];
    }
    const float inv = 1.0f / sum;
    std::fill(out, out + hd, 0.0f);
    for (int s = 0; s < n; ++s)
        axpy(scores[s] * inv, values + size_t(s) * size_t(hd), out, hd);
}

COHORT_HOT void geluInPlace(float *x, int n)
{
    constexpr float kInvSqrt2 = 0.70710678118654752f;
    for (int i = 0; i < n; ++i)
        x[i] = 0.5f * x[i] * (1.0f + std::erf(x[i] * kInvSqrt2));   // exact GELU, as at::gelu's default
}

} // namespace

bool FastDecoder::hasCblas() { return cblas().sgemm != nullptr; }
void FastDecoder::setGemmBackend(GemmBackend backend) { g_backend = backend; }
GemmBackend FastDecoder::gemmBackend() { return g_backend; }

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
    : m_c(config), m_w(std::move(weights)), m_batch(batch), m_seqCap(seqCap), m_headDim(config.dModel / config.nHeads),
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

float *FastDecoder::keyBlock(int layer, int row, int head)
{
    return m_k[size_t(layer)].data() + (size_t(row) * size_t(m_c.nHeads) + size_t(head)) * size_t(m_seqCap) * size_t(m_headDim);
}
float *FastDecoder::valueRow(int layer, int row, int head, int slot)
{
    return m_v[size_t(layer)].data() + ((size_t(row) * size_t(m_c.nHeads) + size_t(head)) * size_t(m_seqCap) + size_t(slot)) * size_t(m_headDim);
}

void FastDecoder::importCache(int layer, const float *keys, const float *values, int len)
{
    const int H = m_c.nHeads, hd = m_headDim;
    for (int b = 0; b < m_batch; ++b)
        for (int t = 0; t < len; ++t)
            for (int h = 0; h < H; ++h) {
                const size_t src = ((size_t(b) * size_t(len) + size_t(t)) * size_t(H) + size_t(h)) * size_t(hd);
                float *kt = keyBlock(layer, b, h);
                for (int j = 0; j < hd; ++j)
                    kt[size_t(j) * size_t(m_seqCap) + size_t(t)] = keys[src + size_t(j)];
                std::memcpy(valueRow(layer, b, h, t), values + src, size_t(hd) * sizeof(float));
            }
}

void FastDecoder::linear(const float *x, int n, int in, const float *w, const PackedMatrix &pw, int out, float *y, float beta)
{
    if (g_backend == GemmBackend::Packed && pw.out == out && pw.in == in) {
        packedGemm(x, n, pw, y, beta != 0.0f);
        return;
    }
    const Cblas &blas = cblas();
    if (blas.sgemm && g_backend != GemmBackend::Torch) {
        if (n == 1)   // a matrix-vector product: OpenBLAS's sgemm does not special-case M = 1
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
        var /= d;   // biased variance, as LayerNorm
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
#pragma omp parallel for schedule(static) if (tasks > 1 && work >= 65536)
#endif
    for (int t = 0; t < tasks; ++t) {
        const int i = t / H, h = t % H, b = rows[i], p = pos[i];
        const float *qkv = m_qkv.data() + size_t(i) * 3 * size_t(d);
        float *kt = keyBlock(layer, b, h);
        const float *k = qkv + d + h * hd;
        for (int j = 0; j < hd; ++j)
            kt[size_t(j) * size_t(m_seqCap) + size_t(p)] = k[j];
        std::memcpy(valueRow(layer, b, h, p), qkv + 2 * d + h * hd, size_t(hd) * sizeof(float));
        attendHead(qkv + h * hd, kt, valueRow(layer, b, h, 0), p, hd, m_seqCap, scale,
                   m_scores.data() + size_t(threadIndex()) * size_t(m_seqCap), m_att.data() + size_t(i) * size_t(d) + size_t(h * hd));
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
        for (int i = 0; i < n; ++i)   // bias first, then the GEMM accumulates onto it (beta = 1)
            std::memcpy(qkv + size_t(i) * 3 * ud, L.qkvb, 3 * ud * sizeof(float));
        linear(y, n, d, L.qkvw, P.qkv, 3 * d, qkv, 1.0f);
        attention(l, rows, pos, n);
        for (int i = 0; i < n; ++i)   // residual: x += bias + att * Wout^T
            for (int j = 0; j < d; ++j)
                x[size_t(i) * ud + size_t(j)] += L.outb[j];
        linear(att, n, d, L.outw, P.out, d, x, 1.0f);

        layerNorm(x, n, L.ln2w, L.ln2b, y);
        for (int i = 0; i < n; ++i)
            std::memcpy(ff + size_t(i) * size_t(f), L.fc1b, size_t(f) * sizeof(float));
        linear(y, n, d, L.fc1w, P.fc1, f, ff, 1.0f);
        const int64_t total = int64_t(n) * f;
#if defined(_OPENMP)
#pragma omp parallel for schedule(static) if (total >= 8192)
#endif
        for (int i = 0; i < n; ++i)
            geluInPlace(ff + size_t(i) * size_t(f), f);
        (void)total;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < d; ++j)
                x[size_t(i) * ud + size_t(j)] += L.fc2b[j];
        linear(ff, n, f, L.fc2w, P.fc2, d, x, 1.0f);
    }
    layerNorm(x, n, m_w.lnfW, m_w.lnfB, hidden);
    linear(hidden, n, d, m_w.head, m_packed->head, m_c.vocabSize, logits, 0.0f);
}

} // namespace cohort::rl
