// Policy: construction, checkpoints and the LibTorch reference forward passes (generate() is in Generate.cpp).
#include "rl/Policy.h"

#include "rl/PolicyImpl.h"
#include "rl/Tokenizer.h"
#include "store/safetensors/Safetensors.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Context.h>
#include <ATen/Functions.h>
#include <ATen/Parallel.h>
#include <ATen/TensorOperators.h>
#include <c10/core/InferenceMode.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace cohort::rl {

namespace sf = cohort::safetensors;

// ---- Impl ----------------------------------------------------------------------------------------------------

std::vector<std::pair<std::string, std::vector<int64_t>>> Policy::Impl::schema(const PolicyConfig &c)
{
    const int64_t d = c.dModel, f = c.dFF;
    std::vector<std::pair<std::string, std::vector<int64_t>>> s;
    s.push_back({"tok_emb.weight", {c.vocabSize, d}});
    s.push_back({"pos_emb.weight", {c.maxSeqLen, d}});
    for (int l = 0; l < c.nLayers; ++l) {
        const std::string p = "layers." + std::to_string(l) + ".";
        s.push_back({p + "ln1.weight", {d}});
        s.push_back({p + "ln1.bias", {d}});
        s.push_back({p + "attn.qkv.weight", {3 * d, d}});
        s.push_back({p + "attn.qkv.bias", {3 * d}});
        s.push_back({p + "attn.out.weight", {d, d}});
        s.push_back({p + "attn.out.bias", {d}});
        s.push_back({p + "ln2.weight", {d}});
        s.push_back({p + "ln2.bias", {d}});
        s.push_back({p + "mlp.fc1.weight", {f, d}});
        s.push_back({p + "mlp.fc1.bias", {f}});
        s.push_back({p + "mlp.fc2.weight", {d, f}});
        s.push_back({p + "mlp.fc2.bias", {d}});
    }
    s.push_back({"ln_f.weight", {d}});
    s.push_back({"ln_f.bias", {d}});
    s.push_back({"head.weight", {c.vocabSize, d}});
    return s;
}

void Policy::Impl::adopt(std::vector<at::Tensor> tensors)
{
    names.clear();
    for (auto &[name, shape] : schema(config))
        names.push_back(name);
    params = std::move(tensors);
    for (auto &p : params)
        p.requires_grad_(true);
    size_t i = 0;
    tokEmb = params[i++];
    posEmb = params[i++];
    layers.assign(size_t(config.nLayers), {});
    for (auto &L : layers) {
        L.ln1w = params[i++];
        L.ln1b = params[i++];
        L.qkvw = params[i++];
        L.qkvb = params[i++];
        L.outw = params[i++];
        L.outb = params[i++];
        L.ln2w = params[i++];
        L.ln2b = params[i++];
        L.fc1w = params[i++];
        L.fc1b = params[i++];
        L.fc2w = params[i++];
        L.fc2b = params[i++];
    }
    lnfW = params[i++];
    lnfB = params[i++];
    head = params[i++];
}

KvCache Policy::Impl::makeCache(int64_t batch, int64_t seqCap) const
{
    const int64_t h = config.nHeads, hd = config.dModel / config.nHeads;
    KvCache c;
    auto opts = at::TensorOptions().dtype(at::kFloat).device(device);
    for (int l = 0; l < config.nLayers; ++l) {
        c.k.push_back(at::zeros({batch, seqCap, h, hd}, opts));
        c.v.push_back(at::zeros({batch, seqCap, h, hd}, opts));
    }
    return c;
}

at::Tensor Policy::Impl::forwardHidden(const at::Tensor &tokens, KvCache *cache) const
{
    const int64_t B = tokens.size(0), T = tokens.size(1);
    const int64_t d = config.dModel, H = config.nHeads, hd = d / H;
    const double scale = 1.0 / std::sqrt(double(hd));
    auto pos = at::arange(T, at::TensorOptions().dtype(at::kLong).device(device));
    at::Tensor x = at::embedding(tokEmb, tokens) + at::embedding(posEmb, pos); // [B,T,d]
    // true above the diagonal: key position after query position
    at::Tensor future = at::ones({T, T}, at::TensorOptions().dtype(at::kBool).device(device)).triu(1);
    for (size_t l = 0; l < layers.size(); ++l) {
        const LayerWeights &L = layers[l];
        at::Tensor h = at::layer_norm(x, {d}, L.ln1w, L.ln1b, config.normEps);
        at::Tensor qkv = at::linear(h, L.qkvw, L.qkvb).view({B, T, 3, H, hd});
        at::Tensor q = qkv.select(2, 0), k = qkv.select(2, 1), v = qkv.select(2, 2); // [B,T,H,hd]
        if (cache) {
            cache->k[l].narrow(1, 0, T).copy_(k);
            cache->v[l].narrow(1, 0, T).copy_(v);
        }
        q = q.transpose(1, 2);
        k = k.transpose(1, 2);
        v = v.transpose(1, 2);
        at::Tensor att = at::matmul(q, k.transpose(-2, -1)).mul_(scale);
        att.masked_fill_(future, -std::numeric_limits<float>::infinity());
        att = at::softmax(att, -1);
        at::Tensor y = at::matmul(att, v).transpose(1, 2).reshape({B, T, d});
        x = x + at::linear(y, L.outw, L.outb);
        h = at::layer_norm(x, {d}, L.ln2w, L.ln2b, config.normEps);
        x = x + at::linear(at::gelu(at::linear(h, L.fc1w, L.fc1b)), L.fc2w, L.fc2b);
    }
    return at::layer_norm(x, {d}, lnfW, lnfB, config.normEps);
}

at::Tensor Policy::Impl::logits(const at::Tensor &hidden) const
{
    at::Tensor out = at::linear(hidden, head);
    // A completion never contains BOS or PAD: with the byte vocabulary their logits are pinned far below the rest,
    // so sampling, scoring and training all see the same distribution over bytes and EOS (Sampler does the same).
    if (config.vocabSize == ByteTokenizer::kVocabSize)
        out = out.index_fill(
            -1, at::tensor({int64_t(ByteTokenizer::kBos), int64_t(ByteTokenizer::kPad)}, at::kLong).to(out.device()),
            kNeverLogit);
    return out;
}

at::Tensor Policy::Impl::decodeStep(const at::Tensor &tokens, const at::Tensor &pos, const at::Tensor &rows,
                                    int64_t maxPos, KvCache &cache) const
{
    const int64_t n = tokens.size(0), d = config.dModel, H = config.nHeads, hd = d / H;
    const int64_t S = maxPos + 1;
    const double scale = 1.0 / std::sqrt(double(hd));
    at::Tensor x = at::embedding(tokEmb, tokens) + at::embedding(posEmb, pos); // [n,d]
    // Row i may attend slots 0..pos[i] of its own cache row.
    at::Tensor slots = at::arange(S, at::TensorOptions().dtype(at::kLong).device(device));
    at::Tensor future = slots.unsqueeze(0).gt(pos.unsqueeze(1)).view({n, 1, 1, S});
    for (size_t l = 0; l < layers.size(); ++l) {
        const LayerWeights &L = layers[l];
        at::Tensor h = at::layer_norm(x, {d}, L.ln1w, L.ln1b, config.normEps);
        at::Tensor qkv = at::linear(h, L.qkvw, L.qkvb).view({n, 3, H, hd});
        cache.k[l].index_put_({rows, pos}, qkv.select(1, 1));
        cache.v[l].index_put_({rows, pos}, qkv.select(1, 2));
        at::Tensor keys = cache.k[l].index_select(0, rows).narrow(1, 0, S).permute({0, 2, 3, 1}); // [n,H,hd,S]
        at::Tensor vals = cache.v[l].index_select(0, rows).narrow(1, 0, S).permute({0, 2, 1, 3}); // [n,H,S,hd]
        at::Tensor att = at::matmul(qkv.select(1, 0).unsqueeze(2), keys).mul_(scale);             // [n,H,1,S]
        att.masked_fill_(future, -std::numeric_limits<float>::infinity());
        att = at::softmax(att, -1);
        at::Tensor y = at::matmul(att, vals).reshape({n, d});
        x = x + at::linear(y, L.outw, L.outb);
        h = at::layer_norm(x, {d}, L.ln2w, L.ln2b, config.normEps);
        x = x + at::linear(at::gelu(at::linear(h, L.fc1w, L.fc1b)), L.fc2w, L.fc2b);
    }
    return at::layer_norm(x, {d}, lnfW, lnfB, config.normEps);
}

// ---- Policy --------------------------------------------------------------------------------------------------

namespace {

Result<c10::Device> parseDevice(const std::string &name)
{
    try {
        c10::Device dev(name);
        if (dev.is_cuda() && !at::hasCUDA())
            return Result<c10::Device>::failure("device \"" + name + "\": this LibTorch has no CUDA");
        if (!dev.is_cpu() && !dev.is_cuda())
            return Result<c10::Device>::failure("device \"" + name + "\" is not supported (cpu or cuda)");
        return Result<c10::Device>::success(dev);
    } catch (const std::exception &e) {
        return Result<c10::Device>::failure("bad device \"" + name + "\"");
    }
}

float bf16ToFloat(uint16_t bits)
{
    uint32_t u = uint32_t(bits) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

} // namespace

Policy::Policy(std::unique_ptr<Impl> impl)
    : m_impl(std::move(impl))
{}
Policy::Policy(Policy &&) noexcept = default;
Policy &Policy::operator=(Policy &&) noexcept = default;
Policy::~Policy() = default;

Result<Policy> Policy::create(const PolicyConfig &config, uint64_t seed, const std::string &device)
{
    if (std::string why = config.validate(); !why.empty())
        return Result<Policy>::failure("bad model config: " + why);
    auto dev = parseDevice(device);
    if (!dev)
        return Result<Policy>::failure(dev.error);
    try {
        c10::InferenceMode guard(false);
        auto impl = std::make_unique<Impl>();
        impl->config = config;
        impl->device = *dev;
        // Initialised on the CPU with a private generator, so the weights depend on the seed only (not the device
        // or anything else that used the global RNG), then moved.
        auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
        const double residualScale = 1.0 / std::sqrt(2.0 * config.nLayers);
        std::vector<at::Tensor> tensors;
        for (auto &[name, shape] : Impl::schema(config)) {
            at::Tensor t;
            const bool isBias = name.ends_with(".bias");
            const bool isNormWeight =
                name.ends_with("ln1.weight") || name.ends_with("ln2.weight") || name == "ln_f.weight";
            if (isBias) {
                t = at::zeros(shape, at::kFloat);
            } else if (isNormWeight) {
                t = at::ones(shape, at::kFloat);
            } else {
                t = at::empty(shape, at::kFloat).normal_(0.0, 0.02, gen);
                if (name.ends_with("attn.out.weight") || name.ends_with("mlp.fc2.weight"))
                    t.mul_(residualScale); // GPT-2: keep the residual stream's variance flat with depth
            }
            tensors.push_back(t.to(*dev));
        }
        impl->adopt(std::move(tensors));
        return Result<Policy>::success(Policy(std::move(impl)));
    } catch (const std::exception &e) {
        return Result<Policy>::failure(std::string("cannot create policy: ") + e.what());
    }
}

Result<Policy> Policy::load(const std::string &path, const std::string &device)
{
    auto dev = parseDevice(device);
    if (!dev)
        return Result<Policy>::failure(dev.error);
    auto file = sf::readFile(path);
    if (!file)
        return Result<Policy>::failure(file.error);
    auto config = PolicyConfig::fromMetadata(file->header.metadata);
    if (!config)
        return Result<Policy>::failure(path + ": " + config.error);
    try {
        c10::InferenceMode guard(false);
        auto schema = Impl::schema(*config);
        if (file->header.tensors.size() != schema.size())
            return Result<Policy>::failure(path + ": expected " + std::to_string(schema.size()) + " tensors, found " +
                                           std::to_string(file->header.tensors.size()));
        std::vector<at::Tensor> tensors;
        for (auto &[name, shape] : schema) {
            const sf::TensorInfo *info = file->header.find(name);
            if (!info)
                return Result<Policy>::failure(path + ": missing tensor " + name);
            if (info->shape != shape)
                return Result<Policy>::failure(path + ": tensor " + name + " has the wrong shape");
            if (info->dtype != sf::DType::F32 && info->dtype != sf::DType::BF16)
                return Result<Policy>::failure(path + ": tensor " + name + " is " +
                                               std::string(sf::dtypeName(info->dtype)) + ", expected F32 or BF16");
            auto bytes = file->tensorData(*info);
            at::Tensor t = at::empty(shape, at::kFloat);
            float *dst = t.data_ptr<float>();
            const int64_t n = t.numel();
            if (info->dtype == sf::DType::F32) {
                std::memcpy(dst, bytes.data(), size_t(n) * 4); // the file buffer need not be aligned
            } else {
                for (int64_t i = 0; i < n; ++i) {
                    uint16_t b;
                    std::memcpy(&b, bytes.data() + 2 * i, 2);
                    dst[i] = bf16ToFloat(b);
                }
            }
            tensors.push_back(t.to(*dev));
        }
        auto impl = std::make_unique<Impl>();
        impl->config = *config;
        impl->device = *dev;
        impl->metadata = file->header.metadata;
        impl->adopt(std::move(tensors));
        return Result<Policy>::success(Policy(std::move(impl)));
    } catch (const std::exception &e) {
        return Result<Policy>::failure(path + ": cannot load policy: " + e.what());
    }
}

Outcome Policy::save(const std::string &path, const std::map<std::string, std::string> &extraMetadata) const
{
    sf::Metadata meta = m_impl->config.toMetadata();
    for (auto &[k, v] : extraMetadata) {
        if (k.starts_with("cohort.model."))
            return Outcome::failure("metadata key " + k + " is reserved for the model config");
        meta[k] = v;
    }
    try {
        std::vector<at::Tensor> cpu;
        std::vector<sf::TensorView> views;
        for (size_t i = 0; i < m_impl->params.size(); ++i) {
            at::Tensor t = m_impl->params[i].detach().to(at::kCPU, at::kFloat).contiguous();
            cpu.push_back(t);
            views.push_back({m_impl->names[i], sf::DType::F32, t.sizes().vec(),
                             std::span<const uint8_t>(static_cast<const uint8_t *>(t.data_ptr()), size_t(t.nbytes()))});
        }
        std::string err = sf::writeFile(path, views, meta);
        return err.empty() ? Outcome::success() : Outcome::failure(err);
    } catch (const std::exception &e) {
        return Outcome::failure(std::string("cannot save policy: ") + e.what());
    }
}

Outcome Policy::perturbWeights(double relative, uint64_t seed)
{
    try {
        c10::InferenceMode guard(false);
        std::mt19937_64 rng(seed);
        std::normal_distribution<float> gauss(0.0f, 1.0f);
        for (at::Tensor &p : m_impl->params) {
            at::Tensor cpu = p.detach().to(at::kCPU, at::kFloat).contiguous().clone();
            float *v = cpu.data_ptr<float>();
            for (int64_t i = 0; i < cpu.numel(); ++i)
                v[i] *= 1.0f + float(relative) * gauss(rng);
            p.detach().copy_(cpu.to(p.device()));
        }
        return Outcome::success();
    } catch (const std::exception &e) {
        return Outcome::failure(std::string("cannot perturb the weights: ") + e.what());
    }
}

const std::map<std::string, std::string> &Policy::metadata() const
{
    return m_impl->metadata;
}
const PolicyConfig &Policy::config() const
{
    return m_impl->config;
}
std::string Policy::device() const
{
    return m_impl->device.str();
}
void Policy::setFastDecode(bool enabled)
{
    m_impl->fastDecode = enabled;
}
bool Policy::fastDecode() const
{
    return m_impl->fastDecode;
}
void Policy::setComputeThreads(int threads)
{
    if (threads > 0)
        at::set_num_threads(threads);
}
int Policy::computeThreads()
{
    return at::get_num_threads();
}
void Policy::parallelFor(size_t n, const std::function<void(size_t)> &body)
{
    const auto count = std::ptrdiff_t(n);
#if defined(_OPENMP)
#  pragma omp parallel for schedule(dynamic, 1) num_threads(at::get_num_threads()) if (count > 1)
#endif
    for (std::ptrdiff_t i = 0; i < count; ++i)
        body(size_t(i));
}

Result<Policy> Policy::clone() const
{
    try {
        c10::InferenceMode guard(false);
        auto impl = std::make_unique<Impl>();
        impl->config = m_impl->config;
        impl->device = m_impl->device;
        impl->metadata = m_impl->metadata;
        impl->fastDecode = m_impl->fastDecode;
        std::vector<at::Tensor> tensors;
        for (auto &p : m_impl->params)
            tensors.push_back(p.detach().clone());
        impl->adopt(std::move(tensors));
        return Result<Policy>::success(Policy(std::move(impl)));
    } catch (const std::exception &e) {
        return Result<Policy>::failure(std::string("cannot clone policy: ") + e.what());
    }
}

Result<std::vector<std::vector<float>>> Policy::scoreCompletions(const std::vector<std::vector<int32_t>> &prompts,
                                                                 const std::vector<std::vector<int32_t>> &completions,
                                                                 float temperature,
                                                                 std::vector<std::vector<float>> *entropies,
                                                                 std::vector<std::vector<float>> *hiddenStates,
                                                                 const LogitsVisitor &visitLogits)
{
    using R = Result<std::vector<std::vector<float>>>;
    const PolicyConfig &c = m_impl->config;
    if (prompts.size() != completions.size())
        return R::failure("scoreCompletions: prompts and completions differ in count");
    if (!(temperature > 0.0f) || !std::isfinite(temperature))
        return R::failure("scoreCompletions: temperature must be > 0");
    int64_t T = 0;
    for (size_t i = 0; i < prompts.size(); ++i) {
        if (prompts[i].empty())
            return R::failure("scoreCompletions: empty prompt");
        const size_t len = prompts[i].size() + completions[i].size();
        if (len > size_t(c.maxSeqLen))
            return R::failure("scoreCompletions: sequence longer than max_seq_len");
        for (auto *seq : {&prompts[i], &completions[i]})
            for (int32_t id : *seq)
                if (id < 0 || id >= c.vocabSize)
                    return R::failure("scoreCompletions: token id out of range");
        T = std::max<int64_t>(T, int64_t(len));
    }
    std::vector<std::vector<float>> out(prompts.size());
    if (entropies)
        entropies->assign(prompts.size(), {});
    if (hiddenStates)
        hiddenStates->assign(prompts.size(), {});
    try {
        c10::InferenceMode guard;
        // Chunks bound the [B, T, V] logits on big vocabularies.
        const size_t chunk = 32;
        for (size_t begin = 0; begin < prompts.size(); begin += chunk) {
            const size_t end = std::min(prompts.size(), begin + chunk);
            const int64_t B = int64_t(end - begin);
            at::Tensor tok = at::full({B, T}, int64_t(ByteTokenizer::kPad), at::kLong);
            int64_t *tp = tok.data_ptr<int64_t>();
            for (size_t r = begin; r < end; ++r) {
                int64_t *row = tp + int64_t(r - begin) * T, j = 0;
                for (int32_t id : prompts[r])
                    row[j++] = id;
                for (int32_t id : completions[r])
                    row[j++] = id;
            }
            at::Tensor hidden = m_impl->forwardHidden(tok.to(m_impl->device));
            // Double precision like generate()'s sampler, so both agree to float rounding of the logits.
            at::Tensor raw = m_impl->logits(hidden).to(at::kCPU, at::kFloat).contiguous(); // [B, T, V]
            at::Tensor logp = at::log_softmax(raw.to(at::kDouble).div_(double(temperature)), -1);
            auto acc = logp.accessor<double, 3>();
            at::Tensor entropy;
            if (entropies)
                entropy = (-(logp.exp() * logp).sum(-1)).contiguous(); // [B, T]
            at::Tensor states;
            if (hiddenStates)
                states = hidden.to(at::kCPU, at::kFloat).contiguous(); // [B, T, d], final-norm output
            const int64_t d = c.dModel;
            for (size_t r = begin; r < end; ++r) {
                const int64_t lp = int64_t(prompts[r].size());
                for (size_t j = 0; j < completions[r].size(); ++j) {
                    out[r].push_back(float(acc[int64_t(r - begin)][lp - 1 + int64_t(j)][completions[r][j]]));
                    if (visitLogits)
                        visitLogits(
                            r, j, raw.data_ptr<float>() + (int64_t(r - begin) * T + lp - 1 + int64_t(j)) * c.vocabSize,
                            c.vocabSize);
                    if (entropies)
                        (*entropies)[r].push_back(
                            float(entropy.data_ptr<double>()[int64_t(r - begin) * T + lp - 1 + int64_t(j)]));
                    if (hiddenStates) {
                        // The state that produced completion token j sits one position before it.
                        const float *row =
                            states.data_ptr<float>() + (int64_t(r - begin) * T + lp - 1 + int64_t(j)) * d;
                        (*hiddenStates)[r].insert((*hiddenStates)[r].end(), row, row + d);
                    }
                }
            }
        }
    } catch (const std::exception &e) {
        return R::failure(std::string("scoreCompletions: ") + e.what());
    }
    return R::success(std::move(out));
}

} // namespace cohort::rl
