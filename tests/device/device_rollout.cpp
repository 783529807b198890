// Rollout throughput of Cohort's policy on one device next to PyTorch eager on the same device and weights
// (peer_rollout_gpu.py, which runs tests/bench/peer_rollout.py's model there). Qt-free, for tests/device/run.sh.
//   device_rollout [--device cuda|cuda:N|cpu] [--config reference|large] [--d-model D --layers L --heads H --d-ff F]
//                  [--batches 1,32] [--prompt 16] [--new 128] [--warmup 2] [--repeats 5] [--threads N]
//                  [--python python3 | --no-peer]
// Configs: reference = d_model 256, 4 layers, 4 heads, d_ff 1024 (bench_rollout's); large = d_model 1024,
// 12 layers, 16 heads, d_ff 4096. Byte vocabulary (259), fp32 on both sides. tok/s = batch * new / seconds of one
// whole generate() (prefill included), best and median over the repeats after warm-up. The EOS logit is pinned far
// below the rest (final-norm bias 1, EOS head row -1) so every row yields exactly `new` tokens on both sides.
// Exit status: 0 measured, 1 error, 3 the device is not usable by this LibTorch (skipped, reason printed).
#include "ml/TorchRuntime.h"
#include "rl/Policy.h"
#include "rl/PolicyImpl.h"
#include "rl/Tokenizer.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#ifndef COHORT_DEVICE_DIR
#  define COHORT_DEVICE_DIR "."
#endif
#ifdef _WIN32
#  define popen _popen
#  define pclose _pclose
#endif

using namespace cohort::rl;

namespace {

struct Figures {
    double best = 0, median = 0;
    bool ok = false;
};

std::vector<int> parseList(const std::string &s)
{
    std::vector<int> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');)
        if (const int v = std::atoi(item.c_str()); v > 0)
            out.push_back(v);
    return out;
}

std::vector<std::vector<int32_t>> prompts(int batch, int length)
{
    std::vector<std::vector<int32_t>> out(static_cast<size_t>(batch));
    uint64_t x = 0x243F6A8885A308D3ull;
    for (auto &p : out)
        for (int i = 0; i < length; ++i) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            p.push_back(int32_t((x >> 33) % 256));
        }
    return out;
}

Figures measure(Policy &policy, int batch, int promptLen, int newTokens, int warmup, int repeats, std::string *error)
{
    const auto input = prompts(batch, promptLen);
    SamplingConfig s;
    s.maxNewTokens = newTokens;
    std::vector<double> secs;
    for (int i = 0; i < warmup + repeats; ++i) {
        s.seed = uint64_t(i) + 1;
        const auto t0 = std::chrono::steady_clock::now();
        auto r = policy.generate(input, s); // returns after the last token reached the host: no pending device work
        const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!r) {
            *error = r.error;
            return {};
        }
        for (const Completion &c : *r)
            if (int(c.tokens.size()) != newTokens) {
                *error = "a row stopped after " + std::to_string(c.tokens.size()) + " tokens";
                return {};
            }
        if (i >= warmup)
            secs.push_back(dt);
    }
    std::sort(secs.begin(), secs.end());
    const double n = double(batch) * newTokens;
    return {n / secs.front(), n / secs[secs.size() / 2], true};
}

// Peer: one process for all batch sizes; one JSON line per batch ({"batch": B, "best_tok_s": .., ...}).
std::vector<Figures> runPeer(const std::string &python, const std::string &weights, const std::string &device,
                             const std::vector<int> &batches, int promptLen, int newTokens, int warmup, int repeats,
                             int threads, std::string *note)
{
    std::string list;
    for (const int b : batches) {
        if (!list.empty())
            list += ',';
        list += std::to_string(b);
    }
    const std::string cmd = python + " " COHORT_DEVICE_DIR "/peer_rollout_gpu.py --weights '" + weights +
                            "' --device " + device + " --batches " + list + " --prompt " + std::to_string(promptLen) +
                            " --new " + std::to_string(newTokens) + " --warmup " + std::to_string(warmup) +
                            " --repeats " + std::to_string(repeats) + " --threads " + std::to_string(threads) + " 2>&1";
    std::vector<Figures> out(batches.size());
    FILE *pipe = popen(cmd.c_str(), "r");
    if (!pipe) {
        *note = "cannot start " + python;
        return out;
    }
    char line[8192];
    while (std::fgets(line, sizeof line, pipe)) {
        const char *b = std::strstr(line, "\"batch\":"), *best = std::strstr(line, "\"best_tok_s\":"),
                   *median = std::strstr(line, "\"median_tok_s\":");
        if (b && best && median) {
            const int batch = std::atoi(b + 8);
            for (size_t i = 0; i < batches.size(); ++i)
                if (batches[i] == batch)
                    out[i] = {std::atof(best + 13), std::atof(median + 15), true};
        } else if (std::strstr(line, "\"error\"") || std::strstr(line, "Error")) {
            *note = line;
        } else if (std::strstr(line, "\"torch\":")) {
            *note = line; // {"torch": version, "device": name}
        }
    }
    const int status = pclose(pipe);
    if (status != 0 && note->empty())
        *note = "peer exited with status " + std::to_string(status);
    while (!note->empty() && (note->back() == '\n' || note->back() == '\r'))
        note->pop_back();
    return out;
}

// Pins the EOS logit far below every other: LayerNorm's output sums to zero with weight 1, so with the final-norm
// bias 1 and the EOS head row -1 the EOS logit is -d_model, while the others stay near 0.
void suppressEos(Policy &policy)
{
    c10::InferenceMode off(false);
    at::NoGradGuard noGrad;
    Policy::Impl &p = policy.impl();
    p.lnfB.fill_(1.0);
    p.head.select(0, ByteTokenizer::kEos).fill_(-1.0);
}

} // namespace

int main(int argc, char **argv)
{
    std::string device = "cuda", configName = "reference", python = "python3";
    std::vector<int> batches{1, 32};
    int promptLen = 16, newTokens = 128, warmup = 2, repeats = 5, threads = 0;
    int dModel = 0, layers = 0, heads = 0, dff = 0;
    bool peer = true;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--device")
            device = next();
        else if (a == "--config")
            configName = next();
        else if (a == "--d-model")
            dModel = std::atoi(next().c_str());
        else if (a == "--layers")
            layers = std::atoi(next().c_str());
        else if (a == "--heads")
            heads = std::atoi(next().c_str());
        else if (a == "--d-ff")
            dff = std::atoi(next().c_str());
        else if (a == "--batches")
            batches = parseList(next());
        else if (a == "--prompt")
            promptLen = std::max(1, std::atoi(next().c_str()));
        else if (a == "--new")
            newTokens = std::max(1, std::atoi(next().c_str()));
        else if (a == "--warmup")
            warmup = std::max(0, std::atoi(next().c_str()));
        else if (a == "--repeats")
            repeats = std::max(1, std::atoi(next().c_str()));
        else if (a == "--threads")
            threads = std::atoi(next().c_str());
        else if (a == "--python")
            python = next();
        else if (a == "--no-peer")
            peer = false;
        else {
            std::fprintf(stderr, "unknown argument %s (see the comment at the top of device_rollout.cpp)\n", a.c_str());
            return 2;
        }
    }
    PolicyConfig config; // the defaults are the reference config
    if (configName == "large") {
        config.dModel = 1024;
        config.nLayers = 12;
        config.nHeads = 16;
        config.dFF = 4096;
    } else if (configName != "reference") {
        std::fprintf(stderr, "--config is reference or large\n");
        return 2;
    }
    if (dModel > 0)
        config.dModel = dModel;
    if (layers > 0)
        config.nLayers = layers;
    if (heads > 0)
        config.nHeads = heads;
    if (dff > 0)
        config.dFF = dff;
    config.maxSeqLen = std::max(256, promptLen + newTokens);
    if (batches.empty())
        batches = {1};
    if (threads > 0)
        Policy::setComputeThreads(threads);

    const auto runtime = cohort::ml::torchRuntimeInfo();
    std::printf("LibTorch: %s\n", cohort::ml::describe(runtime).c_str());
    if (device.rfind("cuda", 0) == 0 && !runtime.cudaAvailable) {
        std::printf("SKIP rollout on %s: this LibTorch sees no CUDA device (CPU-only build, or no GPU/driver)\n",
                    device.c_str());
        return 3;
    }

    // Weights are made on the CPU from a seed, saved once (both sides load the same file), then loaded on the device.
    auto created = Policy::create(config, 1);
    if (!created) {
        std::fprintf(stderr, "create: %s\n", created.error.c_str());
        return 1;
    }
    suppressEos(*created);
    const std::string weights =
        (std::filesystem::temp_directory_path() / ("cohort-device-rollout-" + configName + ".safetensors")).string();
    if (auto saved = created->save(weights); !saved) {
        std::fprintf(stderr, "save: %s\n", saved.error.c_str());
        return 1;
    }
    created.value.reset(); // free the CPU copy before the device one
    auto policy = Policy::load(weights, device);
    if (!policy) {
        std::fprintf(stderr, "load on %s: %s\n", device.c_str(), policy.error.c_str());
        std::filesystem::remove(weights);
        return device == "cpu" ? 1 : 3;
    }

    std::printf("config %s: d_model %d, %d layers, %d heads, d_ff %d, vocab %d (%.1f M parameters), fp32; prompt %d, "
                "%d new tokens; device %s; best / median of %d after %d warm-up\n",
                configName.c_str(), config.dModel, config.nLayers, config.nHeads, config.dFF, config.vocabSize,
                double(config.parameterCount()) / 1e6, promptLen, newTokens, policy->device().c_str(), repeats, warmup);
    std::vector<Figures> ours;
    for (const int b : batches) {
        std::string error;
        ours.push_back(measure(*policy, b, promptLen, newTokens, warmup, repeats, &error));
        if (!ours.back().ok)
            std::printf("batch %d: cohort failed: %s\n", b, error.c_str());
    }
    policy.value.reset(); // give the device memory back to the peer

    std::vector<Figures> theirs(batches.size());
    std::string note;
    if (peer)
        theirs = runPeer(python, weights, device, batches, promptLen, newTokens, warmup, repeats,
                         threads > 0 ? threads : Policy::computeThreads(), &note);
    std::filesystem::remove(weights);

    std::printf("%6s | %26s | %26s | %14s\n", "batch", "cohort tok/s best / median", "eager tok/s best / median",
                "cohort / eager");
    for (size_t i = 0; i < batches.size(); ++i) {
        char a[64] = "failed", b[64] = "-", r[32] = "-";
        if (ours[i].ok)
            std::snprintf(a, sizeof a, "%11.0f / %11.0f", ours[i].best, ours[i].median);
        if (theirs[i].ok)
            std::snprintf(b, sizeof b, "%11.0f / %11.0f", theirs[i].best, theirs[i].median);
        if (ours[i].ok && theirs[i].ok)
            std::snprintf(r, sizeof r, "%.2fx", ours[i].best / theirs[i].best);
        std::printf("%6d | %26s | %26s | %14s\n", batches[i], a, b, r);
    }
    if (peer)
        std::printf("peer: %s\n", note.empty() ? "ok" : note.c_str());
    std::fflush(stdout);
    bool allOk = true;
    for (const Figures &f : ours)
        allOk = allOk && f.ok;
    return allOk ? 0 : 1;
}
