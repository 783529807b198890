// GPU telemetry in the running engine: the fake NVML (tests/support/fakenvml) through COHORT_NVML_LIBRARY, readings
// in every snapshot, the scheduler's GPU temperature limit acting on them, and the stored history (the last day's
// minutes, the week's energy) handed to the views by the engine.
#include "api/EngineController.h"
#include "assembly/BuiltinEngineParts.h"
#include "net/Identity.h"
#include "net/RequestSigning.h"
#include "store/GpuHistoryStore.h"

#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSaveFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace cohort;

namespace {
const QString kFake = QStringLiteral(COHORT_FAKENVML);

QJsonObject gpu(const QString &uuid, int temperature, int powerMw)
{
    return QJsonObject{{QStringLiteral("name"), QString(QStringLiteral("Fake GPU ") + uuid)},
                       {QStringLiteral("uuid"), uuid},
                       {QStringLiteral("utilization_gpu"), 90},
                       {QStringLiteral("memory_total"), double(8LL << 30)},
                       {QStringLiteral("memory_used"), double(2LL << 30)},
                       {QStringLiteral("temperature"), temperature},
                       {QStringLiteral("power_mw"), powerMw}};
}
// A minute as an earlier run stored it: 60 readings at `watts`.
GpuHistoryRecord storedMinute(const QString &uuid, qint64 time, double watts)
{
    GpuHistoryRecord r{uuid, QStringLiteral("Fake GPU ") + uuid, {}};
    r.point.time = time - time % 60;
    r.point.powerW = watts;
    r.point.temperatureC = 40;
    r.point.samples = 60;
    return r;
}

void storeMinutes(const QString &dataDir, const QList<GpuHistoryRecord> &minutes)
{
    auto store = GpuHistoryStore::open(QDir(dataDir).filePath(QStringLiteral("cohort.sqlite")));
    QVERIFY2(store, qPrintable(store.error()));
    const Status saved = (*store)->save(minutes);
    QVERIFY2(saved, qPrintable(saved.error()));
}
} // namespace

class TestGpuEngine : public QObject {
    Q_OBJECT

    QTemporaryDir m_configDir;
    QString m_config;

    void configure(int hotTemperature)
    {
        QSaveFile f(m_config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(QJsonObject{{QStringLiteral("devices"),
                                           QJsonArray{gpu(QStringLiteral("GPU-cool"), 55, 100'000),
                                                      gpu(QStringLiteral("GPU-hot"), hotTemperature, 200'000)}}})
                    .toJson());
        QVERIFY(f.commit());
    }

    static EngineOptions options(const QString &dir, double tempLimit)
    {
        EngineOptions o{.dataDir = dir, .nodeName = QStringLiteral("gpu-tester")};
        o.scheduler.gpuTempLimitC = tempLimit;
        return o;
    }

    static void stop(EngineController &controller)
    {
        QSignalSpy stopped(&controller, &EngineController::stopped);
        controller.stop();
        QVERIFY(stopped.wait(10'000));
    }

private Q_SLOTS:
    void initTestCase()
    {
        registerEngineParts(&builtinEngineParts()); // the engine linked in, as in cohortd
        QVERIFY(m_configDir.isValid());
        m_config = m_configDir.filePath(QStringLiteral("fakenvml.json"));
        qputenv("COHORT_FAKENVML_CONFIG", m_config.toUtf8());
        qputenv("COHORT_NVML_LIBRARY", kFake.toUtf8());
    }

    // Without CUDA (this machine) there is no GPU to compute on, whatever NVML lists and the settings choose: one
    // worker on the CPU, in float32, and the snapshot says so. The settings' choice no longer touches CUDA's view of
    // the machine (CUDA_VISIBLE_DEVICES): GPUs are found among CUDA's devices by UUID, so a change needs no restart.
    void withoutCudaOneWorkerComputesOnTheCpu()
    {
        qunsetenv("CUDA_VISIBLE_DEVICES");
        configure(60);
        QTemporaryDir dir;
        EngineOptions o = options(dir.path(), 0);
        o.gpuUuids = {QStringLiteral("GPU-hot"), QStringLiteral("GPU-cool")};
        EngineController controller(o);
        controller.start();
        QTRY_VERIFY_WITH_TIMEOUT(
            !controller.snapshot().computeDevice.isEmpty() && !controller.snapshot().computeWorkers.isEmpty(), 20'000);
        QVERIFY(qgetenv("CUDA_VISIBLE_DEVICES").isEmpty());
        const EngineSnapshot s = controller.snapshot();
        QCOMPARE(s.computeDeviceId, QStringLiteral("cpu")); // Debian's LibTorch has no CUDA
        QCOMPARE(s.computeDtype, QStringLiteral("float32"));
        QCOMPARE(s.computeWorkers.size(), 1);
        QCOMPARE(s.computeWorkers[0].device, QStringLiteral("cpu"));
        QCOMPARE(s.computeWorkers[0].gpuUuid, QString());
        QCOMPARE(s.computeWorkers[0].memoryBudgetBytes, 0);
        QCOMPARE(s.gpuMemoryBudgetBytes, 0);
        const QJsonObject json = s.toJson();
        QCOMPARE(json.value(QStringLiteral("compute_device_id")).toString(), QStringLiteral("cpu"));
        QCOMPARE(json[QStringLiteral("compute_workers")].toArray().size(), 1);
        QVERIFY(json[QStringLiteral("compute_workers")].toArray()[0].toObject()[QStringLiteral("gpu")].isNull());
        stop(controller);
    }

    void snapshotsCarryTheGpus()
    {
        configure(60);
        QTemporaryDir dir;
        EngineController controller(options(dir.path(), 0));
        QSignalSpy events(&controller, &EngineController::eventOccurred);
        controller.start();
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().gpus.size(), 2, 10'000);
        const EngineSnapshot s = controller.snapshot();
        QCOMPARE(s.gpus[1].uuid, QStringLiteral("GPU-hot"));
        QCOMPARE(s.gpus[1].temperatureC, 60);
        QCOMPARE(s.gpus[0].powerW, 100.0);
        QVERIFY2(s.gpuTelemetryNote.isEmpty(), qPrintable(s.gpuTelemetryNote));
        const QJsonArray json = s.toJson()[QStringLiteral("gpus")].toArray();
        QCOMPARE(json.size(), 2);
        QCOMPARE(json[1].toObject()[QStringLiteral("temperature_c")].toInt(), 60);
        bool found = false;
        for (const auto &args : events)
            found = found || args.at(0).value<EngineEvent>().message.startsWith(QStringLiteral("2 GPUs via NVML"));
        QVERIFY(found);
        // A new reading every second: the hot GPU warms up and the snapshot follows.
        configure(66);
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().gpus.value(1).temperatureC, 66, 5000);
        QCOMPARE(controller.snapshot().schedule.mode, QStringLiteral("run")); // no limit set

        // The hub learned the GPUs at registration.
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Idle, 20'000);
        // The whole record (hardware) is shown to the node itself only: ask with its signature.
        QNetworkAccessManager net;
        auto identity = Identity::load(QDir(dir.path()).filePath(QStringLiteral("identity/node.key")));
        QVERIFY2(identity, qPrintable(identity.error()));
        const QByteArray path = "/v1/nodes/" + controller.snapshot().nodeId.toLatin1();
        QNetworkRequest request(QUrl(controller.embeddedHubUrl() + QString::fromLatin1(path)));
        for (const auto &[name, value] : signRequest(*identity, "GET", path, {}, QDateTime::currentMSecsSinceEpoch()))
            request.setRawHeader(name, value);
        std::unique_ptr<QNetworkReply> reply(net.get(request));
        QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 10'000);
        const QJsonArray hardwareGpus = QJsonDocument::fromJson(reply->readAll())
                                            .object()[QStringLiteral("hardware")]
                                            .toObject()[QStringLiteral("gpus")]
                                            .toArray();
        QCOMPARE(hardwareGpus.size(), 2);
        QCOMPARE(hardwareGpus[1].toObject()[QStringLiteral("uuid")].toString(), QStringLiteral("GPU-hot"));
        QCOMPARE(hardwareGpus[1].toObject()[QStringLiteral("vram_mb")].toInt(), 8192);
        stop(controller);
    }

    void aGpuOverTheLimitThrottlesThenPauses()
    {
        configure(83); // limit 80: over it, under the hard margin (88) -> throttle
        QTemporaryDir dir;
        EngineController controller(options(dir.path(), 80));
        controller.start();
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().schedule.mode, QStringLiteral("throttle"), 10'000);
        QCOMPARE(controller.snapshot().schedule.throttleReasons, QList<PauseReason>{PauseReason::TooHot});
        QCOMPARE(controller.snapshot().schedule.dutyCycle, 0.5);
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Throttled, 20'000);
        QCOMPARE(controller.snapshot().reason, PauseReason::TooHot);

        configure(95); // beyond limit + hard margin: paused at once
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Paused, 5000);
        QCOMPARE(controller.snapshot().reason, PauseReason::TooHot);
        QCOMPARE(controller.snapshot().schedule.mode, QStringLiteral("pause"));
        QVERIFY(controller.snapshot().pauseReasons.contains(PauseReason::TooHot));
        QCOMPARE(controller.snapshot().toJson()[QStringLiteral("reason")].toString(),
                 pauseReasonName(PauseReason::TooHot));
        stop(controller);

        // The history went to <data>/cohort.sqlite (the minute in progress, at the latest when the engine ended).
        auto store = GpuHistoryStore::open(dir.filePath(QStringLiteral("cohort.sqlite")));
        QVERIFY2(store, qPrintable(store.error()));
        auto rows = (*store)->load(0);
        QVERIFY2(rows, qPrintable(rows.error()));
        QVERIFY(rows->size() >= 2);
        QCOMPARE(rows->first().name.startsWith(QStringLiteral("Fake GPU")), true);
    }

    // Settings › Compute: the limits watch only the chosen GPUs. A hot GPU that is not chosen holds nothing back;
    // choosing all of them again (no restart: only the policy changes) pauses for it.
    void onlyTheChosenGpusCountForTheLimits()
    {
        configure(95);
        QTemporaryDir dir;
        EngineOptions o = options(dir.path(), 80);
        o.scheduler.gpus = {QStringLiteral("GPU-cool")};
        EngineController controller(o);
        controller.start();
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().gpus.size(), 2, 10'000);
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Idle, 20'000);
        QCOMPARE(controller.snapshot().schedule.mode, QStringLiteral("run"));
        QVERIFY(!controller.snapshot().pauseReasons.contains(PauseReason::TooHot));

        EngineOptions all = o;
        all.scheduler.gpus.clear();
        controller.reconfigure(all);
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Paused, 5000);
        QCOMPARE(controller.snapshot().reason, PauseReason::TooHot);
        stop(controller);
    }

    // The views open no database: the engine hands them what earlier runs stored. The last day's minutes once, as it
    // starts and before its first GPU reading (the dashboard's charts), and the energy of the GPUs compute may use in
    // every snapshot (the Earnings page).
    void storedHistoryAndEnergyComeFromTheEngine()
    {
        configure(60);
        QTemporaryDir dir;
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        const GpuHistoryRecord lastHour = storedMinute(QStringLiteral("GPU-hot"), now - 600, 720); // 12 Wh
        storeMinutes(dir.path(),
                     {storedMinute(QStringLiteral("GPU-hot"), now - 3 * 24 * 3600, 360), // the week only: 6 Wh
                      lastHour,
                      storedMinute(QStringLiteral("GPU-cool"), now - 600, 3600)});   // not chosen: counts nothing
        const bool lastHourIsToday = lastHour.point.time >= now - now % (24 * 3600); // not just after 00:00 UTC

        EngineOptions o = options(dir.path(), 0);
        o.gpuUuids = {QStringLiteral("GPU-hot")};
        EngineController controller(o);
        QSignalSpy history(&controller, &EngineController::gpuHistoryLoaded);
        bool readingsFirst = false;
        connect(&controller, &EngineController::gpuHistoryLoaded, this,
                [&] { readingsFirst = !controller.snapshot().gpus.isEmpty(); });
        controller.start();
        QTRY_COMPARE_WITH_TIMEOUT(history.count(), 1, 10'000);
        QVERIFY(!readingsFirst);
        const auto minutes = history.at(0).at(0).value<QList<GpuHistoryRecord>>();
        QCOMPARE(minutes.size(), 2); // the last day's, of every GPU: the charts show them all
        QCOMPARE(minutes.at(0).gpu, QStringLiteral("GPU-cool"));
        QCOMPARE(minutes.at(1).gpu, QStringLiteral("GPU-hot"));
        QCOMPARE(minutes.at(1).point.powerW, 720.0);
        QCOMPARE(minutes.at(1).point.temperatureC, 40.0);

        QTRY_VERIFY_WITH_TIMEOUT(controller.snapshot().energy.has_value(), 10'000);
        const EnergyUse energy = *controller.snapshot().energy;
        QVERIFY(energy.hasReadings);
        QCOMPARE(energy.weekWh, 18.0);
        QCOMPARE(energy.todayWh, lastHourIsToday ? 12.0 : 0.0);
        // cohortd --json carries it too.
        const QJsonObject json = controller.snapshot().toJson().value(QStringLiteral("energy")).toObject();
        QCOMPARE(json.value(QStringLiteral("week_wh")).toDouble(), 18.0);
        QCOMPARE(json.value(QStringLiteral("today_wh")).toDouble(), lastHourIsToday ? 12.0 : 0.0);
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().gpus.size(), 2, 10'000);
        stop(controller);
        QCOMPARE(history.count(), 1);
        qunsetenv("CUDA_VISIBLE_DEVICES"); // the GPU choice went there (gpuChoiceAndComputeDevice)
        qunsetenv("CUDA_DEVICE_ORDER");
    }

    void withoutNvmlTheSnapshotSaysSo()
    {
        qputenv("COHORT_NVML_LIBRARY", m_configDir.filePath(QStringLiteral("libnvidia-ml.so.1")).toUtf8()); // not there
        QTemporaryDir dir;
        // What an earlier run stored while it had the GPU still counts for the week's energy.
        storeMinutes(dir.path(), {storedMinute(QStringLiteral("GPU-hot"),
                                               QDateTime::currentSecsSinceEpoch() - 3 * 24 * 3600, 360)});
        EngineController controller(options(dir.path(), 80));
        controller.start();
        QTRY_VERIFY_WITH_TIMEOUT(!controller.snapshot().gpuTelemetryNote.isEmpty(), 10'000);
        const EngineSnapshot s = controller.snapshot();
        QVERIFY(s.energy && s.energy->hasReadings);
        QCOMPARE(s.energy->weekWh, 6.0);
        QVERIFY(s.gpus.isEmpty());
        QVERIFY2(s.gpuTelemetryNote.startsWith(QStringLiteral("No NVML")), qPrintable(s.gpuTelemetryNote));
        QVERIFY(s.gpuTelemetryNote.endsWith(QStringLiteral("CPU and memory only")));
        QCOMPARE(s.toJson()[QStringLiteral("gpu_telemetry_note")].toString(), s.gpuTelemetryNote);
        QCOMPARE(s.schedule.mode, QStringLiteral("run")); // no reading: the limit cannot hold the node back
        stop(controller);
        qputenv("COHORT_NVML_LIBRARY", kFake.toUtf8());
    }
};

QTEST_GUILESS_MAIN(TestGpuEngine)
#include "tst_gpu_engine.moc"
