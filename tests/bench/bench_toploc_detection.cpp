// TOPLOC's detection table and cost figures on the reference policy (d 256, 4 layers; tests/support/ToplocDetection):
// a prover generates rollouts with proofs, the verifier (the hub's side: one teacher-forced prefill with the claimed
// weights) checks them. Prints, per case, accepted chunks and rollouts with the exponent/mantissa statistics under
// the paper's thresholds (90/10/8, for bf16 GPU inference) and under the fp32 task default (RlTaskConfig). Then the
// costs: proof bytes per 32 tokens, proof building as a share of generation time, verification vs generation time.
// tst_toploc_detection asserts the verdicts; this prints the figures.
//   bench_toploc_detection [samples=64] [--threads 2]
#include "BenchSpread.h"
#include "ToplocDetection.h"

#include "rl/Policy.h"
#include "rl/Tokenizer.h"
#include "toploc/Proof.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

using namespace cohort;

namespace {

// The fp32 task default (RlTaskConfig::toplocPolicy; this bench has no Qt to read it); tst_toploc_detection
// asserts the verdicts with the real default.
constexpr toploc::VerifyThresholds kFp32{126, 0.05, 0.0};

double seconds(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

void printTable(const std::vector<testing::DetectionCase> &table, const toploc::VerifyThresholds &t, const char *title)
{
    std::printf("\n%s: exponent matches >= %d/128, mantissa mean <= %g, median <= %g\n", title, t.minExpMatches,
                t.maxMantissaMean, t.maxMantissaMedian);
    std::printf("%-52s %7s %9s %9s %9s %9s %9s %9s %9s %9s\n", "case", "chunks", "chunks ok", "rollouts", "exp mean",
                "exp worst", "mant mean", "mant min", "mant max", "mant med");
    for (const auto &c : table) {
        const auto s = testing::summarize(c, t);
        std::printf("%-52s %7d %8.1f%% %8.1f%% %9.1f %9d %9.3f %9.3f %9.3f %9.2f\n", c.name.c_str(), s.chunks,
                    s.chunks ? 100.0 * s.acceptedChunks / s.chunks : 0.0,
                    s.samples ? 100.0 * s.acceptedSamples / s.samples : 0.0, s.meanExpMatches, s.worstExpMatches,
                    s.meanMantissaMean, s.bestMantissaMean, s.worstMantissaMean, s.meanMantissaMedian);
    }
}

// Generation with and without proofs, and the verifier's prefill + checks, for the same rollouts.
void printCosts(const rl::PolicyConfig &config, const char *label, int batch, int newTokens, int repeats)
{
    auto policy = rl::Policy::create(config, 3);
    if (!policy) {
        std::fprintf(stderr, "%s\n", policy.error.c_str());
        return;
    }
    std::vector<std::vector<int32_t>> prompts;
    for (int i = 0; i < batch; ++i)
        prompts.push_back(rl::ByteTokenizer::encode("q" + std::to_string(100 + i) + " 12+34=", true));
    rl::SamplingConfig plain;
    plain.maxNewTokens = newTokens;
    plain.seed = 5;
    rl::SamplingConfig proving = plain;
    proving.captureHidden = true;
    const size_t dim = size_t(config.dModel);
    std::vector<double> plainTimes, captureTimes, buildTimes, verifyTimes, overheads, ratios;
    size_t tokens = 0, chunks = 0, proofBytes = 0;
    for (int r = 0; r < repeats + 1; ++r) { // the first round warms up
        // The capture's cost is what generate() measures it spent copying states: the difference of two whole
        // generations would be machine noise (+-10 % here) around a cost of well under 1 %.
        double captureTime = 0;
        proving.captureSeconds = &captureTime;
        auto t0 = std::chrono::steady_clock::now();
        auto a = policy->generate(prompts, plain);
        const double plainTime = seconds(t0);
        auto b = policy->generate(prompts, proving);
        if (!a || !b)
            return;
        t0 = std::chrono::steady_clock::now();
        // As the node does (RolloutWorker): all completions at once on the compute threads, then serialized.
        std::vector<toploc::CompletionStates> states;
        tokens = 0;
        for (const auto &c : *b) {
            states.push_back({c.hidden.data(), c.tokens.size()});
            tokens += c.tokens.size();
        }
        std::vector<std::string> proofs;
        for (const auto &built : toploc::buildProofsForAll(states, dim, &rl::Policy::parallelFor))
            proofs.push_back(toploc::serialize(built));
        const double buildTime = seconds(t0);
        std::vector<std::vector<int32_t>> completions;
        for (const auto &c : *b)
            completions.push_back(c.tokens);
        t0 = std::chrono::steady_clock::now();
        std::vector<std::vector<float>> hidden;
        auto scored = policy->scoreCompletions(prompts, completions, 1.0f, nullptr, &hidden);
        bool all = bool(scored);
        chunks = proofBytes = 0;
        for (size_t k = 0; all && k < completions.size(); ++k) {
            auto decoded = toploc::decode(proofs[k], toploc::chunkCount(completions[k].size()));
            all = decoded && toploc::verifyProofs(*decoded, hidden[k].data(), completions[k].size(), dim).accepted;
            chunks += decoded ? decoded->size() : 0;
            proofBytes += proofs[k].size();
        }
        const double verifyTime = seconds(t0);
        if (!all)
            std::printf("  (honest rollouts were refused in round %d)\n", r);
        if (r == 0)
            continue;
        plainTimes.push_back(plainTime);
        captureTimes.push_back(captureTime);
        buildTimes.push_back(buildTime);
        verifyTimes.push_back(verifyTime);
        // Each round's own ratios: the two sides of a ratio ran one after the other, under the same load.
        overheads.push_back(100.0 * (captureTime + buildTime) / plainTime);
        ratios.push_back(plainTime / verifyTime);
    }
    const bench::Spread gen = bench::spreadOf(plainTimes), overhead = bench::spreadOf(overheads),
                        ratio = bench::spreadOf(ratios);
    std::printf("%-22s %5d %6zu %7.0f %8.1f %8.1f %7.1f %6.2f%% (%.2f-%.2f) %8.1f %5.1fx (%.1f-%.1f) %7.1f\n", label,
                batch, tokens, tokens / gen.median, 1e3 * gen.median, 1e3 * bench::spreadOf(captureTimes).median,
                1e3 * bench::spreadOf(buildTimes).median, overhead.median, overhead.min, overhead.max,
                1e3 * bench::spreadOf(verifyTimes).median, ratio.median, ratio.min, ratio.max,
                chunks ? double(proofBytes) / chunks : 0.0);
}

} // namespace

int main(int argc, char **argv)
{
    int samples = 64, threads = 2;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
            threads = std::max(1, std::atoi(argv[++i]));
        else
            samples = std::max(8, std::atoi(argv[i] + (std::strncmp(argv[i], "samples=", 8) == 0 ? 8 : 0)));
    }
    rl::Policy::setComputeThreads(threads);
    const std::string dir = (std::filesystem::temp_directory_path() / "cohort-toploc-detection").string();
    std::filesystem::create_directories(dir);
    testing::DetectionSetup setup;
    setup.model = testing::referencePolicyConfig();
    setup.samples = samples;
    setup.workDir = dir;
    std::string error;
    const auto table = testing::runDetectionTable(setup, toploc::VerifyThresholds{}, &error);
    if (table.empty()) {
        std::fprintf(stderr, "detection table failed: %s\n", error.c_str());
        return 1;
    }
    std::printf("TOPLOC detection on the reference policy (d 256, 4 layers), %d rollouts x %d tokens per case\n",
                samples, setup.newTokens);
    printTable(table, toploc::VerifyThresholds{}, "Paper thresholds (bf16 GPU inference)");
    printTable(table, kFp32, "fp32 task default");

    std::printf(
        "\nCosts on %d thread(s): generation without proofs, the extra for capturing hidden states and building "
        "proofs (capture: timed inside generate), and the hub's verification (prefill + checks) of the same rollouts; "
        "median of 5 rounds, each round's overhead and gen/verify ratio with their min-max\n",
        threads);
    std::printf("%-22s %5s %6s %7s %8s %8s %7s %20s %8s %17s %7s\n", "model", "batch", "tokens", "tok/s", "gen ms",
                "capt ms", "build ms", "overhead (min-max)", "verif ms", "gen/verify", "B/chunk");
    rl::PolicyConfig task; // the default task model (RlTaskConfig::model)
    task.dModel = 128;
    task.nLayers = 3;
    task.nHeads = 4;
    task.dFF = 512;
    task.maxSeqLen = 160;
    for (const int batch : {1, 8, 64}) {
        printCosts(setup.model, "reference d256x4", batch, 128, 5);
        printCosts(task, "task default d128x3", batch, 128, 5);
    }
    std::filesystem::remove_all(dir);
    return 0;
}
