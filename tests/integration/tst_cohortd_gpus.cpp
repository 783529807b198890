// Every GPU used, as a server owner with two GPUs sees it: a real cohortd on the embedded network, with the fake NVML
// (tests/support/fakenvml) listing two GPUs that stand in for CUDA devices on this CPU-only machine
// (COHORT_TESTING_GPUS_ON_CPU: each worker's policy runs on the CPU, everything else as on a GPU). Two workers, each
// with its own memory share from the settings file; one GPU paused from the command line (cohortd --control
// pause-gpu:UUID) while the other keeps earning; a GPU taken out of the settings file while the node runs leaves
// the node working on the other without a restart.
#include "TestSupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace cohort::test;

namespace {
const QString kA = QStringLiteral("GPU-a0000000-0000-0000-0000-00000000000a");
const QString kB = QStringLiteral("GPU-b0000000-0000-0000-0000-00000000000b");

// core/MemoryBudget's share of each fake GPU, written out: 50 % of 8 GiB and 25 % of 16 GiB, each taken as
// total / 100 * percent in whole bytes (CUDA's context comes off only when the share would not leave room for it).
constexpr qint64 kBudgetA = 4'294'967'250;
constexpr qint64 kBudgetB = 4'294'967'275;

QJsonObject fakeGpu(const QString &uuid, const QString &name, qint64 memory)
{
    return QJsonObject{{QStringLiteral("name"), name},
                       {QStringLiteral("uuid"), uuid},
                       {QStringLiteral("memory_total"), double(memory)},
                       {QStringLiteral("memory_used"), double(1LL << 30)},
                       {QStringLiteral("temperature"), 50},
                       {QStringLiteral("power_mw"), 100'000}};
}

QJsonObject worker(const QJsonObject &status, const QString &uuid)
{
    for (const QJsonValue &w : status.value(QStringLiteral("compute_workers")).toArray())
        if (w.toObject().value(QStringLiteral("gpu")).toString() == uuid)
            return w.toObject();
    return {};
}

int accepted(const QJsonObject &status, const QString &uuid)
{
    return worker(status, uuid).value(QStringLiteral("batches_accepted")).toInt(-1);
}

void writeSettings(const QString &path, const QString &gpus)
{
    QSaveFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("[compute]\ngpuMemoryPercent=50\ngpuMemoryPerGpu=" + kB.toUtf8() + ":25\n");
    if (!gpus.isEmpty())
        file.write("gpus=" + gpus.toUtf8() + "\n");
    QVERIFY(file.commit());
}

// cohortd --control <command> for the node on dataDir: its exit code, stderr in *errors.
int control(const QString &dataDir, const QString &command, QString *errors = nullptr)
{
    QProcess p;
    p.start(programPath(QStringLiteral("cohortd")),
            {QStringLiteral("--data-dir"), dataDir, QStringLiteral("--control"), command});
    if (!p.waitForFinished(30'000))
        return -1;
    if (errors)
        *errors = QString::fromUtf8(p.readAllStandardError());
    return p.exitCode();
}
} // namespace

class TestCohortdGpus : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void twoGpusTwoWorkersEachCappedAndPausedOnItsOwn()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString config = dir.filePath(QStringLiteral("fakenvml.json"));
        QVERIFY(writeFakeNvml(config, {fakeGpu(kA, QStringLiteral("Fake GPU A"), 8LL << 30),
                                       fakeGpu(kB, QStringLiteral("Fake GPU B"), 16LL << 30)}));
        qputenv("COHORT_NVML_LIBRARY", QByteArray(COHORT_FAKENVML));
        qputenv("COHORT_FAKENVML_CONFIG", config.toUtf8());
        qputenv("COHORT_TESTING_GPUS_ON_CPU", "1");
        const QString settings = dir.filePath(QStringLiteral("node.ini"));
        writeSettings(settings, {});
        const QString data = dir.filePath(QStringLiteral("data"));
        ChildProcess node(programPath(QStringLiteral("cohortd")),
                          {QStringLiteral("--data-dir"), data, QStringLiteral("--settings"), settings,
                           QStringLiteral("--json"), QStringLiteral("--task"), QStringLiteral("arith-rl")});
        QVERIFY(node.start());

        // A worker per GPU, on CUDA's device names, each with its own share of its own GPU's memory.
        QTRY_VERIFY2_WITH_TIMEOUT(lastJsonStatus(node.output())[QStringLiteral("compute_workers")].toArray().size() ==
                                      2,
                                  qPrintable(node.errors().right(2000)), 60'000);
        QJsonObject s = lastJsonStatus(node.output());
        QCOMPARE(worker(s, kA)[QStringLiteral("device")].toString(), QStringLiteral("cuda:0"));
        QCOMPARE(worker(s, kB)[QStringLiteral("device")].toString(), QStringLiteral("cuda:1"));
        QCOMPARE(worker(s, kA)[QStringLiteral("memory_percent")].toInt(), 50);
        QCOMPARE(worker(s, kB)[QStringLiteral("memory_percent")].toInt(), 25);
        QCOMPARE(qint64(worker(s, kA)[QStringLiteral("memory_budget_bytes")].toDouble()), kBudgetA);
        QCOMPARE(qint64(worker(s, kB)[QStringLiteral("memory_budget_bytes")].toDouble()), kBudgetB);
        // A policy runs on one GPU: the node's figure (what decides whether a task fits) is the largest share.
        QCOMPARE(qint64(s[QStringLiteral("gpu_memory_budget_bytes")].toDouble()), std::max(kBudgetA, kBudgetB));

        // Both earn.
        QTRY_VERIFY2_WITH_TIMEOUT(accepted(lastJsonStatus(node.output()), kA) >= 1 &&
                                      accepted(lastJsonStatus(node.output()), kB) >= 1,
                                  QJsonDocument(lastJsonStatus(node.output())).toJson().constData(), 180'000);

        // A GPU that no worker runs on is refused with the ones that are.
        QString errors;
        QCOMPARE(control(data, QStringLiteral("pause-gpu:GPU-nope"), &errors), 1);
        QVERIFY2(errors.contains(QStringLiteral("no compute worker runs on GPU GPU-nope")) && errors.contains(kA),
                 qPrintable(errors));

        // B paused on its own: it stops, A keeps earning, the node keeps working.
        QCOMPARE(control(data, QStringLiteral("pause-gpu:") + kB, &errors), 0);
        QTRY_VERIFY_WITH_TIMEOUT(worker(lastJsonStatus(node.output()), kB)[QStringLiteral("paused")].toBool() &&
                                     !worker(lastJsonStatus(node.output()), kB)[QStringLiteral("generating")].toBool(),
                                 30'000);
        const int bWhenPaused = accepted(lastJsonStatus(node.output()), kB);
        const int aWhenPaused = accepted(lastJsonStatus(node.output()), kA);
        QTRY_VERIFY2_WITH_TIMEOUT(accepted(lastJsonStatus(node.output()), kA) >= aWhenPaused + 2,
                                  QJsonDocument(lastJsonStatus(node.output())).toJson().constData(), 180'000);
        s = lastJsonStatus(node.output());
        // At most the batch B had already sent when it was paused is answered afterwards; nothing new is generated.
        QVERIFY2(accepted(s, kB) <= bWhenPaused + 1, QJsonDocument(s).toJson().constData());
        QVERIFY(worker(s, kB)[QStringLiteral("paused")].toBool());
        QVERIFY(!worker(s, kA)[QStringLiteral("paused")].toBool());
        QVERIFY2(s[QStringLiteral("state")].toString() != QLatin1String("paused"),
                 QJsonDocument(s).toJson().constData());

        // B works again.
        const int bBeforeResume = accepted(s, kB);
        QCOMPARE(control(data, QStringLiteral("resume-gpu:") + kB), 0);
        QTRY_VERIFY2_WITH_TIMEOUT(accepted(lastJsonStatus(node.output()), kB) > bBeforeResume,
                                  QJsonDocument(lastJsonStatus(node.output())).toJson().constData(), 180'000);

        // The settings file now names A only: B's worker stops and A's goes on, without restarting the engine (its
        // figures since the start would begin again at 0, and it would register anew).
        const QJsonObject beforeChange = lastJsonStatus(node.output());
        const int totalBefore =
            beforeChange[QStringLiteral("rollouts")].toObject()[QStringLiteral("batches_accepted")].toInt();
        writeSettings(settings, kA);
        QTRY_VERIFY2_WITH_TIMEOUT(lastJsonStatus(node.output())[QStringLiteral("compute_workers")].toArray().size() ==
                                      1,
                                  qPrintable(node.errors().right(3000)), 30'000);
        s = lastJsonStatus(node.output());
        QCOMPARE(worker(s, kA)[QStringLiteral("device")].toString(), QStringLiteral("cuda:0"));
        QVERIFY(worker(s, kB).isEmpty());
        QCOMPARE(s[QStringLiteral("registered_at")], beforeChange[QStringLiteral("registered_at")]);
        QVERIFY(s[QStringLiteral("rollouts")].toObject()[QStringLiteral("batches_accepted")].toInt() >= totalBefore);
        QTRY_VERIFY2_WITH_TIMEOUT(lastJsonStatus(node.output())[QStringLiteral("rollouts")]
                                          .toObject()[QStringLiteral("batches_accepted")]
                                          .toInt() > totalBefore + 1,
                                  QJsonDocument(lastJsonStatus(node.output())).toJson().constData(), 180'000);

        int code = -1;
        QVERIFY(node.terminateAndWait(30'000, &code));
        QCOMPARE(code, 0);
    }
};

QTEST_GUILESS_MAIN(TestCohortdGpus)
#include "tst_cohortd_gpus.moc"
