// TOPLOC proof cost on the CPU, standard library only.
//   ./build/tests/bench/bench_toploc [chunks]
// Prints, for hidden sizes 128 / 256 / 1024 / 4096 and chunks of 32 tokens: proof building per chunk (with its parts:
// top-128, modulus search, interpolation), verification per chunk, and proof bytes per 32 tokens next to the peer,
// the raw bf16 hidden states those tokens would take. Then the verifier's acceptance against relative noise, which
// shows how much disagreement the default thresholds (90 / 10 / 8) tolerate.
#include "toploc/Gf65497.h"
#include "toploc/Proof.h"
#include "toploc/Verify.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

using namespace cohort::toploc;

namespace {

using Clock = std::chrono::steady_clock;

std::vector<float> gaussian(size_t n, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> v(n);
    for (float &x : v)
        x = normal(rng);
    return v;
}

// Microseconds per call of f(chunk index), the best of `repeats` passes over all chunks (least disturbed by others).
template <typename F>
double microsPerChunk(size_t chunks, int repeats, F &&f)
{
    double best = 1e300;
    for (int r = 0; r < repeats; ++r) {
        const auto start = Clock::now();
        for (size_t c = 0; c < chunks; ++c)
            f(c);
        const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count() / double(chunks);
        best = std::min(best, us);
    }
    return best;
}

volatile size_t gSink = 0; // keeps the timed work from being optimized away

} // namespace

int main(int argc, char **argv)
{
    const size_t chunks = argc > 1 ? size_t(std::strtoul(argv[1], nullptr, 10)) : 64;
    const int repeats = 5;
    std::printf("TOPLOC on the CPU, one thread, %zu chunks of %zu tokens per size, best of %d\n", chunks, kChunkTokens,
                repeats);
    std::printf("%6s %11s %9s %9s %11s %11s %12s %13s %9s\n", "dim", "build us", "topk us", "mod us", "interp us",
                "verify us", "proof B/32t", "raw bf16 B/32t", "ratio");
    for (const size_t dim : {128u, 256u, 1024u, 4096u}) {
        const size_t perChunk = kChunkTokens * dim;
        const auto hidden = gaussian(chunks * perChunk, dim);
        std::vector<ChunkProof> proofs(chunks);
        const double build = microsPerChunk(chunks, repeats, [&](size_t c) {
            proofs[c] = buildChunkProof(hidden.data() + c * perChunk, kChunkTokens, dim);
        });
        // The parts, measured separately on the same chunks.
        std::vector<std::vector<size_t>> top(chunks);
        const double topk = microsPerChunk(
            chunks, repeats, [&](size_t c) { top[c] = topK(hidden.data() + c * perChunk, perChunk, kTopK); });
        std::vector<uint32_t> moduli(chunks);
        const double modulus =
            microsPerChunk(chunks, repeats, [&](size_t c) { moduli[c] = findInjectiveModulus(top[c]); });
        const double interp = microsPerChunk(chunks, repeats, [&](size_t c) {
            std::vector<uint32_t> xs(top[c].size()), ys(top[c].size());
            for (size_t i = 0; i < xs.size(); ++i) {
                xs[i] = uint32_t(top[c][i] % moduli[c]);
                ys[i] = gf::reduce(bf16Bits(hidden[c * perChunk + top[c][i]]));
            }
            gSink = gSink + gf::interpolate(xs, ys)->size();
        });
        int accepted = 0;
        const double verify = microsPerChunk(chunks, repeats, [&](size_t c) {
            accepted += verifyChunk(proofs[c], hidden.data() + c * perChunk, kChunkTokens, dim).accepted ? 1 : 0;
        });
        if (accepted != int(chunks) * repeats) {
            std::printf("honest proofs rejected: %d of %zu\n", int(chunks) * repeats - accepted, chunks * repeats);
            return 1;
        }
        const size_t proofBytes = serialize({proofs[0]}).size();
        const size_t rawBytes = perChunk * 2;
        std::printf("%6zu %11.1f %9.1f %9.1f %11.1f %11.1f %12zu %13zu %8.0fx\n", dim, build, topk, modulus, interp,
                    verify, proofBytes, rawBytes, double(rawBytes) / double(proofBytes));
    }

    // Acceptance rate of honest proofs against the same states times (1 + eps * N(0,1)), and against unrelated states.
    std::printf(
        "\nacceptance vs relative noise (dim 1024, %zu chunks): eps, accepted, mean exp matches, mean |dm| mean, "
        "mean |dm| median\n",
        chunks);
    const size_t dim = 1024, perChunk = kChunkTokens * dim;
    const auto hidden = gaussian(chunks * perChunk, 1);
    std::vector<ChunkProof> proofs(chunks);
    for (size_t c = 0; c < chunks; ++c)
        proofs[c] = buildChunkProof(hidden.data() + c * perChunk, kChunkTokens, dim);
    std::mt19937_64 rng(2);
    std::normal_distribution<double> normal(0.0, 1.0);
    for (const double eps : {0.0, 1e-3, 1e-2, 3e-2, 5e-2, 7e-2, 1e-1, 2e-1, -1.0}) {
        std::vector<float> seen = eps < 0 ? gaussian(hidden.size(), 3) : hidden;
        if (eps > 0)
            for (float &x : seen)
                x = float(double(x) * (1.0 + eps * normal(rng)));
        int ok = 0;
        double exp = 0, mean = 0, median = 0;
        for (size_t c = 0; c < chunks; ++c) {
            const ChunkVerdict v = verifyChunk(proofs[c], seen.data() + c * perChunk, kChunkTokens, dim);
            ok += v.accepted ? 1 : 0;
            exp += v.expMatches;
            mean += v.expMatches ? v.mantissaMean : 0;
            median += v.expMatches ? v.mantissaMedian : 0;
        }
        const double n = double(chunks);
        if (eps < 0)
            std::printf("%10s %4d/%zu %7.1f %7.2f %7.2f\n", "unrelated", ok, chunks, exp / n, mean / n, median / n);
        else
            std::printf("%10g %4d/%zu %7.1f %7.2f %7.2f\n", eps, ok, chunks, exp / n, mean / n, median / n);
    }
    return 0;
}
