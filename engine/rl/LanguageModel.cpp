// Flat-vector access to the policy's weights and the language-model loss with autograd.
#include "rl/LanguageModel.h"
#include "rl/PolicyImpl.h"
#include "rl/Tokenizer.h"

#include <ATen/Functions.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <c10/core/InferenceMode.h>
#include <c10/util/Exception.h>

#include <cstring>
#include <optional>

namespace cohort::rl {

size_t flatParameterCount(const Policy &policy)
{
    size_t n = 0;
    for (const at::Tensor &p : policy.impl().params)
        n += size_t(p.numel());
    return n;
}

Outcome readFlatParameters(const Policy &policy, std::span<float> out)
{
    if (out.size() != flatParameterCount(policy))
        return Outcome::failure("flat parameters: wrong size");
    try {
        size_t at = 0;
        for (const at::Tensor &p : policy.impl().params) {
            at::Tensor cpu = p.detach().to(at::kCPU, at::kFloat).contiguous();
            std::memcpy(out.data() + at, cpu.data_ptr<float>(), size_t(cpu.numel()) * sizeof(float));
            at += size_t(cpu.numel());
        }
    } catch (const std::exception &e) {
        return Outcome::failure(std::string("reading weights: ") + e.what());
    }
    return Outcome::success();
}

Outcome writeFlatParameters(Policy &policy, std::span<const float> in)
{
    if (in.size() != flatParameterCount(policy))
        return Outcome::failure("flat parameters: wrong size");
    try {
        c10::InferenceMode off(false);
        Policy::Impl &impl = policy.impl();
        at::NoGradGuard noGrad;
        size_t at = 0;
        for (at::Tensor &p : impl.params) {
            const int64_t n = p.numel();
            // from_blob does not own the memory; copy_ moves it into the parameter (and to its device).
            at::Tensor src = at::from_blob(const_cast<float *>(in.data() + at), p.sizes(), at::kFloat);
            p.copy_(src);
            at += size_t(n);
        }
        ++impl.weightsVersion;
    } catch (const std::exception &e) {
        return Outcome::failure(std::string("writing weights: ") + e.what());
    }
    return Outcome::success();
}

Result<double> languageModelLoss(Policy &policy, const std::vector<std::vector<int32_t>> &sequences,
                                 std::span<float> gradient, const std::atomic<bool> *cancel)
{
    using R = Result<double>;
    if (cancel && cancel->load())
        return R::failure("cancelled");
    Policy::Impl &impl = policy.impl();
    const PolicyConfig &c = impl.config;
    if (sequences.empty())
        return R::failure("language-model loss: no sequences");
    if (!gradient.empty() && gradient.size() != flatParameterCount(policy))
        return R::failure("language-model loss: gradient buffer of the wrong size");
    int64_t T = 0;
    for (const auto &seq : sequences) {
        if (seq.size() < 2 || seq.size() > size_t(c.maxSeqLen))
            return R::failure("language-model loss: a sequence shorter than 2 or longer than max_seq_len");
        for (int32_t id : seq)
            if (id < 0 || id >= c.vocabSize)
                return R::failure("language-model loss: a token id out of range");
        T = std::max<int64_t>(T, int64_t(seq.size()) - 1);
    }
    const int64_t B = int64_t(sequences.size());
    try {
        c10::InferenceMode off(false);
        at::Tensor input = at::full({B, T}, int64_t(ByteTokenizer::kPad), at::kLong);
        at::Tensor targets = at::zeros({B, T}, at::kLong);
        at::Tensor mask = at::zeros({B, T}, at::kFloat);
        auto in = input.accessor<int64_t, 2>();
        auto tg = targets.accessor<int64_t, 2>();
        auto mk = mask.accessor<float, 2>();
        int64_t tokens = 0;
        for (int64_t b = 0; b < B; ++b) {
            const auto &seq = sequences[size_t(b)];
            for (int64_t t = 0; t + 1 < int64_t(seq.size()); ++t) {
                in[b][t] = seq[size_t(t)];
                tg[b][t] = seq[size_t(t + 1)];
                mk[b][t] = 1.0f;
                ++tokens;
            }
        }
        input = input.to(impl.device);
        targets = targets.to(impl.device);
        mask = mask.to(impl.device);
        const bool wantGrad = !gradient.empty();
        std::optional<at::NoGradGuard> noGrad;
        if (!wantGrad)
            noGrad.emplace();
        at::Tensor logp = at::log_softmax(impl.logits(impl.forwardHidden(input)), -1);
        at::Tensor picked = logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1);
        at::Tensor loss = -(picked * mask).sum() / double(tokens);
        const double value = loss.item<double>();
        if (wantGrad) {
            for (at::Tensor &p : impl.params)
                if (p.grad().defined())
                    p.mutable_grad().zero_();
            loss.backward();
            size_t at = 0;
            for (at::Tensor &p : impl.params) {
                const size_t n = size_t(p.numel());
                if (p.grad().defined()) {
                    at::Tensor g = p.grad().detach().to(at::kCPU).contiguous();
                    std::memcpy(gradient.data() + at, g.data_ptr<float>(), n * sizeof(float));
                    p.mutable_grad().reset(); // the next call starts from nothing; no stale gradient stays around
                } else {
                    std::fill_n(gradient.data() + at, n, 0.0f);
                }
                at += n;
            }
        }
        return R::success(value);
    } catch (const std::exception &e) {
        return R::failure(std::string("language-model loss: ") + e.what());
    }
}

} // namespace cohort::rl
