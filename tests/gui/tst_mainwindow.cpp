// The main window, its pages and the tray icon, fed with hand-made snapshots (no engine).
#include "SampleSnapshots.h"
#include "core/NodeState.h"
#include "ui/ActivityModel.h"
#include "ui/ActivityPage.h"
#include "ui/DashboardPage.h"
#include "ui/DisplayFormat.h"
#include "ui/EarningsPage.h"
#include "ui/HeldOutChart.h"
#include "ui/MainWindow.h"
#include "ui/SnapshotThrottle.h"
#include "ui/StateIcons.h"
#include "ui/TasksPage.h"
#include "ui/TrayIcon.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QtTest>

using namespace cohort;

class TestMainWindow : public QObject {
    Q_OBJECT
private:
    static QString labelText(const QWidget &root, const char *name)
    {
        const auto *label = root.findChild<QLabel *>(QLatin1String(name));
        return label ? label->text() : QStringLiteral("<missing %1>").arg(QLatin1String(name));
    }

private Q_SLOTS:
    void dashboardShowsTheModelDownload()
    {
        EngineSnapshot s;
        QCOMPARE(DashboardPage::modelText(s), QStringLiteral("none yet"));
        s.download.phase = DownloadProgress::Phase::Downloading;
        s.download.version = 3;
        s.download.totalBytes = 200LL << 20;
        s.download.doneBytes = 50LL << 20;
        s.download.bytesPerSecond = 10 << 20;
        s.download.etaSeconds = 15;
        s.download.relays = {RelayProgress{}, RelayProgress{}};
        const QString downloading = DashboardPage::modelText(s);
        QVERIFY2(downloading.contains(QStringLiteral("version 3: 25%")), qPrintable(downloading));
        QVERIFY(downloading.contains(QStringLiteral("15 s left")));
        QVERIFY(downloading.contains(QStringLiteral("2 relay")));
        s.checkpointVersion = 2; // the next version, fetched while version 2 works
        QVERIFY2(
            DashboardPage::modelText(s).startsWith(QStringLiteral("version 2, verified; downloading version 3: 25%")),
            qPrintable(DashboardPage::modelText(s)));
        s.checkpointVersion = 0;
        // The relays serving the download, each with its score, speed and bytes.
        DashboardPage page;
        s.download.relays[0].url = QStringLiteral("http://relay-a:8421");
        s.download.relays[0].bandwidthMBps = 212.5;
        s.download.relays[0].bytes = 30LL << 20;
        s.download.relays[1].url = QStringLiteral("http://relay-b:8421");
        s.download.relays[1].successRate = 0.5;
        s.download.relays[1].failures = 2;
        s.download.relays[1].lastError = QStringLiteral("connection refused");
        page.showSnapshot(s);
        auto *relays = page.findChild<QTableWidget *>(QStringLiteral("relayTable"));
        QVERIFY(relays && !relays->isHidden());
        QCOMPARE(relays->rowCount(), 2);
        QCOMPARE(relays->item(0, 2)->text(), QStringLiteral("212.5 MB/s"));
        QCOMPARE(relays->item(0, 3)->text(), display::bytes(30LL << 20));
        QCOMPARE(relays->item(1, 1)->text(), QStringLiteral("50%"));
        QVERIFY(relays->item(1, 5)->text().contains(QStringLiteral("connection refused")));
        s.download.phase = DownloadProgress::Phase::Done;
        s.checkpointVersion = 3;
        page.showSnapshot(s);
        QVERIFY(relays->isHidden()); // finished: nothing to watch
        QCOMPARE(DashboardPage::modelText(s), QStringLiteral("version 3, verified"));
        s.download.phase = DownloadProgress::Phase::Failed;
        s.download.error = QStringLiteral("disk full");
        QVERIFY(DashboardPage::modelText(s).endsWith(QStringLiteral("download failed: disk full")));
    }

    // The window gets at most one snapshot per interval (the newest), but a change of state passes at once.
    void snapshotThrottlePassesUrgentChangesAtOnce()
    {
        SnapshotThrottle throttle(300);
        QSignalSpy ready(&throttle, &SnapshotThrottle::snapshotReady);
        EngineSnapshot s;
        s.state = NodeState::Working;
        s.why = QStringLiteral("step 1");
        throttle.offer(s);
        QCOMPARE(ready.size(), 1); // the first one at once
        s.why = QStringLiteral("step 2");
        throttle.offer(s);
        s.why = QStringLiteral("step 3");
        throttle.offer(s);
        QCOMPARE(ready.size(), 1); // held back
        QVERIFY(ready.wait(2000));
        QCOMPARE(ready.size(), 2);
        QCOMPARE(ready.last().at(0).value<EngineSnapshot>().why, QStringLiteral("step 3")); // the newest, once
        s.state = NodeState::Paused;
        s.why = QStringLiteral("Paused by you");
        throttle.offer(s);
        QCOMPARE(ready.size(), 3); // a new state: at once
        QCOMPARE(ready.last().at(0).value<EngineSnapshot>().state, NodeState::Paused);
        QVERIFY(!ready.wait(500)); // nothing pending
        QVERIFY(SnapshotThrottle::isUrgent(EngineSnapshot{}, s));
    }

    void dashboardShowsDilocoTraining()
    {
        EngineSnapshot s;
        TaskInfo task;
        task.id = QStringLiteral("lm");
        task.kind = QStringLiteral("diloco");
        task.title = QStringLiteral("Tiny LM");
        s.tasks = {task};
        s.joinedTaskId = task.id;
        QCOMPARE(DashboardPage::dilocoText(s), QStringLiteral("not training"));
        s.diloco.active = true;
        s.diloco.phase = QStringLiteral("connecting");
        QVERIFY(DashboardPage::dilocoText(s).startsWith(QStringLiteral("joining the training ring")));
        s.diloco.phase = QStringLiteral("averaging");
        s.diloco.outerStep = 11;
        s.diloco.innerStep = 20;
        s.diloco.innerSteps = 20;
        s.diloco.peers = 3;
        s.diloco.outerLoss = 1.234;
        s.diloco.outerStepsThisRun = 4;
        s.diloco.lastReduceBytes = 300 * 1024;
        const QString text = DashboardPage::dilocoText(s);
        QVERIFY2(text.startsWith(QStringLiteral("outer step 12, inner step 20 of 20, 3 peers — averaging")),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("loss 1.23")));
        QVERIFY(text.contains(QStringLiteral("4 outer steps contributed")));
        QVERIFY(text.contains(QStringLiteral("in step with the others")));
        s.diloco.lastSyncBytes = 2 << 20;
        QVERIFY(DashboardPage::dilocoText(s).contains(QStringLiteral("last sync fetched 2")));
        // The page shows the training row instead of the rollout row for a diloco task.
        DashboardPage page;
        page.showSnapshot(s);
        auto *row = page.findChild<QLabel *>(QStringLiteral("diloco"));
        QVERIFY(row);
        QCOMPARE(row->text(), DashboardPage::dilocoText(s));
        QVERIFY(!row->isHidden());
        QVERIFY(page.findChild<QLabel *>(QStringLiteral("rollouts"))->isHidden());
        QVERIFY(page.findChild<QLabel *>(QStringLiteral("model"))->isHidden());
        s.tasks[0].kind = QStringLiteral("rl");
        page.showSnapshot(s);
        QVERIFY(row->isHidden());
        QVERIFY(!page.findChild<QLabel *>(QStringLiteral("model"))->isHidden());
    }

    void dashboardShowsRolloutWork()
    {
        EngineSnapshot s;
        QCOMPARE(DashboardPage::rolloutsText(s), QStringLiteral("none yet"));
        s.rollouts.batchesAccepted = 3;
        s.rollouts.tokensGenerated = 1234;
        s.rollouts.tokensPerSecond = 812.4;
        s.rollouts.lastMeanReward = 0.456;
        s.rollouts.policyVersion = 7;
        s.rollouts.outboxBatches = 1;
        const QString text = DashboardPage::rolloutsText(s);
        QVERIFY2(text.startsWith(QStringLiteral("3 batches accepted")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("812 tokens/s")));
        QVERIFY(text.contains(QStringLiteral("scored 46 of 100 with version 7")));
        QVERIFY(text.contains(QStringLiteral("1 batch waiting to be sent")));
        s.rollouts.batchesRejected = 1;
        s.rollouts.lastRejection = QStringLiteral("stale_version");
        QVERIFY(DashboardPage::rolloutsText(s).endsWith(QStringLiteral("last rejection: stale_version")));
    }

    void dashboardShowsTheNetworksProgress()
    {
        EngineSnapshot s;
        s.joinedTaskId = QStringLiteral("arith-rl");
        QCOMPARE(DashboardPage::networkText(s), QString()); // nothing reported: the row hides
        s.progress.taskId = QStringLiteral("arith-rl");
        s.progress.heldOut = {HeldOutPoint{1, 0.162, 0.98, 0.32, 0.12, 0.29},
                              HeldOutPoint{37, 0.46, 1, 0.57, 0.3, 0.45}};
        QCOMPARE(DashboardPage::networkText(s),
                 QStringLiteral("version 37 answers 46 % of held-out problems correctly (16 % at version 1)"));
        s.contribution = TaskContribution{QStringLiteral("arith-rl"), 412, 0.083, 4, 31};
        QVERIFY(DashboardPage::networkText(s).endsWith(
            QStringLiteral("; your part 8.3 % of accepted batches, rank 4 of 31")));
        // Another task's figures (the hub answered for the task left a moment ago) are not shown.
        s.joinedTaskId = QStringLiteral("sort-rl");
        QCOMPARE(DashboardPage::networkText(s), QString());
        // A DiLoCo task: the hub's held-out loss of the shared model per outer step.
        EngineSnapshot d;
        d.joinedTaskId = d.progress.taskId = QStringLiteral("tiny-lm-diloco");
        d.progress.lossSequences = 32;
        d.progress.heldOutLoss = {HeldOutLossPoint{0, 5.548}, HeldOutLossPoint{57, 2.731}};
        QCOMPARE(DashboardPage::networkText(d),
                 QStringLiteral("held-out loss 2.73 at outer step 57 (5.55 at outer step 0)"));
        // And the row is in the window.
        MainWindow window;
        s.joinedTaskId = QStringLiteral("arith-rl");
        window.showSnapshot(s);
        auto *row = window.dashboardPage()->findChild<QLabel *>(QStringLiteral("network"));
        QVERIFY(row);
        QCOMPARE(row->text(), DashboardPage::networkText(s));
    }

    void dashboardShowsSnapshot()
    {
        MainWindow window;
        EngineSnapshot s = samples::snapshot(NodeState::Working, QStringLiteral("Working: task arith-rl, step 12"));
        window.showSnapshot(s);

        const DashboardPage &page = *window.dashboardPage();
        QCOMPARE(labelText(page, "stateTitle"), QStringLiteral("Working"));
        QCOMPARE(labelText(page, "stateWhy"), QStringLiteral("Working: task arith-rl, step 12"));
        QCOMPARE(labelText(page, "nodeId"), QStringLiteral("n-7f3a9c21d4e8b605"));
        QCOMPARE(labelText(page, "nodeName"), QStringLiteral("workshop-pc"));
        QVERIFY(labelText(page, "hubUrl").contains(QStringLiteral("Local network (embedded)")));
        QVERIFY(labelText(page, "hubUrl").contains(QStringLiteral("http://127.0.0.1:47113")));
        QCOMPARE(labelText(page, "computeDevice"), QStringLiteral("CPU (LibTorch 1.13.1, 2 threads)"));
        QVERIFY2(labelText(page, "cpuUsage").startsWith(QStringLiteral("37%")),
                 qPrintable(labelText(page, "cpuUsage")));
        const QString memory = labelText(page, "memoryUsage");
        QVERIFY2(memory.contains(display::bytes(s.system.memUsedBytes)) &&
                     memory.contains(display::bytes(s.system.memTotalBytes)) && memory.contains(QStringLiteral("38%")),
                 qPrintable(memory));
        QVERIFY(memory.contains(QStringLiteral("GiB")));
        QCOMPARE(labelText(page, "joinedTask"), QStringLiteral("none"));
        QVERIFY(window.statusText().contains(QStringLiteral("Working")));
        QVERIFY(window.statusText().contains(QStringLiteral("step 12")));

        // A later snapshot replaces everything: nothing sticks from the previous one.
        s.state = NodeState::Offline;
        s.why = QStringLiteral("Cannot reach the hub; retrying in 8 s");
        s.hubEmbedded = false;
        s.hubUrl = QStringLiteral("https://hub.example.org");
        s.system.cpuPercent = -1;
        s.joinedTaskId = QStringLiteral("arith-rl");
        window.showSnapshot(s);
        QCOMPARE(labelText(page, "stateTitle"), QStringLiteral("Offline"));
        QCOMPARE(labelText(page, "stateWhy"), s.why);
        QCOMPARE(labelText(page, "hubUrl"), QStringLiteral("https://hub.example.org"));
        QCOMPARE(labelText(page, "cpuUsage"), QStringLiteral("measuring…"));
        QCOMPARE(labelText(page, "joinedTask"), QStringLiteral("Arithmetic reasoning (RL)"));

        // A hub's words in the reason or an error are shown as text, never as markup (an <img> would be fetched, a link
        // would be clickable).
        s.why = QStringLiteral("Hub refused: <img src=\"http://evil.example/x.png\"><a href=\"file:///etc\">open</a>");
        s.lastError = s.why;
        window.showSnapshot(s);
        for (const char *name : {"stateWhy", "nodeId", "hubUrl", "joinedTask"}) {
            const auto *label = page.findChild<QLabel *>(QLatin1String(name));
            QVERIFY(label);
            QVERIFY2(label->textFormat() == Qt::PlainText, name);
        }
    }

    void pauseButtonAsksForTheOppositeOfWhatIsShown()
    {
        MainWindow window;
        QSignalSpy pauses(&window, &MainWindow::pauseRequested);
        QSignalSpy resumes(&window, &MainWindow::resumeRequested);
        auto *button = window.dashboardPage()->findChild<QPushButton *>(QStringLiteral("pauseButton"));
        QVERIFY(button);

        window.showSnapshot(samples::snapshot(NodeState::Idle, QStringLiteral("Connected; no task joined")));
        QCOMPARE(button->text(), QStringLiteral("Pause"));
        button->click();
        QCOMPARE(pauses.count(), 1);
        QCOMPARE(resumes.count(), 0);

        window.showSnapshot(samples::userPaused());
        QCOMPARE(button->text(), QStringLiteral("Resume"));
        QVERIFY(window.pauseAction()->text().contains(QStringLiteral("Resume")));
        button->click();
        window.pauseAction()->trigger();
        QCOMPARE(resumes.count(), 2);
        QCOMPARE(pauses.count(), 1);
    }

    void eachStateHasItsOwnIcon()
    {
        const QList<NodeState> distinct{NodeState::Starting,    NodeState::Idle,    NodeState::Working,
                                        NodeState::Downloading, NodeState::Syncing, NodeState::Throttled,
                                        NodeState::Paused,      NodeState::Offline, NodeState::Error};
        QSet<QString> paths;
        for (NodeState state : distinct) {
            const QString path = stateIconPath(state);
            QVERIFY2(QFile::exists(path), qPrintable(path));
            QVERIFY2(path.contains(nodeStateName(state)), qPrintable(path));
            // Needs the SVG icon engine: a null pixmap here means the icons would be blank in the tray.
            QVERIFY2(!stateIcon(state).pixmap(16, 16).isNull(), qPrintable(path));
            paths.insert(path);
        }
        QCOMPARE(paths.size(), distinct.size());
        QCOMPARE(stateIconPath(NodeState::Connecting), stateIconPath(NodeState::Starting));
        QVERIFY(QFile::exists(stateIconPath(NodeState::Stopping)));
        QVERIFY(!appIcon().pixmap(32, 32).isNull());
    }

    // The monochrome tray styles: every state has a light and a dark variant that renders, in one colour, and the
    // variants of different states still differ (the glyph tells the state); the tray switches style at once and
    // names its icons as installed in the hicolor theme.
    void monochromeTrayIconsKeepStatesApart()
    {
        const NodeState states[] = {NodeState::Starting,    NodeState::Idle,    NodeState::Working,
                                    NodeState::Downloading, NodeState::Syncing, NodeState::Throttled,
                                    NodeState::Paused,      NodeState::Offline, NodeState::Error};
        for (const TrayIconStyle style : {TrayIconStyle::Light, TrayIconStyle::Dark}) {
            QSet<QByteArray> drawings;
            const QByteArray colour = style == TrayIconStyle::Light ? QByteArray("#ffffff") : QByteArray("#1f2937");
            for (const NodeState state : states) {
                const QString path = stateIconPath(state, style);
                QFile file(path);
                QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
                QByteArray svg = file.readAll();
                // One colour only: every fill or stroke is that colour or none.
                static const QRegularExpression paint(QStringLiteral("(fill|stroke)=\"(#[0-9a-fA-F]{6})\""));
                for (auto it = paint.globalMatch(QString::fromUtf8(svg)); it.hasNext();)
                    QCOMPARE(it.next().captured(2).toUtf8(), colour);
                QVERIFY2(!stateIcon(state, style).pixmap(16, 16).isNull(), qPrintable(path));
                svg.replace(QByteArray("<!--"), QByteArray()); // compare drawings, not comments
                drawings.insert(svg.mid(svg.indexOf("-->")));
                QCOMPARE(stateIconThemeName(state, style),
                         QStringLiteral("io.cohort.Cohort-%1%2")
                             .arg(stateIconStem(state),
                                  style == TrayIconStyle::Light ? QStringLiteral("-light") : QStringLiteral("-dark")));
            }
            QCOMPARE(drawings.size(), qsizetype(std::size(states)));
        }
        TrayIcon tray;
        tray.showSnapshot(samples::snapshot(NodeState::Working, QString()));
        QCOMPARE(tray.iconPath(), stateIconPath(NodeState::Working));
        tray.setIconStyle(TrayIconStyle::Dark);
        QCOMPARE(tray.iconPath(), QStringLiteral(":/cohort/icons/state-working-dark.svg"));
        tray.showSnapshot(samples::userPaused());
        QCOMPARE(tray.iconPath(), QStringLiteral(":/cohort/icons/state-paused-dark.svg"));
    }

    void trayFollowsTheSnapshot()
    {
        TrayIcon tray;
        EngineSnapshot s = samples::snapshot(NodeState::Downloading, QStringLiteral("Downloading the model: v3, 41%"));
        tray.showSnapshot(s);
        QCOMPARE(tray.iconPath(), stateIconPath(NodeState::Downloading));
        QCOMPARE(tray.toolTip(), QStringLiteral("Cohort — Downloading: Downloading the model: v3, 41%"));
        QCOMPARE(tray.pauseAction()->text(), QStringLiteral("Pause"));

        tray.showSnapshot(samples::userPaused());
        QCOMPARE(tray.iconPath(), stateIconPath(NodeState::Paused));
        QVERIFY(tray.toolTip().contains(QStringLiteral("Paused")));
        QVERIFY(tray.toolTip().contains(QStringLiteral("Paused by you")));
        QCOMPARE(tray.pauseAction()->text(), QStringLiteral("Resume"));
        QSignalSpy resumes(&tray, &TrayIcon::resumeRequested);
        tray.pauseAction()->trigger();
        QCOMPARE(resumes.count(), 1);

        // The menu offers exactly what the brief promises, in order (hidden entries are for a running node).
        QStringList texts;
        for (QAction *action : tray.menu()->actions())
            if (!action->isSeparator() && action->isVisible())
                texts << action->text();
        QCOMPARE(texts, (QStringList{QStringLiteral("Open Cohort"), QStringLiteral("Resume"),
                                     QStringLiteral("Settings…"), QStringLiteral("Quit")}));

        // Working with a batch in hand: pausing now says what it drops; pause-after-batch and snooze are offered.
        EngineSnapshot working = samples::snapshot(NodeState::Working, QStringLiteral("task arith-rl"));
        working.schedule.workAtRiskSeconds = 12.4;
        tray.showSnapshot(working);
        QCOMPARE(tray.pauseAction()->text(), QStringLiteral("Pause now (drops 12 s of work in hand)"));
        QVERIFY(tray.pauseAfterStepAction()->isVisible() && tray.pauseAfterStepAction()->isEnabled());
        QSignalSpy afterStep(&tray, &TrayIcon::pauseAfterStepRequested);
        tray.pauseAfterStepAction()->trigger();
        QCOMPARE(afterStep.count(), 1);
        working.schedule.pauseAfterStep = true;
        tray.showSnapshot(working);
        QVERIFY(!tray.pauseAfterStepAction()->isEnabled()); // already asked: said, not offered twice
        QSignalSpy snoozes(&tray, &TrayIcon::snoozeRequested);
        const QList<QAction *> snoozeChoices = tray.snoozeAction()->menu()->actions();
        QCOMPARE(snoozeChoices.size(), 3);
        for (QAction *choice : snoozeChoices)
            choice->trigger();
        QCOMPARE(snoozes.count(), 3);
        QCOMPARE(snoozes[0].first().toInt(), 15 * 60);
        QCOMPARE(snoozes[1].first().toInt(), 3600);
        const int untilTomorrow = snoozes[2].first().toInt();
        QVERIFY2(untilTomorrow >= 7 * 3600 && untilTomorrow <= 31 * 3600 + 60,
                 qPrintable(QString::number(untilTomorrow))); // 07:00 tomorrow
        // Today's credits join the tooltip once the ledger has answered.
        EarningsReport report;
        report.today.pending = 1.0;
        report.today.confirmed = 0.25;
        tray.showEarnings(report);
        QVERIFY2(tray.toolTip().endsWith(QStringLiteral(" · today 1.25 credits")), qPrintable(tray.toolTip()));
        // Snoozed: the one action is Resume (which ends the snooze).
        EngineSnapshot snoozed = samples::snapshot(NodeState::Paused, QStringLiteral("snoozed"));
        snoozed.pauseReasons = {PauseReason::Snoozed};
        tray.showSnapshot(snoozed);
        QCOMPARE(tray.pauseAction()->text(), QStringLiteral("Resume"));
        QVERIFY(!tray.snoozeAction()->isVisible());

        s.why = QString(300, QLatin1Char('x'));
        QVERIFY(TrayIcon::toolTipFor(s).size() <= 127);
        QVERIFY(TrayIcon::toolTipFor(s).startsWith(QStringLiteral("Cohort — Downloading: xxx")));
    }

    // A notification's body may quote a hub: on Linux its markup would be read by the notification server.
    void notificationBodiesAreText()
    {
        const QString hostile =
            QStringLiteral("refused: <a href=\"file:///etc\">x</a> & <img src=\"http://evil.example/t.png\">");
#if defined(Q_OS_WIN) || defined(Q_OS_MACOS)
        QCOMPARE(TrayIcon::notificationBody(hostile), hostile);
#else
        QCOMPARE(TrayIcon::notificationBody(hostile),
                 QStringLiteral("refused: &lt;a href=&quot;file:///etc&quot;&gt;x&lt;/a&gt; &amp; &lt;img "
                                "src=&quot;http://evil.example/t.png&quot;&gt;"));
#endif
    }

    void activityModelDropsOldestPastItsCap()
    {
        ActivityModel model(10);
        for (int i = 0; i < 25; ++i)
            model.append(
                samples::event(EngineEvent::Severity::Info, EventCategory::Hub, QStringLiteral("event %1").arg(i)));
        QCOMPARE(model.rowCount(), 10);
        QCOMPARE(model.data(model.index(0, ActivityModel::MessageColumn)).toString(), QStringLiteral("event 15"));
        QCOMPARE(model.data(model.index(9, ActivityModel::MessageColumn)).toString(), QStringLiteral("event 24"));
        QCOMPARE(model.data(model.index(9, ActivityModel::CategoryColumn)).toString(), QStringLiteral("Hub"));

        model.append(samples::event(EngineEvent::Severity::Error, EventCategory::Task, QStringLiteral("boom")));
        QCOMPARE(model.rowCount(), 10);
        QCOMPARE(model.data(model.index(9, ActivityModel::SeverityColumn)).toString(), QStringLiteral("Error"));
        QVERIFY(model.data(model.index(9, ActivityModel::SeverityColumn), Qt::DecorationRole).isValid());

        MainWindow window; // the real page uses the documented cap
        QCOMPARE(window.activityPage()->model()->capacity(), 5000);
        for (int i = 0; i < 5003; ++i)
            window.appendEvent(
                samples::event(EngineEvent::Severity::Info, EventCategory::Lifecycle, QString::number(i)));
        QCOMPARE(window.activityPage()->model()->rowCount(), 5000);
        QCOMPARE(window.activityPage()->model()->eventAt(0).message, QStringLiteral("3"));
    }

    // Routine rows (each batch) are hidden unless "Each batch" is ticked, and they are the first to go at the cap, so
    // a week of batches does not push out the milestones and warnings between them.
    void activityRoutineRowsAreHiddenAndGoFirst()
    {
        ActivityModel model(4);
        EngineEvent routine =
            samples::event(EngineEvent::Severity::Info, EventCategory::Rollouts, QStringLiteral("batch 1"));
        routine.routine = true;
        model.append(samples::event(EngineEvent::Severity::Info, EventCategory::Hub, QStringLiteral("Registered")));
        model.append(routine);
        model.append(
            samples::event(EngineEvent::Severity::Warning, EventCategory::Rollouts, QStringLiteral("refused")));
        routine.message = QStringLiteral("batch 2");
        model.append(routine);
        model.append(samples::event(EngineEvent::Severity::Info, EventCategory::Rollouts, QStringLiteral("summary")));
        QCOMPARE(model.rowCount(), 4);
        QStringList messages;
        for (int row = 0; row < model.rowCount(); ++row)
            messages << model.eventAt(row).message;
        QCOMPARE(messages, (QStringList{QStringLiteral("Registered"), QStringLiteral("refused"),
                                        QStringLiteral("batch 2"), QStringLiteral("summary")}));

        ActivityPage page;
        for (int i = 0; i < 10; ++i) {
            routine.message = QStringLiteral("batch %1").arg(i);
            page.appendEvent(routine);
        }
        page.appendEvent(samples::event(EngineEvent::Severity::Info, EventCategory::Rollouts,
                                        QStringLiteral("10 batches accepted")));
        QCOMPARE(page.visibleRowCount(), 1);
        auto *box = page.findChild<QCheckBox *>(QStringLiteral("routineFilter"));
        QVERIFY(box);
        QVERIFY(!box->isChecked());
        box->setChecked(true);
        QCOMPARE(page.visibleRowCount(), 11);
        page.setShowRoutine(false);
        QCOMPARE(page.visibleRowCount(), 1);
        QVERIFY(page.visibleText(false).contains(QStringLiteral("10 batches accepted")));
    }

    void activityFollowsNewestUnlessScrolledUp()
    {
        MainWindow window;
        window.showPage(MainWindow::ActivityPageIndex);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ActivityPage *page = window.activityPage();
        QScrollBar *bar = page->view()->verticalScrollBar();
        for (int i = 0; i < 300; ++i)
            page->appendEvent(samples::event(EngineEvent::Severity::Info, EventCategory::Hub, QString::number(i)));
        QTRY_VERIFY(bar->maximum() > 0);
        QTRY_COMPARE(bar->value(), bar->maximum());

        bar->setValue(0); // the user scrolls up to read
        QVERIFY(!page->isFollowingNewest());
        for (int i = 0; i < 50; ++i)
            page->appendEvent(samples::event(EngineEvent::Severity::Info, EventCategory::Hub, QString::number(i)));
        QTRY_VERIFY(bar->maximum() > 0);
        QCoreApplication::processEvents();
        QCOMPARE(bar->value(), 0);

        bar->setValue(bar->maximum()); // back at the bottom: follow again
        QVERIFY(page->isFollowingNewest());
        const int before = bar->maximum();
        for (int i = 0; i < 50; ++i)
            page->appendEvent(samples::event(EngineEvent::Severity::Info, EventCategory::Hub, QString::number(i)));
        QTRY_VERIFY(bar->maximum() > before);
        QTRY_COMPARE(bar->value(), bar->maximum());
    }

    void activityFiltersAndCopies()
    {
        ActivityPage page;
        page.appendEvent(
            samples::event(EngineEvent::Severity::Info, EventCategory::Lifecycle, QStringLiteral("Started")));
        page.appendEvent(
            samples::event(EngineEvent::Severity::Warning, EventCategory::Checkpoint, QStringLiteral("Slow relay")));
        page.appendEvent(
            samples::event(EngineEvent::Severity::Error, EventCategory::Checkpoint, QStringLiteral("Disk full")));
        page.appendEvent(
            samples::event(EngineEvent::Severity::Error, EventCategory::Rollouts, QStringLiteral("Refused")));
        QCOMPARE(page.visibleRowCount(), 4);
        auto *subsystems = page.findChild<QComboBox *>(QStringLiteral("subsystemFilter"));
        QVERIFY(subsystems);
        QCOMPARE(subsystems->count(), 4); // all + the three seen
        page.setFilter(1, QString());
        QCOMPARE(page.visibleRowCount(), 3);
        page.setFilter(2, QString());
        QCOMPARE(page.visibleRowCount(), 2);
        page.setFilter(0, QStringLiteral("checkpoint"));
        QCOMPARE(page.visibleRowCount(), 2);
        QCOMPARE(subsystems->currentData().toString(), QStringLiteral("checkpoint"));
        const QString text = page.visibleText(false);
        QVERIFY(text.contains(EngineEvent::severityName(EngineEvent::Severity::Warning) +
                              QStringLiteral("\tcheckpoint\tSlow relay")));
        QVERIFY(text.contains(QStringLiteral("Disk full")));
        QVERIFY(!text.contains(QStringLiteral("Refused")));
        page.copyToClipboard();
        QCOMPARE(QApplication::clipboard()->text(), text); // nothing selected: everything shown
        page.setFilter(0, QString());
        QCOMPARE(page.allEvents().size(), 4); // diagnostics get everything, whatever the filter
        QVERIFY(page.findChild<QPushButton *>(QStringLiteral("saveDiagnosticsButton")));
        QSignalSpy save(&page, &ActivityPage::saveDiagnosticsRequested);
        page.findChild<QPushButton *>(QStringLiteral("saveDiagnosticsButton"))->click();
        QCOMPARE(save.count(), 1);
    }

    // The Tasks page draws a DiLoCo task's curve too: the hub's held-out loss per outer step, the RL series hidden.
    void tasksPageDrawsADilocoTasksHeldOutLoss()
    {
        MainWindow window;
        EngineSnapshot s = samples::snapshot(NodeState::Working, QStringLiteral("Working: DiLoCo"));
        s.joinedTaskId = s.progress.taskId = QStringLiteral("tiny-lm-diloco");
        s.progress.lossSequences = 32;
        s.progress.lossBetter = QStringLiteral("Lower is better.");
        s.progress.heldOutLoss = {HeldOutLossPoint{0, 5.548}, HeldOutLossPoint{12, 3.91}, HeldOutLossPoint{57, 2.731}};
        window.showSnapshot(s);
        TasksPage *page = window.tasksPage();
        auto *title = page->findChild<QLabel *>(QStringLiteral("progressTitle"));
        auto *chart = page->findChild<HeldOutChart *>(QStringLiteral("progressChart"));
        QVERIFY(title && chart);
        QVERIFY(title->isVisibleTo(page) && chart->isVisibleTo(page));
        QVERIFY2(title->text().contains(QStringLiteral("loss 2.73 at outer step 57, 5.55 at outer step 0")),
                 qPrintable(title->text()));
        QVERIFY(title->text().contains(QStringLiteral("Lower is better.")));
        QCOMPARE(chart->pointCount(), 3);
        // Another task's figures are not drawn.
        s.joinedTaskId = QStringLiteral("arith-rl");
        window.showSnapshot(s);
        QVERIFY(!chart->isVisibleTo(page));
    }

    void tasksPageListsTasksAndExplainsJoin()
    {
        MainWindow window;
        QSignalSpy joins(&window, &MainWindow::joinTaskRequested);
        window.showSnapshot(samples::snapshot(NodeState::Idle, QStringLiteral("Connected; no task joined")));
        TasksPage *page = window.tasksPage();
        QCOMPARE(page->taskCount(), 2);
        // No task joined: the dashboard points to the Tasks page.
        auto *choose = window.dashboardPage()->findChild<QPushButton *>(QStringLiteral("chooseTaskButton"));
        QVERIFY(choose && !choose->isHidden());
        choose->click();
        QCOMPARE(window.currentPage(), int(MainWindow::TasksPageIndex));
        auto *table = page->findChild<QTableWidget *>(QStringLiteral("taskTable"));
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("Arithmetic reasoning (RL)"));
        QCOMPARE(table->item(1, 0)->text(), QStringLiteral("Sorting model (DiLoCo)"));
        QVERIFY(table->item(0, 2)->text().contains(QStringLiteral("1.5 credits")));
        QVERIFY(table->item(1, 3)->text().contains(QStringLiteral("GPU")));

        // This machine: the RL task fits (no speed measured yet); the DiLoCo one is greyed with its reasons.
        QCOMPARE(table->item(0, 4)->text(), QStringLiteral("Fits (speed not measured yet)"));
        QVERIFY2(table->item(1, 4)->text().startsWith(QStringLiteral("Cannot run: ")) &&
                     table->item(1, 4)->text().contains(QStringLiteral("needs an NVIDIA GPU")),
                 qPrintable(table->item(1, 4)->text()));
        QVERIFY(table->item(1, 0)->foreground() != table->item(0, 0)->foreground());
        QVERIFY(page->noteText().isEmpty());
        QVERIFY(page->selectTask(QStringLiteral("sort-diloco")));
        QVERIFY(!page->findChild<QPushButton *>(QStringLiteral("joinButton"))->isEnabled());
        page->joinSelected(); // a double click still explains
        QCOMPARE(page->noteText(),
                 QStringLiteral("This computer cannot run Sorting model (DiLoCo): needs an NVIDIA GPU."));
        QCOMPARE(joins.count(), 0); // nothing was sent to the engine

        // Once the joined task's speed is measured, the estimate follows from it.
        EngineSnapshot measured = samples::snapshot(NodeState::Working, QStringLiteral("task arith-rl"));
        measured.joinedTaskId = QStringLiteral("arith-rl");
        measured.rollouts.tokensPerSecond = 2000;
        window.showSnapshot(measured);
        QCOMPARE(table->item(0, 4)->text(),
                 QStringLiteral("Fits: about 10800 credits/h (2000 tokens/s)")); // 2000 x 3.6 x 1.5
        window.showSnapshot(samples::snapshot(NodeState::Idle, QStringLiteral("Connected; no task joined")));

        // RL tasks have a work loop in this build: joining goes to the engine.
        QVERIFY(page->selectTask(QStringLiteral("arith-rl")));
        page->joinSelected();
        QCOMPARE(joins.count(), 1);
        QCOMPARE(joins.first().first().toString(), QStringLiteral("arith-rl"));
        QVERIFY(page->noteText().isEmpty());

        // The joined task is marked, and the selection survives snapshots that repeat the catalogue.
        EngineSnapshot joined = samples::snapshot(NodeState::Working, QStringLiteral("Working"));
        joined.joinedTaskId = QStringLiteral("arith-rl");
        window.showSnapshot(joined);
        QCOMPARE(table->item(0, 5)->text(), QStringLiteral("Joined"));
        QVERIFY(choose->isHidden());
        QCOMPARE(table->item(1, 5)->text(), QString());
        QVERIFY(table->item(0, 0)->isSelected());
        QVERIFY(!page->findChild<QPushButton *>(QStringLiteral("joinButton"))->isEnabled());
        QVERIFY(page->findChild<QPushButton *>(QStringLiteral("leaveButton"))->isEnabled());

        // A newer hub's kind is listed, greyed, and explained; the DiLoCo task runs once the machine fits it.
        EngineSnapshot newer = samples::snapshot(NodeState::Idle, QStringLiteral("Connected; no task joined"));
        newer.tasks[1].requirements = {};
        newer.tasks.append(samples::task(QStringLiteral("chat"), QStringLiteral("inference"),
                                         QStringLiteral("Serve a chat model"), 2));
        window.showSnapshot(newer);
        QCOMPARE(table->rowCount(), 3);
        QCOMPARE(table->item(2, 4)->text(),
                 QStringLiteral("Cannot run: this version of Cohort cannot run inference tasks yet"));
        QVERIFY(page->selectTask(QStringLiteral("chat")));
        QVERIFY(!page->findChild<QPushButton *>(QStringLiteral("joinButton"))->isEnabled());
        page->joinSelected();
        QVERIFY2(page->noteText().contains(
                     QStringLiteral("This hub also offers inference tasks, which this version of Cohort cannot run")),
                 qPrintable(page->noteText()));
        QVERIFY(page->selectTask(QStringLiteral("sort-diloco")));
        QVERIFY(page->findChild<QPushButton *>(QStringLiteral("joinButton"))->isEnabled());
        page->joinSelected();
        QVERIFY(page->noteText().isEmpty());
        QCOMPARE(joins.count(), 2);
        QCOMPARE(joins.last().first().toString(), QStringLiteral("sort-diloco"));
    }

    void earningsShowAnHonestEmptyState()
    {
        MainWindow window;
        const EarningsPage &page = *window.earningsPage();
        QVERIFY(labelText(page, "earningsEmptyState").startsWith(QStringLiteral("No earnings yet")));
        QVERIFY(labelText(page, "pendingEarnings").startsWith(QStringLiteral("0")));
        QVERIFY(labelText(page, "confirmedEarnings").startsWith(QStringLiteral("0")));
        QVERIFY(!page.findChild<QLabel *>(QStringLiteral("earningsEmptyState"))->isHidden());
    }

    void closingWithoutTrayQuitsAndWithTrayHides()
    {
        MainWindow window;
        QSignalSpy quits(&window, &MainWindow::quitRequested);
        QSignalSpy hidden(&window, &MainWindow::hiddenToTray);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setCloseHidesToTray(true);
        QVERIFY(!window.close()); // refused: hidden instead
        QVERIFY(!window.isVisible());
        QCOMPARE(hidden.count(), 1);
        QCOMPARE(quits.count(), 0);

        window.show();
        window.setCloseHidesToTray(false);
        QVERIFY(window.close());
        QCOMPARE(quits.count(), 1);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
