// Which engine transitions become tray notifications, at which level, how often: Notifier without a tray.
#include "SampleSnapshots.h"
#include "ui/Notifier.h"

#include <QSignalSpy>
#include <QtTest>

using namespace cohort;

namespace {
QList<NotificationKind> kinds(const QList<Notification> &list)
{
    QList<NotificationKind> out;
    for (const Notification &n : list)
        out.append(n.kind);
    return out;
}

EngineSnapshot at(NodeState state, quint64 sequence)
{
    EngineSnapshot s = samples::snapshot(state, QStringLiteral("because"));
    s.sequence = sequence;
    return s;
}
} // namespace

class TestNotifier : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void snapshotTransitions()
    {
        const EngineSnapshot working = at(NodeState::Working, 1);
        QVERIFY(Notifier::fromSnapshots(working, working).isEmpty()); // nothing changed, nothing to say

        EngineSnapshot error = at(NodeState::Error, 2);
        error.why = QStringLiteral("The node key is damaged");
        const auto errors = Notifier::fromSnapshots(working, error);
        QCOMPARE(kinds(errors), QList<NotificationKind>{NotificationKind::EngineError});
        QCOMPARE(errors.first().text, QStringLiteral("The node key is damaged"));
        QVERIFY(!errors.first().isMilestone());
        QVERIFY(Notifier::fromSnapshots(error, error).isEmpty()); // still in error: said once

        QCOMPARE(kinds(Notifier::fromSnapshots(working, at(NodeState::Offline, 2))),
                 QList<NotificationKind>{NotificationKind::HubLost});

        EngineSnapshot full = working;
        full.pauseReasons = {PauseReason::DiskFull};
        QCOMPARE(kinds(Notifier::fromSnapshots(working, full)), QList<NotificationKind>{NotificationKind::DiskFull});

        EngineSnapshot refused = working;
        refused.rollouts.batchesRejected = 1;
        refused.rollouts.lastRejection = QStringLiteral("stale policy version");
        const auto batch = Notifier::fromSnapshots(working, refused);
        QCOMPARE(kinds(batch), QList<NotificationKind>{NotificationKind::BatchRefused});
        QCOMPARE(batch.first().text, QStringLiteral("stale policy version"));

        // Downloads: in progress -> done is a milestone; -> failed an error; "done" restored at start is neither.
        EngineSnapshot downloading = working;
        downloading.download.phase = DownloadProgress::Phase::Downloading;
        downloading.download.taskId = QStringLiteral("arith-rl");
        downloading.download.version = 7;
        EngineSnapshot done = downloading;
        done.download.phase = DownloadProgress::Phase::Done;
        const auto ready = Notifier::fromSnapshots(downloading, done);
        QCOMPARE(kinds(ready), QList<NotificationKind>{NotificationKind::CheckpointReady});
        QVERIFY(ready.first().isMilestone());
        QVERIFY(ready.first().text.contains(QStringLiteral("7")));
        QVERIFY(Notifier::fromSnapshots(working, done).isEmpty()); // None -> Done: restored, not news
        EngineSnapshot failed = downloading;
        failed.download.phase = DownloadProgress::Phase::Failed;
        failed.download.error = QStringLiteral("every relay failed");
        QCOMPARE(kinds(Notifier::fromSnapshots(downloading, failed)),
                 QList<NotificationKind>{NotificationKind::DownloadFailed});

        // Errors come before milestones when both happen at once.
        EngineSnapshot both = done;
        both.state = NodeState::Error;
        QCOMPARE(kinds(Notifier::fromSnapshots(downloading, both)),
                 (QList<NotificationKind>{NotificationKind::EngineError, NotificationKind::CheckpointReady}));
    }

    void earningsTransitions()
    {
        EarningsReport none;
        none.nodeId = QStringLiteral("n-1");
        EarningsReport pending = none;
        pending.total.pending = 2;
        QVERIFY(Notifier::fromEarnings(none, pending).isEmpty()); // pending is not verified yet
        EarningsReport confirmed = pending;
        confirmed.total.confirmed = 1.25;
        const auto first = Notifier::fromEarnings(pending, confirmed);
        QCOMPARE(kinds(first), QList<NotificationKind>{NotificationKind::FirstVerified});
        QVERIFY(first.first().isMilestone());
        EarningsReport more = confirmed;
        more.total.confirmed = 3;
        QVERIFY(Notifier::fromEarnings(confirmed, more).isEmpty()); // only the first is a milestone
        EarningsReport flagged = more;
        flagged.total.refused = 0.5;
        const auto refused = Notifier::fromEarnings(more, flagged);
        QCOMPARE(kinds(refused), QList<NotificationKind>{NotificationKind::WorkRefused});
        QVERIFY(!refused.first().isMilestone());
    }

    void levels()
    {
        const Notification error{NotificationKind::HubLost, QStringLiteral("t"), QStringLiteral("x")};
        const Notification milestone{NotificationKind::FirstVerified, QStringLiteral("t"), QStringLiteral("x")};
        QVERIFY(!Notifier::allows(NotifyLevel::Off, error));
        QVERIFY(!Notifier::allows(NotifyLevel::Off, milestone));
        QVERIFY(Notifier::allows(NotifyLevel::Errors, error));
        QVERIFY(!Notifier::allows(NotifyLevel::Errors, milestone));
        QVERIFY(Notifier::allows(NotifyLevel::ErrorsAndMilestones, error));
        QVERIFY(Notifier::allows(NotifyLevel::ErrorsAndMilestones, milestone));
    }

    // Through the slots: the first snapshot is a baseline, one notification per kind per interval, the level
    // filters, and a restarted engine (sequence back to 1) is a new baseline.
    void rateLimitAndBaseline()
    {
        Notifier notifier;
        QDateTime now = QDateTime::fromSecsSinceEpoch(1'800'000'000, Qt::UTC);
        notifier.setClock([&now] { return now; });
        notifier.setIntervalSeconds(600);
        QSignalSpy spy(&notifier, &Notifier::notificationReady);

        notifier.onSnapshot(at(NodeState::Offline, 1)); // at start: baseline only
        QCOMPARE(spy.count(), 0);
        notifier.onSnapshot(at(NodeState::Working, 2));
        notifier.onSnapshot(at(NodeState::Offline, 3));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.last().first().value<Notification>().kind, NotificationKind::HubLost);

        now = now.addSecs(300); // flapping within the interval: quiet
        notifier.onSnapshot(at(NodeState::Working, 4));
        notifier.onSnapshot(at(NodeState::Offline, 5));
        QCOMPARE(spy.count(), 1);
        EngineSnapshot failed = at(NodeState::Error, 6); // another kind is not held back by it
        notifier.onSnapshot(failed);
        QCOMPARE(spy.count(), 2);
        QCOMPARE(spy.last().first().value<Notification>().kind, NotificationKind::EngineError);

        now = now.addSecs(301); // past the interval for HubLost
        notifier.onSnapshot(at(NodeState::Working, 7));
        notifier.onSnapshot(at(NodeState::Offline, 8));
        QCOMPARE(spy.count(), 3);

        // A restarted engine starts counting again: its first snapshot is a baseline, even in error.
        now = now.addSecs(3600);
        notifier.onSnapshot(at(NodeState::Error, 1));
        QCOMPARE(spy.count(), 3);

        // Errors only: milestones are dropped.
        notifier.setLevel(NotifyLevel::Errors);
        EarningsReport none;
        EarningsReport first;
        first.total.confirmed = 1;
        notifier.onEarnings(none, true);
        notifier.onEarnings(first, false);
        QCOMPARE(spy.count(), 3);
        // Off: nothing at all.
        notifier.setLevel(NotifyLevel::Off);
        notifier.onSnapshot(at(NodeState::Working, 2));
        notifier.onSnapshot(at(NodeState::Offline, 3));
        QCOMPARE(spy.count(), 3);
        // Errors and milestones: the first verified work comes through.
        Notifier fresh; // the default level: errors and milestones
        fresh.setClock([&now] { return now; });
        QSignalSpy freshSpy(&fresh, &Notifier::notificationReady);
        fresh.onEarnings(none, true);
        fresh.onEarnings(first, false);
        QCOMPARE(freshSpy.count(), 1);
        QCOMPARE(freshSpy.last().first().value<Notification>().kind, NotificationKind::FirstVerified);
    }
};

QTEST_MAIN(TestNotifier)
#include "tst_notifier.moc"
