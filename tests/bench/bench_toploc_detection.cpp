// TOPLOC's detection table on the real policy (reference config): a prover generates rollouts and proofs, the
// verifier (the hub's side: one teacher-forced prefill with the claimed weights) checks them. Prints, per case, the
// share of accepted chunks and the exponent/mantissa statistics. Not a ctest (the verdicts belong in a test once
// the table is settled).
//   bench_toploc_detection [samples=64]
#include "rl/Policy.h"
#include "rl/Tokenizer.h"
#include "store/safetensors/Safetensors.h"
#include "toploc/Proof.h"
#include "toploc/Verify.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>

using namespace cohort;
namespace sf = cohort::safetensors;

namespace {

rl::PolicyConfig referenceConfig()
{
    rl::PolicyConfig c;
    c.dModel = 256;
    c.nLayers = 4;
    c.nHeads = 4;
    c.dFF = 1024;
    c.maxSeqLen = 160;
    return c;
}

uint16_t toBf16(float f) { return toploc::bf16Bits(f); }
float fromBf16(uint16_t b)
{
    const uint32_t bits = uint32_t(b) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

// Writes `source`'s weights to `path` after `edit` (float32 tensors), with EOS made unreachable so every sample
// has the full length (ln_f.bias = 1 and head row EOS = -1 give a logit of -d).
std::string writeVariant(rl::Policy &source, const std::string &path, const std::function<void(const std::string &, float *, size_t)> &edit)
{
    if (auto o = source.save(path); !o)
        return o.error;
    auto f = sf::readFile(path);
    if (!f)
        return f.error;
    const size_t d = size_t(source.config().dModel);
    std::vector<sf::TensorData> ts;
    for (auto &info : f->header.tensors) {
        auto b = f->tensorData(info);
        sf::TensorData t{info.name, info.dtype, info.shape, {b.begin(), b.end()}};
        auto *v = reinterpret_cast<float *>(t.bytes.data());
        const size_t n = t.bytes.size() / 4;
        if (t.name == "ln_f.bias")
            std::fill(v, v + d, 1.0f);
        if (t.name == "head.weight")
            std::fill(v + size_t(rl::ByteTokenizer::kEos) * d, v + size_t(rl::ByteTokenizer::kEos + 1) * d, -1.0f);
        if (edit)
            edit(t.name, v, n);
        ts.push_back(std::move(t));
    }
    return sf::writeFile(path, ts, f->header.metadata);
}

struct Row {
    int chunks = 0, accepted = 0;
    double expMatches = 0, mantissaMean = 0, mantissaMedian = 0;
};

Row run(rl::Policy &prover, const std::vector<std::vector<int32_t>> &proverPrompts, rl::Policy &verifier,
        const std::vector<std::vector<int32_t>> &claimedPrompts, int verifierThreads, bool oneByOne)
{
    rl::SamplingConfig s;
    s.maxNewTokens = 128;
    s.seed = 99;
    s.captureHidden = true;
    rl::Policy::setComputeThreads(2);
    auto gen = prover.generate(proverPrompts, s);
    Row row;
    if (!gen) {
        std::fprintf(stderr, "%s\n", gen.error.c_str());
        return row;
    }
    rl::Policy::setComputeThreads(verifierThreads);
    std::vector<std::vector<int32_t>> completions;
    for (const auto &c : *gen)
        completions.push_back(c.tokens);
    std::vector<std::vector<float>> hidden(completions.size());
    if (oneByOne) {
        // A different batch composition on the verifier: each sample alone, in reverse order.
        for (size_t k = completions.size(); k-- > 0;) {
            std::vector<std::vector<float>> h;
            auto r = verifier.scoreCompletions({claimedPrompts[k]}, {completions[k]}, 1.0f, nullptr, &h);
            if (r)
                hidden[k] = std::move(h[0]);
        }
    } else {
        verifier.scoreCompletions(claimedPrompts, completions, 1.0f, nullptr, &hidden);
    }
    const size_t dim = size_t(prover.config().dModel);
    for (size_t k = 0; k < completions.size(); ++k) {
        const auto &c = (*gen)[k];
        const auto proofs = toploc::buildProofs(c.hidden.data(), c.tokens.size(), dim);
        const auto report = toploc::verifyProofs(proofs, hidden[k].data(), c.tokens.size(), dim);
        for (const auto &v : report.chunks) {
            ++row.chunks;
            row.accepted += v.accepted;
            row.expMatches += v.expMatches;
            row.mantissaMean += v.mantissaMean > 1e6 ? 128 : v.mantissaMean;
            row.mantissaMedian += v.mantissaMedian > 1e6 ? 128 : v.mantissaMedian;
        }
    }
    return row;
}

} // namespace

int main(int argc, char **argv)
{
    const int samples = argc > 1 ? std::max(8, std::atoi(argv[1] + (std::strncmp(argv[1], "samples=", 8) == 0 ? 8 : 0))) : 64;
    auto base = rl::Policy::create(referenceConfig(), 1);
    auto other = rl::Policy::create(referenceConfig(), 2);
    if (!base || !other)
        return 1;
    const std::string dir = "/tmp";
    std::mt19937 rng(7);
    std::normal_distribution<float> gauss(0.0f, 1.0f);
    struct Variant {
        const char *name;
        std::string path;
    };
    const auto make = [&](rl::Policy &src, const char *file, std::function<void(const std::string &, float *, size_t)> edit) {
        const std::string path = dir + "/toploc-" + file + ".safetensors";
        if (auto e = writeVariant(src, path, edit); !e.empty())
            std::fprintf(stderr, "%s\n", e.c_str());
        return rl::Policy::load(path);
    };
    auto honest = make(*base, "honest", nullptr);
    auto verifier = make(*base, "verifier", nullptr);
    auto otherVersion = make(*other, "other", nullptr);
    auto noise1 = make(*base, "noise1e-2", [&](const std::string &, float *v, size_t n) {
        for (size_t i = 0; i < n; ++i) v[i] *= 1.0f + 1e-2f * gauss(rng);
    });
    auto noise2 = make(*base, "noise1e-3", [&](const std::string &, float *v, size_t n) {
        for (size_t i = 0; i < n; ++i) v[i] *= 1.0f + 1e-3f * gauss(rng);
    });
    auto bf16 = make(*base, "bf16", [&](const std::string &, float *v, size_t n) {
        for (size_t i = 0; i < n; ++i) v[i] = fromBf16(toBf16(v[i]));
    });
    if (!honest || !verifier || !otherVersion || !noise1 || !noise2 || !bf16) {
        std::fprintf(stderr, "cannot build the variants\n");
        return 1;
    }
    std::vector<std::vector<int32_t>> prompts, changed;
    for (int i = 0; i < samples; ++i) {
        prompts.push_back(rl::ByteTokenizer::encode("question " + std::to_string(1000 + i) + ": ab", true)); // 16 tokens
        changed.push_back(prompts.back());
        changed.back()[5] = changed.back()[5] == 'x' ? 'y' : 'x'; // one prompt token differs
    }
    std::printf("TOPLOC detection on the reference policy (d 256, 4 layers), %d samples x 128 tokens, thresholds 90/128, "
                "mean <= 10, median <= 8\n", samples);
    std::printf("%-58s %8s %10s %10s %10s %10s\n", "case", "chunks", "accepted", "exp match", "mant mean", "mant med");
    const auto print = [](const char *name, const Row &r) {
        std::printf("%-58s %8d %9.1f%% %10.1f %10.2f %10.2f\n", name, r.chunks, r.chunks ? 100.0 * r.accepted / r.chunks : 0,
                    r.chunks ? r.expMatches / r.chunks : 0, r.chunks ? r.mantissaMean / r.chunks : 0,
                    r.chunks ? r.mantissaMedian / r.chunks : 0);
    };
    print("honest, same thread count (2)", run(*honest, prompts, *verifier, prompts, 2, false));
    print("honest, verifier on 1 thread, one sample per batch", run(*honest, prompts, *verifier, prompts, 1, true));
    print("other version (different weights)", run(*otherVersion, prompts, *verifier, prompts, 2, false));
    print("weights x (1 + 1e-2 noise)", run(*noise1, prompts, *verifier, prompts, 2, false));
    print("weights x (1 + 1e-3 noise)", run(*noise2, prompts, *verifier, prompts, 2, false));
    print("one prompt token changed", run(*honest, changed, *verifier, prompts, 2, false));
    print("generated with bf16-rounded weights", run(*bf16, prompts, *verifier, prompts, 2, false));
    return 0;
}
