// Verifiable sampling's honest margin and cost (issue: credit only for work that helped).
//   ./build/tests/bench/bench_sampling_margin [--rows N] [--repeats R]
// A node generates with the work item's sampling stream under each compute path a contributor may have — the fused
// CPU decoder at 1 and 2 threads, its cblas GEMMs, the LibTorch reference path, and (a child process of this bench)
// the fused decoder on the reference BLAS instead of OpenBLAS — and the hub verifies every token with its own
// LibTorch prefill (2 threads, OpenBLAS): the largest gap between a token's uniform and its interval, the rows that
// would be refused at the task's tolerance (1e-3), and the margin (tolerance / largest gap). Then the cost: one
// batch (8 prompts x 8 samples) generated on the node's default path next to the same batch verified (prefill +
// every token's gap), alternating, `repeats` times, median and spread, both timed with the same clock in-process.
#include "rl/FastDecode.h"
#include "rl/Policy.h"
#include "rl/Tokenizer.h"
#include "rl/VerifiableSampling.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace cohort::rl;

namespace {
using Clock = std::chrono::steady_clock;
constexpr double kTolerance = 1e-3;
constexpr int kMaxNew = 24;
constexpr uint64_t kSeed = 0x5eed;

PolicyConfig benchConfig()
{
    PolicyConfig c; // the default arith-rl task's shape
    c.dModel = 64;
    c.nLayers = 2;
    c.nHeads = 4;
    c.dFF = 256;
    c.maxSeqLen = 96;
    return c;
}

std::vector<std::vector<int32_t>> prompts(int rows, int firstRow)
{
    std::vector<std::vector<int32_t>> out;
    for (int i = firstRow; i < firstRow + rows; ++i)
        out.push_back(ByteTokenizer::encode("sort " + std::to_string(i / 8 * 7919 % 100000) + ":", true));
    return out;
}

// Rows [firstRow, firstRow + rows) of the stream, in batches of 64 (as work items are); logProbs: the node's own
// log-probability of each token.
std::vector<std::vector<int32_t>> generate(Policy &p, int rows, int firstRow,
                                           std::vector<std::vector<float>> *logProbs = nullptr)
{
    std::vector<std::vector<int32_t>> out;
    for (int b = 0; b < rows; b += 64) {
        SamplingConfig s;
        s.seed = samplingSeedForWork(kSeed);
        s.maxNewTokens = kMaxNew;
        s.firstRow = uint64_t(firstRow + b);
        auto got = p.generate(prompts(std::min(64, rows - b), firstRow + b), s);
        if (!got) {
            std::fprintf(stderr, "generate: %s\n", got.error.c_str());
            std::exit(1);
        }
        for (const Completion &c : *got) {
            out.push_back(c.tokens);
            if (logProbs)
                logProbs->push_back(c.logProbs);
        }
    }
    return out;
}

struct Margin {
    long tokens = 0, nonzero = 0;
    int refusedRows = 0;
    double worst = 0;
    double drift = 0; // largest |p_node - p_hub| of a chosen token: how far an interval edge moved between them
};

// nodeLogProbs empty: no drift measured. withGaps false: the prefill alone (what TOPLOC and plausibility need).
Margin verify(Policy &hub, const std::vector<std::vector<int32_t>> &completions, int firstRow,
              const std::vector<std::vector<float>> &nodeLogProbs = {}, bool withGaps = true)
{
    Margin m;
    for (size_t b = 0; b < completions.size(); b += 64) {
        const size_t n = std::min<size_t>(64, completions.size() - b);
        const auto p = prompts(int(n), firstRow + int(b));
        const std::vector<std::vector<int32_t>> part(completions.begin() + long(b), completions.begin() + long(b + n));
        std::vector<SamplingStream> streams;
        for (size_t r = 0; r < n; ++r)
            streams.emplace_back(samplingSeedForWork(kSeed), uint64_t(firstRow) + b + r);
        std::vector<double> rowWorst(n, 0);
        Policy::LogitsVisitor visit;
        if (withGaps)
            visit = [&](size_t row, size_t token, const float *logits, int vocab) {
                const double gap = samplingGap(logits, vocab, 1.0, 1.0, part[row][token], streams[row].uniform());
                rowWorst[row] = std::max(rowWorst[row], gap);
                ++m.tokens;
                m.nonzero += gap > 0 ? 1 : 0;
            };
        auto scored = hub.scoreCompletions(p, part, 1.0f, nullptr, nullptr, visit);
        if (!scored) {
            std::fprintf(stderr, "score: %s\n", scored.error.c_str());
            std::exit(1);
        }
        if (!nodeLogProbs.empty())
            for (size_t r = 0; r < n; ++r)
                for (size_t t = 0; t < part[r].size(); ++t)
                    m.drift = std::max(m.drift, std::abs(std::exp(double(nodeLogProbs[b + r][t])) -
                                                         std::exp(double((*scored)[r][t]))));
        for (double w : rowWorst) {
            m.worst = std::max(m.worst, w);
            m.refusedRows += w > kTolerance ? 1 : 0;
        }
    }
    return m;
}

Policy makePolicy()
{
    auto p = Policy::create(benchConfig(), 3);
    if (!p) {
        std::fprintf(stderr, "%s\n", p.error.c_str());
        std::exit(1);
    }
    return std::move(*p);
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}
} // namespace

int main(int argc, char **argv)
{
    int rows = 2560, repeats = 7;
    const char *childOut = nullptr;
    int childFirst = 0;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--rows") && i + 1 < argc)
            rows = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc)
            repeats = std::max(5, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--child") && i + 2 < argc) {
            childOut = argv[++i];
            childFirst = std::atoi(argv[++i]);
        }
    }
    if (childOut) { // the node on another BLAS: generate, write the tokens
        Policy::setComputeThreads(2);
        Policy node = makePolicy();
        FastDecoder::setGemmBackend(GemmBackend::Cblas);
        std::ofstream out(childOut, std::ios::binary);
        std::vector<std::vector<float>> logProbs;
        const auto completions = generate(node, rows, childFirst, &logProbs);
        for (size_t r = 0; r < completions.size(); ++r) {
            const uint32_t n = uint32_t(completions[r].size());
            out.write(reinterpret_cast<const char *>(&n), 4);
            out.write(reinterpret_cast<const char *>(completions[r].data()), std::streamsize(n * 4));
            out.write(reinterpret_cast<const char *>(logProbs[r].data()), std::streamsize(n * 4));
        }
        return out ? 0 : 1;
    }

    struct Path {
        const char *name;
        int threads;
        bool fast;
        GemmBackend gemm;
    };
    const Path paths[] = {{"fused decoder, packed GEMM, 1 thread", 1, true, GemmBackend::Packed},
                          {"fused decoder, packed GEMM, 2 threads", 2, true, GemmBackend::Packed},
                          {"fused decoder, cblas (OpenBLAS), 2 threads", 2, true, GemmBackend::Cblas},
                          {"LibTorch reference path, 2 threads", 2, false, GemmBackend::Packed}};
    std::printf("verifiable sampling: %d rows per path, %d new tokens max, tolerance %g, verifier LibTorch prefill (2 "
                "threads)\n",
                rows, kMaxNew, kTolerance);
    std::printf("%-46s %7s %8s %8s %12s %12s %10s\n", "node's compute path", "rows", "tokens", "refused", "largest gap",
                "p drift", "margin");
    Policy hub = makePolicy();
    long allRows = 0, allRefused = 0;
    double allWorst = 0;
    const auto report = [&](const char *name, const Margin &m, int n) {
        // The margin: how many times the largest honest disagreement (a gap, or an edge's drift) fits in the tolerance.
        const double worst = std::max(m.worst, m.drift);
        std::printf("%-46s %7d %8ld %8d %12.3g %12.3g %10s\n", name, n, m.tokens, m.refusedRows, m.worst, m.drift,
                    worst > 0 ? (std::to_string(long(kTolerance / worst)) + "x").c_str() : "inf");
        allRows += n;
        allRefused += m.refusedRows;
        allWorst = std::max({allWorst, m.worst, m.drift});
    };
    int first = 0;
    for (const Path &path : paths) {
        Policy node = makePolicy();
        Policy::setComputeThreads(path.threads);
        node.setFastDecode(path.fast);
        FastDecoder::setGemmBackend(path.gemm);
        std::vector<std::vector<float>> logProbs;
        const auto completions = generate(node, rows, first, &logProbs);
        Policy::setComputeThreads(2);
        FastDecoder::setGemmBackend(GemmBackend::Packed);
        report(path.name, verify(hub, completions, first, logProbs), rows);
        first += rows;
    }
    // The reference BLAS (Debian's libblas3) in a child process, when installed.
    const char *refBlas = "/usr/lib/x86_64-linux-gnu/blas";
    if (access((std::string(refBlas) + "/libblas.so.3").c_str(), R_OK) == 0) {
        const std::string file = "/tmp/bench_sampling_margin." + std::to_string(getpid());
        const std::string command = "LD_LIBRARY_PATH=" + std::string(refBlas) + " '" + argv[0] + "' --rows " +
                                    std::to_string(rows) + " --child " + file + " " + std::to_string(first);
        if (std::system(command.c_str()) == 0) {
            std::ifstream in(file, std::ios::binary);
            std::vector<std::vector<int32_t>> completions;
            std::vector<std::vector<float>> logProbs;
            uint32_t n = 0;
            while (in.read(reinterpret_cast<char *>(&n), 4)) {
                std::vector<int32_t> t(n);
                std::vector<float> lp(n);
                in.read(reinterpret_cast<char *>(t.data()), std::streamsize(n * 4));
                in.read(reinterpret_cast<char *>(lp.data()), std::streamsize(n * 4));
                completions.push_back(std::move(t));
                logProbs.push_back(std::move(lp));
            }
            report("fused decoder, cblas (reference BLAS), 2 thr.", verify(hub, completions, first, logProbs),
                   int(completions.size()));
        } else {
            std::printf("(the reference-BLAS child failed: %s)\n", command.c_str());
        }
        std::remove(file.c_str());
    }
    std::printf("all paths: %ld rows verified, %ld refused, largest gap %.3g (margin to the tolerance %s)\n", allRows,
                allRefused, allWorst,
                allWorst > 0 ? (std::to_string(long(kTolerance / allWorst)) + "x").c_str()
                             : "unbounded: no token near an edge");

    // Cost: one 64-row batch generated (the node's default path) next to the same batch verified, alternating.
    Policy::setComputeThreads(2);
    Policy node = makePolicy();
    std::vector<double> gen, ver, prefill;
    for (int r = 0; r < repeats; ++r) {
        auto t0 = Clock::now();
        const auto batch = generate(node, 64, 1'000'000 + 64 * r);
        gen.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        // Alternate which verification runs first, so neither always finds the caches warm.
        for (int side = 0; side < 2; ++side) {
            const bool gaps = (side == 0) == (r % 2 == 0);
            t0 = Clock::now();
            const Margin m = verify(hub, batch, 1'000'000 + 64 * r, {}, gaps);
            (gaps ? ver : prefill).push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            if (m.refusedRows)
                std::printf("(an honest batch was refused)\n");
        }
    }
    const auto spread = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v.back() - v.front();
    };
    std::printf(
        "one batch of 64 rows (2 threads), %d repeats: generation median %.1f ms (spread %.1f); the hub's prefill "
        "alone "
        "%.1f ms (spread %.1f); prefill + sampling check %.1f ms (spread %.1f): the check adds %.1f ms, verification = "
        "%.0f%% of generation\n",
        repeats, median(gen), spread(gen), median(prefill), spread(prefill), median(ver), spread(ver),
        median(ver) - median(prefill), 100 * median(ver) / median(gen));
    return 0;
}
