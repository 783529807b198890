// The desktop window wired to a real engine with the embedded local hub: registration, the task
// catalogue, Pause/Resume round trips through the engine thread and the GPU history earlier runs stored,
// observed only through the UI.
#include "TestSupport.h"
#include "api/EngineController.h"
#include "assembly/BuiltinEngineParts.h"
#include "settings/Settings.h"
#include "store/GpuHistoryStore.h"
#include "ui/DashboardPage.h"
#include "ui/EarningsPage.h"
#include "ui/EngineBinding.h"
#include "ui/GpuCard.h"
#include "ui/MainWindow.h"
#include "ui/TasksPage.h"
#include "ui/WelcomeDialog.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSaveFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace cohort;

class TestDesktopLive : public QObject {
    Q_OBJECT
private:
    static QString labelText(const QWidget *root, const char *name)
    {
        const auto *label = root->findChild<QLabel *>(QLatin1String(name));
        return label ? label->text() : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);   // nothing the engine writes lands in the real home
        registerEngineParts(&builtinEngineParts()); // the engine linked in, as in cohortd
    }

    void pauseAndResumeThroughTheWindow()
    {
        QTemporaryDir dataDir;
        QVERIFY(dataDir.isValid());
        EngineOptions options;
        options.dataDir = dataDir.path();
        options.nodeName = QStringLiteral("desktop-live-test");
        // hubUrl left empty: the controller starts the embedded local network.

        EngineController controller(options);
        MainWindow window;
        bindWindowToEngine(&window, &controller);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        controller.start();

        const DashboardPage *dashboard = window.dashboardPage();
        QTRY_VERIFY_WITH_TIMEOUT(dashboard->stateTitleText() == QStringLiteral("Idle"), 20000);
        const QString nodeId = labelText(dashboard, "nodeId");
        QVERIFY2(!nodeId.isEmpty() && nodeId != QStringLiteral("not yet"), qPrintable(nodeId));
        QCOMPARE(labelText(dashboard, "nodeName"), QStringLiteral("desktop-live-test"));
        QVERIFY2(labelText(dashboard, "hubUrl").contains(QStringLiteral("Local network")),
                 qPrintable(labelText(dashboard, "hubUrl")));
        QTRY_VERIFY_WITH_TIMEOUT(window.tasksPage()->taskCount() >= 2, 20000);
        QVERIFY(window.activityPage() != nullptr);

        auto *pauseButton = dashboard->findChild<QPushButton *>(QStringLiteral("pauseButton"));
        QVERIFY(pauseButton);
        QCOMPARE(pauseButton->text(), QStringLiteral("Pause"));
        QTest::mouseClick(pauseButton, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(dashboard->stateTitleText() == QStringLiteral("Paused"), 10000);
        QVERIFY2(dashboard->whyText().contains(QStringLiteral("paused by you"), Qt::CaseInsensitive),
                 qPrintable(dashboard->whyText()));
        QVERIFY(window.statusText().contains(QStringLiteral("Paused")));
        QTRY_COMPARE_WITH_TIMEOUT(pauseButton->text(), QStringLiteral("Resume"), 5000);

        QTest::mouseClick(pauseButton, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(dashboard->stateTitleText() == QStringLiteral("Idle"), 10000);
        QCOMPARE(pauseButton->text(), QStringLiteral("Pause"));

        QSignalSpy stopped(&controller, &EngineController::stopped);
        controller.stop();
        QVERIFY(stopped.count() == 1 || stopped.wait(20000));
        QVERIFY(!controller.isRunning());
    }

    // First run: the welcome's Start makes the engine join the first task this computer can run, and the window
    // shows it; "Not now" joins nothing.
    void welcomeStartJoinsATask_data()
    {
        QTest::addColumn<bool>("start");
        QTest::newRow("Start") << true;
        QTest::newRow("Not now") << false;
    }
    void welcomeStartJoinsATask()
    {
        QFETCH(bool, start);
        QTemporaryDir dataDir;
        QVERIFY(dataDir.isValid());
        EngineOptions options;
        options.dataDir = dataDir.path();
        EngineController controller(options);
        MainWindow window;
        bindWindowToEngine(&window, &controller);
        Settings settings(dataDir.filePath(QStringLiteral("cohort.ini")));
        auto *welcome = new WelcomeDialog(&settings, nullptr, &window);
        welcome->setAttribute(Qt::WA_DeleteOnClose);
        bindWelcomeToEngine(welcome, &controller);
        window.show();
        welcome->show();
        // Answered before the engine exists (the desktop app loads it after the first window): the yes still counts.
        welcome->findChild<QPushButton *>(start ? QStringLiteral("welcomeStart") : QStringLiteral("welcomeNotNow"))
            ->click();
        controller.start();

        QTRY_VERIFY_WITH_TIMEOUT(window.tasksPage()->taskCount() >= 2, 20000);
        if (start) {
            QTRY_COMPARE_WITH_TIMEOUT(labelText(window.dashboardPage(), "joinedTask"),
                                      QStringLiteral("Arithmetic reasoning (PRIME-RL)"), 10000);
        } else {
            controller.pause(); // a round trip through the engine thread, after the task list arrived
            QTRY_COMPARE_WITH_TIMEOUT(window.dashboardPage()->stateTitleText(), QStringLiteral("Paused"), 10000);
            QCOMPARE(labelText(window.dashboardPage(), "joinedTask"), QStringLiteral("none"));
        }
        QSignalSpy stopped(&controller, &EngineController::stopped);
        controller.stop();
        QVERIFY(stopped.count() == 1 || stopped.wait(20000));
    }

    // The window opens no database: the GPU chart of the day starts with the minutes an earlier run stored, and the
    // Earnings page shows the energy they add up to, both handed over by the engine (EngineController::
    // gpuHistoryLoaded, EngineSnapshot::energy). One GPU, from the fake NVML (tests/support/fakenvml), at 60 °C now.
    void storedGpuHistoryReachesTheWindowThroughTheEngine()
    {
        QTemporaryDir dataDir;
        QVERIFY(dataDir.isValid());
        const QString config = dataDir.filePath(QStringLiteral("fakenvml.json"));
        QVERIFY(cohort::test::writeFakeNvml(config, {QJsonObject{{QStringLiteral("name"), QStringLiteral("Fake GPU")},
                                                                 {QStringLiteral("uuid"), QStringLiteral("GPU-live")},
                                                                 {QStringLiteral("temperature"), 60},
                                                                 {QStringLiteral("power_mw"), 100'000}}}));
        qputenv("COHORT_FAKENVML_CONFIG", config.toUtf8());
        qputenv("COHORT_NVML_LIBRARY", COHORT_FAKENVML);

        // Ten minutes an hour ago, at 40 °C and 600 W: 100 Wh.
        const qint64 hourAgo = QDateTime::currentSecsSinceEpoch() - 3600;
        QList<GpuHistoryRecord> minutes;
        for (int i = 0; i < 10; ++i) {
            GpuHistoryRecord r{QStringLiteral("GPU-live"), QStringLiteral("Fake GPU"), {}};
            r.point.time = hourAgo - hourAgo % 60 + i * 60;
            r.point.temperatureC = 40;
            r.point.powerW = 600;
            r.point.samples = 60;
            minutes.append(r);
        }
        {
            auto store = GpuHistoryStore::open(dataDir.filePath(QStringLiteral("cohort.sqlite")));
            QVERIFY2(store, qPrintable(store.error()));
            const Status saved = (*store)->save(minutes);
            QVERIFY2(saved, qPrintable(saved.error()));
        }

        EngineController controller(EngineOptions{.dataDir = dataDir.path()});
        MainWindow window;
        bindWindowToEngine(&window, &controller);
        DashboardPage *dashboard = window.dashboardPage();
        dashboard->setGpuRange(GpuHistoryRange::OneDay);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        controller.start();

        QTRY_COMPARE_WITH_TIMEOUT(dashboard->gpuCards().size(), 1, 20000);
        // The day in 5-minute buckets: the stored ones (40 °C) first, then this session's readings (60 °C).
        QLineSeries *temperature = dashboard->gpuCards().at(0)->series(2);
        QTRY_VERIFY_WITH_TIMEOUT(temperature->count() >= 2 && temperature->at(temperature->count() - 1).y() == 60.0,
                                 5000);
        QCOMPARE(temperature->at(0).y(), 40.0);
        QTRY_VERIFY2_WITH_TIMEOUT(
            labelText(window.earningsPage(), "energyUsed").contains(QStringLiteral("7 days 0.10 kWh")),
            qPrintable(labelText(window.earningsPage(), "energyUsed")), 5000);

        QSignalSpy stopped(&controller, &EngineController::stopped);
        controller.stop();
        QVERIFY(stopped.count() == 1 || stopped.wait(20000));
        qunsetenv("COHORT_NVML_LIBRARY");
        qunsetenv("COHORT_FAKENVML_CONFIG");
    }

    // Every GPU used, seen on the dashboard: two fake-NVML GPUs standing in for CUDA devices
    // (COHORT_TESTING_GPUS_ON_CPU), each card saying what Cohort's worker there does; "Pause this GPU" on the second
    // card pauses that worker alone through the engine, and the card says so; "Resume this GPU" undoes it.
    void eachGpuCardPausesItsOwnWorker()
    {
        QTemporaryDir dataDir;
        QVERIFY(dataDir.isValid());
        const QString config = dataDir.filePath(QStringLiteral("fakenvml.json"));
        QJsonArray devices;
        for (const char *uuid : {"GPU-first", "GPU-second"})
            devices.append(QJsonObject{{QStringLiteral("name"), QStringLiteral("Fake GPU")},
                                       {QStringLiteral("uuid"), QLatin1String(uuid)},
                                       {QStringLiteral("memory_total"), double(8LL << 30)},
                                       {QStringLiteral("temperature"), 50}});
        QVERIFY(cohort::test::writeFakeNvml(config, devices));
        qputenv("COHORT_FAKENVML_CONFIG", config.toUtf8());
        qputenv("COHORT_NVML_LIBRARY", COHORT_FAKENVML);
        qputenv("COHORT_TESTING_GPUS_ON_CPU", "1");

        EngineController controller(
            EngineOptions{.dataDir = dataDir.path(), .gpuUuids = {QStringLiteral("GPU-second")}});
        MainWindow window;
        bindWindowToEngine(&window, &controller);
        DashboardPage *dashboard = window.dashboardPage();
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        controller.start();
        QTRY_COMPARE_WITH_TIMEOUT(dashboard->gpuCards().size(), 2, 20000);
        GpuCard *first = dashboard->gpuCards().at(0);
        GpuCard *second = dashboard->gpuCards().at(1);
        // Only the second is chosen: the first has no worker and no button.
        QTRY_VERIFY2_WITH_TIMEOUT(labelText(second, "gpuWorker").startsWith(QStringLiteral("Cohort: ready")),
                                  qPrintable(labelText(second, "gpuWorker")), 10000);
        QVERIFY2(labelText(second, "gpuWorker").contains(QStringLiteral("(90 %)")),
                 qPrintable(labelText(second, "gpuWorker")));
        QVERIFY2(labelText(first, "gpuWorker").contains(QStringLiteral("does not compute on this GPU")),
                 qPrintable(labelText(first, "gpuWorker")));
        QVERIFY(!first->findChild<QPushButton *>(QStringLiteral("gpuPauseButton"))->isVisible());

        auto *pause = second->findChild<QPushButton *>(QStringLiteral("gpuPauseButton"));
        QVERIFY(pause->isVisible());
        QCOMPARE(pause->text(), QStringLiteral("Pause this GPU"));
        QTest::mouseClick(pause, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(controller.snapshot().computeWorkers.value(0).paused, 10000);
        QTRY_VERIFY2_WITH_TIMEOUT(labelText(second, "gpuWorker").contains(QStringLiteral("paused on this GPU by you")),
                                  qPrintable(labelText(second, "gpuWorker")), 5000);
        QCOMPARE(pause->text(), QStringLiteral("Resume this GPU"));
        QVERIFY(dashboard->stateTitleText() != QStringLiteral("Paused")); // the node itself is not paused

        QTest::mouseClick(pause, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!controller.snapshot().computeWorkers.value(0).paused, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(pause->text(), QStringLiteral("Pause this GPU"), 5000);

        QSignalSpy stopped(&controller, &EngineController::stopped);
        controller.stop();
        QVERIFY(stopped.count() == 1 || stopped.wait(20000));
        qunsetenv("COHORT_TESTING_GPUS_ON_CPU");
        qunsetenv("COHORT_NVML_LIBRARY");
        qunsetenv("COHORT_FAKENVML_CONFIG");
    }
};

QTEST_MAIN(TestDesktopLive)
#include "tst_desktop_live.moc"
