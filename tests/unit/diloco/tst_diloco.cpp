// DiLoCo building blocks (engine/diloco, engine/rl/LanguageModel): the optimisers against hand-computed steps, the
// synthetic text, the policy as a flat-vector language model (gradient against finite differences), checkpoints
// (round trip, refusals), the task config's bad input, and the runner alone with an in-process master: a cancelled
// run resumes from its bundle at the inner step where it stopped.
#include "collectives/Master.h"
#include "core/DilocoTaskConfig.h"
#include "diloco/DilocoAudit.h"
#include "diloco/DilocoCheckpoint.h"
#include "diloco/DilocoReplay.h"
#include "diloco/DilocoRunner.h"
#include "diloco/Optimizers.h"
#include "diloco/SyntheticText.h"
#include "net/Ed25519.h"
#include "rl/LanguageModel.h"
#include "rl/Policy.h"
#include "store/EngineBundle.h"

#include <QScopeGuard>
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
            QVERIFY2(std::fabs(w[i] - expected) < 1e-6,
                     qPrintable(QStringLiteral("w[%1] %2 vs %3").arg(i).arg(w[i]).arg(expected)));
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
        QVERIFY(!DilocoCheckpoint::fromBundle(*read, QStringLiteral("other"), 3)); // another task
        QVERIFY(!DilocoCheckpoint::fromBundle(*read, QStringLiteral("t"), 4));     // another model size
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
        QVERIFY(!DilocoTaskConfig::fromJson(
            {{QStringLiteral("batch_size"), 4096},
             {QStringLiteral("sequence_length"), 4096},
             {QStringLiteral("model"), QJsonObject{{QStringLiteral("max_seq_len"), 32768}}}}));
        QVERIFY(!DilocoTaskConfig::fromJson({{QStringLiteral("seed"), QStringLiteral("-1")}}));
        QVERIFY(!DilocoTaskConfig::fromJson(
            {{QStringLiteral("model"), QJsonObject{{QStringLiteral("d_model"), 30}, {QStringLiteral("n_heads"), 4}}}}));
        QVERIFY(!DilocoTaskConfig::fromJson({{QStringLiteral("master_port"), 70000}}));
        QVERIFY(!DilocoTaskConfig::fromJson({{QStringLiteral("audit_rate"), 1.5}}));
        QVERIFY(!DilocoTaskConfig::fromJson({{QStringLiteral("audit_tolerance"), -0.1}}));
        QVERIFY(!DilocoTaskConfig::fromJson({{QStringLiteral("confirm_after_steps"), -1}}));
        QVERIFY(!DilocoTaskConfig::fromJson({{QStringLiteral("link_protection"), QStringLiteral("rot13")}}));
        QCOMPARE(DilocoTaskConfig::fromJson({{QStringLiteral("link_protection"), QStringLiteral("encryption")}})
                     ->linkProtection,
                 QStringLiteral("encryption"));
        QCOMPARE(DilocoTaskConfig::fromJson({})->auditRate, 0.05);
        QCOMPARE(DilocoTaskConfig::fromJson({})->linkProtection, QStringLiteral("integrity"));
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
        o.config.minRingSize = 1; // a task that lets a node train alone
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
        // A step resumed half-way cannot be replayed from the shared state: it commits nothing (and earns nothing);
        // the steps of the first run that began at inner step 0 did.
        for (const DilocoProgress &p : second)
            if (p.outerStepDone)
                QVERIFY(!p.audit);
        QVERIFY(std::any_of(first.cbegin(), first.cend(),
                            [](const DilocoProgress &p) { return p.outerStepDone && p.audit; }));
    }

    // The audit (docs/CREDIT.md): a lone node's committed outer steps replay to exactly what it contributed; the
    // cheats a replay must catch do not.
    void auditReplaysHonestStepsAndCatchesCheats()
    {
        collectives::Master master;
        QVERIFY(master.listen(QHostAddress(QHostAddress::LocalHost), 0));
        DilocoRunnerOptions o;
        o.taskId = QStringLiteral("audited");
        o.config.minRingSize = 1; // a task that lets a node train alone
        o.config.innerSteps = 4;
        o.config.model = {16, 1, 2, 32, 32};
        o.config.batchSize = 2;
        o.config.sequenceLength = 24;
        o.dataSeed = dataSeedFor(QStringLiteral("n-0123456789abcdef0123"));
        o.maxOuterSteps = 3;
        o.communicator.masterPort = master.port();
        o.communicator.secretKey = ed25519::generate().secretKey;
        o.communicator.bindAddress = QHostAddress(QHostAddress::LocalHost);
        QList<std::shared_ptr<const AuditMaterial>> materials;
        std::atomic<bool> cancel{false};
        Status status;
        QThread *thread = QThread::create([&] {
            DilocoRunner runner(o);
            status = runner.run(cancel, [&](const DilocoProgress &p) {
                if (p.outerStepDone && p.audit)
                    materials.append(p.audit);
            });
        });
        QSignalSpy done(thread, &QThread::finished);
        thread->start();
        QVERIFY(done.wait(60'000));
        delete thread;
        QVERIFY2(status.ok(), qPrintable(status.error()));
        QCOMPARE(materials.size(), 3);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(materials[i]->step, uint64_t(i + 1));
        // The AdamW state carries over outer steps: the third step starts from 8 inner steps' moments.
        QCOMPARE(materials[2]->adamStep, uint64_t(8));

        std::atomic<bool> keepGoing{false};
        for (const auto &m : materials) {
            auto verdict = replayOuterStep(o.config, o.dataSeed, *m, keepGoing);
            QVERIFY2(verdict, qPrintable(verdict.error()));
            QVERIFY2(verdict->passed, qPrintable(verdict->reason));
            QCOMPARE(verdict->relativeError, 0.0); // the same binary on the same CPU: bit for bit
        }
        // Honest hardware differences: a hub replaying with another thread count than the node trained with (GEMM
        // splits, reduction order) stays far inside the tolerance.
        const int trainedWith = rl::Policy::computeThreads();
        const int replayWith = trainedWith > 1 ? 1 : 4;
        rl::Policy::setComputeThreads(replayWith);
        auto otherThreads = replayOuterStep(o.config, o.dataSeed, *materials[2], keepGoing);
        rl::Policy::setComputeThreads(trainedWith);
        QVERIFY(otherThreads && otherThreads->passed);
        qInfo("replay with %d compute threads vs the node's %d: relative error %g (tolerance %g)", replayWith,
              trainedWith, otherThreads->relativeError, o.config.auditTolerance);
        const AuditMaterial &honest = *materials[2];
        const auto replay = [&](const AuditMaterial &m, uint64_t seed) {
            return replayOuterStep(o.config, seed, m, keepGoing);
        };
        AuditMaterial idle = honest; // trained nothing: the pseudo-gradient is zero
        std::fill(idle.delta.begin(), idle.delta.end(), 0.0f);
        QVERIFY(!replay(idle, o.dataSeed)->passed);
        QCOMPARE(replay(idle, o.dataSeed)->relativeError, 1.0);
        AuditMaterial scaled = honest; // the right direction, twice the step (more "work")
        for (float &x : scaled.delta)
            x *= 2;
        QVERIFY(!replay(scaled, o.dataSeed)->passed);
        QVERIFY(!replay(honest, dataSeedFor(QStringLiteral("another node")))->passed); // another node's batches
        AuditMaterial freshAdam = honest;                                              // claims a fresh optimiser
        std::fill(freshAdam.adamM.begin(), freshAdam.adamM.end(), 0.0f);
        std::fill(freshAdam.adamV.begin(), freshAdam.adamV.end(), 0.0f);
        freshAdam.adamStep = 0;
        QVERIFY(!replay(freshAdam, o.dataSeed)->passed);
        AuditMaterial nan = honest;
        nan.delta[3] = std::numeric_limits<float>::quiet_NaN();
        QCOMPARE(replay(nan, o.dataSeed)->reason, QStringLiteral("the committed pseudo-gradient is not finite"));
        AuditMaterial wrongModel = honest;
        wrongModel.global.pop_back();
        QVERIFY(!replay(wrongModel, o.dataSeed)); // an error, not a verdict
        std::atomic<bool> cancelled{true};
        QVERIFY(!replayOuterStep(o.config, o.dataSeed, honest, cancelled));
    }

    // Alone in the ring of a task that averages with at least two nodes, a node does not step: an average of one never
    // reaches the master (recorded nowhere, earning nothing) and a node that trains nothing made outer steps in a tight
    // loop, committing each to the hub until the hub rate-limited it (seen in tst_diloco_audit). It waits, says so, and
    // steps with the first peer the master admits.
    void aLoneNodeWaitsForAPeerBeforeItSteps()
    {
        QCOMPARE(DilocoTaskConfig{}.minRingSize, 2); // the default, which the runners below keep
        collectives::Master master;
        QVERIFY(master.listen(QHostAddress(QHostAddress::LocalHost), 0));
        const auto options = [&](uint64_t seed) {
            DilocoRunnerOptions o;
            o.taskId = QStringLiteral("pair");
            o.config.innerSteps = 2;
            o.config.model = {16, 1, 2, 32, 32};
            o.config.batchSize = 2;
            o.config.sequenceLength = 24;
            o.dataSeed = seed;
            o.maxOuterSteps = 2;
            o.reconnectDelayMs = 100;
            o.communicator.masterPort = master.port();
            o.communicator.secretKey = ed25519::generate().secretKey;
            o.communicator.bindAddress = QHostAddress(QHostAddress::LocalHost);
            return o;
        };
        struct Run {
            std::atomic<bool> cancel{false};
            std::atomic<bool> waiting{false};
            std::atomic<int> stepsDone{0};
            std::atomic<int> worldOfOneSteps{0};
            Status status;
            QThread *thread = nullptr;
        };
        const auto start = [&](Run &run, uint64_t seed) {
            run.thread = QThread::create([&run, o = options(seed)] {
                DilocoRunner runner(o);
                run.status = runner.run(run.cancel, [&run](const DilocoProgress &p) {
                    if (p.note.startsWith(QLatin1String("waiting for a peer")))
                        run.waiting = true;
                    if (p.outerStepDone) {
                        ++run.stepsDone;
                        if (p.lastReduceWorld < 2)
                            ++run.worldOfOneSteps;
                    }
                });
            });
            run.thread->start();
        };
        Run first, second;
        // Whatever the verdict, neither thread outlives the test's variables.
        const auto joinThreads = qScopeGuard([&] {
            for (Run *run : {&first, &second})
                if (run->thread) {
                    run->cancel = true;
                    run->thread->wait(30'000);
                    delete run->thread;
                }
        });
        start(first, 1);
        // The master lives in this thread: its event loop runs while the runners work.
        QTRY_VERIFY_WITH_TIMEOUT(first.waiting.load(), 60'000);
        // Waiting, not stepping: several of its topology votes later it still has made no step.
        QTest::qWait(500);
        QCOMPARE(first.stepsDone.load(), 0);
        start(second, 2);
        QTRY_VERIFY_WITH_TIMEOUT(first.thread->isFinished() && second.thread->isFinished(), 60'000);
        QVERIFY2(first.status.ok(), qPrintable(first.status.error()));
        QVERIFY2(second.status.ok(), qPrintable(second.status.error()));
        QCOMPARE(first.stepsDone.load(), 2);
        QCOMPARE(second.stepsDone.load(), 2);
        QCOMPARE(first.worldOfOneSteps.load(), 0);
        QCOMPARE(second.worldOfOneSteps.load(), 0);
    }

    // The hub's measure of a DiLoCo model (issue 24): the loss on text no node trains on. Deterministic (the hub
    // records it once per revision and nodes compare it), near the uniform ln(259) for a fresh model, and lower
    // after the model trained on other nodes' text of the same grammar; weights of another shape are refused.
    void heldOutLossMeasuresTheSharedModel()
    {
        DilocoTaskConfig c;
        c.model = {16, 1, 2, 32, 32};
        c.batchSize = 4;
        c.sequenceLength = 24;
        c.innerLearningRate = 1e-2;
        auto policy = rl::Policy::create(policyConfigOf(c), c.seed);
        QVERIFY(policy);
        const size_t n = rl::flatParameterCount(*policy);
        std::vector<float> weights(n);
        QVERIFY(rl::readFlatParameters(*policy, weights));
        std::atomic<bool> cancel{false};
        const auto fresh = heldOutLoss(c, weights, cancel);
        QVERIFY2(fresh, qPrintable(fresh.error()));
        QVERIFY2(*fresh > 5.0 && *fresh < 6.5, qPrintable(QString::number(*fresh)));
        const auto again = heldOutLoss(c, weights, cancel);
        QVERIFY(again);
        QCOMPARE(*again, *fresh); // bit for bit
        AdamWState adam{std::vector<float>(n, 0.0f), std::vector<float>(n, 0.0f), 0};
        std::vector<float> gradient(n, 0.0f);
        for (int inner = 0; inner < 40; ++inner)
            QVERIFY(innerStep(*policy, weights, adam, gradient, c, /*dataSeed=*/77, 0, inner, nullptr));
        const auto trained = heldOutLoss(c, weights, cancel);
        QVERIFY2(trained, qPrintable(trained.error()));
        QVERIFY2(*trained < *fresh - 0.5, qPrintable(QStringLiteral("%1 -> %2").arg(*fresh).arg(*trained)));
        QVERIFY(!heldOutLoss(c, std::span<const float>(weights.data(), n - 1), cancel));
        cancel = true;
        QVERIFY(!heldOutLoss(c, weights, cancel));
    }

    void auditFormatsRoundTripAndRefuseBadInput()
    {
        // The data seed is the node id's SHA-256, first 8 bytes big-endian (pinned: the hub replays with it).
        QCOMPARE(dataSeedFor(QStringLiteral("n-0123456789abcdef0123")), Q_UINT64_C(0xa91b5db84df2f9ca));
        AuditMaterial m;
        m.step = 7;
        m.global = {1.0f, -2.0f, 3.5f};
        m.momentumDigest = QByteArray(32, '\x11');
        m.adamM = {0.1f, 0.2f, 0.3f};
        m.adamV = {0.01f, 0.02f, 0.03f};
        m.adamStep = 12;
        m.delta = {0.5f, 0.25f, -0.125f};
        const QByteArray bytes = encodeAuditMaterial(m);
        QCOMPARE(bytes.size(), kAuditHeaderBytes + 4 * 3 * 4);
        QCOMPARE(auditMaterialSize(bytes.left(kAuditHeaderBytes), 16), qint64(bytes.size()));
        auto back = decodeAuditMaterial(bytes, 16);
        QVERIFY2(back, qPrintable(back.error()));
        QCOMPARE(back->global, m.global);
        QCOMPARE(back->adamV, m.adamV);
        QCOMPARE(back->delta, m.delta);
        QCOMPARE(back->adamStep, uint64_t(12));
        QCOMPARE(commitmentOf(*back), commitmentOf(m));
        QVERIFY(!decodeAuditMaterial(bytes.left(bytes.size() - 1), 16));            // truncated
        QVERIFY(!decodeAuditMaterial(QByteArray(bytes + QByteArray(1, '\0')), 16)); // bytes left over
        QVERIFY(!decodeAuditMaterial(bytes, 2)); // more weights than the task's model may have
        QByteArray magic = bytes;
        magic[0] = 'X';
        QVERIFY(!decodeAuditMaterial(magic, 16));
        QCOMPARE(auditMaterialSize(magic, 16), qint64(-1));
        QByteArray zeroWeights = bytes.left(kAuditHeaderBytes);
        std::fill(zeroWeights.begin() + 12, zeroWeights.begin() + 20, '\0');
        QCOMPARE(auditMaterialSize(zeroWeights, 16), qint64(-1));
        QByteArray huge = bytes.left(kAuditHeaderBytes);
        std::fill(huge.begin() + 12, huge.begin() + 20, '\xff'); // 2^64 - 1 weights: no size overflow
        QCOMPARE(auditMaterialSize(huge, UINT64_MAX / 64), qint64(-1));
        AuditMaterial stepZero = m;
        stepZero.step = 0;
        QVERIFY(!decodeAuditMaterial(encodeAuditMaterial(stepZero), 16));

        const Commitment c = commitmentOf(m);
        QCOMPARE(c.deltaNorm, std::sqrt(0.25 + 0.0625 + 0.015625));
        auto parsed = Commitment::fromJson(c.toJson());
        QVERIFY2(parsed, qPrintable(parsed.error()));
        QCOMPARE(*parsed, c);
        const auto with = [&](const QString &key, const QJsonValue &value) {
            QJsonObject o = c.toJson();
            o.insert(key, value);
            return Commitment::fromJson(o);
        };
        QVERIFY(!with(QStringLiteral("step"), 0));
        QVERIFY(!with(QStringLiteral("step"), -3));
        QVERIFY(!with(QStringLiteral("delta_norm"), -1));
        QVERIFY(!with(QStringLiteral("start_digest"), QStringLiteral("abcd")));
        QVERIFY(!with(QStringLiteral("adam_digest"), QString(64, QLatin1Char('g'))));
        QVERIFY(!with(QStringLiteral("delta_digest"), 42));
        QJsonObject missing = c.toJson();
        missing.remove(QStringLiteral("delta_digest"));
        QVERIFY(!Commitment::fromJson(missing));
    }
};

QTEST_GUILESS_MAIN(TestDiloco)
#include "tst_diloco.moc"
