// TOPLOC's detection table, asserted: on the reference policy (d 256, 4 layers), with the verifier running the
// hub's prefill, honest rollouts are accepted (also on another thread count and batch composition) and every
// dishonest case is refused, under the thresholds an fp32 task uses by default (RlTaskConfig). Each row covers
// 200 chunks (50 rollouts x 128 tokens). Seeded: the same table every run. bench_toploc_detection prints it.
#include "ToplocDetection.h"

#include "core/RlTaskConfig.h"

#include <QTemporaryDir>
#include <QTest>

using namespace cohort;

class TestToplocDetection : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void tableVerdicts()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        testing::DetectionSetup setup;
        setup.model = testing::referencePolicyConfig();
        setup.samples = 50;
        setup.seed = 11;
        setup.workDir = dir.path().toStdString();
        const RlToplocPolicy task = RlTaskConfig{}.toplocPolicy;
        const toploc::VerifyThresholds fp32{task.minExpMatches, task.maxMantissaMean, task.maxMantissaMedian};
        std::string error;
        const auto table = testing::runDetectionTable(setup, fp32, &error);
        QVERIFY2(!table.empty(), error.c_str());
        QCOMPARE(table.size(), size_t(7));
        int honestRows = 0;
        for (const testing::DetectionCase &c : table) {
            const testing::DetectionSummary s = testing::summarize(c, fp32);
            const QByteArray row = QByteArray::fromStdString(c.name) + ": " + QByteArray::number(s.acceptedChunks) +
                                   "/" + QByteArray::number(s.chunks) + " chunks accepted, exponent matches mean " +
                                   QByteArray::number(s.meanExpMatches, 'f', 1) + " worst " +
                                   QByteArray::number(s.worstExpMatches) + ", mantissa mean " +
                                   QByteArray::number(s.meanMantissaMean, 'f', 3) + " min " +
                                   QByteArray::number(s.bestMantissaMean, 'f', 3) + " max " +
                                   QByteArray::number(s.worstMantissaMean, 'f', 3);
            qInfo("%s", row.constData());
            QVERIFY2(s.chunks >= 200, row.constData());
            QCOMPARE(s.samples, setup.samples);
            if (c.honest) {
                ++honestRows;
                QVERIFY2(s.acceptedChunks == s.chunks && s.acceptedSamples == s.samples, row.constData());
            } else {
                // "Reject all": every rollout is refused (one failed chunk refuses it) and nearly every chunk fails.
                QVERIFY2(s.acceptedSamples == 0, row.constData());
                QVERIFY2(s.acceptedChunks * 20 <= s.chunks, row.constData());
            }
            // The per-chunk verdicts the verifier produced agree with re-judging the stored statistics.
            int accepted = 0;
            for (const auto &v : c.chunks)
                accepted += v.accepted;
            QCOMPARE(accepted, s.acceptedChunks);
        }
        QCOMPARE(honestRows, 2);

        // Under the paper's bf16-GPU thresholds the small perturbations pass: why an fp32 task needs its own.
        const testing::DetectionSummary bf16 = testing::summarize(table.back(), toploc::VerifyThresholds{});
        QCOMPARE(table.back().name, std::string("generated with bf16-rounded weights"));
        QVERIFY(bf16.acceptedChunks > bf16.chunks / 2);
        const testing::DetectionSummary other = testing::summarize(table[2], toploc::VerifyThresholds{});
        QCOMPARE(other.acceptedChunks, 0); // another model fails any threshold
    }
};

QTEST_GUILESS_MAIN(TestToplocDetection)
#include "tst_toploc_detection.moc"
