// Rollout generation throughput: Cohort's policy (fused CPU decoder, and the LibTorch reference decode for
// context) against the named peer, PyTorch eager with a KV cache (tests/bench/peer_rollout.py), run by this
// program in the same invocation on the same weights.
//   ./build/tests/bench/bench_rollout [--batches 1,32] [--new 128] [--prompt 16] [--threads 2] [--repeats 5]
//                                     [--warmup 2] [--rounds 4] [--python python3] [--no-peer] [--no-reference]
//                                     [--gemm packed|cblas|torch]   (the fused decoder's GEMMs; default packed)
// Reference config: d_model 256, 4 layers, 4 heads, d_ff 1024, byte vocab 259. tok/s = batch * new / seconds
// of one whole generate() call (prefill included), timed the same way on both sides (around the call, in the
// process, after warm-up); the sides take turns for --rounds, and every timed call of every round counts: median
// and min-max. The EOS row of the head is made unreachable so every row produces exactly `new` tokens on both sides.
// Before any timing, the peer prints its torch version, BLAS and threads, and checks it computes what Cohort's fused
// decoder computes: Cohort's greedy tokens and log-probabilities for a few prompts, recomputed teacher-forced by the
// peer (the bench stops when they differ by more than 1e-3 or a token is not the peer's most likely one).
#include "BenchSpread.h"
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
#  define COHORT_BENCH_DIR "."
#endif

using namespace cohort::rl;
namespace sf = cohort::safetensors;

namespace {

// tok/s of every timed call.
struct Figures {
    std::vector<double> tokS;
    void add(const std::vector<double> &more) { tokS.insert(tokS.end(), more.begin(), more.end()); }
    double median() const { return cohort::bench::spreadOf(tokS).median; }
    double min() const { return cohort::bench::spreadOf(tokS).min; }
    double max() const { return cohort::bench::spreadOf(tokS).max; }
};

std::vector<std::vector<int32_t>> benchPrompts(int batch, int promptLen)
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
    return prompts;
}

std::vector<int> parseList(const std::string &s)
{
    std::vector<int> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');)
        out.push_back(std::max(1, std::atoi(item.c_str())));
    return out;
}

std::vector<double> measure(Policy &policy, int batch, int promptLen, int newTokens, int warmup, int repeats)
{
    const std::vector<std::vector<int32_t>> prompts = benchPrompts(batch, promptLen);
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
    std::vector<double> tokS;
    for (const double dt : secs)
        tokS.push_back(double(batch) * newTokens / dt);
    return tokS;
}

// The numbers after "key": [ in a JSON line.
std::vector<double> numbersAfter(const char *line, const char *key)
{
    std::vector<double> out;
    const char *at = std::strstr(line, key);
    if (!at || !(at = std::strchr(at, '[')))
        return out;
    for (char *end = nullptr;; at = end + 1) {
        const double v = std::strtod(at + 1, &end);
        if (end == at + 1)
            break;
        out.push_back(v);
        while (*end == ' ')
            ++end;
        if (*end != ',')
            break;
    }
    return out;
}

// Cohort's fused decoder, greedy, on a few prompts: the tokens and their log-probabilities, as JSON for the
// peer's --check.
std::string writeCheck(Policy &policy, int promptLen, int newTokens, const std::string &path)
{
    const std::vector<std::vector<int32_t>> prompts = benchPrompts(4, promptLen);
    SamplingConfig s;
    s.maxNewTokens = std::min(newTokens, 32);
    s.greedy = true;
    policy.setFastDecode(true);
    auto r = policy.generate(prompts, s);
    if (!r)
        return r.error;
    const auto list = [](const auto &v) {
        std::string out = "[";
        char number[32];
        for (size_t i = 0; i < v.size(); ++i) {
            std::snprintf(number, sizeof number, "%s%.9g", i ? "," : "", double(v[i]));
            out += number;
        }
        return out + "]";
    };
    std::string json = "{\"prompts\":[", tokens = "\"tokens\":[", logprobs = "\"logprobs\":[";
    for (size_t i = 0; i < prompts.size(); ++i) {
        const char *sep = i ? "," : "";
        json += sep + list(prompts[i]);
        tokens += sep + list((*r)[i].tokens);
        logprobs += sep + list((*r)[i].logProbs);
    }
    json += "]," + tokens + "]," + logprobs + "]}";
    FILE *f = std::fopen(path.c_str(), "w");
    if (!f)
        return "cannot write " + path;
    std::fputs(json.c_str(), f);
    std::fclose(f);
    return {};
}

// Runs the peer's --check; prints what it runs on and how close it came. False when it does not compute the same.
bool checkPeer(const std::string &python, const std::string &weights, const std::string &checkFile, int threads)
{
    const std::string cmd = python + " " + COHORT_BENCH_DIR "/peer_rollout.py --weights '" + weights + "' --check '" +
                            checkFile + "' --threads " + std::to_string(threads);
    FILE *pipe = popen(cmd.c_str(), "r");
    if (!pipe)
        return false;
    char line[4096];
    std::string got;
    while (std::fgets(line, sizeof line, pipe))
        got += line;
    if (pclose(pipe) != 0)
        return false;
    const char *diff = std::strstr(got.c_str(), "\"max_abs_logprob_diff\":");
    const char *agree = std::strstr(got.c_str(), "\"greedy_agree\":");
    const char *tokens = std::strstr(got.c_str(), "\"tokens\":");
    if (!diff || !agree || !tokens)
        return false;
    const double worst = std::atof(diff + 23);
    const int agreed = std::atoi(agree + 15), total = std::atoi(tokens + 9);
    std::printf("peer: %s", got.c_str());
    std::printf(
        "peer check: Cohort's greedy tokens are the peer's most likely in %d of %d; log-probabilities differ by "
        "at most %.2g\n",
        agreed, total, worst);
    return agreed == total && total > 0 && worst <= 1e-3;
}

std::string findPython(const std::string &given)
{
    std::vector<std::string> candidates;
    if (!given.empty())
        candidates.push_back(given);
    if (const char *env = std::getenv("COHORT_PEER_PYTHON"))
        candidates.push_back(env);
    candidates.push_back("python3");
    candidates.push_back("/usr/bin/python3"); // Debian's python3-torch, when a pyenv shim shadows it
    for (const auto &py : candidates)
        if (std::system((py + " -c 'import torch' >/dev/null 2>&1").c_str()) == 0)
            return py;
    return {};
}

// Runs the peer for one batch size; parses its JSON line.
bool runPeer(const std::string &python, const std::string &weights, int batch, int promptLen, int newTokens,
             int threads, int warmup, int repeats, Figures &out)
{
    const std::string cmd = python + " " + COHORT_BENCH_DIR "/peer_rollout.py --weights '" + weights + "' --batches " +
                            std::to_string(batch) + " --prompt " + std::to_string(promptLen) + " --new " +
                            std::to_string(newTokens) + " --threads " + std::to_string(threads) + " --warmup " +
                            std::to_string(warmup) + " --repeats " + std::to_string(repeats);
    FILE *pipe = popen(cmd.c_str(), "r");
    if (!pipe)
        return false;
    char line[4096];
    bool ok = false;
    while (std::fgets(line, sizeof line, pipe)) {
        const std::vector<double> times = numbersAfter(line, "\"times\":");
        for (const double dt : times)
            out.tokS.push_back(double(batch) * newTokens / dt);
        ok = ok || !times.empty();
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
            std::fill(v + size_t(ByteTokenizer::kEos) * size_t(d), v + size_t(ByteTokenizer::kEos + 1) * size_t(d),
                      -1.0f);
        ts.push_back(std::move(t));
    }
    return sf::writeFile(path, ts, f->header.metadata);
}

} // namespace

int main(int argc, char **argv)
{
    std::vector<int> batches{1, 32};
    int newTokens = 128, promptLen = 16, threads = 2, repeats = 5, warmup = 2, rounds = 4;
    bool peer = true, reference = true;
    std::string python;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--batches")
            batches = parseList(next());
        else if (a == "--new")
            newTokens = std::atoi(next().c_str());
        else if (a == "--prompt")
            promptLen = std::atoi(next().c_str());
        else if (a == "--threads")
            threads = std::atoi(next().c_str());
        else if (a == "--repeats")
            repeats = std::max(1, std::atoi(next().c_str()));
        else if (a == "--warmup")
            warmup = std::atoi(next().c_str());
        else if (a == "--rounds")
            rounds = std::max(1, std::atoi(next().c_str()));
        else if (a == "--python")
            python = next();
        else if (a == "--gemm") {
            const std::string g = next();
            FastDecoder::setGemmBackend(g == "cblas"   ? GemmBackend::Cblas
                                        : g == "torch" ? GemmBackend::Torch
                                                       : GemmBackend::Packed);
        } else if (a == "--no-peer")
            peer = false;
        else if (a == "--no-reference")
            reference = false;
        else {
            std::fprintf(stderr, "unknown argument %s\n", a.c_str());
            return 2;
        }
    }
    Policy::setComputeThreads(threads);
    PolicyConfig config; // the defaults are the reference config
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
        const std::string checkFile = weights + ".check.json";
        if (std::string err = writeCheck(*policy, promptLen, newTokens, checkFile); !err.empty()) {
            std::fprintf(stderr, "%s\n", err.c_str());
            return 1;
        }
        const bool same = checkPeer(python, weights, checkFile, threads);
        std::filesystem::remove(checkFile);
        if (!same) {
            std::fprintf(stderr, "the peer does not compute what Cohort computes: no timing\n");
            return 1;
        }
    }
    std::printf("rollout generation: d_model %d, %d layers, %d heads, d_ff %d, vocab %d; prompt %d, %d new tokens, "
                "%d threads (%d); %d timed calls after %d warm-up per side and round, %d rounds taking turns\n",
                config.dModel, config.nLayers, config.nHeads, config.dFF, config.vocabSize, promptLen, newTokens,
                threads, Policy::computeThreads(), repeats, warmup, rounds);
    std::printf("%6s | %26s | %26s | %26s | %9s\n", "batch", "cohort fused tok/s", "cohort libtorch tok/s",
                "pytorch eager tok/s", "fused/eager");
    std::printf("%6s | %26s | %26s | %26s | %9s\n", "", "median (min-max)", "median (min-max)", "median (min-max)",
                "medians");
    for (int b : batches) {
        // Rounds take turns, so a burst of load from elsewhere on the machine hits every side.
        Figures fused, ref, py;
        for (int round = 0; round < rounds; ++round) {
            const auto cohortSide = [&] {
                policy->setFastDecode(true);
                fused.add(measure(*policy, b, promptLen, newTokens, warmup, repeats));
                if (reference) {
                    policy->setFastDecode(false);
                    ref.add(measure(*policy, b, promptLen, newTokens, warmup, repeats));
                }
            };
            const auto peerSide = [&] {
                if (peer && !runPeer(python, weights, b, promptLen, newTokens, threads, warmup, repeats, py))
                    std::fprintf(stderr, "the peer failed at batch %d\n", b);
            };
            if (round % 2 == 0) {
                cohortSide();
                peerSide();
            } else {
                peerSide();
                cohortSide();
            }
        }
        const auto text = [](const Figures &f) {
            char out[64] = "-";
            if (!f.tokS.empty())
                std::snprintf(out, sizeof out, "%7.0f (%.0f-%.0f)", f.median(), f.min(), f.max());
            return std::string(out);
        };
        char ratio[32] = "-";
        if (!py.tokS.empty())
            std::snprintf(ratio, sizeof ratio, "%.2fx", fused.median() / py.median());
        std::printf("%6d | %26s | %26s | %26s | %9s\n", b, text(fused).c_str(), text(ref).c_str(), text(py).c_str(),
                    ratio);
        std::fflush(stdout);
    }
    std::filesystem::remove(weights);
    return 0;
}
