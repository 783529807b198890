// Rollout generation throughput: Cohort's policy (fused CPU decoder, and the LibTorch reference decode for
// context) against the named peer, PyTorch eager with a KV cache (tests/bench/peer_rollout.py), run by this
// program in the same invocation on the same weights.
//   ./build/tests/bench/bench_rollout [--batches 1,32] [--new 128] [--prompt 16] [--threads 2] [--repeats 5]
//                                     [--warmup 2] [--rounds 2] [--python python3] [--no-peer] [--no-reference]
//                                     [--gemm packed|cblas|torch]   (the fused decoder's GEMMs; default packed)
// Reference config: d_model 256, 4 layers, 4 heads, d_ff 1024, byte vocab 259. tok/s = batch * new / seconds
// of one whole generate() call (prefill included); best and median over the repeats after warm-up.
// The EOS row of the head is made unreachable so every row produces exactly `new` tokens on both sides.
#include "rl/FastDecode.h"
#include "rl/Policy.h"
#include "rl/Tokenizer.h"
#include "store/safetensors/Safetensors.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#ifndef COHORT_BENCH_DIR
#define COHORT_BENCH_DIR "."
#endif

using namespace cohort::rl;
namespace sf = cohort::safetensors;

namespace {

struct Figures {
    double best = 0, median = 0;
};

std::vector<int> parseList(const std::string &s)
{
    std::vector<int> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');)
        out.push_back(std::max(1, std::atoi(item.c_str())));
    return out;
}

Figures measure(Policy &policy, int batch, int promptLen, int newTokens, int warmup, int repeats)
{
    std::vector<std::vector<int32_t>> prompts;
    uint32_t x = 12345;
    for (int b = 0; b < batch; ++b) {
        std::vector<int32_t> p;
        for (int i = 0; i < promptLen; ++i) {
            x = x * 1664525u + 1013904223u;
            p.push_back(int32_t((x >> 16) & 0xFF));
        }
        prompts.push_back(std::move(p));
    }
    SamplingConfig s;
    s.maxNewTokens = newTokens;
    std::vector<double> secs;
    for (int i = 0; i < warmup + repeats; ++i) {
        s.seed = uint64_t(i);
        auto t0 = std::chrono::steady_clock::now();
        auto r = policy.generate(prompts, s);
        const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!r) {
            std::fprintf(stderr, "generate failed: %s\n", r.error.c_str());
            std::exit(1);
        }
        for (auto &c : *r)
            if (int(c.tokens.size()) != newTokens) {
                std::fprintf(stderr, "a row stopped early (%zu tokens)\n", c.tokens.size());
                std::exit(1);
            }
        if (i >= warmup)
            secs.push_back(dt);
    }
    std::sort(secs.begin(), secs.end());
    const double n = double(batch) * newTokens;
    return {n / secs.front(), n / secs[secs.size() / 2]};
}

std::string findPython(const std::string &given)
{
    std::vector<std::string> candidates;
    if (!given.empty())
        candidates.push_back(given);
    if (const char *env = std::getenv("COHORT_PEER_PYTHON"))
        candidates.push_back(env);
    candidates.push_back("python3");
    candidates.push_back("/usr/bin/python3");   // Debian's python3-torch, when a pyenv shim shadows it
    for (const auto &py : candidates)
        if (std::system((py + " -c 'import torch' >/dev/null 2>&1").c_str()) == 0)
            return py;
    return {};
}

// Runs the peer for one batch size; parses its JSON line.
bool runPeer(const std::string &python, const std::string &weights, int batch, int promptLen, int newTokens,
             int threads, int warmup, int repeats, Figures &out)
{
    const std::string cmd = python + " " + COHORT_BENCH_DIR "/peer_rollout.py --weights '" + weights +
                            "' --batches " + std::to_string(batch) + " --prompt " + std::to_string(promptLen) +
                            " --new " + std::to_string(newTokens) + " --threads " + std::to_string(threads) +
                            " --warmup " + std::to_string(warmup) + " --repeats " + std::to_string(repeats);
    FILE *pipe = popen(cmd.c_str(), "r");
    if (!pipe)
        return false;
    char line[4096];
    bool ok = false;
    while (std::fgets(line, sizeof line, pipe)) {
        const char *best = std::strstr(line, "\"best_tok_s\":"), *median = std::strstr(line, "\"median_tok_s\":");
        if (best && median) {
            out.best = std::atof(best + 13);
            out.median = std::atof(median + 15);
            ok = true;
        }
    }
    return pclose(pipe) == 0 && ok;
}

// Saves `policy` with the EOS logit pinned far below the rest: ln_f.bias = 1 and head row EOS = -1 give
// logit_eos = -(sum of the normalised state) - d = -d, since LayerNorm's output sums to zero with weight 1.
std::string writeBenchWeights(Policy &policy, const std::string &path)
{
    if (auto o = policy.save(path); !o)
        return o.error;
    auto f = sf::readFile(path);
    if (!f)
        return f.error;
    const int d = policy.config().dModel;
    std::vector<sf::TensorData> ts;
    for (auto &info : f->header.tensors) {
        auto b = f->tensorData(info);
        sf::TensorData t{info.name, info.dtype, info.shape, {b.begin(), b.end()}};
        auto *v = reinterpret_cast<float *>(t.bytes.data());
        if (t.name == "ln_f.bias")
            std::fill(v, v + d, 1.0f);
        if (t.name == "head.weight")
            std::fill(v + size_t(ByteTokenizer::kEos) * size_t(d), v + size_t(ByteTokenizer::kEos + 1) * size_t(d), -1.0f);
        ts.push_back(std::move(t));
    }
    return sf::writeFile(path, ts, f->header.metadata);
}

} // namespace

int main(int argc, char **argv)
{
    std::vector<int> batches{1, 32};
    int newTokens = 128, promptLen = 16, threads = 2, repeats = 5, warmup = 2, rounds = 2;
    bool peer = true, reference = true;
    std::string python;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--batches") batches = parseList(next());
        else if (a == "--new") newTokens = std::atoi(next().c_str());
        else if (a == "--prompt") promptLen = std::atoi(next().c_str());
        else if (a == "--threads") threads = std::atoi(next().c_str());
        else if (a == "--repeats") repeats = std::max(1, std::atoi(next().c_str()));
        else if (a == "--warmup") warmup = std::atoi(next().c_str());
        else if (a == "--rounds") rounds = std::max(1, std::atoi(next().c_str()));
        else if (a == "--python") python = next();
        else if (a == "--gemm") {
            const std::string g = next();
            FastDecoder::setGemmBackend(g == "cblas" ? GemmBackend::Cblas : g == "torch" ? GemmBackend::Torch : GemmBackend::Packed);
        }
        else if (a == "--no-peer") peer = false;
        else if (a == "--no-reference") reference = false;
        else {
            std::fprintf(stderr, "unknown argument %s\n", a.c_str());
            return 2;
        }
    }
    Policy::setComputeThreads(threads);
    PolicyConfig config;   // the defaults are the reference config
    config.maxSeqLen = std::max(256, promptLen + newTokens);
    auto created = Policy::create(config, 1);
    if (!created) {
        std::fprintf(stderr, "%s\n", created.error.c_str());
        return 1;
    }
    const std::string weights = (std::filesystem::temp_directory_path() / "cohort-bench-rollout.safetensors").string();
    if (std::string err = writeBenchWeights(*created, weights); !err.empty()) {
        std::fprintf(stderr, "%s\n", err.c_str());
        return 1;
    }
    auto policy = Policy::load(weights);
    if (!policy) {
        std::fprintf(stderr, "%s\n", policy.error.c_str());
        return 1;
    }
    if (peer) {
        python = findPython(python);
        if (python.empty()) {
            std::fprintf(stderr, "no python with torch found (--python, COHORT_PEER_PYTHON); use --no-peer\n");
            return 1;
        }
    }
    std::printf("rollout generation: d_model %d, %d layers, %d heads, d_ff %d, vocab %d; prompt %d, %d new tokens, "
                "%d threads (%d); best/median of %d after %d warm-up, best of %d alternating rounds\n",
                config.dModel, config.nLayers, config.nHeads, config.dFF, config.vocabSize, promptLen, newTokens,
                threads, Policy::computeThreads(), repeats, warmup, rounds);
    std::printf("%6s | %22s | %22s | %22s | %13s\n", "batch", "cohort fused tok/s", "cohort libtorch tok/s",
                "pytorch eager tok/s", "ratio (best)");
    for (int b : batches) {
        // Rounds alternate the sides, so a burst of load from elsewhere on the machine hits both; each side keeps
        // its best round.
        Figures fused, ref, py;
        bool havePeer = false;
        auto keep = [](Figures &best, const Figures &f) {
            best.best = std::max(best.best, f.best);
            best.median = std::max(best.median, f.median);
        };
        for (int round = 0; round < rounds; ++round) {
            policy->setFastDecode(true);
            keep(fused, measure(*policy, b, promptLen, newTokens, warmup, repeats));
            if (reference) {
                policy->setFastDecode(false);
                keep(ref, measure(*policy, b, promptLen, newTokens, warmup, repeats));
            }
            Figures f;
            if (peer && runPeer(python, weights, b, promptLen, newTokens, threads, warmup, repeats, f)) {
                havePeer = true;
                keep(py, f);
            }
        }
        char refText[64] = "-", pyText[64] = "-", ratio[32] = "-";
        if (reference)
            std::snprintf(refText, sizeof refText, "%9.0f / %9.0f", ref.best, ref.median);
        if (havePeer) {
            std::snprintf(pyText, sizeof pyText, "%9.0f / %9.0f", py.best, py.median);
            std::snprintf(ratio, sizeof ratio, "%.2fx", fused.best / py.best);
        }
        std::printf("%6d | %9.0f / %9.0f | %22s | %22s | %13s\n", b, fused.best, fused.median, refText, pyText, ratio);
        std::fflush(stdout);
    }
    std::filesystem::remove(weights);
    return 0;
}
