// The window bound to an engine controller (ui/EngineBinding) over the scriptable fake engine
// (tests/support/FakeEngineParts): what a person clicks reaches the engine as the right command, and what the engine
// says shows where it should. The same paths tst_desktop_live takes with a real engine, without LibTorch or a hub
// (about a second, most of it the window's once-a-second snapshot throttle).
#include "FakeEngineParts.h"
#include "api/EngineController.h"
#include "settings/Settings.h"
#include "ui/DashboardPage.h"
#include "ui/EngineBinding.h"
#include "ui/GpuCard.h"
#include "ui/MainWindow.h"
#include "ui/WelcomeDialog.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace cohort;

namespace {

QString labelText(const QWidget *root, const char *name)
{
    const auto *label = root->findChild<QLabel *>(QLatin1String(name));
    return label ? label->text() : QString();
}

bool logged(const QString &line)
{
    return QTest::qWaitFor([&] { return fake::log().lines().contains(line); }, 5000);
}

EngineSnapshot idle()
{
    EngineSnapshot s;
    s.state = NodeState::Idle;
    s.nodeName = QStringLiteral("fake-node");
    s.nodeId = QStringLiteral("node-1234");
    return s;
}

GpuSample gpu(int index, const QString &uuid)
{
    GpuSample g;
    g.index = index;
    g.name = QStringLiteral("Fake GPU");
    g.uuid = uuid;
    g.memoryTotalBytes = qint64(8) << 30;
    g.temperatureC = 50;
    return g;
}

} // namespace

class TestWindowBinding : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    // The window and a started controller whose engine is up.
    struct Bound {
        EngineController controller;
        MainWindow window;
        explicit Bound(const EngineOptions &options)
            : controller(options)
        {
            bindWindowToEngine(&window, &controller);
            window.show();
        }
        void publish(const EngineSnapshot &s)
        {
            QSignalSpy snapshots(&controller, &EngineController::snapshotChanged);
            fake::currentEngine()->publish(s);
            QVERIFY(snapshots.wait());
        }
    };

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { fake::install(); }

    void thePauseButtonPausesAndResumesTheEngine()
    {
        Bound b(EngineOptions{.dataDir = m_dir.path(), .hubUrl = QStringLiteral("https://hub.example")});
        QVERIFY(QTest::qWaitForWindowExposed(&b.window));
        b.controller.start();
        QVERIFY(logged(QStringLiteral("start on cohort-engine")));
        b.publish(idle());
        DashboardPage *dashboard = b.window.dashboardPage();
        QCOMPARE(dashboard->stateTitleText(), QStringLiteral("Idle"));
        QCOMPARE(labelText(dashboard, "nodeName"), QStringLiteral("fake-node"));
        auto *pauseButton = dashboard->findChild<QPushButton *>(QStringLiteral("pauseButton"));
        QVERIFY(pauseButton);
        QCOMPARE(pauseButton->text(), QStringLiteral("Pause"));

        QTest::mouseClick(pauseButton, Qt::LeftButton);
        QVERIFY(logged(QStringLiteral("pause")));
        EngineSnapshot paused = idle();
        paused.state = NodeState::Paused;
        paused.reason = PauseReason::User;
        paused.pauseReasons = {PauseReason::User};
        paused.why = QStringLiteral("Paused by you");
        b.publish(paused);
        QCOMPARE(dashboard->stateTitleText(), QStringLiteral("Paused"));
        QVERIFY(b.window.statusText().contains(QStringLiteral("Paused")));
        QCOMPARE(pauseButton->text(), QStringLiteral("Resume"));

        QTest::mouseClick(pauseButton, Qt::LeftButton);
        QVERIFY(logged(QStringLiteral("resume")));
        QCOMPARE(fake::log().count(QStringLiteral("pause")), 1);
    }

    void eachGpuCardPausesItsOwnGpu()
    {
        Bound b(EngineOptions{.dataDir = m_dir.path(), .hubUrl = QStringLiteral("https://hub.example")});
        b.controller.start();
        QVERIFY(logged(QStringLiteral("start on cohort-engine")));
        EngineSnapshot s = idle();
        s.gpus = {gpu(0, QStringLiteral("GPU-first")), gpu(1, QStringLiteral("GPU-second"))};
        ComputeWorkerStatus worker;
        worker.gpuUuid = QStringLiteral("GPU-second");
        worker.device = QStringLiteral("cuda:1");
        worker.memoryPercent = 90;
        s.computeWorkers = {worker};
        b.publish(s);
        DashboardPage *dashboard = b.window.dashboardPage();
        QCOMPARE(dashboard->gpuCards().size(), 2);
        GpuCard *first = dashboard->gpuCards().at(0);
        GpuCard *second = dashboard->gpuCards().at(1);
        QVERIFY2(labelText(first, "gpuWorker").contains(QStringLiteral("does not compute on this GPU")),
                 qPrintable(labelText(first, "gpuWorker")));
        QVERIFY(!first->findChild<QPushButton *>(QStringLiteral("gpuPauseButton"))->isVisible());
        auto *pause = second->findChild<QPushButton *>(QStringLiteral("gpuPauseButton"));
        QVERIFY(pause->isVisible());
        QCOMPARE(pause->text(), QStringLiteral("Pause this GPU"));

        QTest::mouseClick(pause, Qt::LeftButton);
        QVERIFY(logged(QStringLiteral("gpu GPU-second paused")));
        s.computeWorkers[0].paused = true;
        b.publish(s);
        // The window takes snapshots without a state change at most once a second (ui/SnapshotThrottle).
        QTRY_COMPARE_WITH_TIMEOUT(pause->text(), QStringLiteral("Resume this GPU"), 3000);
        QVERIFY2(labelText(second, "gpuWorker").contains(QStringLiteral("paused on this GPU by you")),
                 qPrintable(labelText(second, "gpuWorker")));
        QTest::mouseClick(pause, Qt::LeftButton);
        QVERIFY(logged(QStringLiteral("gpu GPU-second resumed")));
        QVERIFY(!fake::log().lines().contains(QStringLiteral("pause"))); // the node itself was never paused
    }

    // First run: "Start" in the welcome, answered before the engine exists (the app loads it after the first
    // window), still reaches it; "Not now" asks for nothing.
    void theWelcomesStartReachesAnEngineNotYetMade_data()
    {
        QTest::addColumn<bool>("start");
        QTest::newRow("Start") << true;
        QTest::newRow("Not now") << false;
    }
    void theWelcomesStartReachesAnEngineNotYetMade()
    {
        QFETCH(bool, start);
        Bound b(EngineOptions{.dataDir = m_dir.path(), .hubUrl = QStringLiteral("https://hub.example")});
        Settings settings(m_dir.filePath(QStringLiteral("cohort.ini")));
        auto *welcome = new WelcomeDialog(&settings, nullptr, &b.window);
        welcome->setAttribute(Qt::WA_DeleteOnClose);
        bindWelcomeToEngine(welcome, &b.controller);
        welcome->show();
        welcome->findChild<QPushButton *>(start ? QStringLiteral("welcomeStart") : QStringLiteral("welcomeNotNow"))
            ->click();
        QCOMPARE(fake::enginesCreated(), 0);
        b.controller.start();
        QVERIFY(logged(QStringLiteral("start on cohort-engine")));
        QCOMPARE(fake::log().options().first().chooseTaskAutomatically, start);
    }
};

QTEST_MAIN(TestWindowBinding)
#include "tst_window_binding.moc"
