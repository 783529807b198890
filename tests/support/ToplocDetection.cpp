#include "ToplocDetection.h"

#include "rl/Policy.h"
#include "rl/Tokenizer.h"
#include "store/safetensors/Safetensors.h"
#include "toploc/Proof.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <random>

namespace cohort::testing {

namespace sf = cohort::safetensors;

namespace {

using Edit = std::function<void(float *values, size_t count)>;

float roundedToBf16(float f)
{
    const uint32_t bits = uint32_t(toploc::bf16Bits(f)) << 16;
    float out;
    std::memcpy(&out, &bits, 4);
    return out;
}

// Writes `source`'s weights after `edit` (float32 tensors) and loads them back. EOS is made unreachable
// (ln_f.bias = 1, head row EOS = -1 give it a logit of -d) so every rollout has the full length and the table
// counts exactly samples x newTokens/32 chunks.
Result<rl::Policy> variant(rl::Policy &source, const std::string &path, const Edit &edit)
{
    if (auto saved = source.save(path); !saved)
        return Result<rl::Policy>::failure(saved.error);
    auto file = sf::readFile(path);
    if (!file)
        return Result<rl::Policy>::failure(file.error);
    const size_t d = size_t(source.config().dModel);
    std::vector<sf::TensorData> tensors;
    for (const auto &info : file->header.tensors) {
        const auto bytes = file->tensorData(info);
        sf::TensorData t{info.name, info.dtype, info.shape, {bytes.begin(), bytes.end()}};
        auto *v = reinterpret_cast<float *>(t.bytes.data());
        if (t.name == "ln_f.bias")
            std::fill(v, v + d, 1.0f);
        if (t.name == "head.weight")
            std::fill(v + size_t(rl::ByteTokenizer::kEos) * d, v + size_t(rl::ByteTokenizer::kEos + 1) * d, -1.0f);
        if (edit)
            edit(v, t.bytes.size() / 4);
        tensors.push_back(std::move(t));
    }
    if (auto e = sf::writeFile(path, tensors, file->header.metadata); !e.empty())
        return Result<rl::Policy>::failure(e);
    return rl::Policy::load(path);
}

struct Verifier {
    rl::Policy *policy;
    int threads = 2;
    bool oneByOne = false; // a different batch composition: each rollout alone, in reverse order
};

DetectionCase runCase(std::string name, bool honest, rl::Policy &prover,
                      const std::vector<std::vector<int32_t>> &proverPrompts, const Verifier &verifier,
                      const std::vector<std::vector<int32_t>> &claimedPrompts, const DetectionSetup &setup,
                      const toploc::VerifyThresholds &thresholds, std::string *error)
{
    DetectionCase out{std::move(name), honest, {}, {}};
    rl::SamplingConfig sampling;
    sampling.maxNewTokens = setup.newTokens;
    sampling.seed = setup.seed * 7919 + 99;
    sampling.captureHidden = true;
    rl::Policy::setComputeThreads(2);
    auto generated = prover.generate(proverPrompts, sampling);
    if (!generated) {
        *error = generated.error;
        return out;
    }
    rl::Policy::setComputeThreads(verifier.threads);
    std::vector<std::vector<int32_t>> completions;
    for (const auto &c : *generated)
        completions.push_back(c.tokens);
    std::vector<std::vector<float>> hidden(completions.size());
    if (verifier.oneByOne) {
        for (size_t k = completions.size(); k-- > 0;) {
            std::vector<std::vector<float>> h;
            auto scored = verifier.policy->scoreCompletions({claimedPrompts[k]}, {completions[k]}, 1.0f, nullptr, &h);
            if (!scored) {
                *error = scored.error;
                return out;
            }
            hidden[k] = std::move(h[0]);
        }
    } else if (auto scored = verifier.policy->scoreCompletions(claimedPrompts, completions, 1.0f, nullptr, &hidden);
               !scored) {
        *error = scored.error;
        return out;
    }
    rl::Policy::setComputeThreads(2);
    const size_t dim = size_t(prover.config().dModel);
    for (size_t k = 0; k < completions.size(); ++k) {
        const auto &c = (*generated)[k];
        const auto proofs = toploc::buildProofs(c.hidden.data(), c.tokens.size(), dim);
        const auto report = toploc::verifyProofs(proofs, hidden[k].data(), c.tokens.size(), dim, thresholds);
        out.chunks.insert(out.chunks.end(), report.chunks.begin(), report.chunks.end());
        out.chunksPerSample.push_back(int(report.chunks.size()));
    }
    return out;
}

} // namespace

rl::PolicyConfig referencePolicyConfig()
{
    rl::PolicyConfig c;
    c.dModel = 256;
    c.nLayers = 4;
    c.nHeads = 4;
    c.dFF = 1024;
    c.maxSeqLen = 160;
    return c;
}

std::vector<DetectionCase> runDetectionTable(const DetectionSetup &setup, const toploc::VerifyThresholds &thresholds,
                                             std::string *error)
{
    std::vector<DetectionCase> table;
    auto base = rl::Policy::create(setup.model, setup.seed);
    auto other = rl::Policy::create(setup.model, setup.seed + 1);
    if (!base || !other) {
        *error = base ? other.error : base.error;
        return table;
    }
    std::mt19937 rng(uint32_t(setup.seed * 31 + 7));
    std::normal_distribution<float> gauss(0.0f, 1.0f);
    const auto noise = [&](float eps) {
        return [&rng, &gauss, eps](float *v, size_t n) {
            for (size_t i = 0; i < n; ++i)
                v[i] *= 1.0f + eps * gauss(rng);
        };
    };
    const auto path = [&](const char *file) { return setup.workDir + "/toploc-" + file + ".safetensors"; };
    auto honest = variant(*base, path("honest"), nullptr);
    auto verifier = variant(*base, path("verifier"), nullptr);
    auto otherVersion = variant(*other, path("other"), nullptr);
    auto noise2 = variant(*base, path("noise1e-2"), noise(1e-2f));
    auto noise3 = variant(*base, path("noise1e-3"), noise(1e-3f));
    auto bf16 = variant(*base, path("bf16"), [](float *v, size_t n) {
        for (size_t i = 0; i < n; ++i)
            v[i] = roundedToBf16(v[i]);
    });
    for (auto *r : {&honest, &verifier, &otherVersion, &noise2, &noise3, &bf16})
        if (!*r) {
            *error = r->error;
            return table;
        }
    std::vector<std::vector<int32_t>> prompts, changed;
    for (int i = 0; i < setup.samples; ++i) {
        prompts.push_back(rl::ByteTokenizer::encode("question " + std::to_string(1000 + i) + ": ab", true));
        changed.push_back(prompts.back());
        changed.back()[5] = changed.back()[5] == 'x' ? 'y' : 'x'; // one prompt token differs
    }
    const Verifier same{&*verifier, 2, false};
    const Verifier reshaped{&*verifier, 1, true};
    const auto add = [&](std::string name, bool expectAccept, rl::Policy &prover,
                         const std::vector<std::vector<int32_t>> &used, const Verifier &v) {
        if (!error->empty())
            return;
        table.push_back(runCase(std::move(name), expectAccept, prover, used, v, prompts, setup, thresholds, error));
    };
    add("honest, same thread count (2)", true, *honest, prompts, same);
    add("honest, verifier on 1 thread, one rollout per batch", true, *honest, prompts, reshaped);
    add("other version (different weights)", false, *otherVersion, prompts, same);
    add("weights x (1 + 1e-2 noise)", false, *noise2, prompts, same);
    add("weights x (1 + 1e-3 noise)", false, *noise3, prompts, same);
    add("one prompt token changed", false, *honest, changed, same);
    add("generated with bf16-rounded weights", false, *bf16, prompts, same);
    if (!error->empty())
        table.clear();
    return table;
}

DetectionSummary summarize(const DetectionCase &c, const toploc::VerifyThresholds &thresholds)
{
    DetectionSummary s;
    size_t next = 0;
    for (const int count : c.chunksPerSample) {
        bool all = count > 0;
        for (int i = 0; i < count; ++i, ++next) {
            const toploc::ChunkVerdict &v = c.chunks[next];
            const bool ok = toploc::meetsThresholds(v, thresholds);
            const double mean = v.mantissaMean > 1e6 ? 128 : v.mantissaMean;
            const double median = v.mantissaMedian > 1e6 ? 128 : v.mantissaMedian;
            ++s.chunks;
            s.acceptedChunks += ok;
            all = all && ok;
            s.meanExpMatches += v.expMatches;
            s.meanMantissaMean += mean;
            s.meanMantissaMedian += median;
            s.worstExpMatches = std::min(s.worstExpMatches, v.expMatches);
            s.worstMantissaMean = std::max(s.worstMantissaMean, mean);
            s.bestMantissaMean = std::min(s.bestMantissaMean, mean);
        }
        ++s.samples;
        s.acceptedSamples += all;
    }
    if (s.chunks) {
        s.meanExpMatches /= s.chunks;
        s.meanMantissaMean /= s.chunks;
        s.meanMantissaMedian /= s.chunks;
    }
    return s;
}

} // namespace cohort::testing
