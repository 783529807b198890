#include "core/EngineSnapshot.h"
#include "core/NodeState.h"
#include "node/StatusLine.h"

#include <QJsonArray>
#include <QTest>

using namespace cohort;

class TestState : public QObject {
    Q_OBJECT
    static StateInputs online()
    {
        StateInputs in;
        in.hubLink = HubLink::Online;
        return in;
    }

private Q_SLOTS:
    void precedence_data()
    {
        QTest::addColumn<int>("scenario");
        QTest::addColumn<NodeState>("expected");
        QTest::newRow("idle") << 0 << NodeState::Idle;
        QTest::newRow("working") << 1 << NodeState::Working;
        QTest::newRow("syncing beats working") << 2 << NodeState::Syncing;
        QTest::newRow("downloading beats syncing") << 3 << NodeState::Downloading;
        QTest::newRow("throttled beats downloading") << 4 << NodeState::Throttled;
        QTest::newRow("paused beats throttled") << 5 << NodeState::Paused;
        QTest::newRow("offline beats paused") << 6 << NodeState::Offline;
        QTest::newRow("error beats offline") << 7 << NodeState::Error;
        QTest::newRow("stopping beats error") << 8 << NodeState::Stopping;
        QTest::newRow("not started") << 9 << NodeState::Starting;
        QTest::newRow("connecting") << 10 << NodeState::Connecting;
        QTest::newRow("paused while connecting") << 11 << NodeState::Paused;
    }
    void precedence()
    {
        QFETCH(int, scenario);
        QFETCH(NodeState, expected);
        StateInputs in = online();
        // Each scenario adds one more fact on top of the previous ones.
        if (scenario >= 1)
            in.working = true;
        if (scenario >= 2)
            in.syncing = true;
        if (scenario >= 3)
            in.downloading = true;
        if (scenario >= 4)
            in.throttleReasons = {PauseReason::TooHot};
        if (scenario >= 5)
            in.pauseReasons = {PauseReason::OnBattery};
        if (scenario >= 6)
            in.hubLink = HubLink::Lost;
        if (scenario >= 7)
            in.fatalError = QStringLiteral("disk on fire");
        if (scenario >= 8)
            in.stopping = true;
        if (scenario == 9)
            in = StateInputs{};
        if (scenario == 10) {
            in = StateInputs{};
            in.hubLink = HubLink::Connecting;
        }
        if (scenario == 11) {
            in = StateInputs{};
            in.hubLink = HubLink::Connecting;
            in.pauseReasons = {PauseReason::User};
        }
        const ResolvedState r = resolveState(in);
        QCOMPARE(r.state, expected);
        QVERIFY(!r.why.isEmpty());
    }

    // The reason under the headline says what the work is, without repeating the state's name.
    void workingSaysWhatTheWorkIs()
    {
        StateInputs in = online();
        in.working = true;
        QCOMPARE(resolveState(in).why, QStringLiteral("Working"));
        in.activityDetail = QStringLiteral("arith-rl: generating rollouts with policy v3");
        QCOMPARE(resolveState(in).why, in.activityDetail);
        in.downloading = true;
        QCOMPARE(resolveState(in).why, QStringLiteral("Downloading the model: ") + in.activityDetail);
    }

    void mostActionablePauseReasonWins()
    {
        StateInputs in = online();
        in.pauseReasons = {PauseReason::NotIdle, PauseReason::OnBattery, PauseReason::DiskFull};
        ResolvedState r = resolveState(in);
        QCOMPARE(r.reason, PauseReason::DiskFull);
        QVERIFY(r.why.contains(QStringLiteral("disk")));
        in.pauseReasons.append(PauseReason::User);
        r = resolveState(in);
        QCOMPARE(r.reason, PauseReason::User);
        QCOMPARE(r.why, QStringLiteral("Paused by you"));
    }

    void offlineSaysWhyAndWhen()
    {
        StateInputs in;
        in.hubLink = HubLink::Lost;
        in.hubError = QStringLiteral("Connection refused");
        in.retryInSeconds = 8;
        const ResolvedState r = resolveState(in);
        QCOMPARE(r.state, NodeState::Offline);
        QVERIFY(r.why.contains(QStringLiteral("Connection refused")));
        QVERIFY(r.why.contains(QStringLiteral("8 s")));
    }

    void namesRoundTrip()
    {
        for (int i = int(NodeState::Starting); i <= int(NodeState::Stopping); ++i) {
            const auto state = NodeState(i);
            bool ok = false;
            QCOMPARE(nodeStateFromName(nodeStateName(state), &ok), state);
            QVERIFY(ok);
        }
        bool ok = true;
        nodeStateFromName(QStringLiteral("dancing"), &ok);
        QVERIFY(!ok);
    }

    void snapshotJsonAndStatusLineAgree()
    {
        EngineSnapshot s;
        s.state = NodeState::Paused;
        s.reason = PauseReason::User;
        s.pauseReasons = {PauseReason::User};
        s.why = QStringLiteral("Paused by you");
        s.nodeId = QStringLiteral("n-0123456789abcdef0123");
        s.system.cpuPercent = 42.4;
        s.system.memUsedBytes = 3LL << 30;
        s.system.memTotalBytes = 8LL << 30;
        const QJsonObject json = s.toJson();
        QCOMPARE(json.value(QStringLiteral("state")).toString(), QStringLiteral("paused"));
        QCOMPARE(json.value(QStringLiteral("reason")).toString(), QStringLiteral("user"));
        QCOMPARE(json.value(QStringLiteral("pause_reasons")).toArray().size(), 1);
        const QString line = statusLine(s, 75);
        QVERIFY2(line.startsWith(QStringLiteral("[01:15] Paused — Paused by you")), qPrintable(line));
        QVERIFY(line.contains(QStringLiteral("CPU 42%")));
        QVERIFY(line.contains(QStringLiteral("3.0 GiB/8.0 GiB")));
        QVERIFY(line.contains(s.nodeId));
    }
};

QTEST_GUILESS_MAIN(TestState)
#include "tst_state.moc"
