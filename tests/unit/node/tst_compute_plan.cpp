// Every GPU used: which workers a node runs (core/ComputePlan), how CUDA's devices are named the way NVML names them
// (the match between the settings' choice and CUDA is by UUID, never by index), what the workers share (the outbox,
// work items no loop holds: node/RolloutCommons), the control API's body for one GPU, and the engine bundle that
// keeps every worker's work item and the GPUs paused on their own.
#include "core/ComputePlan.h"
#include "ml/TorchRuntime.h"
#include "node/ControlApi.h"
#include "node/ResumeBundle.h"
#include "node/RolloutCommons.h"
#include "node/RolloutWorker.h"
#include "store/EngineBundle.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace cohort;

namespace {
GpuSample nvml(int index, const QString &uuid, const QString &name, qint64 memory)
{
    GpuSample g;
    g.index = index;
    g.uuid = uuid;
    g.name = name;
    g.memoryTotalBytes = memory;
    return g;
}

const QString kA = QStringLiteral("GPU-aaaaaaaa-0000-0000-0000-000000000000");
const QString kB = QStringLiteral("GPU-bbbbbbbb-0000-0000-0000-000000000000");

// NVML lists A then B (PCI order); CUDA, fastest first, shows B as device 0.
const QList<GpuSample> kNvml{nvml(0, kA, QStringLiteral("RTX 3060"), 12LL << 30),
                             nvml(1, kB, QStringLiteral("RTX 4090"), 24LL << 30)};
const QStringList kCuda{kB, kA};

RolloutWorkItem work(const QString &id, int step)
{
    return {QStringLiteral("sort-rl"), id, step, 1, 42, 43};
}

OutboxEntry batch(const QString &task)
{
    OutboxEntry e{Outbox::newSubmissionId(), task, {}};
    e.body = QJsonDocument(QJsonObject{{QStringLiteral("submission_id"), e.submissionId},
                                       {QStringLiteral("work_id"), QStringLiteral("w-1")}})
                 .toJson(QJsonDocument::Compact);
    return e;
}

class FixedState : public ResumeHost {
public:
    ResumeState state;
    ResumeState resumeState() const override { return state; }
};
} // namespace

class TestComputePlan : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void withoutCudaTheCpuComputes()
    {
        const ComputePlan plan = planCompute({}, kNvml, {}, 90);
        QCOMPARE(plan.workers.size(), 1);
        QCOMPARE(plan.workers[0].device, QStringLiteral("cpu"));
        QCOMPARE(plan.workers[0].cudaIndex, -1);
        QCOMPARE(plan.workers[0].memoryPercent, 0);
        QVERIFY(plan.note.isEmpty()); // nothing was chosen that is missing: NVML without CUDA is a CPU machine
    }

    void everyGpuGetsAWorkerOnItsCudaDevice()
    {
        const ComputePlan plan = planCompute(kCuda, kNvml, {}, 80, {{kA, 50}});
        QCOMPARE(plan.workers.size(), 2);
        QCOMPARE(plan.workers[0].device, QStringLiteral("cuda:0"));
        QCOMPARE(plan.workers[0].gpuUuid, kB);
        QCOMPARE(plan.workers[0].name, QStringLiteral("RTX 4090"));
        QCOMPARE(plan.workers[0].memoryTotalBytes, 24LL << 30);
        QCOMPARE(plan.workers[0].memoryPercent, 80);
        QCOMPARE(plan.workers[1].device, QStringLiteral("cuda:1"));
        QCOMPARE(plan.workers[1].gpuUuid, kA);
        QCOMPARE(plan.workers[1].memoryPercent, 50); // its own share
        QVERIFY(plan.note.isEmpty());
    }

    // The GPU chosen is NVML's index 0 but CUDA's device 1: matched by UUID, the worker computes on the GPU chosen.
    void theChosenGpuIsFoundByUuidNotByIndex()
    {
        const ComputePlan plan = planCompute(kCuda, kNvml, {kA}, 90);
        QCOMPARE(plan.workers.size(), 1);
        QCOMPARE(plan.workers[0].device, QStringLiteral("cuda:1"));
        QCOMPARE(plan.workers[0].name, QStringLiteral("RTX 3060"));
    }

    // CUDA_VISIBLE_DEVICES set by the operator hides a GPU from CUDA: no worker for it, even when chosen.
    void aGpuCudaDoesNotShowGetsNoWorker()
    {
        const ComputePlan plan = planCompute({kA}, kNvml, {kA, kB}, 90);
        QCOMPARE(plan.workers.size(), 1);
        QCOMPARE(plan.workers[0].device, QStringLiteral("cuda:0"));
        QCOMPARE(plan.workers[0].gpuUuid, kA);
    }

    void noChosenGpuHereComputesOnTheCpuAndSaysSo()
    {
        const ComputePlan plan = planCompute(kCuda, kNvml, {QStringLiteral("GPU-gone")}, 90);
        QCOMPARE(plan.workers.size(), 1);
        QCOMPARE(plan.workers[0].device, QStringLiteral("cpu"));
        QVERIFY2(plan.note.contains(QStringLiteral("GPU-gone")), qPrintable(plan.note));
    }

    void aCudaDeviceNvmlDoesNotListIsNamedByIndex()
    {
        const ComputePlan plan = planCompute({QStringLiteral("GPU-nvml-missing")}, {}, {}, 70);
        QCOMPARE(plan.workers.size(), 1);
        QCOMPARE(plan.workers[0].name, QStringLiteral("CUDA device 0"));
        QCOMPARE(plan.workers[0].memoryTotalBytes, 0);
        QCOMPARE(plan.workers[0].memoryPercent, 70);
    }

    // cudaDeviceProp::uuid's 16 bytes as nvidia-smi -L and NVML write them: a golden spelling.
    void cudaUuidsAreSpelledAsNvmlSpellsThem()
    {
        unsigned char bytes[16];
        for (int i = 0; i < 16; ++i)
            bytes[i] = static_cast<unsigned char>(i * 17);
        QCOMPARE(QString::fromStdString(ml::nvmlStyleUuid(bytes)),
                 QStringLiteral("GPU-00112233-4455-6677-8899-aabbccddeeff"));
        QVERIFY(ml::cudaDeviceUuids().empty()); // this machine's LibTorch has no CUDA
    }

    // Two loops on one outbox never submit the same batch at once; a batch whose submission failed goes back to all.
    void theOutboxIsSharedOneClaimAtATime()
    {
        QTemporaryDir dir;
        RolloutCommons commons(dir.filePath(QStringLiteral("outbox")));
        const OutboxEntry first = batch(QStringLiteral("sort-rl")), second = batch(QStringLiteral("sort-rl"));
        QVERIFY(commons.putClaimed(first));
        commons.release(first.submissionId); // as if its submission failed: any loop may retry it
        RolloutCommons other(dir.filePath(QStringLiteral("outbox")));
        QVERIFY(other.putClaimed(second)); // written by a loop that submits it itself
        QCOMPARE(commons.outboxCount(), 2);

        const auto a = commons.claimWaiting(QStringLiteral("sort-rl"));
        QVERIFY(a);
        const auto b = commons.claimWaiting(QStringLiteral("sort-rl"));
        QVERIFY(b);
        QVERIFY(a->submissionId != b->submissionId);
        QVERIFY(!commons.claimWaiting(QStringLiteral("sort-rl"))); // both in flight: nothing for a third loop
        QVERIFY(!commons.claimWaiting(QStringLiteral("other-task")));
        commons.release(a->submissionId);
        const auto again = commons.claimWaiting(QStringLiteral("sort-rl"));
        QVERIFY(again);
        QCOMPARE(again->submissionId, a->submissionId);
        QVERIFY(commons.removeAnswered(again->submissionId));
        QVERIFY(!commons.claimed(again->submissionId));
        QCOMPARE(commons.outboxCount(), 1);
    }

    void workNoLoopHoldsIsTakenOnceForItsTask()
    {
        RolloutCommons commons(QDir::temp().filePath(QStringLiteral("unused-outbox")));
        commons.adoptWork(work(QStringLiteral("w-1"), 3));
        commons.adoptWork(work(QStringLiteral("w-1"), 3)); // a duplicate (the bundle and a removed loop both had it)
        RolloutWorkItem other = work(QStringLiteral("w-2"), 3);
        other.taskId = QStringLiteral("arith-rl");
        commons.adoptWork(other);
        QCOMPARE(commons.spareWork().size(), 2);
        QVERIFY(!commons.takeWork(QStringLiteral("tiny-lm")));
        QCOMPARE(commons.takeWork(QStringLiteral("sort-rl"))->workId, QStringLiteral("w-1"));
        QVERIFY(!commons.takeWork(QStringLiteral("sort-rl")));
        commons.dropSpareWork();
        QVERIFY(!commons.takeWork(QStringLiteral("arith-rl")));
        // Bounded, as the bundle that keeps them: the oldest goes first.
        for (int i = 0; i < 70; ++i)
            commons.adoptWork(work(QStringLiteral("w-%1").arg(i), 3));
        QCOMPARE(commons.spareWork().size(), kMaxBundledWork);
        QCOMPARE(commons.spareWork().first().workId, QStringLiteral("w-6"));
    }

    // A pause (or a GPU taken out of the choice) between the loop queueing a batch and the compute thread starting it
    // stops that batch: the worker's run() no longer clears the request it was given before it ran.
    void aCancelBeforeTheRunStartsStopsTheRun()
    {
        RolloutWorker worker;
        QSignalSpy finished(&worker, &RolloutWorker::finished);
        RolloutJob job;
        job.modelPath = QStringLiteral("/nonexistent/policy.safetensors"); // loading it would fail with another error
        worker.rearm();                                                    // the loop, queueing the batch
        worker.cancel(); // the user's pause, before the compute thread picks it up
        worker.run(job);
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.at(0).at(0).value<RolloutJobResult>().error, QStringLiteral("cancelled"));
        worker.rearm(); // the next batch runs (and here fails on the missing file, not as cancelled)
        worker.run(job);
        QCOMPARE(finished.count(), 2);
        QVERIFY(finished.at(1).at(0).value<RolloutJobResult>().error != QLatin1String("cancelled"));
    }

    void theGpuBodyOfPauseAndResume_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("gpu");
        QTest::newRow("empty: the node") << QByteArray() << true << QString();
        QTest::newRow("{}: the node") << QByteArray("{}") << true << QString();
        QTest::newRow("one GPU") << QByteArray("{\"gpu\":\"GPU-abc\"}") << true << QStringLiteral("GPU-abc");
        QTest::newRow("not JSON") << QByteArray("gpu=GPU-abc") << false << QString();
        QTest::newRow("a number") << QByteArray("{\"gpu\":7}") << false << QString();
        QTest::newRow("empty name") << QByteArray("{\"gpu\":\"\"}") << false << QString();
        QTest::newRow("control characters") << QByteArray("{\"gpu\":\"GPU-a\\n\"}") << false << QString();
        QTest::newRow("too long") << (QByteArray("{\"gpu\":\"") + QByteArray(200, 'x') + "\"}") << false << QString();
        QTest::newRow("oversized body") << (QByteArray("{\"gpu\":\"GPU-a\",\"pad\":\"") + QByteArray(8000, 'x') + "\"}")
                                        << false << QString();
    }

    void theGpuBodyOfPauseAndResume()
    {
        QFETCH(QByteArray, body);
        QFETCH(bool, valid);
        QFETCH(QString, gpu);
        const auto parsed = parseGpuBody(body);
        QCOMPARE(bool(parsed), valid);
        if (valid)
            QCOMPARE(*parsed, gpu);
        else
            QVERIFY(!parsed.error().isEmpty());
    }

    // Each worker's work item and the GPUs paused on their own survive a restart; a bundle from a one-device node
    // (only "work") still brings its item back.
    void theBundleKeepsEveryWorkersItemAndThePausedGpus()
    {
        QTemporaryDir dir;
        FixedState host;
        host.state.taskId = QStringLiteral("sort-rl");
        host.state.work = {work(QStringLiteral("w-1"), 3), work(QStringLiteral("w-2"), 4)};
        host.state.pausedGpus = {kB};
        {
            ResumeBundle bundle(host, dir.path());
            QVERIFY(!bundle.restore(false)); // first start
            bundle.write("test");
        }
        ResumeBundle again(host, dir.path());
        const auto restored = again.restore(false);
        QVERIFY(restored);
        QCOMPARE(restored->taskId, QStringLiteral("sort-rl"));
        QCOMPARE(restored->work, host.state.work);
        QCOMPARE(restored->pausedGpus, QStringList{kB});

        QTemporaryDir older;
        BundleStore store(QDir(older.path()).filePath(QStringLiteral("bundles")));
        EngineBundle oneDevice;
        oneDevice.state =
            QJsonObject{{QStringLiteral("task"), QStringLiteral("sort-rl")},
                        {QStringLiteral("work"), QJsonObject{{QStringLiteral("task"), QStringLiteral("sort-rl")},
                                                             {QStringLiteral("work_id"), QStringLiteral("w-9")},
                                                             {QStringLiteral("step"), 2},
                                                             {QStringLiteral("min_version"), 1},
                                                             {QStringLiteral("seed"), QStringLiteral("42")},
                                                             {QStringLiteral("sampling_seed"), QStringLiteral("43")}}}};
        QVERIFY(store.write(oneDevice));
        ResumeBundle fromOlder(host, older.path());
        const auto olderRestored = fromOlder.restore(false);
        QVERIFY(olderRestored);
        QCOMPARE(olderRestored->work.size(), 1);
        QCOMPARE(olderRestored->work[0].workId, QStringLiteral("w-9"));
        QVERIFY(olderRestored->pausedGpus.isEmpty());
    }

    // A damaged or hand-made bundle brings back at most 64 work items and 64 paused GPUs, and nothing malformed.
    void aHostileBundleBringsBackOnlyWhatIsBounded()
    {
        QTemporaryDir dir;
        BundleStore store(QDir(dir.path()).filePath(QStringLiteral("bundles")));
        QJsonArray many, gpus;
        for (int i = 0; i < 5000; ++i) {
            many.append(QJsonObject{{QStringLiteral("task"), QStringLiteral("sort-rl")},
                                    {QStringLiteral("work_id"), QStringLiteral("w-%1").arg(i)},
                                    {QStringLiteral("step"), 1},
                                    {QStringLiteral("seed"), QStringLiteral("1")},
                                    {QStringLiteral("sampling_seed"), QStringLiteral("2")}});
            gpus.append(QStringLiteral("GPU-%1").arg(i));
        }
        many.append(QStringLiteral("not an object"));
        gpus.append(QJsonValue(7));
        gpus.append(QString(500, QLatin1Char('x')));
        EngineBundle hostile;
        hostile.state =
            QJsonObject{{QStringLiteral("more_work"), many},
                        {QStringLiteral("paused_gpus"), gpus},
                        {QStringLiteral("work"), QJsonObject{{QStringLiteral("work_id"), QStringLiteral("w-x")},
                                                             {QStringLiteral("seed"), QStringLiteral("nan")}}}};
        QVERIFY(store.write(hostile));
        FixedState host;
        ResumeBundle bundle(host, dir.path());
        const auto restored = bundle.restore(false);
        QVERIFY(restored);
        QVERIFY(restored->work.size() <= 64);
        QCOMPARE(restored->work.size(), 63); // the malformed "work" took one of the 64 places and was dropped
        QCOMPARE(restored->pausedGpus.size(), 64);
        QVERIFY(std::all_of(restored->pausedGpus.cbegin(), restored->pausedGpus.cend(),
                            [](const QString &g) { return g.size() <= 128; }));
    }
};

QTEST_GUILESS_MAIN(TestComputePlan)
#include "tst_compute_plan.moc"
