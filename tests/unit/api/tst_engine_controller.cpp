// The engine controller (api/EngineController) over the scriptable fake engine (tests/support/FakeEngineParts):
// which engine it makes with which hub, the embedded network's start and failure, commands queued to the engine
// thread, a pause asked for before the engine exists, live options against a restart (the task kept, a left task
// left), stop and a hung engine, and what the engine says reaching the caller. No LibTorch; milliseconds.
#include "FakeEngineParts.h"
#include "api/EngineController.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace cohort;

namespace {

EngineOptions remoteOptions(const QString &dataDir)
{
    return EngineOptions{
        .dataDir = dataDir, .hubUrl = QStringLiteral("https://hub.example:8443"), .nodeName = QStringLiteral("n1")};
}

// Waits until the fakes' log holds `line` (the engine thread writes it); true when it does.
bool logged(const QString &line)
{
    return QTest::qWaitFor([&] { return fake::log().lines().contains(line); }, 5000);
}

// Whether `lines` holds each of `inOrder`, in that order.
bool inOrder(const QStringList &lines, const QStringList &inOrder)
{
    qsizetype at = -1;
    for (const QString &line : inOrder) {
        const qsizetype next = lines.indexOf(line, at + 1);
        if (next < 0)
            return false;
        at = next;
    }
    return true;
}

// Everything queued to the engine before this has been handled once it returns (its commands are handled in order),
// and what the engine sent back has been delivered here.
bool drained(EngineController &controller)
{
    static int marker = 1000;
    controller.snooze(++marker);
    const bool handled = logged(QStringLiteral("snooze %1").arg(marker));
    QCoreApplication::processEvents();
    return handled;
}

} // namespace

class TestEngineController : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void init() { fake::install(); }

    void aHubUrlStartsOneRemoteEngineOnItsOwnThread()
    {
        EngineController controller(remoteOptions(m_dir.path()));
        controller.start();
        QVERIFY(logged(QStringLiteral("start on cohort-engine")));
        QCOMPARE(fake::log().lines().first(), QStringLiteral("create https://hub.example:8443 remote"));
        QCOMPARE(fake::enginesCreated(), 1);
        QVERIFY(!fake::log().lines().join(QLatin1Char('\n')).contains(QStringLiteral("local network")));
        QVERIFY(controller.isRunning());
        controller.start(); // a second start while running makes no second engine
        QCOMPARE(fake::enginesCreated(), 1);
    }

    void noHubUrlStartsTheLocalNetworkFirst()
    {
        EngineOptions options = remoteOptions(m_dir.path());
        options.hubUrl.clear();
        EngineController controller(options);
        QSignalSpy events(&controller, &EngineController::eventOccurred);
        controller.start();
        QVERIFY(logged(QStringLiteral("start on cohort-engine")));
        const QStringList lines = fake::log().lines();
        QCOMPARE(lines.at(0), QStringLiteral("local network in ") + m_dir.filePath(QStringLiteral("hub")));
        QCOMPARE(lines.at(1), QStringLiteral("local network start"));
        QCOMPARE(lines.at(2), QStringLiteral("create http://127.0.0.1:7777 embedded"));
        QCOMPARE(controller.embeddedHubUrl(), QStringLiteral("http://127.0.0.1:7777"));
        QVERIFY(!events.isEmpty());
        QCOMPARE(events.first().first().value<EngineEvent>().message,
                 QStringLiteral("Local network started at http://127.0.0.1:7777"));
    }

    void aLocalNetworkThatFailsLeavesAnEngineThatSaysWhy()
    {
        fake::script().localNetworkError = QStringLiteral("port 7777 in use");
        EngineOptions options = remoteOptions(m_dir.path());
        options.hubUrl.clear();
        EngineController controller(options);
        controller.start();
        QVERIFY(logged(QStringLiteral("fail: The local network could not start: port 7777 in use")));
        QVERIFY(fake::log().lines().contains(QStringLiteral("create  embedded")));
        // With no hub there is nothing to start: the engine only shows the error.
        QVERIFY(!fake::log().lines().contains(QStringLiteral("start on cohort-engine")));
    }

    void commandsReachTheEngineInOrder()
    {
        EngineController controller(remoteOptions(m_dir.path()));
        controller.start();
        QVERIFY(logged(QStringLiteral("start on cohort-engine")));
        controller.snooze(30);
        controller.pauseAfterStep();
        controller.setGpuPaused(QStringLiteral("GPU-1"), true);
        controller.joinTask(QStringLiteral("sort-rl"));
        controller.leaveTask();
        controller.chooseTaskAutomatically();
        controller.pause();
        QVERIFY(logged(QStringLiteral("pause")));
        const QStringList lines = fake::log().lines().mid(2);
        QCOMPARE(lines,
                 (QStringList{QStringLiteral("snooze 30"), QStringLiteral("pause after step"),
                              QStringLiteral("gpu GPU-1 paused"), QStringLiteral("join sort-rl"),
                              QStringLiteral("leave"), QStringLiteral("choose a task"), QStringLiteral("pause")}));
    }

    void aPauseAskedBeforeTheEngineExistsReachesIt()
    {
        EngineOptions options = remoteOptions(m_dir.path());
        options.hubUrl.clear(); // the engine waits for the local network
        EngineController controller(options);
        controller.start();
        controller.togglePause(); // no engine yet: remembered
        QCOMPARE(fake::enginesCreated(), 0);
        QVERIFY(logged(QStringLiteral("pause")));
        const QStringList lines = fake::log().lines();
        QVERIFY(inOrder(lines, {QStringLiteral("start on cohort-engine"), QStringLiteral("pause")}));
        // The toggle reads the engine's own word on the pause: paused by the user, the next toggle resumes.
        EngineSnapshot paused;
        paused.pauseReasons = {PauseReason::User};
        QSignalSpy snapshots(&controller, &EngineController::snapshotChanged);
        fake::currentEngine()->publish(paused);
        QVERIFY(snapshots.wait());
        controller.togglePause();
        QVERIFY(logged(QStringLiteral("resume")));
    }

    void liveOptionsReachTheRunningEngineWithoutARestart()
    {
        EngineController controller(remoteOptions(m_dir.path()));
        controller.start();
        QVERIFY(logged(QStringLiteral("start on cohort-engine")));
        EngineOptions next = controller.options();
        next.maxUploadBytesPerSecond = 1'000'000;
        next.payoutAddress = QStringLiteral("0x1111111111111111111111111111111111111111");
        next.gpuUuids = {QStringLiteral("GPU-2")};
        next.gpuMemoryPercent = 50;
        next.scheduler.runOnlyWhenIdle = true;
        controller.reconfigure(next);
        QVERIFY(logged(QStringLiteral("live options")));
        QCOMPARE(fake::enginesCreated(), 1);
        QCOMPARE(fake::log().options().last(), next);
        QVERIFY(!fake::log().lines().contains(QStringLiteral("stop")));
        controller.reconfigure(next); // the same again: nothing
        QVERIFY(drained(controller));
        QCOMPARE(fake::log().count(QStringLiteral("live options")), 1);
    }

    void aNewHubRestartsTheEngineKeepingTheTask()
    {
        EngineController controller(remoteOptions(m_dir.path()));
        QSignalSpy stopped(&controller, &EngineController::stopped);
        QSignalSpy events(&controller, &EngineController::eventOccurred);
        controller.start();
        controller.joinTask(QStringLiteral("sort-rl"));
        QVERIFY(logged(QStringLiteral("join sort-rl")));
        EngineOptions next = controller.options();
        next.hubUrl = QStringLiteral("https://other.example");
        next.taskId.clear(); // the settings know no task: the one joined stays
        controller.reconfigure(next);
        QVERIFY(QTest::qWaitFor([] { return fake::enginesCreated() == 2; }, 5000));
        QVERIFY(logged(QStringLiteral("create https://other.example remote")));
        const QStringList lines = fake::log().lines();
        // The old engine stopped and went (its thread ended) before the new one was made.
        QVERIFY(inOrder(lines, {QStringLiteral("stop"), QStringLiteral("destroyed on cohort-engine"),
                                QStringLiteral("create https://other.example remote")}));
        QCOMPARE(fake::log().options().last().taskId, QStringLiteral("sort-rl"));
        QVERIFY(stopped.isEmpty()); // a restart is not a stop
        QVERIFY(controller.isRunning());
        bool said = false;
        for (const QList<QVariant> &e : events)
            said = said ||
                   e.first().value<EngineEvent>().message == QStringLiteral("Settings changed; restarting the engine");
        QVERIFY(said);
    }

    void aLeftTaskStaysLeftAcrossARestart()
    {
        EngineOptions options = remoteOptions(m_dir.path());
        options.taskId = QStringLiteral("sort-rl");
        options.chooseTaskAutomatically = true;
        EngineController controller(options);
        controller.start();
        controller.leaveTask();
        QVERIFY(logged(QStringLiteral("leave")));
        EngineOptions next = controller.options();
        next.nodeName = QStringLiteral("renamed"); // a restart
        controller.reconfigure(next);
        QVERIFY(QTest::qWaitFor([] { return fake::enginesCreated() == 2; }, 5000));
        const EngineOptions restarted = fake::log().options().last();
        QCOMPARE(restarted.nodeName, QStringLiteral("renamed"));
        QVERIFY(restarted.taskId.isEmpty());
        QVERIFY(!restarted.chooseTaskAutomatically);
    }

    void stopWaitsForTheEngine()
    {
        EngineController controller(remoteOptions(m_dir.path()));
        QSignalSpy stopped(&controller, &EngineController::stopped);
        controller.stop(); // not running: at once
        QCOMPARE(stopped.count(), 1);
        controller.start();
        QVERIFY(logged(QStringLiteral("start on cohort-engine")));
        controller.stop();
        QVERIFY(stopped.wait());
        QCOMPARE(stopped.count(), 2);
        QVERIFY(!controller.isRunning());
        QVERIFY(logged(QStringLiteral("destroyed on cohort-engine")));
        QCOMPARE(fake::log().count(QStringLiteral("stop")), 1);
    }

    void anEngineThatNeverStopsIsNotReportedStopped()
    {
        fake::script().engineStops = false;
        EngineController controller(remoteOptions(m_dir.path()));
        QSignalSpy stopped(&controller, &EngineController::stopped);
        controller.start();
        controller.stop();
        QVERIFY(logged(QStringLiteral("stop")));
        QVERIFY(drained(controller)); // the engine has handled the stop, and nothing it said is still on its way
        QVERIFY(stopped.isEmpty());   // the desktop app's own bound decides what happens then (DesktopApp: engine hung)
        QVERIFY(controller.isRunning());
    }

    void whatTheEngineSaysReachesTheCaller()
    {
        EngineController controller(remoteOptions(m_dir.path()));
        QSignalSpy snapshots(&controller, &EngineController::snapshotChanged);
        QSignalSpy events(&controller, &EngineController::eventOccurred);
        QSignalSpy earnings(&controller, &EngineController::earningsChanged);
        controller.start();
        QVERIFY(logged(QStringLiteral("start on cohort-engine")));
        EngineSnapshot s;
        s.sequence = 41;
        s.state = NodeState::Working;
        s.why = QStringLiteral("generating");
        fake::currentEngine()->publish(s);
        fake::currentEngine()->say(EngineEvent::warning(EventCategory::Hub, QStringLiteral("slow hub")));
        EarningsReport report;
        report.total.confirmed = 12.5;
        fake::currentEngine()->reportEarnings(report, true);
        QVERIFY(QTest::qWaitFor([&] { return snapshots.count() == 1 && events.count() == 1 && earnings.count() == 1; },
                                5000));
        QCOMPARE(controller.snapshot().sequence, quint64(41));
        QCOMPARE(controller.snapshot().state, NodeState::Working);
        QCOMPARE(snapshots.first().first().value<EngineSnapshot>().why, QStringLiteral("generating"));
        QCOMPARE(events.first().first().value<EngineEvent>().severity, EngineEvent::Severity::Warning);
        QCOMPARE(earnings.first().first().value<EarningsReport>().total.confirmed, 12.5);
        QCOMPARE(earnings.first().at(1).toBool(), true);
    }
};

QTEST_GUILESS_MAIN(TestEngineController)
#include "tst_engine_controller.moc"
