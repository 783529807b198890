// The engine through its only door, EngineController: a real engine thread and a real embedded hub on loopback.
#include "api/EngineController.h"
#include "assembly/BuiltinEngineParts.h"
#include "core/TaskFit.h"
#include "net/Identity.h"
#include "net/RequestSigning.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace cohort;

class TestEngine : public QObject {
    Q_OBJECT

    static bool hasEvent(const QSignalSpy &spy, const QString &fragment)
    {
        for (const auto &args : spy)
            if (args.at(0).value<EngineEvent>().message.contains(fragment))
                return true;
        return false;
    }

private Q_SLOTS:
    void initTestCase() { registerEngineParts(&builtinEngineParts()); } // the engine linked in, as in cohortd

    void lifecycleOnEmbeddedNetwork()
    {
        QTemporaryDir dir;
        EngineController controller(EngineOptions{.dataDir = dir.path(), .nodeName = QStringLiteral("tester")});
        QSignalSpy events(&controller, &EngineController::eventOccurred);
        controller.start();
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Idle, 20'000);
        const EngineSnapshot s = controller.snapshot();
        QVERIFY(s.nodeId.startsWith(QStringLiteral("n-")));
        QVERIFY(s.hubEmbedded);
        QVERIFY(s.hubUrl.startsWith(QStringLiteral("http://127.0.0.1:")));
        QCOMPARE(s.hubUrl, controller.embeddedHubUrl());
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().tasks.size(), 3, 10'000);
        QVERIFY(!controller.snapshot().computeDevice.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(
            controller.snapshot().system.memTotalBytes > 0 || QSysInfo::productType() != QLatin1String("debian"), 5000);
        QVERIFY(hasEvent(events, QStringLiteral("Registered with the local network")));
        QTRY_VERIFY_WITH_TIMEOUT(
            hasEvent(events, QStringLiteral("No task joined; this hub offers arith-rl, sort-rl, tiny-lm-diloco")),
            5000);
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("identity/node.key"))));
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("hub/hub.sqlite"))));

        controller.pause();
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Paused, 5000);
        QCOMPARE(controller.snapshot().reason, PauseReason::User);
        QCOMPARE(controller.snapshot().why, QStringLiteral("Paused by you"));
        controller.togglePause();
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Idle, 5000);

        controller.joinTask(QStringLiteral("arith-rl"));
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().joinedTaskId, QStringLiteral("arith-rl"), 5000);
        // The embedded hub starts the task's trainer (warm-up); the node says it waits for that first policy.
        QTRY_VERIFY_WITH_TIMEOUT(controller.snapshot().why.contains(QStringLiteral("first policy")), 5000);
        controller.joinTask(QStringLiteral("no-such-task"));
        QTRY_VERIFY_WITH_TIMEOUT(hasEvent(events, QStringLiteral("no task 'no-such-task'")), 5000);

        QSignalSpy stopped(&controller, &EngineController::stopped);
        controller.stop();
        QVERIFY(stopped.wait(10'000));
        QCOMPARE(controller.snapshot().state, NodeState::Stopping);
        QVERIFY(!controller.isRunning());
    }

    // The joined task is remembered across restarts (engine bundle), and forgotten once left. The task here is the
    // embedded hub's DiLoCo task: the node trains it alone, through the hub's collectives master, and a restart
    // resumes it from its DiLoCo checkpoint.
    void joinedTaskSurvivesARestart()
    {
        QTemporaryDir dir;
        const EngineOptions options{.dataDir = dir.path(), .nodeName = QStringLiteral("tester")};
        {
            EngineController controller(options);
            controller.start();
            QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().tasks.size(), 3, 20'000);
            controller.joinTask(QStringLiteral("tiny-lm-diloco"));
            QTRY_VERIFY_WITH_TIMEOUT(controller.snapshot().diloco.outerStepsThisRun >= 1, 60'000);
            QCOMPARE(controller.snapshot().diloco.peers, 1);
            QVERIFY(controller.snapshot().why.contains(QStringLiteral("DiLoCo")));
            QSignalSpy stopped(&controller, &EngineController::stopped);
            controller.stop();
            QVERIFY(stopped.wait(20'000));
        }
        {
            EngineController controller(options); // no task named this time
            controller.start();
            QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().joinedTaskId, QStringLiteral("tiny-lm-diloco"), 20'000);
            QTRY_VERIFY_WITH_TIMEOUT(controller.snapshot().diloco.active && controller.snapshot().diloco.innerStep > 0,
                                     30'000);
            QVERIFY(controller.snapshot().diloco.resumed);
            QVERIFY(controller.snapshot().diloco.outerStep >= 1);
            controller.leaveTask();
            QTRY_VERIFY_WITH_TIMEOUT(
                controller.snapshot().joinedTaskId.isEmpty() && !controller.snapshot().diloco.active, 20'000);
            QSignalSpy stopped(&controller, &EngineController::stopped);
            controller.stop();
            QVERIFY(stopped.wait(20'000));
        }
        {
            EngineController controller(options);
            controller.start();
            QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Idle, 20'000);
            QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().tasks.size(), 3, 10'000);
            QVERIFY(controller.snapshot().joinedTaskId.isEmpty());
            QSignalSpy stopped(&controller, &EngineController::stopped);
            controller.stop();
            QVERIFY(stopped.wait(20'000));
        }
    }

    // Asked to choose (cohortd --task auto, the welcome's Start), a node with no task joins the first of the hub's
    // tasks this computer can run; a task remembered from the last run wins over the choice.
    void automaticChoiceJoinsTheFirstTaskThatFits()
    {
        QTemporaryDir dir;
        EngineOptions options{.dataDir = dir.path(), .nodeName = QStringLiteral("tester")};
        options.chooseTaskAutomatically = true;
        {
            EngineController controller(options);
            QSignalSpy events(&controller, &EngineController::eventOccurred);
            controller.start();
            QTRY_VERIFY_WITH_TIMEOUT(!controller.snapshot().joinedTaskId.isEmpty(), 20'000);
            const EngineSnapshot s = controller.snapshot();
            QCOMPARE(s.joinedTaskId, automaticTaskChoice(s.tasks, s));
            QCOMPARE(s.joinedTaskId,
                     QStringLiteral("arith-rl")); // the catalogue's first; it needs 2 cores, CI has them
            QVERIFY(hasEvent(events, QStringLiteral("Chose task arith-rl")));
            QVERIFY(!hasEvent(events, QStringLiteral("No task joined")));
            controller.joinTask(QStringLiteral("sort-rl")); // the user's choice, remembered for the next start
            QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().joinedTaskId, QStringLiteral("sort-rl"), 5000);
            QSignalSpy stopped(&controller, &EngineController::stopped);
            controller.stop();
            QVERIFY(stopped.wait(20'000));
        }
        {
            // As the desktop app does it: the options name no choice, the welcome's Start asks for one.
            EngineOptions plain = options;
            plain.chooseTaskAutomatically = false;
            EngineController controller(plain);
            QSignalSpy events(&controller, &EngineController::eventOccurred);
            controller.chooseTaskAutomatically();
            controller.start();
            QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().joinedTaskId, QStringLiteral("sort-rl"), 20'000);
            QTRY_VERIFY_WITH_TIMEOUT(hasEvent(events, QStringLiteral("The hub offers 3 tasks")), 5000);
            // Leaving after the choice was settled: nothing joins again behind the user's back, not even after a
            // restart for changed settings.
            controller.leaveTask();
            controller.pause();
            QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Paused, 5000);
            QVERIFY(controller.snapshot().joinedTaskId.isEmpty());
            EngineOptions renamed = plain;
            renamed.nodeName = QStringLiteral("renamed");
            controller.reconfigure(renamed);
            QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().nodeName, QStringLiteral("renamed"), 20'000);
            QTRY_VERIFY_WITH_TIMEOUT(hasEvent(events, QStringLiteral("No task joined; this hub offers")), 20'000);
            QVERIFY(controller.snapshot().joinedTaskId.isEmpty());
            QVERIFY(!hasEvent(events, QStringLiteral("Chose task")));
            QSignalSpy stopped(&controller, &EngineController::stopped);
            controller.stop();
            QVERIFY(stopped.wait(20'000));
        }
    }

    void snapshotsAreRateLimited()
    {
        QTemporaryDir dir;
        EngineController controller(EngineOptions{.dataDir = dir.path()});
        controller.start();
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Idle, 20'000);
        QSignalSpy snapshots(&controller, &EngineController::snapshotChanged);
        QElapsedTimer clock;
        clock.start();
        // 400 state changes as fast as the queue takes them.
        for (int i = 0; i < 200; ++i) {
            controller.pause();
            controller.resume();
        }
        QTRY_VERIFY_WITH_TIMEOUT(clock.elapsed() > 1500, 5000); // let the engine drain the queue and publish
        const double seconds = clock.elapsed() / 1000.0;
        QVERIFY2(snapshots.count() <= int(seconds * 4) + 2,
                 qPrintable(QStringLiteral("%1 snapshots in %2 s").arg(snapshots.count()).arg(seconds)));
        QVERIFY(snapshots.count() >= 1);
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Idle, 5000); // the last command wins
        QSignalSpy stopped(&controller, &EngineController::stopped);
        controller.stop();
        QVERIFY(stopped.wait(10'000));
    }

    void reconfigureRestartsWithNewOptions()
    {
        QTemporaryDir a, b;
        EngineController controller(EngineOptions{.dataDir = a.path()});
        controller.start();
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Idle, 20'000);
        const QString firstId = controller.snapshot().nodeId;
        QSignalSpy stoppedDuringRestart(&controller, &EngineController::stopped);
        controller.reconfigure(EngineOptions{.dataDir = b.path()});
        QTRY_VERIFY_WITH_TIMEOUT(controller.snapshot().state == NodeState::Idle &&
                                     controller.snapshot().nodeId != firstId && !controller.snapshot().nodeId.isEmpty(),
                                 20'000);
        QVERIFY(QFile::exists(b.filePath(QStringLiteral("identity/node.key"))));
        QCOMPARE(stoppedDuringRestart.count(), 0); // a restart is not a stop
        QSignalSpy stopped(&controller, &EngineController::stopped);
        controller.stop();
        QVERIFY(stopped.wait(10'000));
    }

    // The payout address reaches the hub with the registration, and a change in the settings reaches it with the next
    // heartbeat — no restart; so does a change of the upload cap (applied by the running engine).
    void payoutAddressAndUploadCapApplyWithoutRestart()
    {
        QTemporaryDir dir;
        EngineOptions options{.dataDir = dir.path(), .nodeName = QStringLiteral("tester"), .heartbeatIntervalMs = 200};
        options.payoutAddress = QStringLiteral("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed");
        EngineController controller(options);
        QSignalSpy events(&controller, &EngineController::eventOccurred);
        controller.start();
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Idle, 20'000);
        auto identity = Identity::loadOrCreate(dir.filePath(QStringLiteral("identity")));
        QVERIFY(identity);
        QCOMPARE(identity->nodeId(), controller.snapshot().nodeId);

        // The node's own, signed view of its earnings says where the hub will pay them.
        QNetworkAccessManager net;
        const QString path = QStringLiteral("/v1/nodes/%1/earnings").arg(identity->nodeId());
        const auto payoutOnHub = [&]() -> QString {
            QNetworkRequest request(QUrl(controller.embeddedHubUrl() + path));
            for (const auto &[k, v] :
                 signRequest(*identity, "GET", path.toUtf8(), {}, QDateTime::currentMSecsSinceEpoch()))
                request.setRawHeader(k, v);
            QNetworkReply *reply = net.get(request);
            QSignalSpy finished(reply, &QNetworkReply::finished);
            if (!reply->isFinished() && !finished.wait(10'000))
                return QStringLiteral("(no answer)");
            reply->deleteLater();
            return QJsonDocument::fromJson(reply->readAll())
                .object()
                .value(QStringLiteral("payout_address"))
                .toString(QStringLiteral("(missing)"));
        };
        QTRY_COMPARE_WITH_TIMEOUT(payoutOnHub(), options.payoutAddress, 10'000);

        EngineOptions changed = options;
        changed.payoutAddress = QStringLiteral("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359");
        changed.maxUploadBytesPerSecond = 64 * 1024;
        controller.reconfigure(changed);
        QCOMPARE(controller.options().payoutAddress, changed.payoutAddress);
        QTRY_COMPARE_WITH_TIMEOUT(payoutOnHub(), changed.payoutAddress, 10'000);
        QVERIFY(!hasEvent(events, QStringLiteral("restarting the engine")));
        QCOMPARE(controller.snapshot().state, NodeState::Idle);

        QSignalSpy stopped(&controller, &EngineController::stopped);
        controller.stop();
        QVERIFY(stopped.wait(10'000));
    }

    void damagedIdentityIsAnErrorWithAReason()
    {
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("identity"))));
        QFile key(dir.filePath(QStringLiteral("identity/node.key")));
        QVERIFY(key.open(QIODevice::WriteOnly));
        key.write("{ truncated");
        key.close();
        EngineController controller(EngineOptions{.dataDir = dir.path()});
        controller.start();
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Error, 20'000);
        QVERIFY(controller.snapshot().why.contains(QStringLiteral("damaged")));
        QVERIFY(key.open(QIODevice::ReadOnly));
        QCOMPARE(key.readAll(), QByteArray("{ truncated")); // kept for the user
        QSignalSpy stopped(&controller, &EngineController::stopped);
        controller.stop();
        QVERIFY(stopped.wait(10'000));
    }

    void unreachableHubIsOfflineAndSaysWhy()
    {
        QTemporaryDir dir;
        EngineController controller(
            EngineOptions{.dataDir = dir.path(), .hubUrl = QStringLiteral("http://127.0.0.1:9")});
        controller.start();
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Offline, 20'000);
        QVERIFY(controller.snapshot().why.startsWith(QStringLiteral("Cannot reach the hub")));
        QVERIFY(controller.snapshot().why.contains(QStringLiteral("retrying in")));
        QVERIFY(!controller.snapshot().hubEmbedded);
        QSignalSpy stopped(&controller, &EngineController::stopped);
        controller.stop();
        QVERIFY(stopped.wait(10'000));
    }
};

QTEST_GUILESS_MAIN(TestEngine)
#include "tst_engine.moc"
