// GPU telemetry through the real run-time loading path: engine/platform/Nvml loads the fake NVML built in
// tests/support/fakenvml (values from a JSON file), GpuHistory averages, GpuHistoryStore keeps minutes in SQLite.
#include "core/GpuHistory.h"
#include "node/GpuTelemetry.h"
#include "node/HardwareInventory.h"
#include "node/StatusLine.h"
#include "platform/Nvml.h"
#include "store/GpuHistoryStore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLibrary>
#include <QSaveFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace cohort;

namespace {
const QString kFake = QStringLiteral(COHORT_FAKENVML);
const QString kFakeNoFan = QStringLiteral(COHORT_FAKENVML_NOFAN);
const QString kFakeNoCount = QStringLiteral(COHORT_FAKENVML_NOCOUNT);
constexpr qint64 kGiB = 1LL << 30;

QJsonObject gpu(const QString &name, const QString &uuid, int temperature, int powerMw)
{
    return QJsonObject{{QStringLiteral("name"), name},
                       {QStringLiteral("uuid"), uuid},
                       {QStringLiteral("utilization_gpu"), 87},
                       {QStringLiteral("utilization_memory"), 40},
                       {QStringLiteral("memory_total"), double(24 * kGiB)},
                       {QStringLiteral("memory_used"), double(8 * kGiB)},
                       {QStringLiteral("temperature"), temperature},
                       {QStringLiteral("power_mw"), powerMw},
                       {QStringLiteral("power_limit_mw"), 450000},
                       {QStringLiteral("sm_clock"), 2520},
                       {QStringLiteral("mem_clock"), 10501},
                       {QStringLiteral("fan"), 65}};
}

QJsonObject twoGpus()
{
    return QJsonObject{{QStringLiteral("devices"),
                        QJsonArray{gpu(QStringLiteral("Fake RTX 4090"), QStringLiteral("GPU-aaaa"), 71, 350250),
                                   gpu(QStringLiteral("Fake RTX 3060"), QStringLiteral("GPU-bbbb"), 64, 120000)}}};
}

GpuSample sampleAt(double util, std::optional<int> temperature)
{
    GpuSample s;
    s.uuid = QStringLiteral("GPU-test");
    s.name = QStringLiteral("Test GPU");
    s.utilizationPercent = int(util);
    s.temperatureC = temperature;
    return s;
}

int activeInits(const QString &library)
{
    QLibrary lib(library); // shares the handle Nvml loaded; keeps the fake's state while this one is loaded
    auto fn = reinterpret_cast<int (*)()>(lib.resolve("fakeNvmlActiveInits"));
    return fn ? fn() : -1;
}
} // namespace

class TestGpuTelemetry : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_config;

    void configure(const QJsonObject &config)
    {
        QSaveFile f(m_config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(config).toJson());
        QVERIFY(f.commit());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_config = m_dir.filePath(QStringLiteral("fakenvml.json"));
        qputenv("COHORT_FAKENVML_CONFIG", m_config.toUtf8());
        qunsetenv(Nvml::kLibraryEnv);
    }

    void defaultLibraryIsTheDriversUnlessOverridden()
    {
#ifdef Q_OS_WIN
        QCOMPARE(Nvml::defaultLibrary(), QStringLiteral("nvml.dll"));
#else
        QCOMPARE(Nvml::defaultLibrary(), QStringLiteral("libnvidia-ml.so.1"));
#endif
        qputenv(Nvml::kLibraryEnv, kFake.toUtf8());
        QCOMPARE(Nvml::defaultLibrary(), kFake);
        qunsetenv(Nvml::kLibraryEnv);
    }

    void theDriversLibraryIsLookedFor()
    {
        auto nvml = Nvml::open();
        if (nvml)
            QSKIP("this machine has NVML");
#ifndef Q_OS_WIN
        QCOMPARE(nvml.error(), QStringLiteral("No NVML (libnvidia-ml.so.1 not found)"));
#endif
    }

    void twoGpusAreRead()
    {
        configure(twoGpus());
        QLibrary keep(kFake);
        QVERIFY(keep.load());
        {
            auto nvml = Nvml::open(kFake);
            QVERIFY2(nvml, qPrintable(nvml.error()));
            QCOMPARE((*nvml)->deviceCount(), 2);
            QVERIFY((*nvml)->missingFunctions().isEmpty());
            QCOMPARE(activeInits(kFake), 1);
            const QString summary = (*nvml)->driverSummary();
            QVERIFY2(summary.startsWith(QStringLiteral("2 GPUs via NVML")), qPrintable(summary));
            QVERIFY(summary.contains(QStringLiteral("Fake RTX 4090, Fake RTX 3060")));

            const QList<GpuSample> gpus = (*nvml)->sample();
            QCOMPARE(gpus.size(), 2);
            const GpuSample &a = gpus[0];
            QCOMPARE(a.index, 0);
            QCOMPARE(a.name, QStringLiteral("Fake RTX 4090"));
            QCOMPARE(a.uuid, QStringLiteral("GPU-aaaa"));
            QCOMPARE(a.utilizationPercent, 87);
            QCOMPARE(a.memoryUtilizationPercent, 40);
            QCOMPARE(a.memoryTotalBytes, 24 * kGiB);
            QCOMPARE(a.memoryUsedBytes, 8 * kGiB);
            QCOMPARE(a.temperatureC, 71);
            QCOMPARE(a.powerW, 350.25);
            QCOMPARE(a.powerLimitW, 450.0);
            QCOMPARE(a.smClockMHz, 2520);
            QCOMPARE(a.memoryClockMHz, 10501);
            QCOMPARE(a.fanPercent, 65);
            QVERIFY2(a.notes.isEmpty(), qPrintable(a.notes.join(QStringLiteral("; "))));
            QCOMPARE(gpus[1].index, 1);
            QCOMPARE(gpus[1].uuid, QStringLiteral("GPU-bbbb"));
            QCOMPARE(gpus[1].temperatureC, 64);
            QCOMPARE(hottestGpuTemperatureC(gpus), 71.0);
            QCOMPARE(totalGpuPowerW(gpus), 470.25);

            // Values change between readings (the fake re-reads its file).
            QJsonObject hotter = twoGpus();
            QJsonArray devices = hotter[QStringLiteral("devices")].toArray();
            QJsonObject second = devices[1].toObject();
            second[QStringLiteral("temperature")] = 83;
            devices[1] = second;
            hotter[QStringLiteral("devices")] = devices;
            configure(hotter);
            QCOMPARE((*nvml)->sample()[1].temperatureC, 83);
        }
        QCOMPARE(activeInits(kFake), 0); // every nvmlInit_v2 matched by nvmlShutdown
    }

    void aFailingCallLeavesThatValueUnknown()
    {
        QJsonObject config = twoGpus();
        QJsonArray devices = config[QStringLiteral("devices")].toArray();
        QJsonObject second = devices[1].toObject();
        second[QStringLiteral("errors")] = QJsonObject{{QStringLiteral("nvmlDeviceGetTemperature"), 15}, // GPU is lost
                                                       {QStringLiteral("nvmlDeviceGetFanSpeed"), 3}}; // Not Supported
        devices[1] = second;
        devices.append(
            QJsonObject{{QStringLiteral("name"), QStringLiteral("Unreachable")},
                        {QStringLiteral("errors"), QJsonObject{{QStringLiteral("nvmlDeviceGetHandleByIndex_v2"), 4}}}});
        config[QStringLiteral("devices")] = devices;
        configure(config);

        auto nvml = Nvml::open(kFake);
        QVERIFY2(nvml, qPrintable(nvml.error()));
        const QList<GpuSample> gpus = (*nvml)->sample();
        QCOMPARE(gpus.size(), 3);
        QCOMPARE(gpus[0].temperatureC, 71); // the other GPU is not affected
        QVERIFY(gpus[0].notes.isEmpty());
        const GpuSample &b = gpus[1];
        QVERIFY(!b.temperatureC.has_value());
        QVERIFY(!b.fanPercent.has_value());
        QCOMPARE(b.powerW, 120.0); // the rest of that GPU still reads
        QCOMPARE(b.utilizationPercent, 87);
        QCOMPARE(b.notes,
                 (QStringList{QStringLiteral("temperature: GPU is lost"), QStringLiteral("fan: Not Supported")}));
        // No handle: listed, every value unknown, with the reason.
        const GpuSample &c = gpus[2];
        QCOMPARE(c.index, 2);
        QCOMPARE(c.name, QStringLiteral("GPU 2"));
        QVERIFY(!c.utilizationPercent && !c.temperatureC && !c.powerW && !c.memoryUsedBytes);
        QCOMPARE(c.notes, QStringList{QStringLiteral("device: Insufficient Permissions")});
        QCOMPARE(hottestGpuTemperatureC(gpus), 71.0);

        const QJsonObject json = b.toJson();
        QVERIFY(json[QStringLiteral("temperature_c")].isNull());
        QCOMPARE(json[QStringLiteral("power_w")].toDouble(), 120.0);
        QCOMPARE(json[QStringLiteral("notes")].toArray().size(), 2);
    }

    void aMissingLibraryMeansCpuAndMemoryOnly()
    {
        const QString missing = m_dir.filePath(QStringLiteral("no-such-dir/libnvidia-ml.so.1"));
        auto nvml = Nvml::open(missing);
        QVERIFY(!nvml);
        QVERIFY2(nvml.error().startsWith(QStringLiteral("No NVML (")), qPrintable(nvml.error()));
        QCOMPARE(nvml.error(), QStringLiteral("No NVML (%1 not found)").arg(missing));

        GpuTelemetry telemetry(missing, m_dir.filePath(QStringLiteral("missing.sqlite")));
        QVERIFY(!telemetry.hasNvml());
        QVERIFY2(telemetry.note().startsWith(QStringLiteral("No NVML")), qPrintable(telemetry.note()));
        QVERIFY(telemetry.note().endsWith(QStringLiteral(": CPU and memory only")));
        QVERIFY(telemetry.sample().isEmpty());
        const QList<EngineEvent> events = telemetry.takeEvents();
        QCOMPARE(events.size(), 1);
        QCOMPARE(events[0].message, telemetry.note());
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("missing.sqlite")))); // nothing to keep
    }

    void nvmlThatDoesNotStartIsSaidPlainly()
    {
        configure(QJsonObject{{QStringLiteral("errors"), QJsonObject{{QStringLiteral("nvmlInit_v2"), 9}}}});
        auto nvml = Nvml::open(kFake);
        QVERIFY(!nvml);
        QCOMPARE(nvml.error(), QStringLiteral("NVML did not start (Driver Not Loaded)"));

        configure(QJsonObject{{QStringLiteral("devices"), QJsonArray{}}});
        GpuTelemetry none(kFake, {});
        QVERIFY(!none.hasNvml());
        QCOMPARE(none.note(), QStringLiteral("NVML sees no GPU: CPU and memory only"));
        QCOMPARE(activeInits(kFake), 0);
    }

    void aLibraryLackingARequiredFunctionIsRefusedByName()
    {
        configure(twoGpus());
        auto nvml = Nvml::open(kFakeNoCount);
        QVERIFY(!nvml);
        QVERIFY2(nvml.error().contains(QStringLiteral("lacks nvmlDeviceGetCount_v2")), qPrintable(nvml.error()));
        GpuTelemetry telemetry(kFakeNoCount, {});
        QVERIFY(!telemetry.hasNvml());
        QVERIFY(telemetry.note().contains(QStringLiteral("nvmlDeviceGetCount_v2")));
        QVERIFY(telemetry.note().endsWith(QStringLiteral("CPU and memory only")));
    }

    void aLibraryLackingAnOptionalFunctionLeavesThatValueUnknown()
    {
        configure(twoGpus());
        auto nvml = Nvml::open(kFakeNoFan);
        QVERIFY2(nvml, qPrintable(nvml.error()));
        QCOMPARE((*nvml)->missingFunctions(), QStringList{QStringLiteral("nvmlDeviceGetFanSpeed")});
        const QList<GpuSample> gpus = (*nvml)->sample();
        QCOMPARE(gpus.size(), 2);
        QVERIFY(!gpus[0].fanPercent.has_value());
        QCOMPARE(gpus[0].temperatureC, 71);
        QCOMPARE(gpus[0].notes, QStringList{QStringLiteral("fan: this NVML lacks nvmlDeviceGetFanSpeed")});

        GpuTelemetry telemetry(kFakeNoFan, {});
        QVERIFY(telemetry.hasNvml());
        QCOMPARE(telemetry.note(), QStringLiteral("This NVML lacks nvmlDeviceGetFanSpeed; those readings are unknown"));
        const QList<EngineEvent> events = telemetry.takeEvents();
        QCOMPARE(events.size(), 2); // what was found, and the warning
        QCOMPARE(events[1].severity, EngineEvent::Severity::Warning);
    }

    void historyKeepsFiveMinutesAnHourAndADay()
    {
        GpuHistory history;
        const qint64 t0 = 1'700'000'000 - 1'700'000'000 % 300; // a 5-minute boundary
        QList<GpuHistoryRecord> minutes;
        for (qint64 i = 0; i < 1000; ++i)
            minutes += history.add({sampleAt(double(i % 100), int(i))}, t0 + i);
        QCOMPARE(history.gpus(), QStringList{QStringLiteral("GPU-test")});
        QCOMPARE(history.nameOf(QStringLiteral("GPU-test")), QStringLiteral("Test GPU"));

        // 5 minutes at 1 Hz: the last 300 readings, as they were.
        const auto fine = history.points(QStringLiteral("GPU-test"), GpuHistoryRange::FiveMinutes);
        QCOMPARE(fine.size(), 300);
        QCOMPARE(fine.first().time, t0 + 700);
        QCOMPARE(fine.last().time, t0 + 999);
        QCOMPARE(fine.last().temperatureC, 999.0);
        QCOMPARE(fine.last().samples, 1);

        // 1 hour in 10 s averages: 100 buckets so far, each the mean of its 10 readings.
        const auto hour = history.points(QStringLiteral("GPU-test"), GpuHistoryRange::OneHour);
        QCOMPARE(hour.size(), 100);
        QCOMPARE(hour[0].time, t0);
        QCOMPARE(hour[0].temperatureC, 4.5);
        QCOMPARE(hour[0].samples, 10);
        QCOMPARE(hour[42].time, t0 + 420);
        QCOMPARE(hour[42].temperatureC, 424.5);
        QCOMPARE(hour[42].utilizationPercent, 24.5);

        // 24 hours in 5-minute averages: 0-299, 300-599, 600-899 and the open 900-999.
        const auto day = history.points(QStringLiteral("GPU-test"), GpuHistoryRange::OneDay);
        QCOMPARE(day.size(), 4);
        QCOMPARE(day[0].temperatureC, 149.5);
        QCOMPARE(day[1].temperatureC, 449.5);
        QCOMPARE(day[2].temperatureC, 749.5);
        QCOMPARE(day[3].temperatureC, 949.5);
        QCOMPARE(day[3].samples, 100);

        // Finished minutes for the database: the 16 minutes t0 .. t0+900; t0+960 is still open.
        QCOMPARE(minutes.size(), 16);
        QCOMPARE(minutes[0].point.time, t0);
        QCOMPARE(minutes[0].point.temperatureC, 29.5);
        QCOMPARE(minutes[0].point.samples, 60);
        QCOMPARE(minutes[15].point.time, t0 + 900);
        const QList<GpuHistoryRecord> open = history.openMinutes();
        QCOMPARE(open.size(), 1);
        QCOMPARE(open[0].point.time, t0 + 960);
        QCOMPARE(open[0].point.samples, 40);

        // An hour later the hour view has slid on: 360 buckets at most, none older than an hour.
        for (qint64 i = 1000; i < 1000 + 3600; ++i)
            history.add({sampleAt(50, 60)}, t0 + i);
        const auto later = history.points(QStringLiteral("GPU-test"), GpuHistoryRange::OneHour);
        QCOMPARE(later.size(), 360);
        QVERIFY(later.first().time > t0 + 4599 - 3600);
        QCOMPARE(history.points(QStringLiteral("GPU-test"), GpuHistoryRange::FiveMinutes).size(), 300);
        QCOMPARE(history.points(QStringLiteral("GPU-test"), GpuHistoryRange::OneDay).size(),
                 16); // 4600 s / 300, rounded up
    }

    void historyAveragesKnownValuesOnly()
    {
        GpuHistory history;
        const qint64 t0 = 1'800'000'000 - 1'800'000'000 % 300;
        history.add({sampleAt(10, 50)}, t0);
        history.add({sampleAt(30, std::nullopt)}, t0 + 1); // temperature unknown in this reading
        GpuSample blank;                                   // nothing known: index-keyed, all NaN
        blank.index = 3;
        history.add({blank}, t0 + 2);
        const auto hour = history.points(QStringLiteral("GPU-test"), GpuHistoryRange::OneHour);
        QCOMPARE(hour.size(), 1);
        QCOMPARE(hour[0].utilizationPercent, 20.0);
        QCOMPARE(hour[0].temperatureC, 50.0);
        QVERIFY(std::isnan(hour[0].powerW));
        const auto none = history.points(QStringLiteral("index-3"), GpuHistoryRange::FiveMinutes);
        QCOMPARE(none.size(), 1);
        QVERIFY(std::isnan(none[0].utilizationPercent));
    }

    void historyIsStoredPerMinuteAndPruned()
    {
        configure(twoGpus());
        const QString db = m_dir.filePath(QStringLiteral("cohort.sqlite"));
        const qint64 t0 = 1'900'000'000 - 1'900'000'000 % 300;
        {
            // An old row from 8 days ago, and one from 6 days ago: the first goes at open.
            auto store = GpuHistoryStore::open(db);
            QVERIFY2(store, qPrintable(store.error()));
            GpuHistoryPoint old;
            old.time = t0 - 8 * 86400;
            old.temperatureC = 50;
            old.samples = 60;
            GpuHistoryPoint recent = old;
            recent.time = t0 - 6 * 86400;
            QVERIFY((*store)->save({{QStringLiteral("GPU-aaaa"), QStringLiteral("Fake"), old},
                                    {QStringLiteral("GPU-aaaa"), QStringLiteral("Fake"), recent}}));
        }
        {
            GpuTelemetry telemetry(kFake, db, t0);
            QVERIFY(telemetry.hasNvml());
            QVERIFY2(telemetry.note().isEmpty(), qPrintable(telemetry.note()));
            for (qint64 i = 0; i < 150; ++i)
                QCOMPARE(telemetry.sample(t0 + i).size(), 2);
            QCOMPARE(telemetry.history().gpus(), (QStringList{QStringLiteral("GPU-aaaa"), QStringLiteral("GPU-bbbb")}));
            const auto events = telemetry.takeEvents();
            for (const EngineEvent &e : events)
                QVERIFY2(e.severity == EngineEvent::Severity::Info, qPrintable(e.message));
        } // stores the minute in progress (120-149)

        auto store = GpuHistoryStore::open(db);
        QVERIFY2(store, qPrintable(store.error()));
        auto rows = (*store)->load(0);
        QVERIFY2(rows, qPrintable(rows.error()));
        QCOMPARE(rows->size(), 1 + 3 * 2); // the 6-day-old row, then 3 minutes of 2 GPUs
        QCOMPARE(rows->at(0).point.time, t0 - 6 * 86400);
        const GpuHistoryRecord &m = rows->at(1);
        QCOMPARE(m.point.time, t0);
        QCOMPARE(m.gpu, QStringLiteral("GPU-aaaa"));
        QCOMPARE(m.name, QStringLiteral("Fake RTX 4090"));
        QCOMPARE(m.point.samples, 60);
        QCOMPARE(m.point.temperatureC, 71.0);
        QCOMPARE(m.point.powerW, 350.25);
        QCOMPARE(m.point.memoryUsedBytes, double(8 * kGiB));
        QCOMPARE(rows->at(2).gpu, QStringLiteral("GPU-bbbb"));
        QCOMPARE(rows->at(6).point.time, t0 + 120);
        QCOMPARE(rows->at(6).point.samples, 30);
        // Energy: 150 s at 350.25 W + 120 W.
        QCOMPARE(*(*store)->energyWattHours(t0, t0 + 180), 150 * (350.25 + 120) / 3600);
        QCOMPARE(*(*store)->energyWattHours(t0 + 60, t0 + 120), 60 * (350.25 + 120) / 3600);
        QCOMPARE(*(*store)->energyWattHours(t0 + 600, t0 + 900), 0.0);

        // Restarted: the stored minutes fill the hour and day views before any new reading.
        {
            GpuTelemetry again(kFake, db, t0 + 200);
            const auto hour = again.history().points(QStringLiteral("GPU-aaaa"), GpuHistoryRange::OneHour);
            QCOMPARE(hour.size(), 3);
            QCOMPARE(hour[0].time, t0);
            QCOMPARE(hour[0].temperatureC, 71.0);
            const auto day = again.history().points(QStringLiteral("GPU-aaaa"), GpuHistoryRange::OneDay);
            QCOMPARE(day.size(), 1); // the 6-day-old row is outside the day
            QCOMPARE(day[0].samples, 150);
            QVERIFY(again.history().points(QStringLiteral("GPU-aaaa"), GpuHistoryRange::FiveMinutes).isEmpty());
        }

        // Seven days on, an hourly prune removes what has aged out.
        QVERIFY(*(*store)->prune(t0 + 7 * 86400 + 60) >= 2); // the 6-day row and minute t0
        rows = (*store)->load(0);
        QVERIFY(rows);
        for (const GpuHistoryRecord &r : *rows)
            QVERIFY(r.point.time >= t0 + 60);
        QCOMPARE(rows->size(), 4);
        // Unknown values are stored as NULL, not 0.
        GpuHistoryPoint unknown;
        unknown.time = t0 + 600;
        unknown.samples = 1;
        QVERIFY((*store)->save({{QStringLiteral("GPU-cccc"), QStringLiteral("Blank"), unknown}}));
        rows = (*store)->load(t0 + 600);
        QVERIFY(rows);
        QCOMPARE(rows->size(), 1);
        QVERIFY(std::isnan(rows->at(0).point.temperatureC));
    }

    void snapshotJsonHasTheGpus()
    {
        configure(twoGpus());
        auto nvml = Nvml::open(kFake);
        QVERIFY(nvml);
        EngineSnapshot s;
        s.gpus = (*nvml)->sample();
        s.gpuTelemetryNote = QStringLiteral("note");
        const QJsonObject json = s.toJson();
        const QJsonArray gpus = json[QStringLiteral("gpus")].toArray();
        QCOMPARE(gpus.size(), 2);
        const QJsonObject a = gpus[0].toObject();
        QCOMPARE(a[QStringLiteral("name")].toString(), QStringLiteral("Fake RTX 4090"));
        QCOMPARE(a[QStringLiteral("uuid")].toString(), QStringLiteral("GPU-aaaa"));
        QCOMPARE(a[QStringLiteral("utilization_percent")].toInt(), 87);
        QCOMPARE(a[QStringLiteral("memory_used_bytes")].toDouble(), double(8 * kGiB));
        QCOMPARE(a[QStringLiteral("memory_total_bytes")].toDouble(), double(24 * kGiB));
        QCOMPARE(a[QStringLiteral("temperature_c")].toInt(), 71);
        QCOMPARE(a[QStringLiteral("power_w")].toDouble(), 350.25);
        QCOMPARE(a[QStringLiteral("power_limit_w")].toDouble(), 450.0);
        QCOMPARE(a[QStringLiteral("sm_clock_mhz")].toInt(), 2520);
        QCOMPARE(a[QStringLiteral("memory_clock_mhz")].toInt(), 10501);
        QCOMPARE(a[QStringLiteral("fan_percent")].toInt(), 65);
        QCOMPARE(json[QStringLiteral("gpu_telemetry_note")].toString(), QStringLiteral("note"));

        // The hub learns the GPUs at registration.
        const QJsonArray inventory =
            hardwareInventory(ComputeInfo{}, 8 * kGiB, s.gpus)[QStringLiteral("gpus")].toArray();
        QCOMPARE(inventory.size(), 2);
        QCOMPARE(inventory[0].toObject(), (QJsonObject{{QStringLiteral("index"), 0},
                                                       {QStringLiteral("name"), QStringLiteral("Fake RTX 4090")},
                                                       {QStringLiteral("uuid"), QStringLiteral("GPU-aaaa")},
                                                       {QStringLiteral("vram_mb"), 24 * 1024},
                                                       {QStringLiteral("power_limit_w"), 450}}));

        // cohortd's progress line too.
        s.gpus[1].temperatureC.reset();
        const QString line = statusLine(s, 5);
        QVERIFY2(line.contains(QStringLiteral(" | GPU0 87% 71°C 350 W | GPU1 87% 120 W")), qPrintable(line));
    }
};

QTEST_GUILESS_MAIN(TestGpuTelemetry)
#include "tst_gpu_telemetry.moc"
