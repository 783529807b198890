// DiLoCo building blocks (engine/diloco, engine/rl/LanguageModel): the optimisers against hand-computed steps, the
// synthetic text, the policy as a flat-vector language model (gradient against finite differences), checkpoints
// (round trip, refusals), the task config's bad input, and the runner alone with an in-process master: a cancelled
// run resumes from its bundle at the inner step where it stopped.
#include "collectives/Master.h"
#include "core/DilocoTaskConfig.h"
#include "diloco/DilocoCheckpoint.h"
#include "diloco/DilocoRunner.h"
#include "diloco/Optimizers.h"
#include "diloco/SyntheticText.h"
#include "net/Ed25519.h"
#include "node/EngineBundle.h"
#include "rl/LanguageModel.h"
#include "rl/Policy.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <cmath>

using namespace cohort;
using namespace cohort::diloco;

class TestDiloco : public QObject {
    Q_OBJECT

    static rl::PolicyConfig tinyModel()
    {
        rl::PolicyConfig c;
        c.dModel = 16;
        c.nLayers = 1;
        c.nHeads = 2;
        c.dFF = 32;
        c.maxSeqLen = 32;
        return c;
    }

private Q_SLOTS:
    void adamWMatchesTheFormula()
    {
        std::vector<float> w{1.0f, -2.0f, 0.5f};
        const std::vector<float> g{0.1f, -0.3f, 0.0f};
        AdamWState state;
        AdamWOptions o;
        o.learningRate = 0.01;
        o.weightDecay = 0.1;
        o.gradClip = 0; // no clipping here
        adamWStep(w, g, state, o);
        // Step 1: m = 0.1 g, v = 0.05 g^2; m_hat = g, v_hat = g^2: the update is lr * g / (|g| + eps) = lr * sign(g).
        for (int i = 0; i < 3; ++i) {
            const double w0 = std::vector<double>{1.0, -2.0, 0.5}[i];
            const double gi = g[i];
            const double expected = w0 * (1 - 0.01 * 0.1) - 0.01 * gi / (std::fabs(gi) + 1e-8);
            QVERIFY2(std::fabs(w[i] - expected) < 1e-6, qPrintable(QStringLiteral("w[%1] %2 vs %3").arg(i).arg(w[i]).arg(expected)));
        }
        QCOMPARE(state.step, uint64_t(1));
        // A non-finite gradient changes nothing.
        const std::vector<float> before = w;
        const std::vector<float> bad{NAN, 0.0f, 0.0f};
        QVERIFY(!std::isfinite(adamWStep(w, bad, state, o)));
        QCOMPARE(w, before);
        QCOMPARE(state.step, uint64_t(1));
        // Clipping: a gradient of norm 5 with clip 1 moves the moments as one of norm 1 would.
        AdamWState clipped, unit;
        o.gradClip = 1.0;
        std::vector<float> w1{0.0f, 0.0f}, w2{0.0f, 0.0f};
        adamWStep(w1, std::vector<float>{3.0f, 4.0f}, clipped, o);
        adamWStep(w2, std::vector<float>{0.6f, 0.8f}, unit, o);
        QVERIFY(std::fabs(clipped.m[0] - unit.m[0]) < 1e-6 && std::fabs(clipped.m[1] - unit.m[1]) < 1e-6);
    }

    void nesterovOuterStep_()
    {
        std::vector<float> global{1.0f, 2.0f}, momentum{0.5f, 0.0f};
        const std::vector<float> delta{0.2f, -0.4f};
        nesterovOuterStep(global, momentum, delta, 0.7f, 0.9f);
        // buf = 0.9 * m + d; global -= 0.7 * (d + 0.9 * buf)
        const float buf0 = 0.9f * 0.5f + 0.2f, buf1 = -0.4f;
        QCOMPARE(momentum[0], buf0);
        QCOMPARE(momentum[1], buf1);
        QVERIFY(std::fabs(global[0] - (1.0f - 0.7f * (0.2f + 0.9f * buf0))) < 1e-6);
        QVERIFY(std::fabs(global[1] - (2.0f - 0.7f * (-0.4f + 0.9f * buf1))) < 1e-6);
    }

    void syntheticTextIsDeterministic()
    {
        const auto a = SyntheticText::batch(7, 3, 4, 40), b = SyntheticText::batch(7, 3, 4, 40);
        QCOMPARE(a, b);
        QVERIFY(SyntheticText::batch(8, 3, 4, 40) != a);
        QVERIFY(SyntheticText::batch(7, 4, 4, 40) != a);
        QCOMPARE(a.size(), size_t(4));
        for (const auto &seq : a) {
            QCOMPARE(seq.size(), size_t(40));
            for (int32_t id : seq)
                QVERIFY(id >= 0 && id < 256);
        }
        const std::string p = SyntheticText::paragraph(1, 0);
        QVERIFY(p.find("the ") != std::string::npos);
        QVERIFY(p.back() == ' ' && p[p.size() - 2] == '.');
    }

    void flatParametersAndGradient()
    {
        auto policy = rl::Policy::create(tinyModel(), 5);
        QVERIFY2(policy, policy.error.c_str());
        const size_t n = rl::flatParameterCount(*policy);
        QCOMPARE(qint64(n), qint64(tinyModel().parameterCount()));
        std::vector<float> w(n);
        QVERIFY(rl::readFlatParameters(*policy, w));
        QVERIFY(!rl::readFlatParameters(*policy, std::span<float>(w.data(), n - 1)));
        const auto batch = SyntheticText::batch(1, 0, 2, 24);
        std::vector<float> grad(n);
        auto loss = rl::languageModelLoss(*policy, batch, grad);
        QVERIFY2(loss, loss.error.c_str());
        // A fresh model is close to uniform over 259 ids.
        QVERIFY2(std::fabs(*loss - std::log(259.0)) < 0.3, qPrintable(QString::number(*loss)));
        // The gradient against central finite differences, for the largest-gradient coordinates.
        std::vector<size_t> order(n);
        for (size_t i = 0; i < n; ++i)
            order[i] = i;
        std::partial_sort(order.begin(), order.begin() + 5, order.end(),
                          [&](size_t a, size_t b) { return std::fabs(grad[a]) > std::fabs(grad[b]); });
        for (int k = 0; k < 5; ++k) {
            const size_t i = order[size_t(k)];
            const float h = 1e-2f;
            std::vector<float> plus = w, minus = w;
            plus[i] += h;
            minus[i] -= h;
            QVERIFY(rl::writeFlatParameters(*policy, plus));
            const double lp = *rl::languageModelLoss(*policy, batch);
            QVERIFY(rl::writeFlatParameters(*policy, minus));
            const double lm = *rl::languageModelLoss(*policy, batch);
            const double numeric = (lp - lm) / (2 * h);
            QVERIFY2(std::fabs(numeric - grad[i]) < 0.05 * std::fabs(grad[i]) + 1e-4,
                     qPrintable(QStringLiteral("weight %1: analytic %2, numeric %3").arg(i).arg(grad[i]).arg(numeric)));
        }
        // Writing weights back really changes the model: the original loss returns.
        QVERIFY(rl::writeFlatParameters(*policy, w));
        QCOMPARE(*rl::languageModelLoss(*policy, batch), *loss);
        // Bad input: too short, out-of-range ids, a gradient buffer of the wrong size.
        QVERIFY(!rl::languageModelLoss(*policy, {{1}}));
        QVERIFY(!rl::languageModelLoss(*policy, {{1, 999}}));
        std::vector<float> small(3);
        QVERIFY(!rl::languageModelLoss(*policy, batch, small));
        std::atomic<bool> cancelled{true};
        QCOMPARE(rl::languageModelLoss(*policy, batch, {}, &cancelled).error, std::string("cancelled"));
    }

    void checkpointRoundTripAndRefusals()
    {
        QTemporaryDir dir;
        DilocoCheckpoint c;
        c.taskId = QStringLiteral("t");
        c.outerStep = 7;
        c.innerStep = 3;
        c.global = {1, 2, 3};
        c.momentum = {0.5f, 0, -1};
        c.local = {1.5f, 2, 3};
        c.adam.m = {0.1f, 0.2f, 0.3f};
        c.adam.v = {1, 1, 1};
        c.adam.step = 42;
        c.lastLoss = 2.5;
        BundleStore store(dir.path());
        QVERIFY(store.write(c.toBundle()));
        auto read = store.readNewest();
        QVERIFY2(read, qPrintable(read.error()));
        auto back = DilocoCheckpoint::fromBundle(*read, QStringLiteral("t"), 3);
        QVERIFY2(back, qPrintable(back.error()));
        QCOMPARE(back->outerStep, uint64_t(7));
        QCOMPARE(back->innerStep, 3);
        QCOMPARE(back->global, c.global);
        QCOMPARE(back->momentum, c.momentum);
        QCOMPARE(back->local, c.local);
        QCOMPARE(back->adam.m, c.adam.m);
        QCOMPARE(back->adam.v, c.adam.v);
        QCOMPARE(back->adam.step, uint64_t(42));
        QVERIFY(!DilocoCheckpoint::fromBundle(*read, QStringLiteral("other"), 3));   // another task
        QVERIFY(!DilocoCheckpoint::fromBundle(*read, QStringLiteral("t"), 4));       // another model size
        EngineBundle missing = c.toBundle();
        missing.blobs.removeLast();
        QVERIFY(!DilocoCheckpoint::fromBundle(missing, QStringLiteral("t"), 3));
        EngineBundle notDiloco = c.toBundle();
        notDiloco.state.insert(QStringLiteral("kind"), QStringLiteral("rl"));
        QVERIFY(!DilocoCheckpoint::fromBundle(notDiloco, QStringLiteral("t"), 3));
    }

    void taskConfigRefusesBadInput()
    {
        QVERIFY(DilocoTaskConfig::fromJson({}));
        QCOMPARE(DilocoTaskConfig::fromJson({})->outerLearningRate, 0.7);
        QCOMPARE(DilocoTaskConfig::fromJson({})->outerMomentum, 0.9);
        QCOMPARE(DilocoTaskConfig::fromJson({})->quantization, QStringLiteral("uint8"));
        const DilocoTaskConfig d;
        QCOMPARE(*DilocoTaskConfig::fromJson(d.toJson()), d);
        QVERIFY(!DilocoTaskConfig::fromJson({{QStringLiteral("quantization"), QStringLiteral("int4")}}));
        QVERIFY(!DilocoTaskConfig::fromJson({{QStringLiteral("inner_steps"), 0}}));
        QVERIFY(!DilocoTaskConfig::fromJson({{QStringLiteral("sequence_length"), 1000}})); // > max_seq_len 64
        QVERIFY(!DilocoTaskConfig::fromJson({{QStringLiteral("batch_size"), 4096},
                                             {QStringLiteral("sequence_length"), 4096},
                                             {QStringLiteral("model"), QJsonObject{{QStringLiteral("max_seq_len"), 32768}}}}));
        QVERIFY(!DilocoTaskConfig::fromJson({{QStringLiteral("seed"), QStringLiteral("-1")}}));
        QVERIFY(!DilocoTaskConfig::fromJson({{QStringLiteral("model"), QJsonObject{{QStringLiteral("d_model"), 30}, {QStringLiteral("n_heads"), 4}}}}));
        QVERIFY(!DilocoTaskConfig::fromJson({{QStringLiteral("master_port"), 70000}}));
    }

    // A lone node (a ring of one) with an in-process master: cancelled in the middle of its inner steps, the next run
    // resumes from its bundle at exactly that inner step, with the same shared state.
    void cancelledRunResumesAtTheSameInnerStep()
    {
        QTemporaryDir dir;
        collectives::Master master;
        QVERIFY(master.listen(QHostAddress(QHostAddress::LocalHost), 0));
        DilocoRunnerOptions o;
        o.taskId = QStringLiteral("lone");
        o.config.innerSteps = 6;
        o.config.model = {16, 1, 2, 32, 32};
        o.config.batchSize = 2;
        o.config.sequenceLength = 24;
        o.checkpointDir = dir.path();
        o.checkpointIntervalMs = 0;
        o.dataSeed = 9;
        o.communicator.masterPort = master.port();
        o.communicator.secretKey = ed25519::generate().secretKey;
        o.communicator.bindAddress = QHostAddress(QHostAddress::LocalHost);

        auto runInThread = [&](const std::function<bool(const DilocoProgress &)> &stopWhen,
                               QList<DilocoProgress> *seen) {
            std::atomic<bool> cancel{false};
            Status status;
            QThread *thread = QThread::create([&] {
                DilocoRunner runner(o);
                status = runner.run(cancel, [&](const DilocoProgress &p) {
                    seen->append(p);
                    if (stopWhen(p))
                        cancel = true;
                });
            });
            QSignalSpy done(thread, &QThread::finished);
            thread->start();
            // The master lives in this thread: its event loop must run while the runner works.
            const bool finished = done.wait(60'000);
            delete thread;
            return finished && status.ok();
        };
        QList<DilocoProgress> first, second;
        QVERIFY(runInThread([](const DilocoProgress &p) { return p.outerStep == 1 && p.innerStep == 4; }, &first));
        const DilocoProgress &stopped = first.last();
        QCOMPARE(stopped.phase, DilocoProgress::Phase::Stopped);
        QCOMPARE(stopped.outerStep, uint64_t(1));
        QCOMPARE(stopped.innerStep, 4);
        uint64_t hashAtStop = 0;
        for (const DilocoProgress &p : first)
            if (p.outerStepDone)
                hashAtStop = p.stateHash;
        QVERIFY(hashAtStop != 0);

        QVERIFY(runInThread([](const DilocoProgress &p) { return p.outerStepDone; }, &second));
        QVERIFY(second.first().resumed);
        // The first inner step of the second run is the fifth of outer step 1: nothing was lost.
        const auto firstTraining = std::find_if(second.begin(), second.end(), [](const DilocoProgress &p) {
            return p.phase == DilocoProgress::Phase::Training;
        });
        QVERIFY(firstTraining != second.end());
        QCOMPARE(firstTraining->outerStep, uint64_t(1));
        QCOMPARE(firstTraining->innerStep, 5);
        // Its sync found the same shared state (0 bytes: a ring of one fetches from no one).
        QCOMPARE(firstTraining->stateHash, hashAtStop);
    }
};

QTEST_GUILESS_MAIN(TestDiloco)
#include "tst_diloco.moc"
