// Which task a node works on (node/TaskMembership): a wish waits for the catalogue, a task the hub does not list or
// this version cannot run is never joined (and the user is told why), the automatic choice is made once and yields
// to a wish, leaving forgets the wish; a join is said before the engine starts its work, a leave after the engine
// has said the left task's last figures.
#include "core/EngineSnapshot.h"
#include "node/TaskMembership.h"

#include <QSignalSpy>
#include <QTest>

using namespace cohort;

namespace {

TaskInfo task(const QString &id, const QString &kind = QStringLiteral("rl"), int minCpuCores = 1)
{
    TaskInfo t;
    t.id = id;
    t.kind = kind;
    t.title = QStringLiteral("Task %1").arg(id);
    t.requirements.minCpuCores = minCpuCores;
    if (kind == QLatin1String("rl")) {
        t.rl = RlTaskConfig{};
        t.rl->environments = {QStringLiteral("add-sub")};
    }
    return t;
}

class Host final : public TaskMembershipHost {
public:
    const QList<TaskInfo> &catalogue() const override { return tasks; }
    const EngineSnapshot &machine() const override { return snapshot; }
    QList<TaskInfo> tasks;
    EngineSnapshot snapshot;
    Host()
    {
        snapshot.system.cpuCores = 2;
        snapshot.system.memTotalBytes = qint64(8) << 30;
    }
};

// What a membership says, in order: "joined:<id>", "left:<id>", or the event's text.
struct Said {
    QStringList lines;
    explicit Said(TaskMembership &m)
    {
        QObject::connect(&m, &TaskMembership::taskJoined, &m,
                         [this](const QString &id) { lines.append(QStringLiteral("joined:") + id); });
        QObject::connect(&m, &TaskMembership::taskLeft, &m,
                         [this](const QString &id) { lines.append(QStringLiteral("left:") + id); });
        QObject::connect(&m, &TaskMembership::eventOccurred, &m,
                         [this](const EngineEvent &e) { lines.append(e.message); });
    }
};

} // namespace

class TestTaskMembership : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aWishWaitsForTheCatalogue()
    {
        Host host;
        TaskMembership m(host, QStringLiteral("sort-rl"), false);
        Said said(m);
        m.catalogueArrived(); // an empty catalogue: nothing to join yet, the wish stays
        QVERIFY(m.joined().isEmpty());
        QCOMPARE(m.wished(), QStringLiteral("sort-rl"));
        host.tasks = {task(QStringLiteral("arith-rl")), task(QStringLiteral("sort-rl"))};
        m.catalogueArrived();
        QCOMPARE(m.joined(), QStringLiteral("sort-rl"));
        QCOMPARE(m.joinedTask()->title, QStringLiteral("Task sort-rl"));
        QCOMPARE(said.lines.first(),
                 QStringLiteral("Joined task sort-rl (Task sort-rl)")); // the event, then the engine's work
        QCOMPARE(said.lines.at(1), QStringLiteral("joined:sort-rl"));
        m.catalogueArrived(); // a second catalogue (a reconnect) joins nothing again
        QCOMPARE(said.lines.count(QStringLiteral("joined:sort-rl")), 1);
    }

    void aTaskTheHubDoesNotListIsNeverJoined()
    {
        Host host;
        host.tasks = {task(QStringLiteral("arith-rl"))};
        TaskMembership m(host, {}, false);
        Said said(m);
        m.join(QStringLiteral("no-such-task"));
        QVERIFY(m.joined().isEmpty());
        QCOMPARE(m.wished(), QStringLiteral("no-such-task")); // kept: a later catalogue may list it
        QCOMPARE(said.lines, QStringList{QStringLiteral("The hub offers no task 'no-such-task'")});
        m.join(QStringLiteral("arith-rl"));
        QCOMPARE(m.joined(), QStringLiteral("arith-rl"));
        QVERIFY(!m.find(QStringLiteral("no-such-task")));
    }

    void aKindThisVersionCannotRunIsKeptButNotJoined()
    {
        Host host;
        host.tasks = {task(QStringLiteral("future"), QStringLiteral("video-diffusion"))};
        TaskMembership m(host, {}, false);
        Said said(m);
        m.join(QStringLiteral("future"));
        QVERIFY(m.joined().isEmpty());
        QCOMPARE(m.wished(), QStringLiteral("future"));
        QCOMPARE(said.lines, QStringList{QStringLiteral(
                                 "Task future is a video-diffusion task, which this version of Cohort cannot run")});
    }

    void theAutomaticChoiceIsMadeOnceAndYieldsToAWish()
    {
        Host host;
        // The first task needs more cores than this machine has: the second is the first it can run.
        host.tasks = {task(QStringLiteral("big-rl"), QStringLiteral("rl"), 64), task(QStringLiteral("small-rl"))};
        {
            TaskMembership m(host, {}, true);
            Said said(m);
            m.catalogueArrived();
            QCOMPARE(m.joined(), QStringLiteral("small-rl"));
            QVERIFY(said.lines.contains(
                QStringLiteral("Chose task small-rl: the first of the hub's tasks this computer can run")));
            m.leave();
            QVERIFY(m.wished().isEmpty());
            m.catalogueArrived(); // once: a task left later stays left
            QVERIFY(m.joined().isEmpty());
        }
        {
            TaskMembership m(host, QStringLiteral("big-rl"), true); // the user's wish wins, even one that may not fit
            m.catalogueArrived();
            QCOMPARE(m.joined(), QStringLiteral("big-rl"));
        }
        {
            host.tasks = {task(QStringLiteral("big-rl"), QStringLiteral("rl"), 64)};
            TaskMembership m(host, {}, false);
            Said said(m);
            m.chooseAutomatically();
            QVERIFY(m.joined().isEmpty());
            QCOMPARE(said.lines.size(), 1);
            QVERIFY2(said.lines.first().startsWith(
                         QStringLiteral("No task of this hub can run on this computer (big-rl: needs 64 CPU cores")),
                     qPrintable(said.lines.first()));
        }
    }

    void leavingForgetsTheWishAndTellsTheEngineFirst()
    {
        Host host;
        host.tasks = {task(QStringLiteral("arith-rl"))};
        TaskMembership m(host, {}, false);
        Said said(m);
        m.leave(); // nothing joined: nothing said
        QVERIFY(said.lines.isEmpty());
        m.join(QStringLiteral("arith-rl"));
        m.join(QStringLiteral("arith-rl")); // already joined: said once
        said.lines.clear();
        m.leave();
        QCOMPARE(said.lines, (QStringList{QStringLiteral("left:arith-rl"), QStringLiteral("Left task arith-rl")}));
        QVERIFY(m.joined().isEmpty());
        QVERIFY(m.wished().isEmpty());
        QVERIFY(!m.joinedTask());
        m.restoreWish({}); // an engine bundle without a task keeps what is wished
        QVERIFY(m.wished().isEmpty());
        m.restoreWish(QStringLiteral("arith-rl"));
        QCOMPARE(m.wished(), QStringLiteral("arith-rl"));
    }
};

QTEST_GUILESS_MAIN(TestTaskMembership)
#include "tst_task_membership.moc"
