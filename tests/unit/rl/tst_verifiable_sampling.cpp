// Verifiable sampling (rl/VerifiableSampling.h) with the real policy: completions generate() samples from the hub's
// stream land inside their tokens' intervals under the verifier's teacher-forced logits, on the fused decoder and
// the LibTorch reference path, at top-p 1 and 0.9; completions from any other sampler (another model, a greedy
// pick, the best of several draws, another seed) do not. The protocol values are pinned to golden constants.
#include "rl/Policy.h"
#include "rl/Tokenizer.h"
#include "rl/VerifiableSampling.h"

#include <ATen/Parallel.h>
#include <QTest>

#include <cmath>

using namespace cohort;

namespace {
rl::PolicyConfig smallConfig()
{
    rl::PolicyConfig c;
    c.dModel = 64;
    c.nLayers = 2;
    c.nHeads = 4;
    c.dFF = 256;
    c.maxSeqLen = 96;
    return c;
}

std::vector<std::vector<int32_t>> prompts(int rows)
{
    std::vector<std::vector<int32_t>> out;
    for (int i = 0; i < rows; ++i)
        out.push_back(rl::ByteTokenizer::encode("problem " + std::to_string(i / 4) + " =", true));
    return out;
}

struct Gaps {
    double worst = 0;
    int off = 0; // tokens beyond the tolerance
    int tokens = 0;
};

// The hub's check: the verifier's logits, the stream of `seed`, every token of every row.
Gaps verify(rl::Policy &verifier, const std::vector<std::vector<int32_t>> &p,
            const std::vector<std::vector<int32_t>> &completions, uint64_t seed, double temperature, double topP,
            double tolerance = 1e-3)
{
    std::vector<rl::SamplingStream> streams;
    for (size_t r = 0; r < completions.size(); ++r)
        streams.emplace_back(seed, r);
    Gaps g;
    auto scored = verifier.scoreCompletions(p, completions, float(temperature), nullptr, nullptr,
                                            [&](size_t row, size_t token, const float *logits, int vocab) {
                                                const double gap =
                                                    rl::samplingGap(logits, vocab, temperature, topP,
                                                                    completions[row][token], streams[row].uniform());
                                                g.worst = std::max(g.worst, gap);
                                                g.off += gap > tolerance ? 1 : 0;
                                                ++g.tokens;
                                            });
    if (!scored)
        qFatal("%s", scored.error.c_str());
    return g;
}

std::vector<std::vector<int32_t>> sample(rl::Policy &policy, const std::vector<std::vector<int32_t>> &p, uint64_t seed,
                                         float temperature, float topP, int maxNew = 24)
{
    rl::SamplingConfig s;
    s.seed = seed;
    s.temperature = temperature;
    s.topP = topP;
    s.maxNewTokens = maxNew;
    auto generated = policy.generate(p, s);
    if (!generated)
        qFatal("%s", generated.error.c_str());
    std::vector<std::vector<int32_t>> out;
    for (const rl::Completion &c : *generated)
        out.push_back(c.tokens);
    return out;
}
} // namespace

class TestVerifiableSampling : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { at::set_num_threads(1); }

    // Values that must never change: a node and a hub of different versions must draw the same uniforms.
    void protocolValuesArePinned()
    {
        // (computed independently of this code, from the splitmix64 definition)
        QCOMPARE(rl::samplingSeedForWork(0), Q_UINT64_C(0x8a67ecb49894ab69));
        QCOMPARE(rl::samplingSeedForWork(12345), Q_UINT64_C(0x8555f5e0852013c8));
        rl::SamplingStream s(7, 3);
        QCOMPARE(s.next(), Q_UINT64_C(0xb4a0472e578069ae));
        QCOMPARE(rl::SamplingStream(7, 3).uniform(), double(Q_UINT64_C(0xb4a0472e578069ae) >> 11) * 0x1.0p-53);
    }

    // Hand-computed intervals: logits (0, 0, ln 2) give probabilities 1/4, 1/4, 1/2 in id order.
    void gapsMatchTheIntervalsByHand()
    {
        const float logits[3] = {0.0f, 0.0f, float(std::log(2.0))};
        QCOMPARE(rl::samplingGap(logits, 3, 1.0, 1.0, 2, 0.6), 0.0);                   // [0.5, 1)
        QVERIFY(std::abs(rl::samplingGap(logits, 3, 1.0, 1.0, 0, 0.6) - 0.35) < 1e-6); // [0, 0.25)
        QVERIFY(std::abs(rl::samplingGap(logits, 3, 1.0, 1.0, 1, 0.1) - 0.15) < 1e-6); // [0.25, 0.5)
        // Top-p 0.5: the nucleus is {2} alone; id 0 comes next in logit order and could only be reached by a
        // nucleus edge further on, where it owns the top third of [0, 1).
        QCOMPARE(rl::samplingGap(logits, 3, 1.0, 0.5, 2, 0.99), 0.0);
        QVERIFY(std::abs(rl::samplingGap(logits, 3, 1.0, 0.5, 0, 0.5) - (2.0 / 3 - 0.5)) < 1e-6);
        QVERIFY(rl::samplingGap(logits, 3, 1.0, 0.5, 1, 0.9) > 0.2); // behind id 0: a quarter of the mass beyond
        // Hostile values: ids out of range, non-finite logits, a uniform outside [0, 1).
        QCOMPARE(rl::samplingGap(logits, 3, 1.0, 1.0, 3, 0.5), 1.0);
        QCOMPARE(rl::samplingGap(logits, 3, 1.0, 1.0, -1, 0.5), 1.0);
        const float broken[3] = {0.0f, NAN, 1.0f};
        QCOMPARE(rl::samplingGap(broken, 3, 1.0, 1.0, 0, 0.1), 1.0);
        QCOMPARE(rl::samplingGap(logits, 3, 1.0, 1.0, 0, 1.5), 1.0);
    }

    void honestCompletionsAreInside_data()
    {
        QTest::addColumn<bool>("fast");
        QTest::addColumn<double>("topP");
        QTest::addColumn<double>("temperature");
        QTest::newRow("fused decoder, top-p 1") << true << 1.0 << 1.0;
        QTest::newRow("fused decoder, top-p 0.9, T 0.7") << true << 0.9 << 0.7;
        QTest::newRow("LibTorch reference, top-p 1") << false << 1.0 << 1.0;
        QTest::newRow("LibTorch reference, top-p 0.9") << false << 0.9 << 1.0;
    }
    void honestCompletionsAreInside()
    {
        QFETCH(bool, fast);
        QFETCH(double, topP);
        QFETCH(double, temperature);
        auto node = rl::Policy::create(smallConfig(), 3);
        auto hub = node->clone();
        QVERIFY(node.ok() && hub.ok());
        node->setFastDecode(fast);
        const auto p = prompts(32);
        const uint64_t seed = rl::samplingSeedForWork(99);
        const auto completions = sample(*node, p, seed, float(temperature), float(topP));
        const Gaps g = verify(*hub, p, completions, seed, temperature, topP);
        qInfo("%d tokens, worst gap %.3g", g.tokens, g.worst);
        QVERIFY(g.tokens > 32 * 4);
        QCOMPARE(g.off, 0);
        QVERIFY2(g.worst < 1e-5, qPrintable(QString::number(g.worst)));
    }

    // The cheats: tokens from another (cheaper) model, greedy picks, the best of several draws, another seed.
    // Each is verified against the claimed model with the hub's stream and must show tokens far outside.
    void otherSamplersAreCaught()
    {
        auto claimed = rl::Policy::create(smallConfig(), 3);
        rl::PolicyConfig small = smallConfig();
        small.nLayers = 1;
        small.dFF = 64;
        auto cheap = rl::Policy::create(small, 11);
        QVERIFY(claimed.ok() && cheap.ok());
        const auto p = prompts(16);
        const uint64_t seed = rl::samplingSeedForWork(7);

        const Gaps fromCheap = verify(*claimed, p, sample(*cheap, p, seed, 1.0f, 1.0f), seed, 1.0, 1.0);
        QVERIFY2(fromCheap.off > fromCheap.tokens / 2,
                 qPrintable(QStringLiteral("%1 of %2").arg(fromCheap.off).arg(fromCheap.tokens)));

        const Gaps otherSeed = verify(*claimed, p, sample(*claimed, p, seed + 1, 1.0f, 1.0f), seed, 1.0, 1.0);
        QVERIFY2(otherSeed.off > otherSeed.tokens / 2,
                 qPrintable(QStringLiteral("%1 of %2").arg(otherSeed.off).arg(otherSeed.tokens)));

        // Greedy: a very low temperature approximates argmax.
        const Gaps greedy = verify(*claimed, p, sample(*claimed, p, seed, 0.05f, 1.0f), seed, 1.0, 1.0);
        QVERIFY(greedy.off > 0);

        // Hand-picking: per row, the longest of four honest draws with other seeds (a node choosing which
        // completions it submits). Every honest draw is a real sample, yet none is the one this work item fixes.
        std::vector<std::vector<int32_t>> picked(p.size());
        for (uint64_t k = 1; k <= 4; ++k) {
            const auto draw = sample(*claimed, p, seed ^ (k * 0x1000193), 1.0f, 1.0f);
            for (size_t r = 0; r < p.size(); ++r)
                if (draw[r].size() > picked[r].size())
                    picked[r] = draw[r];
        }
        const Gaps handPicked = verify(*claimed, p, picked, seed, 1.0, 1.0);
        QVERIFY(handPicked.off > handPicked.tokens / 2);
        // Each cheat is caught on some row of every batch: no row of the honest stream survives reordering either.
        auto honest = sample(*claimed, p, seed, 1.0f, 1.0f);
        std::swap(honest[0], honest[5]);
        QVERIFY(verify(*claimed, p, honest, seed, 1.0, 1.0).off > 0);
    }
};

QTEST_GUILESS_MAIN(TestVerifiableSampling)
#include "tst_verifiable_sampling.moc"
