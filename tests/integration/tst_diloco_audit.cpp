// DiLoCo credit only for work that helped (issue 22): a real cohort-hub and real cohortd nodes on 127.0.0.1, some
// honest, some cheating for credit (COHORT_TEST_DILOCO_ATTACK in cohortd's runner):
//   idle   trains nothing and averages what it has (a zero pseudo-gradient), committing to exactly that;
//   noise  contributes noise of an honest norm, committed as its work;
//   copy   trains on another node's batches (one computation for several identities).
// Each speaks the whole protocol — registers, joins, averages, commits, uploads its material when audited — and each
// is caught by the hub's replay of its first committed outer step: its credit forfeited, the node flagged for the task
// and taken out of the ring, while the honest nodes keep training and have their credit confirmed. An "idle sybil
// ring" (two idle identities alone on a task) earns nothing either.
#include "LedgerRows.h"
#include "TestSupport.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

using cohort::test::ChildProcess;
using cohort::test::programPath;

namespace {
const QByteArray kCatalogue = R"({"tasks":[
  {"id":"audited","kind":"diloco","title":"Audited DiLoCo","reward_rate":0.5,
   "diloco":{"inner_steps":5,"audit_rate":0.2,"confirm_after_steps":3,"batch_size":4,"sequence_length":32,
             "inner_learning_rate":0.003,"model":{"d_model":32,"n_layers":1,"n_heads":2,"d_ff":128,"max_seq_len":64}}}]})";
} // namespace

class TestDilocoAudit : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QNetworkAccessManager m_net;

    struct Hub {
        std::unique_ptr<ChildProcess> process;
        QString url, dir;
    };

    Hub startHub(const QString &name)
    {
        Hub hub;
        hub.dir = m_dir.filePath(name);
        const QString catalogue = m_dir.filePath(name + QStringLiteral(".json"));
        QFile f(catalogue);
        if (!f.open(QIODevice::WriteOnly) || f.write(kCatalogue) != kCatalogue.size())
            return hub;
        f.close();
        if (auto started =
                cohort::test::startHub(hub.dir, {QStringLiteral("--catalogue"), catalogue,
                                                 QStringLiteral("--heartbeat-interval"), QStringLiteral("1")})) {
            hub.process = std::move(started->process);
            hub.url = started->url;
        }
        return hub;
    }

    std::unique_ptr<ChildProcess> startNode(const Hub &hub, const QString &name, const QString &attack = {})
    {
        const QString dataDir = m_dir.filePath(name);
        auto node = std::make_unique<ChildProcess>(
            programPath(QStringLiteral("cohortd")),
            QStringList{QStringLiteral("--hub"), hub.url, QStringLiteral("--data-dir"), dataDir,
                        QStringLiteral("--json"), QStringLiteral("--task"), QStringLiteral("audited"),
                        QStringLiteral("--heartbeat-ms"), QStringLiteral("500"), QStringLiteral("--settings"),
                        dataDir + QStringLiteral(".ini")});
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (!attack.isEmpty())
            env.insert(QStringLiteral("COHORT_TEST_DILOCO_ATTACK"), attack);
        node->process().setProcessEnvironment(env);
        return node->start() ? std::move(node) : nullptr;
    }

    QJsonObject stats(const Hub &hub) { return get(hub, QStringLiteral("/v1/tasks/audited/diloco")); }

    QJsonObject get(const Hub &hub, const QString &path)
    {
        QNetworkReply *reply = m_net.get(QNetworkRequest(QUrl(hub.url + path)));
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!reply->isFinished())
            finished.wait(10'000);
        const QJsonObject body = QJsonDocument::fromJson(reply->readAll()).object();
        reply->deleteLater();
        return body;
    }

    // SIGTERM, and a word in the log if it takes long (the node then is killed with the test's process objects).
    static void stopNode(const QString &name, ChildProcess &process)
    {
        if (process.process().state() == QProcess::NotRunning)
            return;
        QElapsedTimer clock;
        clock.start();
        if (!process.terminateAndWait(10'000, nullptr))
            qWarning("%s did not stop within 10 s of SIGTERM", qPrintable(name));
        else if (clock.elapsed() > 3'000)
            qWarning("%s took %lld ms to stop", qPrintable(name), clock.elapsed());
    }

    void stopAll() // the nodes, newest first, then the hub (watched first)
    {
        for (auto it = m_watched.rbegin(); it != m_watched.rend(); ++it)
            stopNode(it->first, *it->second);
    }

    static QString nodeId(ChildProcess &node)
    {
        const QStringList lines = node.output().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        for (qsizetype i = lines.size() - 1; i >= 0; --i) {
            const QString id =
                QJsonDocument::fromJson(lines[i].toUtf8()).object().value(QStringLiteral("node_id")).toString();
            if (!id.isEmpty())
                return id;
        }
        return {};
    }

    static QString row(const Hub &hub, const QString &sql, const QString &nodeId)
    {
        return cohort::test::ledgerRows(hub.dir, sql, {{QStringLiteral(":n"), nodeId}}).value(0);
    }

    static QString flagOf(const Hub &hub, const QString &nodeId)
    {
        return row(hub,
                   QStringLiteral("SELECT flagged_at>0, reason FROM node_flags WHERE task='audited' AND node_id=:n"),
                   nodeId);
    }

    // Credit the node holds (pending or confirmed): a cheater's must be nothing at all.
    static double creditHeld(const Hub &hub, const QString &nodeId)
    {
        return row(hub,
                   QStringLiteral("SELECT COALESCE(SUM(credit), 0) FROM submissions WHERE task='audited' AND node_id=:n"
                                  " AND status IN ('accepted', 'confirmed')"),
                   nodeId)
            .toDouble();
    }

    // Each test has one budget for all its waits, well inside ctest's 300 s: a run that goes wrong ends in a verdict
    // with the processes' logs, not in ctest's kill (which prints nothing of them). A normal run takes 5-30 s.
    QDeadlineTimer m_budget;
    std::vector<std::pair<QString, ChildProcess *>> m_watched;

    void watch(const QString &name, ChildProcess *process) { m_watched.emplace_back(name, process); }

    // The last lines each process printed, to the log (QFAIL's message is cut at ~1,000 characters).
    void dumpLogs(const Hub &hub)
    {
        qWarning("hub stats: %s", QJsonDocument(stats(hub)).toJson(QJsonDocument::Compact).constData());
        for (const auto &[name, process] : m_watched) {
            const QStringList lines =
                QString(process->output() + process->errors()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            qWarning("---- %s: last %d of %d lines", qPrintable(name), int(std::min<qsizetype>(lines.size(), 40)),
                     int(lines.size()));
            for (qsizetype i = std::max<qsizetype>(0, lines.size() - 40); i < lines.size(); ++i)
                qWarning("%s", qPrintable(lines[i].left(400)));
        }
    }

    template <typename Condition>
    bool waitWithinBudget(Condition condition)
    {
        return QTest::qWaitFor(condition, int(std::max<qint64>(0, m_budget.remainingTime())));
    }

#define WAIT_OR_FAIL(hub, condition, what)                                                                             \
  do {                                                                                                                 \
    if (!waitWithinBudget([&] { return bool(condition); })) {                                                          \
      dumpLogs(hub);                                                                                                   \
      QFAIL(qPrintable(QStringLiteral("not within the test's budget: %1").arg(what)));                                 \
    }                                                                                                                  \
  } while (false)

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
    }
    void init()
    {
        m_budget = QDeadlineTimer(130'000);
        m_watched.clear();
    }

    void cheatersForfeitAndHonestNodesAreConfirmed()
    {
        Hub hub = startHub(QStringLiteral("hub"));
        QVERIFY2(!hub.url.isEmpty(), hub.process ? qPrintable(hub.process->errors()) : "no hub");
        auto honestA = startNode(hub, QStringLiteral("honest-a")), honestB = startNode(hub, QStringLiteral("honest-b"));
        QVERIFY(honestA && honestB);
        watch(QStringLiteral("hub"), hub.process.get());
        watch(QStringLiteral("honest-a"), honestA.get());
        watch(QStringLiteral("honest-b"), honestB.get());
        WAIT_OR_FAIL(
            hub, stats(hub).value(QStringLiteral("audits")).toObject().value(QStringLiteral("passed")).toInteger() >= 2,
            QStringLiteral("the honest pair's first audits pass"));
        const QStringList attacks{QStringLiteral("idle"), QStringLiteral("noise"), QStringLiteral("copy")};
        std::vector<std::unique_ptr<ChildProcess>> cheaters;
        for (const QString &attack : attacks) {
            cheaters.push_back(startNode(hub, QStringLiteral("cheat-") + attack, attack));
            QVERIFY(cheaters.back());
            watch(QStringLiteral("cheat-") + attack, cheaters.back().get());
        }
        QStringList cheaterIds;
        for (auto &c : cheaters) {
            WAIT_OR_FAIL(hub, !nodeId(*c).isEmpty(), QStringLiteral("a cheater says its node id"));
            cheaterIds << nodeId(*c);
        }
        // Each is caught: flagged for the task with the failed audit as the reason.
        for (qsizetype i = 0; i < qsizetype(cheaters.size()); ++i)
            WAIT_OR_FAIL(hub, flagOf(hub, cheaterIds[i]).startsWith(QLatin1String("1|audit of outer step")),
                         attacks[i] + QStringLiteral(" is flagged (now: '") + flagOf(hub, cheaterIds[i]) +
                             QStringLiteral("')"));
        // The honest pair goes on alone (the cheaters excluded and refused at admission), and gets confirmed.
        const qint64 caughtAt = stats(hub).value(QStringLiteral("last_outer_step")).toInteger();
        WAIT_OR_FAIL(hub,
                     stats(hub).value(QStringLiteral("last_outer_step")).toInteger() >= caughtAt + 8 &&
                         stats(hub).value(QStringLiteral("last_world_size")).toInt() == 2,
                     QStringLiteral("the honest pair makes 8 more outer steps alone"));
        const QJsonObject end = stats(hub);
        const QJsonObject audits = end.value(QStringLiteral("audits")).toObject();
        QVERIFY2(audits.value(QStringLiteral("failed")).toInteger() >= 3,
                 QJsonDocument(end).toJson(QJsonDocument::Compact).constData());

        qInfo("%-6s %-16s %-24s %s", "cheat", "credit minted", "caught at its step", "reason");
        for (qsizetype i = 0; i < qsizetype(cheaters.size()); ++i) {
            const QString id = cheaterIds[i];
            QCOMPARE(creditHeld(hub, id), 0.0);
            // Caught at the first outer step it committed (a node's first commitment is always replayed).
            const QString first =
                row(hub, QStringLiteral("SELECT MIN(step) FROM diloco_commitments WHERE task='audited' AND node_id=:n"),
                    id);
            const QString failed =
                row(hub,
                    QStringLiteral("SELECT MIN(step) FROM diloco_commitments WHERE task='audited' AND node_id=:n"
                                   " AND audit='failed'"),
                    id);
            QVERIFY2(!failed.isEmpty(), qPrintable(attacks[i]));
            const int nth = failed.toInt() - first.toInt() + 1;
            QVERIFY2(nth <= 2,
                     qPrintable(QStringLiteral("%1: caught at its committed step %2").arg(attacks[i]).arg(nth)));
            qInfo("%-6s %-16s %-24d %s", qPrintable(attacks[i]), "0", nth,
                  qPrintable(row(
                      hub,
                      QStringLiteral("SELECT audit_reason FROM diloco_commitments WHERE task='audited' AND node_id=:n"
                                     " AND audit='failed'"),
                      id)));
        }
        for (ChildProcess *honest : {honestA.get(), honestB.get()}) {
            const QString id = nodeId(*honest);
            QVERIFY(flagOf(hub, id).isEmpty());
            QVERIFY(
                row(hub, QStringLiteral("SELECT COUNT(*) FROM submissions WHERE node_id=:n AND status='confirmed'"), id)
                    .toInt() >= 1);
            QCOMPARE(
                row(hub,
                    QStringLiteral("SELECT COUNT(*) FROM submissions WHERE node_id=:n AND reason LIKE 'forfeited%'"),
                    id)
                    .toInt(),
                0);
        }
        qInfo("audits: %s", QJsonDocument(audits).toJson(QJsonDocument::Compact).constData());

        // The network's progress in the hub's own measure (issue 24): the held-out loss of the revisions whose state
        // an audit brought (its digest checked against the record), from the fresh model at revision 0 down.
        const QJsonObject heldOut =
            get(hub, QStringLiteral("/v1/tasks/audited/progress")).value(QStringLiteral("held_out_loss")).toObject();
        const QJsonArray points = heldOut.value(QStringLiteral("points")).toArray();
        QVERIFY2(points.size() >= 2, QJsonDocument(heldOut).toJson(QJsonDocument::Compact).constData());
        QCOMPARE(heldOut.value(QStringLiteral("sequences")).toInt(), 32);
        const QJsonObject first = points.first().toObject(), last = points.last().toObject();
        QCOMPARE(first.value(QStringLiteral("revision")).toInteger(), 0);
        const double fresh = first.value(QStringLiteral("loss")).toDouble(),
                     latest = last.value(QStringLiteral("loss")).toDouble();
        QVERIFY2(fresh > 5.0 && fresh < 6.5, qPrintable(QString::number(fresh)));
        QVERIFY2(latest < fresh - 0.3, qPrintable(QStringLiteral("%1 at revision 0, %2 at revision %3")
                                                      .arg(fresh)
                                                      .arg(latest)
                                                      .arg(last.value(QStringLiteral("revision")).toInteger())));
        // The stats name the newest measured revision (read earlier: an audit may have measured a newer one since).
        const QJsonValue statsRevision =
            end.value(QStringLiteral("held_out")).toObject().value(QStringLiteral("revision"));
        QVERIFY(statsRevision.isDouble() &&
                statsRevision.toInteger() <= last.value(QStringLiteral("revision")).toInteger());
        qInfo("held-out loss: %.3f at revision 0, %.3f at revision %lld (%lld revisions measured)", fresh, latest,
              last.value(QStringLiteral("revision")).toInteger(), qint64(points.size()));
        stopAll();
    }

    // Identities are free: two that train nothing form a ring of their own (the task's minimum) and average zeros.
    // Their all-reduces complete, and each earns nothing: its first commitment is replayed and fails.
    void anIdleSybilRingEarnsNothing()
    {
        Hub hub = startHub(QStringLiteral("hub-sybil"));
        QVERIFY(!hub.url.isEmpty());
        auto x = startNode(hub, QStringLiteral("sybil-x"), QStringLiteral("idle"));
        auto y = startNode(hub, QStringLiteral("sybil-y"), QStringLiteral("idle"));
        QVERIFY(x && y);
        watch(QStringLiteral("hub"), hub.process.get());
        watch(QStringLiteral("sybil-x"), x.get());
        watch(QStringLiteral("sybil-y"), y.get());
        WAIT_OR_FAIL(
            hub, stats(hub).value(QStringLiteral("audits")).toObject().value(QStringLiteral("failed")).toInteger() >= 2,
            QStringLiteral("both sybils fail their first audit"));
        WAIT_OR_FAIL(hub, !nodeId(*x).isEmpty() && !nodeId(*y).isEmpty(),
                     QStringLiteral("the sybils say their node ids"));
        for (ChildProcess *n : {x.get(), y.get()}) {
            QVERIFY2(flagOf(hub, nodeId(*n)).startsWith(QLatin1String("1|")), qPrintable(flagOf(hub, nodeId(*n))));
            QCOMPARE(creditHeld(hub, nodeId(*n)), 0.0);
        }
        // They did average (each committed a finished step), for nothing. Whether the master saw that average complete
        // before the first verdict took its members out is a race, so the commitments are what is counted.
        QVERIFY(stats(hub).value(QStringLiteral("commitments")).toInteger() >= 2);
        stopAll();
    }
};

QTEST_GUILESS_MAIN(TestDilocoAudit)
#include "tst_diloco_audit.moc"
