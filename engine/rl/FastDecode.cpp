#include "rl/FastDecode.h"

#include <ATen/Functions.h>

#include <algorithm>
#include <cmath>
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
bool g_forceTorchGemm = false;

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

// Several accumulators so the compiler can keep independent vector lanes busy without -ffast-math.
inline float dot(const float *a, const float *b, int n)
{
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
    }
    for (; i < n; ++i)
        s0 += a[i] * b[i];
    return (s0 + s1) + (s2 + s3);
}

inline void geluInPlace(float *x, int64_t n)
{
    constexpr float kInvSqrt2 = 0.70710678118654752f;
    for (int64_t i = 0; i < n; ++i)
        x[i] = 0.5f * x[i] * (1.0f + std::erf(x[i] * kInvSqrt2));   // exact GELU, as at::gelu's default
}

} // namespace

bool FastDecoder::hasCblas() { return cblas().sgemm != nullptr; }
void FastDecoder::setForceTorchGemm(bool force) { g_forceTorchGemm = force; }

FastDecoder::FastDecoder(const PolicyConfig &config, FastWeights weights, int batch, int seqCap)
    : m_c(config), m_w(std::move(weights)), m_batch(batch), m_seqCap(seqCap), m_headDim(config.dModel / config.nHeads)
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
    return m_k[size_t(layer)].data() + ((size_t(row) * size_t(m_c.nHeads) + size_t(head)) * size_t(m_seqCap) + size_t(slot)) * size_t(m_headDim);
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
                std::memcpy(keyRow(layer, b, h, t), keys + src, size_t(hd) * sizeof(float));
                std::memcpy(valueRow(layer, b, h, t), values + src, size_t(hd) * sizeof(float));
            }
}

void FastDecoder::linear(const float *x, int n, int in, const float *w, int out, float *y, float beta)
{
    const Cblas &blas = cblas();
    if (blas.sgemm && !g_forceTorchGemm) {
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
    // Each (row, head) task touches only its own cache block and output columns: no sharing between threads.
#if defined(_OPENMP)
#pragma omp parallel for schedule(static) if (tasks > 1)
#endif
    for (int t = 0; t < tasks; ++t) {
        const int i = t / H, h = t % H, b = rows[i], p = pos[i];
        const float *qkv = m_qkv.data() + size_t(i) * 3 * size_t(d);
        std::memcpy(keyRow(layer, b, h, p), qkv + d + h * hd, size_t(hd) * sizeof(float));
        std::memcpy(valueRow(layer, b, h, p), qkv + 2 * d + h * hd, size_t(hd) * sizeof(float));
        const float *q = qkv + h * hd;
        const float *K = keyRow(layer, b, h, 0);
        const float *V = valueRow(layer, b, h, 0);
        float *scores = m_scores.data() + size_t(threadIndex()) * size_t(m_seqCap);
        float mx = -INFINITY;
        for (int s = 0; s <= p; ++s) {
            scores[s] = dot(q, K + size_t(s) * size_t(hd), hd) * scale;
            mx = std::max(mx, scores[s]);
        }
        float sum = 0;
        for (int s = 0; s <= p; ++s) {
            scores[s] = std::exp(scores[s] - mx);
            sum += scores[s];
        }
        const float inv = 1.0f / sum;
        float *out = m_att.data() + size_t(i) * size_t(d) + size_t(h * hd);
        std::fill(out, out + hd, 0.0f);
        for (int s = 0; s <= p; ++s) {
            const float a = scores[s] * inv;
            const float *v = V + size_t(s) * size_t(hd);
            for (int j = 0; j < hd; ++j)
                out[j] += a * v[j];
        }
    }
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
        layerNorm(x, n, L.ln1w, L.ln1b, y);
        for (int i = 0; i < n; ++i)   // bias first, then the GEMM accumulates onto it (beta = 1)
            std::memcpy(qkv + size_t(i) * 3 * ud, L.qkvb, 3 * ud * sizeof(float));
        linear(y, n, d, L.qkvw, 3 * d, qkv, 1.0f);
        attention(l, rows, pos, n);
        for (int i = 0; i < n; ++i)   // residual: x += bias + att * Wout^T
            for (int j = 0; j < d; ++j)
                x[size_t(i) * ud + size_t(j)] += L.outb[j];
        linear(att, n, d, L.outw, d, x, 1.0f);

        layerNorm(x, n, L.ln2w, L.ln2b, y);
        for (int i = 0; i < n; ++i)
            std::memcpy(ff + size_t(i) * size_t(f), L.fc1b, size_t(f) * sizeof(float));
        linear(y, n, d, L.fc1w, f, ff, 1.0f);
        const int64_t total = int64_t(n) * f;
#if defined(_OPENMP)
#pragma omp parallel for schedule(static) if (total >= 8192)
#endif
        for (int i = 0; i < n; ++i)
            geluInPlace(ff + size_t(i) * size_t(f), f);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < d; ++j)
                x[size_t(i) * ud + size_t(j)] += L.fc2b[j];
        linear(ff, n, f, L.fc2w, d, x, 1.0f);
    }
    layerNorm(x, n, m_w.lnfW, m_w.lnfB, hidden);
    linear(hidden, n, d, m_w.head, m_c.vocabSize, logits, 0.0f);
}

} // namespace cohort::rl
