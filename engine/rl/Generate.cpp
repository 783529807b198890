// Policy::generate(): batched sampling with a KV cache. The prompt prefill is the LibTorch reference forward;
// the per-token steps run either the fused CPU decoder (FastDecode.h) or the reference decodeStep (CUDA, tests).
// Rows keep their own positions (no left padding): row b's prompt fills cache slots 0..len_b-1 and its k-th
// generated token goes to slot len_b+k, so each row computes exactly what an uncached forward of that row would.
#include "rl/FastDecode.h"
#include "rl/Policy.h"
#include "rl/PolicyImpl.h"
#include "rl/Tokenizer.h"

#include <ATen/Functions.h>
#include <c10/core/InferenceMode.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#if defined(_OPENMP)
#  include <omp.h>
#endif

namespace cohort::rl {

namespace {

using RowRng = SamplingStream; // rl/VerifiableSampling.h: the verifier draws the same uniforms

#if defined(_OPENMP)
int samplerIndex()
{
    return omp_get_thread_num();
}
int samplerCount()
{
    return omp_get_max_threads();
}
#else
int samplerIndex()
{
    return 0;
}
int samplerCount()
{
    return 1;
}
#endif

struct Sampler {
    std::vector<double> logit; // logits / temperature
    std::vector<double> expo;  // exp(logit - max): the unnormalised probabilities
    std::vector<int> order;

    // Samples from softmax(logits / temperature), restricted to the top-p nucleus when topP < 1. logProb is the
    // token's log-probability under the full temperature-scaled distribution, before the nucleus truncation: the
    // quantity the trainer recomputes (the nucleus is a sampling device, not part of the policy). Returns -1 for
    // non-finite logits. One exp per token (they were three): sampling is serial work between the decoder's
    // parallel loops, so each exp here is paid by every core.
    int sample(const float *logits, int V, float temperature, float topP, bool greedy, RowRng &rng, double &logProb)
    {
        logit.resize(size_t(V));
        expo.resize(size_t(V));
        double mx = -INFINITY;
        for (int i = 0; i < V; ++i) {
            if (!std::isfinite(logits[i]))
                return -1;
            // BOS and PAD are never generated (Policy::Impl::logits pins them the same way on the reference path).
            const bool never = V == ByteTokenizer::kVocabSize && (i == ByteTokenizer::kBos || i == ByteTokenizer::kPad);
            logit[size_t(i)] = (never ? kNeverLogit : double(logits[i])) / double(temperature);
            mx = std::max(mx, logit[size_t(i)]);
        }
        double sum = 0;
        for (int i = 0; i < V; ++i) {
            expo[size_t(i)] = std::exp(logit[size_t(i)] - mx);
            sum += expo[size_t(i)];
        }
        const double lse = mx + std::log(sum);
        if (greedy) { // the first of the most likely tokens: no randomness drawn
            const int best = int(std::max_element(logit.begin(), logit.end()) - logit.begin());
            logProb = logit[size_t(best)] - lse;
            return best;
        }

        int chosen = V - 1;
        if (topP >= 1.0f) {
            const double u = rng.uniform() * sum;
            double acc = 0;
            for (int i = 0; i < V; ++i) {
                acc += expo[size_t(i)];
                if (u < acc) {
                    chosen = i;
                    break;
                }
            }
        } else {
            order.resize(size_t(V));
            for (int i = 0; i < V; ++i)
                order[size_t(i)] = i;
            std::sort(order.begin(), order.end(), [&](int a, int b) {
                return logit[size_t(a)] > logit[size_t(b)] || (logit[size_t(a)] == logit[size_t(b)] && a < b);
            });
            double mass = 0; // the smallest prefix of the sorted tokens whose mass reaches topP
            const double target = double(topP) * sum;
            size_t keep = 0;
            while (keep < order.size()) {
                mass += expo[size_t(order[keep++])];
                if (mass >= target)
                    break;
            }
            const double u = rng.uniform() * mass;
            double acc = 0;
            chosen = order[keep - 1];
            for (size_t k = 0; k < keep; ++k) {
                acc += expo[size_t(order[k])];
                if (u < acc) {
                    chosen = order[k];
                    break;
                }
            }
        }
        logProb = logit[size_t(chosen)] - lse;
        return chosen;
    }
};

FastWeights fastWeights(const Policy::Impl &p)
{
    auto f = [](const at::Tensor &t) { return t.data_ptr<float>(); };
    FastWeights w{f(p.tokEmb), f(p.posEmb), f(p.lnfW), f(p.lnfB), f(p.head), {}};
    for (const LayerWeights &L : p.layers)
        w.layers.push_back({f(L.ln1w), f(L.ln1b), f(L.qkvw), f(L.qkvb), f(L.outw), f(L.outb), f(L.ln2w), f(L.ln2b),
                            f(L.fc1w), f(L.fc1b), f(L.fc2w), f(L.fc2b)});
    return w;
}

bool fastEligible(const Policy::Impl &p)
{
    if (!p.fastDecode || !p.device.is_cpu())
        return false;
    for (const at::Tensor &t : p.params) // in place: the optimiser keeps parameters contiguous float32
        if (t.scalar_type() != at::kFloat || !t.is_contiguous())
            return false;
    return true;
}

} // namespace

Result<std::vector<Completion>> Policy::generate(const std::vector<std::vector<int32_t>> &prompts,
                                                 const SamplingConfig &sampling, const std::atomic<bool> *cancel)
{
    using R = Result<std::vector<Completion>>;
    Impl &p = *m_impl;
    const PolicyConfig &c = p.config;
    if (!(sampling.temperature > 0.0f) || !std::isfinite(sampling.temperature))
        return R::failure("generate: temperature must be > 0");
    if (!(sampling.topP > 0.0f && sampling.topP <= 1.0f))
        return R::failure("generate: top_p must be in (0, 1]");
    if (sampling.maxNewTokens < 0)
        return R::failure("generate: max_new_tokens must be >= 0");
    const int B = int(prompts.size());
    int maxLen = 0;
    for (const auto &pr : prompts) {
        if (pr.empty())
            return R::failure("generate: empty prompt");
        if (pr.size() + size_t(sampling.maxNewTokens) > size_t(c.maxSeqLen))
            return R::failure("generate: prompt + max_new_tokens exceeds max_seq_len (" + std::to_string(c.maxSeqLen) +
                              ")");
        for (int32_t id : pr)
            if (id < 0 || id >= c.vocabSize)
                return R::failure("generate: token id out of range");
        maxLen = std::max(maxLen, int(pr.size()));
    }
    std::vector<Completion> out(static_cast<size_t>(B));
    if (B == 0 || sampling.maxNewTokens == 0)
        return R::success(std::move(out));
    auto cancelled = [&] { return cancel && cancel->load(std::memory_order_relaxed); };
    if (cancelled())
        return R::failure("cancelled");

    try {
        c10::InferenceMode guard;
        const int d = c.dModel, V = c.vocabSize;
        const int seqCap = maxLen + sampling.maxNewTokens;
        const bool fast = fastEligible(p);

        // Prefill, right-padded; padding sits after each row's prompt, where causal attention never looks back.
        at::Tensor tok = at::full({B, maxLen}, int64_t(ByteTokenizer::kPad), at::kLong);
        at::Tensor last = at::empty({B}, at::kLong);
        for (int b = 0; b < B; ++b) {
            int64_t *row = tok.data_ptr<int64_t>() + int64_t(b) * maxLen;
            for (size_t j = 0; j < prompts[size_t(b)].size(); ++j)
                row[j] = prompts[size_t(b)][j];
            last.data_ptr<int64_t>()[b] = int64_t(prompts[size_t(b)].size()) - 1;
        }
        KvCache cache = p.makeCache(B, fast ? maxLen : seqCap);
        at::Tensor hiddenAll = p.forwardHidden(tok.to(p.device), &cache);
        at::Tensor hid =
            hiddenAll.index({at::arange(B, at::TensorOptions().dtype(at::kLong).device(p.device)), last.to(p.device)});
        at::Tensor curHidden = hid.to(at::kCPU).contiguous();           // [B, d]
        at::Tensor curLogits = p.logits(hid).to(at::kCPU).contiguous(); // [B, V]

        std::optional<FastDecoder> dec;
        if (fast) {
            FastWeights w = fastWeights(p);
            if (!p.packed || p.packedVersion != p.weightsVersion) {
                p.packed = PackedWeights::build(c, w);
                p.packedVersion = p.weightsVersion;
            }
            dec.emplace(c, std::move(w), p.packed, B, seqCap);
            for (int l = 0; l < c.nLayers; ++l)
                dec->importCache(l, cache.k[size_t(l)].data_ptr<float>(), cache.v[size_t(l)].data_ptr<float>(), maxLen);
            cache = KvCache{};
        }

        // Whole rows reserved up front: growing them token by token re-copies every row's states about twice.
        for (Completion &comp : out) {
            comp.tokens.reserve(size_t(sampling.maxNewTokens));
            comp.logProbs.reserve(size_t(sampling.maxNewTokens));
            if (sampling.captureHidden)
                comp.hidden.reserve(size_t(sampling.maxNewTokens) * size_t(d));
        }
        std::vector<RowRng> rng;
        std::vector<int> pos(static_cast<size_t>(B));
        for (int b = 0; b < B; ++b) {
            rng.emplace_back(sampling.seed, sampling.firstRow + uint64_t(b));
            pos[size_t(b)] = int(prompts[size_t(b)].size());
        }
        // Step buffers for the active rows (compacted: finished rows cost nothing).
        std::vector<int> active(static_cast<size_t>(B)), stepRows, stepPos;
        for (int b = 0; b < B; ++b)
            active[size_t(b)] = b;
        std::vector<int32_t> stepTok;
        std::vector<float> hidBuf(size_t(B) * size_t(d)), logitBuf(size_t(B) * size_t(V));
        const float *hidRows = curHidden.data_ptr<float>(), *logitRows = curLogits.data_ptr<float>();
        std::vector<Sampler> samplers(static_cast<size_t>(samplerCount()));
        std::vector<int> stepIds;
        std::vector<double> stepLps;

        for (int t = 0; t < sampling.maxNewTokens; ++t) {
            if (t > 0 && cancelled())
                return R::failure("cancelled");
            if (sampling.beforeToken)
                sampling.beforeToken(t);
            // Row i of the current buffers belongs to active[i].
            stepRows.clear();
            stepTok.clear();
            stepPos.clear();
            // Rows sample in parallel: each has its own random stream, so the result does not depend on threads.
            const int rowsNow = int(active.size());
            stepIds.resize(size_t(rowsNow));
            stepLps.resize(size_t(rowsNow));
#if defined(_OPENMP)
#  pragma omp parallel for schedule(static) if (rowsNow >= 4)
#endif
            for (int i = 0; i < rowsNow; ++i) {
                const int b = active[size_t(i)];
                stepIds[size_t(i)] = samplers[size_t(samplerIndex())].sample(
                    logitRows + size_t(i) * size_t(V), V, sampling.temperature, sampling.topP, sampling.greedy,
                    rng[size_t(b)], stepLps[size_t(i)]);
            }
            if (sampling.captureHidden) {
                const auto captureStart = std::chrono::steady_clock::now();
                for (size_t i = 0; i < active.size(); ++i)
                    out[size_t(active[i])].hidden.insert(out[size_t(active[i])].hidden.end(), hidRows + i * size_t(d),
                                                         hidRows + (i + 1) * size_t(d));
                if (sampling.captureSeconds)
                    *sampling.captureSeconds +=
                        std::chrono::duration<double>(std::chrono::steady_clock::now() - captureStart).count();
            }
            for (size_t i = 0; i < active.size(); ++i) {
                const int b = active[i];
                Completion &comp = out[size_t(b)];
                const double lp = stepLps[i];
                const int id = stepIds[i];
                if (id < 0)
                    return R::failure("generate: non-finite logits (damaged weights?)");
                comp.tokens.push_back(id);
                comp.logProbs.push_back(float(lp));
                if (id == ByteTokenizer::kEos) {
                    comp.finished = true;
                    continue;
                }
                if (int(comp.tokens.size()) >= sampling.maxNewTokens)
                    continue;
                stepRows.push_back(b);
                stepTok.push_back(id);
                stepPos.push_back(pos[size_t(b)]++);
            }
            active = stepRows;
            if (active.empty())
                break;
            const int n = int(active.size());
            if (dec) {
                dec->step(stepRows.data(), stepTok.data(), stepPos.data(), n, hidBuf.data(), logitBuf.data());
                hidRows = hidBuf.data();
                logitRows = logitBuf.data();
            } else {
                auto toLong = [&](auto &v) {
                    at::Tensor x = at::empty({n}, at::kLong);
                    for (int i = 0; i < n; ++i)
                        x.data_ptr<int64_t>()[i] = v[size_t(i)];
                    return x.to(p.device);
                };
                const int maxPos = *std::max_element(stepPos.begin(), stepPos.end());
                at::Tensor h = p.decodeStep(toLong(stepTok), toLong(stepPos), toLong(stepRows), maxPos, cache);
                curHidden = h.to(at::kCPU).contiguous();
                curLogits = p.logits(h).to(at::kCPU).contiguous();
                hidRows = curHidden.data_ptr<float>();
                logitRows = curLogits.data_ptr<float>();
            }
        }
    } catch (const std::exception &e) {
        return R::failure(std::string("generate: ") + e.what());
    }
    return R::success(std::move(out));
}

} // namespace cohort::rl
