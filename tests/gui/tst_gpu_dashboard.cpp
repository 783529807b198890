// The dashboard's GPU part fed with hand-made snapshots (no engine): one card per GPU with its readings in words,
// charts over 5 minutes / 1 hour / 24 hours built from the snapshots, and the plain note when there is no NVML.
#include "SampleSnapshots.h"
#include "ui/DashboardPage.h"
#include "ui/GpuCard.h"

#include <QChartView>
#include <QComboBox>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSignalSpy>
#include <QValueAxis>
#include <QtTest>

using namespace cohort;

namespace {
constexpr qint64 kGiB = 1LL << 30;

GpuSample gpu(int index, const QString &uuid, int temperature, double watts)
{
    GpuSample g;
    g.index = index;
    g.name = QStringLiteral("Fake RTX %1").arg(4090 - index * 1030);
    g.uuid = uuid;
    g.utilizationPercent = 87;
    g.memoryUtilizationPercent = 40;
    g.memoryUsedBytes = 6 * kGiB;
    g.memoryTotalBytes = 24 * kGiB;
    g.temperatureC = temperature;
    g.powerW = watts;
    g.powerLimitW = 450;
    g.smClockMHz = 2520;
    g.memoryClockMHz = 10501;
    g.fanPercent = 65;
    return g;
}

QString labelText(const QWidget &root, const QString &name)
{
    const auto *label = root.findChild<QLabel *>(name);
    return label ? label->text() : QStringLiteral("<missing %1>").arg(name);
}

QValueAxis *timeAxis(GpuCard *card)
{
    const auto axes = card->chartView()->chart()->axes(Qt::Horizontal);
    return axes.isEmpty() ? nullptr : qobject_cast<QValueAxis *>(axes.first());
}
} // namespace

class TestGpuDashboard : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cardsShowEachGpu()
    {
        DashboardPage page;
        page.resize(900, 1400);
        page.show();
        EngineSnapshot s = samples::snapshot(NodeState::Working, QStringLiteral("Generating rollouts"));
        GpuSample second = gpu(1, QStringLiteral("GPU-bbbb"), 64, 120);
        second.temperatureC.reset();
        second.fanPercent.reset();
        second.notes = {QStringLiteral("temperature: GPU is lost"), QStringLiteral("fan: Not Supported")};
        s.gpus = {gpu(0, QStringLiteral("GPU-aaaa"), 71, 350.4), second};
        page.showSnapshot(s);

        QCOMPARE(page.gpuCards().size(), 2);
        QVERIFY(page.findChild<QWidget *>(QStringLiteral("gpuSection"))->isVisible());
        QCOMPARE(labelText(page, QStringLiteral("gpuSummary")), QStringLiteral("2 GPUs: Fake RTX 4090, Fake RTX 3060"));
        GpuCard *a = page.gpuCards()[0];
        QCOMPARE(a->objectName(), QStringLiteral("gpuCard0"));
        QCOMPARE(a->title(), QStringLiteral("GPU 0: Fake RTX 4090 (GPU-aaaa)"));
        QCOMPARE(labelText(*a, QStringLiteral("gpuReadings")),
                 QStringLiteral("87% busy · 71 °C · VRAM 6 GiB of 24 GiB (25%) · 350 W of 450 W"));
        QCOMPARE(labelText(*a, QStringLiteral("gpuDetails")),
                 QStringLiteral("clocks: SM 2520 MHz, memory 10501 MHz · fan 65%"));
        GpuCard *b = page.gpuCards()[1];
        QVERIFY2(labelText(*b, QStringLiteral("gpuReadings")).contains(QStringLiteral("temperature unknown")),
                 qPrintable(labelText(*b, QStringLiteral("gpuReadings"))));
        QVERIFY(labelText(*b, QStringLiteral("gpuDetails"))
                    .endsWith(QStringLiteral("not read: temperature: GPU is lost; fan: Not Supported")));

        // Cohort's workers: on the CPU only, each card says why not here; then A's worker generates and B has none.
        ComputeWorkerStatus cpu;
        cpu.name = QStringLiteral("CPU");
        cpu.device = QStringLiteral("cpu");
        s.computeWorkers = {cpu};
        page.showSnapshot(s);
        QVERIFY2(labelText(*b, QStringLiteral("gpuWorker")).contains(QStringLiteral("Cohort computes on the CPU")),
                 qPrintable(labelText(*b, QStringLiteral("gpuWorker"))));
        ComputeWorkerStatus worker;
        worker.gpuUuid = QStringLiteral("GPU-aaaa");
        worker.name = QStringLiteral("Fake RTX 4090");
        worker.device = QStringLiteral("cuda:0");
        worker.generating = true;
        worker.tokensPerSecond = 1234.4;
        worker.memoryPercent = 50;
        worker.memoryBudgetBytes = 12 * kGiB;
        worker.batchesAccepted = 7;
        s.computeWorkers = {worker};
        page.showSnapshot(s);
        QCOMPARE(labelText(*a, QStringLiteral("gpuWorker")),
                 QStringLiteral("Cohort: generating · 1,234 tokens/s · may use 12 GiB (50 %) · 7 batches accepted"));
        QCOMPARE(labelText(*b, QStringLiteral("gpuWorker")),
                 QStringLiteral("Cohort does not compute on this GPU (Settings › Compute)"));
        QVERIFY(!b->findChild<QPushButton *>(QStringLiteral("gpuPauseButton"))->isVisible());
        QCOMPARE(DashboardPage::computeDeviceText(s),
                 QStringLiteral("Fake RTX 4090 (cuda:0); CPU (LibTorch 1.13.1, 2 threads)"));
        QSignalSpy pauseGpu(&page, &DashboardPage::gpuPauseRequested);
        auto *button = a->findChild<QPushButton *>(QStringLiteral("gpuPauseButton"));
        QCOMPARE(button->text(), QStringLiteral("Pause this GPU"));
        QTest::mouseClick(button, Qt::LeftButton);
        QCOMPARE(pauseGpu.count(), 1);
        QCOMPARE(pauseGpu.at(0).at(0).toString(), QStringLiteral("GPU-aaaa"));
        QCOMPARE(pauseGpu.at(0).at(1).toBool(), true);
        s.computeWorkers[0].paused = true;
        page.showSnapshot(s);
        QCOMPARE(button->text(), QStringLiteral("Resume this GPU"));
        QTest::mouseClick(button, Qt::LeftButton);
        QCOMPARE(pauseGpu.at(1).at(1).toBool(), false);
        QCOMPARE(DashboardPage::computeDeviceText(s),
                 QStringLiteral("Fake RTX 4090 (cuda:0, paused); CPU (LibTorch 1.13.1, 2 threads)"));
        // Another program on A's GPU: its worker waits, and the card says for whom.
        s.computeWorkers[0].paused = false;
        s.computeWorkers[0].inUseBy = QStringLiteral("blender");
        page.showSnapshot(s);
        QCOMPARE(labelText(*a, QStringLiteral("gpuWorker")),
                 QStringLiteral("Cohort: waiting while blender uses this GPU; the other devices keep working"));
        QCOMPARE(DashboardPage::computeDeviceText(s),
                 QStringLiteral("Fake RTX 4090 (cuda:0, waiting for blender); CPU (LibTorch 1.13.1, 2 threads)"));

        // One GPU fewer: its card goes.
        s.gpus.removeLast();
        s.takenAt = s.takenAt.addSecs(1);
        page.showSnapshot(s);
        QCOMPARE(page.gpuCards().size(), 1);
        QCOMPARE(page.findChildren<GpuCard *>().size(), 1);
    }

    void chartsFollowTheReadingsOverEachRange()
    {
        DashboardPage page;
        page.resize(900, 1200);
        page.show();
        EngineSnapshot s = samples::snapshot(NodeState::Working, QStringLiteral("Generating rollouts"));
        const QDateTime start = QDateTime::fromSecsSinceEpoch(2'000'000'000 - 2'000'000'000 % 300, Qt::UTC);
        // 10 minutes of readings, one per second, each delivered in two snapshots (as the engine publishes them).
        for (int i = 0; i < 600; ++i) {
            s.gpus = {gpu(0, QStringLiteral("GPU-aaaa"), 50 + i / 60, 100 + i)};
            s.takenAt = start.addSecs(i);
            page.showSnapshot(s);
            s.takenAt = start.addMSecs(i * 1000 + 250);
            page.showSnapshot(s);
        }
        GpuCard *card = page.gpuCards().value(0);
        QVERIFY(card);
        QVERIFY(card->isVisible());
        QCOMPARE(page.gpuRange(), GpuHistoryRange::FiveMinutes);
        // 5 minutes at 1 Hz: 300 points per value, the newest on the right (0 minutes ago).
        QCOMPARE(card->series(0)->count(), 300);
        QCOMPARE(card->series(2)->count(), 300);
        QCOMPARE(card->series(3)->at(card->series(3)->count() - 1), QPointF(0, 699)); // power W, now
        QCOMPARE(card->series(1)->at(0).y(), 25.0);                                   // VRAM %
        QCOMPARE(timeAxis(card)->max(), 5.0);
        QVERIFY(timeAxis(card)->isReverse());

        // The hour: 10-second averages, 60 of them so far.
        auto *range = page.findChild<QComboBox *>(QStringLiteral("gpuRange"));
        QVERIFY(range);
        range->setCurrentIndex(range->findData(int(GpuHistoryRange::OneHour)));
        QCOMPARE(page.gpuRange(), GpuHistoryRange::OneHour);
        QCOMPARE(card->series(3)->count(), 60);
        QCOMPARE(card->series(3)->at(0).y(), 104.5); // mean of 100..109 W
        QCOMPARE(timeAxis(card)->max(), 60.0);

        // The day: 5-minute averages in hours; two buckets.
        page.setGpuRange(GpuHistoryRange::OneDay);
        QCOMPARE(card->series(2)->count(), 2);
        QCOMPARE(card->series(2)->at(0).y(), 52.0); // minutes 0..4: 50..54 °C
        QCOMPARE(timeAxis(card)->max(), 24.0);
        QCOMPARE(timeAxis(card)->titleText(), QStringLiteral("hours ago"));

        // Minutes stored by an earlier run fill the day before this session's readings.
        GpuHistoryRecord earlier{QStringLiteral("GPU-aaaa"), QStringLiteral("Fake RTX 4090"), {}};
        earlier.point.time = start.toSecsSinceEpoch() - 3600;
        earlier.point.temperatureC = 40;
        earlier.point.samples = 60;
        DashboardPage restarted;
        restarted.seedGpuHistory({earlier});
        restarted.setGpuRange(GpuHistoryRange::OneDay);
        s.gpus = {gpu(0, QStringLiteral("GPU-aaaa"), 60, 200)};
        s.takenAt = start;
        restarted.showSnapshot(s);
        // Not shown yet: the chart is left alone until it can be seen.
        QCOMPARE(restarted.gpuCards().value(0)->series(2)->count(), 0);
        restarted.show();
        QCOMPARE(restarted.gpuCards().value(0)->series(2)->count(), 2);
        QCOMPARE(restarted.gpuCards().value(0)->series(2)->at(0).y(), 40.0);
    }

    void withoutNvmlTheNoteIsShownAndNoCards()
    {
        DashboardPage page;
        page.show();
        EngineSnapshot s = samples::snapshot(NodeState::Idle, QStringLiteral("Connected; no task joined"));
        page.showSnapshot(s);
        QCOMPARE(labelText(page, QStringLiteral("gpuSummary")), QStringLiteral("not yet"));
        s.gpuTelemetryNote = QStringLiteral("No NVML (libnvidia-ml.so.1 not found): CPU and memory only");
        page.showSnapshot(s);
        QCOMPARE(labelText(page, QStringLiteral("gpuSummary")), s.gpuTelemetryNote);
        QVERIFY(page.gpuCards().isEmpty());
        QVERIFY(!page.findChild<QWidget *>(QStringLiteral("gpuSection"))->isVisible());
    }
};

QTEST_MAIN(TestGpuDashboard)
#include "tst_gpu_dashboard.moc"
