// GRPO and supervised steps on the reference forward (autograd), AdamW from LibTorch's C++ optimiser.
#include "rl/Trainer.h"

#include "rl/PolicyImpl.h"
#include "rl/Tokenizer.h"

#include <ATen/Functions.h>
#include <ATen/TensorOperators.h>
#include <c10/core/InferenceMode.h>
#include <torch/csrc/autograd/generated/variable_factories.h>
#include <torch/optim/adamw.h>

#include <algorithm>
#include <cmath>

namespace cohort::rl {

double grpoTokenLoss(double logp, double logpOld, double advantage, const GrpoConfig &config)
{
    const double ratio = std::clamp(std::exp(logp - logpOld), 0.0, double(config.ratioCap));
    const double clipped = std::clamp(ratio, 1.0 - double(config.clipLow), 1.0 + double(config.clipHigh));
    return std::max(-ratio * advantage, -clipped * advantage);
}

class Trainer::Impl {
public:
    Impl(Policy &policy, const GrpoConfig &config)
        : policy(policy.impl()),
          config(config),
          optimizer(policy.impl().params,
                    torch::optim::AdamWOptions(config.learningRate).weight_decay(config.weightDecay))
    {}

    Policy::Impl &policy;
    GrpoConfig config;
    torch::optim::AdamW optimizer;

    // A right-padded batch of prompt + completion sequences and, for each completion token, where its
    // predicting logit sits: targets[b][t] is the token at t+1 and mask[b][t] marks completion tokens.
    struct Batch {
        at::Tensor input;   // [B, T] int64 (T = longest sequence - 1: the last token is never an input)
        at::Tensor targets; // [B, T] int64
        at::Tensor mask;    // [B, T] float, 1 on completion tokens
        int tokens = 0;
    };
    template <class Sample>
    Result<Batch> build(const std::vector<const Sample *> &samples) const
    {
        const PolicyConfig &c = policy.config;
        int64_t T = 0;
        for (const Sample *s : samples) {
            if (s->prompt.empty())
                return Result<Batch>::failure("training sample with an empty prompt");
            if (s->prompt.size() + s->completion.size() > size_t(c.maxSeqLen))
                return Result<Batch>::failure("training sample longer than max_seq_len");
            for (auto *seq : {&s->prompt, &s->completion})
                for (int32_t id : *seq)
                    if (id < 0 || id >= c.vocabSize)
                        return Result<Batch>::failure("training sample with a token id out of range");
            T = std::max<int64_t>(T, int64_t(s->prompt.size() + s->completion.size()) - 1);
        }
        const int64_t B = int64_t(samples.size());
        T = std::max<int64_t>(T, 1);
        Batch batch;
        batch.input = at::full({B, T}, int64_t(ByteTokenizer::kPad), at::kLong);
        batch.targets = at::zeros({B, T}, at::kLong);
        batch.mask = at::zeros({B, T}, at::kFloat);
        auto in = batch.input.accessor<int64_t, 2>();
        auto tg = batch.targets.accessor<int64_t, 2>();
        auto mk = batch.mask.accessor<float, 2>();
        for (int64_t b = 0; b < B; ++b) {
            const Sample &s = *samples[size_t(b)];
            std::vector<int32_t> seq = s.prompt;
            seq.insert(seq.end(), s.completion.begin(), s.completion.end());
            const int64_t lp = int64_t(s.prompt.size());
            for (int64_t t = 0; t + 1 < int64_t(seq.size()); ++t) {
                in[b][t] = seq[size_t(t)];
                tg[b][t] = seq[size_t(t + 1)];
                if (t + 1 >= lp) {
                    mk[b][t] = 1.0f;
                    ++batch.tokens;
                }
            }
        }
        batch.input = batch.input.to(policy.device);
        batch.targets = batch.targets.to(policy.device);
        batch.mask = batch.mask.to(policy.device);
        return Result<Batch>::success(std::move(batch));
    }

    // Backward has run: measure, clip, step. Returns the pre-clip global L2 norm.
    double finishStep()
    {
        std::vector<at::Tensor> norms;
        for (auto &p : policy.params)
            if (p.grad().defined())
                norms.push_back(p.grad().detach().norm().to(at::kDouble));
        double total = norms.empty() ? 0.0 : at::stack(norms).norm().item<double>();
        if (config.gradClip > 0 && std::isfinite(total) && total > double(config.gradClip)) {
            const double scale = double(config.gradClip) / (total + 1e-6);
            for (auto &p : policy.params)
                if (p.grad().defined())
                    p.grad().mul_(scale);
        }
        if (std::isfinite(total)) {
            optimizer.step(); // a non-finite gradient is skipped rather than poisoning the weights
            ++policy.weightsVersion;
        }
        optimizer.zero_grad();
        return total;
    }
};

Trainer::Trainer(Policy &policy, const GrpoConfig &config)
    : m_impl(std::make_unique<Impl>(policy, config))
{}
Trainer::~Trainer() = default;

Result<StepStats> Trainer::grpoStep(const std::vector<RolloutSample> &batch, const std::atomic<bool> *cancel)
{
    using R = Result<StepStats>;
    if (cancel && cancel->load())
        return R::failure("cancelled");
    const GrpoConfig &cfg = m_impl->config;
    std::vector<const RolloutSample *> kept;
    for (const RolloutSample &s : batch) {
        if (s.oldLogProbs.size() != s.completion.size())
            return R::failure("rollout sample: old_log_probs and completion differ in length");
        if (!std::isfinite(s.advantage))
            return R::failure("rollout sample: non-finite advantage");
        if (s.advantage != 0.0f && !s.completion.empty())
            kept.push_back(&s);
    }
    StepStats stats;
    if (kept.empty())
        return R::success(stats);
    try {
        c10::InferenceMode off(false);
        auto built = m_impl->build(kept);
        if (!built)
            return R::failure(built.error);
        Impl::Batch &b = *built;
        const int64_t B = b.input.size(0), T = b.input.size(1);
        at::Tensor oldLp = at::zeros({B, T}, at::kFloat), adv = at::zeros({B, 1}, at::kFloat);
        auto ol = oldLp.accessor<float, 2>();
        for (int64_t r = 0; r < B; ++r) {
            const RolloutSample &s = *kept[size_t(r)];
            const int64_t lp = int64_t(s.prompt.size());
            for (size_t j = 0; j < s.completion.size(); ++j)
                ol[r][lp - 1 + int64_t(j)] = s.oldLogProbs[j];
            adv.data_ptr<float>()[r] = s.advantage;
        }
        oldLp = oldLp.to(m_impl->policy.device);
        adv = adv.to(m_impl->policy.device);

        Policy::Impl &p = m_impl->policy;
        at::Tensor logits = p.logits(p.forwardHidden(b.input)).div(double(cfg.temperature));
        at::Tensor logpAll = at::log_softmax(logits, -1);                          // [B,T,V]
        at::Tensor logp = logpAll.gather(-1, b.targets.unsqueeze(-1)).squeeze(-1); // [B,T]
        at::Tensor entropy = -(logpAll.exp() * logpAll).sum(-1);                   // [B,T]
        at::Tensor ratio = at::clamp(at::exp(logp - oldLp), 0.0, double(cfg.ratioCap));
        at::Tensor clipped = at::clamp(ratio, 1.0 - double(cfg.clipLow), 1.0 + double(cfg.clipHigh));
        at::Tensor unclippedLoss = -ratio * adv, clippedLoss = -clipped * adv;
        at::Tensor tokenLoss = at::maximum(unclippedLoss, clippedLoss);
        const double nTok = double(b.tokens);
        const double norm = cfg.maxTokens > 0 ? double(cfg.maxTokens) : nTok;
        at::Tensor meanEntropy = (entropy * b.mask).sum() / nTok;
        at::Tensor loss = (tokenLoss * b.mask).sum() / norm - double(cfg.entropyCoef) * meanEntropy;
        loss.backward();
        stats.gradNorm = m_impl->finishStep();
        stats.loss = loss.item<double>();
        stats.entropy = meanEntropy.item<double>();
        stats.clipFraction = ((clippedLoss > unclippedLoss).to(at::kFloat) * b.mask).sum().item<double>() / nTok;
        stats.meanRatio = (ratio.detach() * b.mask).sum().item<double>() / nTok;
        stats.tokens = b.tokens;
        stats.samples = int(kept.size());
    } catch (const std::exception &e) {
        m_impl->optimizer.zero_grad();
        return R::failure(std::string("grpo step: ") + e.what());
    }
    return R::success(stats);
}

Result<StepStats> Trainer::supervisedStep(const std::vector<SupervisedSample> &batch, const std::atomic<bool> *cancel)
{
    using R = Result<StepStats>;
    if (cancel && cancel->load())
        return R::failure("cancelled");
    std::vector<const SupervisedSample *> kept;
    for (const SupervisedSample &s : batch)
        if (!s.completion.empty())
            kept.push_back(&s);
    StepStats stats;
    if (kept.empty())
        return R::success(stats);
    try {
        c10::InferenceMode off(false);
        auto built = m_impl->build(kept);
        if (!built)
            return R::failure(built.error);
        Impl::Batch &b = *built;
        Policy::Impl &p = m_impl->policy;
        at::Tensor logpAll = at::log_softmax(p.logits(p.forwardHidden(b.input)), -1);
        at::Tensor logp = logpAll.gather(-1, b.targets.unsqueeze(-1)).squeeze(-1);
        const double nTok = double(b.tokens);
        at::Tensor loss = -(logp * b.mask).sum() / nTok;
        at::Tensor entropy = (-(logpAll.exp() * logpAll).sum(-1) * b.mask).sum().detach() / nTok;
        loss.backward();
        stats.gradNorm = m_impl->finishStep();
        stats.loss = loss.item<double>();
        stats.entropy = entropy.item<double>();
        stats.meanRatio = 1.0;
        stats.tokens = b.tokens;
        stats.samples = int(kept.size());
    } catch (const std::exception &e) {
        m_impl->optimizer.zero_grad();
        return R::failure(std::string("supervised step: ") + e.what());
    }
    return R::success(stats);
}

} // namespace cohort::rl
