// DiLoCo through the real hub and real nodes on 127.0.0.1: cohort-hub hosts the collectives master of a diloco task
// and three cohortd processes join it (their ring links encrypted, the task's link_protection).
//   * they train together: the hub sees outer steps completed by all three, credits each node once per outer step
//     at reward_rate x inner_steps (ledger rows, no duplicates), and every node's status shows the same outer step,
//     three peers and a falling loss;
//   * pausing one node (control API) takes it out of the ring — the others go on with two — and resuming brings it
//     back from its checkpoint bundle, in step with the others again;
//   * a key that is not a registered node of the task is refused by the master.
#include "LedgerRows.h"
#include "TestSupport.h"

#include <QDir>
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

#include <memory>

using cohort::test::ChildProcess;
using cohort::test::programPath;
using cohort::test::startHub;

namespace {
const QByteArray kCatalogue = R"({"tasks":[
  {"id":"mini-diloco","kind":"diloco","title":"Mini DiLoCo","reward_rate":0.5,
   "diloco":{"inner_steps":5,"audit_rate":0.2,"confirm_after_steps":3,"link_protection":"encryption","batch_size":4,"sequence_length":32,"inner_learning_rate":0.003,
             "model":{"d_model":32,"n_layers":1,"n_heads":2,"d_ff":128,"max_seq_len":64}}}]})";
} // namespace

class TestDilocoHub : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QNetworkAccessManager m_net;
    QString m_url;
    std::unique_ptr<ChildProcess> m_hub;

    std::unique_ptr<ChildProcess> startNode(const QString &name, const QString &hubUrl = {})
    {
        const QString dataDir = m_dir.filePath(name);
        auto node = std::make_unique<ChildProcess>(
            programPath(QStringLiteral("cohortd")),
            QStringList{QStringLiteral("--hub"), hubUrl.isEmpty() ? m_url : hubUrl, QStringLiteral("--data-dir"),
                        dataDir, QStringLiteral("--json"),
                        QStringLiteral("--verbose"), // the ring's details (its link protection) are engine log lines
                        QStringLiteral("--task"), QStringLiteral("mini-diloco"), QStringLiteral("--heartbeat-ms"),
                        QStringLiteral("500"), QStringLiteral("--settings"), dataDir + QStringLiteral(".ini")});
        return node->start() ? std::move(node) : nullptr;
    }

    QJsonObject get(const QString &path, const QString &hubUrl = {})
    {
        QNetworkReply *reply = m_net.get(QNetworkRequest(QUrl((hubUrl.isEmpty() ? m_url : hubUrl) + path)));
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!reply->isFinished())
            finished.wait(10'000);
        const QJsonObject body = QJsonDocument::fromJson(reply->readAll()).object();
        reply->deleteLater();
        return body;
    }

    QJsonObject hubStats() { return get(QStringLiteral("/v1/tasks/mini-diloco/diloco")); }

    // The node's last status line's "diloco" object.
    static QJsonObject diloco(ChildProcess &node)
    {
        const QStringList lines = node.output().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        for (qsizetype i = lines.size() - 1; i >= 0; --i) {
            const QJsonObject o = QJsonDocument::fromJson(lines[i].toUtf8()).object();
            if (o.contains(QStringLiteral("diloco")))
                return o.value(QStringLiteral("diloco")).toObject();
        }
        return {};
    }

    static QJsonObject schedule(ChildProcess &node)
    {
        const QStringList lines = node.output().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        for (qsizetype i = lines.size() - 1; i >= 0; --i) {
            const QJsonObject o = QJsonDocument::fromJson(lines[i].toUtf8()).object();
            if (o.contains(QStringLiteral("schedule")))
                return o.value(QStringLiteral("schedule")).toObject();
        }
        return {};
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

    QStringList ledgerRows(const QString &sql)
    {
        return cohort::test::ledgerRows(m_dir.filePath(QStringLiteral("hub")), sql);
    }

    bool control(const QString &name, const QString &command)
    {
        ChildProcess cli(programPath(QStringLiteral("cohortd")),
                         {QStringLiteral("--data-dir"), m_dir.filePath(name), QStringLiteral("--control"), command});
        if (!cli.start() || !cli.process().waitForFinished(20'000))
            return false;
        return cli.process().exitCode() == 0;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QString path = m_dir.filePath(QStringLiteral("catalogue.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kCatalogue);
        f.close();
        QString why;
        auto started = startHub(
            m_dir.filePath(QStringLiteral("hub")),
            {QStringLiteral("--catalogue"), path, QStringLiteral("--heartbeat-interval"), QStringLiteral("1")}, &why);
        QVERIFY2(started, qPrintable(why));
        m_hub = std::move(started->process);
        m_url = started->url;
        QVERIFY(!m_url.isEmpty());
        // The task list tells nodes where the master listens.
        const QJsonObject tasks = get(QStringLiteral("/v1/tasks"));
        const QJsonObject task = tasks.value(QStringLiteral("tasks")).toArray().first().toObject();
        QVERIFY(task.value(QStringLiteral("diloco")).toObject().value(QStringLiteral("master_port")).toInt() > 0);
        // A task the hub does not run as DiLoCo: a clear error, not an empty object.
        const QJsonObject unknown = get(QStringLiteral("/v1/tasks/no-such-task/diloco"));
        QCOMPARE(unknown.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
                 QStringLiteral("unknown_task"));
    }

    // Identities are free, so a ring below the task's min_ring_size earns nothing (a lone identity running
    // all-reduces with itself was paid for each). Two real nodes on a task that asks for three train together,
    // the hub counts their outer steps, and credits none of them.
    void aRingBelowTheMinimumEarnsNothing()
    {
        QByteArray catalogue = kCatalogue;
        catalogue.replace("\"inner_steps\":5,", "\"inner_steps\":5,\"min_ring_size\":3,");
        QVERIFY(catalogue.contains("min_ring_size"));
        const QString path = m_dir.filePath(QStringLiteral("catalogue-min3.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(catalogue);
        f.close();
        const QString hubDir = m_dir.filePath(QStringLiteral("hub-min3"));
        QString why;
        auto started = startHub(
            hubDir, {QStringLiteral("--catalogue"), path, QStringLiteral("--heartbeat-interval"), QStringLiteral("1")},
            &why);
        QVERIFY2(started, qPrintable(why));
        ChildProcess &hub = *started->process;
        const QString url = started->url;
        auto x = startNode(QStringLiteral("min3-x"), url), y = startNode(QStringLiteral("min3-y"), url);
        QVERIFY(x && y);
        const auto stats = [&] { return get(QStringLiteral("/v1/tasks/mini-diloco/diloco"), url); };
        QTRY_VERIFY_WITH_TIMEOUT(stats().value(QStringLiteral("uncredited_steps")).toInteger() >= 3, 90'000);
        QCOMPARE(stats().value(QStringLiteral("last_world_size")).toInt(), 2);
        QCOMPARE(stats().value(QStringLiteral("credited_steps")).toInteger(), 0);
        int code = -1;
        QVERIFY(x->terminateAndWait(30'000, &code));
        QVERIFY(y->terminateAndWait(30'000, &code));
        QVERIFY(hub.terminateAndWait(10'000, &code));
        QCOMPARE(cohort::test::ledgerRows(hubDir, QStringLiteral("SELECT COUNT(*) FROM submissions")),
                 QStringList{QStringLiteral("0")});
    }

    // A hub restart once made its master forget the shared state's record (the first sync after it elected by
    // headcount). Now the record lives in hub.sqlite: the restarted master continues from it, its holders come back
    // and go on from the step they were at, without fetching anything.
    void aRestartedHubContinuesFromItsRecord()
    {
        const QString hubDir = m_dir.filePath(QStringLiteral("hub-restart"));
        const QString catalogue = m_dir.filePath(QStringLiteral("catalogue.json"));
        QString url;
        const auto startHubOn = [&](const QString &port, const QString &dilocoPort) -> std::unique_ptr<ChildProcess> {
            QString why;
            // The fixture asks for a free port; the "--port" given here comes after it and wins.
            auto started = startHub(hubDir,
                                    {QStringLiteral("--catalogue"), catalogue, QStringLiteral("--heartbeat-interval"),
                                     QStringLiteral("1"), QStringLiteral("--diloco-port"), dilocoPort,
                                     QStringLiteral("--port"), port},
                                    &why);
            if (!started) {
                qWarning() << "cohort-hub did not start:" << why;
                return nullptr;
            }
            url = started->url;
            return std::move(started->process);
        };
        // The restarted hub must be found where the nodes look: the same API port and the same master port. Both
        // are the ones the system gave the first start (asking for "API port + 1" raced other tests for it).
        auto hub = startHubOn(QStringLiteral("0"), QStringLiteral("0"));
        QVERIFY(hub);
        const QString port = QString::number(QUrl(url).port());
        QVERIFY2(hub->waitForError(QStringLiteral("listening on port"), 5'000), qPrintable(hub->errors().left(3000)));
        const QString dilocoPort =
            QRegularExpression(QStringLiteral("DiLoCo master for \"mini-diloco\" listening on port (\\d+)"))
                .match(hub->errors())
                .captured(1);
        QVERIFY2(!dilocoPort.isEmpty(), qPrintable(hub->errors().left(3000)));
        auto x = startNode(QStringLiteral("restart-x"), url), y = startNode(QStringLiteral("restart-y"), url);
        QVERIFY(x && y);
        const auto stats = [&] { return get(QStringLiteral("/v1/tasks/mini-diloco/diloco"), url); };
        QTRY_VERIFY_WITH_TIMEOUT(stats().value(QStringLiteral("last_world_size")).toInt() == 2, 90'000);
        const qint64 together = stats().value(QStringLiteral("recorded_revision")).toInteger();
        QTRY_VERIFY_WITH_TIMEOUT(stats().value(QStringLiteral("recorded_revision")).toInteger() >= together + 3,
                                 60'000);
        int code = -1;
        QVERIFY(hub->terminateAndWait(10'000, &code));
        const qint64 before =
            cohort::test::ledgerRows(hubDir, QStringLiteral("SELECT MAX(revision) FROM diloco_records"))
                .value(0)
                .toLongLong();
        QVERIFY(before >= together + 3);
        const QString firstUrl = url;
        hub = startHubOn(port, dilocoPort);
        QVERIFY(hub);
        QCOMPARE(url, firstUrl); // where the nodes look
        QVERIFY2(hub->waitForError(QStringLiteral("continues from recorded revision %1 held by 2 node(s)").arg(before),
                                   5'000),
                 qPrintable(hub->errors().left(3000)));
        // The nodes reconnect and the record goes on from where it was, never back to a fresh count.
        QTRY_VERIFY_WITH_TIMEOUT(stats().value(QStringLiteral("recorded_revision")).toInteger() >= before + 3, 120'000);
        // A node prints its status once a second (and may show an older step while it reconnects and syncs); the record
        // can move three steps within that second, so the node's lines are waited on, not sampled once.
        for (ChildProcess *n : {x.get(), y.get()}) {
            QTRY_VERIFY2_WITH_TIMEOUT(diloco(*n).value(QStringLiteral("outer_step")).toInteger() >= before,
                                      QJsonDocument(diloco(*n)).toJson(QJsonDocument::Compact).constData(), 10'000);
            QElapsedTimer quitting;
            quitting.start();
            QVERIFY(n->terminateAndWait(30'000, &code));
            qInfo("node stopped %lld ms after SIGTERM", quitting.elapsed());
        }
        QVERIFY(hub->terminateAndWait(10'000, &code));
    }

    void threeNodesTrainPauseResumeAndAreCredited()
    {
        auto a = startNode(QStringLiteral("a")), b = startNode(QStringLiteral("b")), c = startNode(QStringLiteral("c"));
        QVERIFY(a && b && c);
        // A failure prints the end of every process's output, so a rare one (seen once under a loaded ctest -j2)
        // says what the nodes and the hub were doing.
        struct DumpOnFailure {
            std::vector<std::pair<const char *, ChildProcess *>> processes;
            ~DumpOnFailure()
            {
                if (!QTest::currentTestFailed())
                    return;
                for (const auto &[name, process] : processes) {
                    const QStringList lines = process->output().split(QLatin1Char('\n'));
                    const QStringList tail = lines.mid(std::max<qsizetype>(0, lines.size() - 25));
                    qWarning("---- %s, last lines:\n%s", name, qPrintable(tail.join(u'\n')));
                }
            }
        } dump{{{"hub", m_hub.get()}, {"node a", a.get()}, {"node b", b.get()}, {"node c", c.get()}}};
        // Train together: outer steps completed by all three.
        QTRY_VERIFY_WITH_TIMEOUT(hubStats().value(QStringLiteral("last_world_size")).toInt() == 3, 90'000);
        const qint64 together = hubStats().value(QStringLiteral("outer_steps")).toInteger();
        QTRY_VERIFY_WITH_TIMEOUT(hubStats().value(QStringLiteral("outer_steps")).toInteger() >= together + 5, 60'000);
        for (ChildProcess *n : {a.get(), b.get(), c.get()}) {
            QTRY_VERIFY_WITH_TIMEOUT(diloco(*n).value(QStringLiteral("peers")).toInt() == 3, 10'000);
            QVERIFY(diloco(*n).value(QStringLiteral("active")).toBool());
            QVERIFY(n->errors().contains(QStringLiteral("its links: encryption"))); // the task's link_protection
        }

        // Pause c: the ring goes on with a and b.
        QVERIFY(control(QStringLiteral("c"), QStringLiteral("pause")));
        QTRY_VERIFY_WITH_TIMEOUT(!diloco(*c).value(QStringLiteral("active")).toBool(), 20'000);
        // Compute stopped within the pause budget: the loop checks between inner steps (an average in flight
        // finishes first; with three live peers it takes milliseconds).
        QTRY_VERIFY_WITH_TIMEOUT(schedule(*c).value(QStringLiteral("last_pause_latency_ms")).toInt() >= 0, 10'000);
        const int pauseMs = schedule(*c).value(QStringLiteral("last_pause_latency_ms")).toInt();
        QVERIFY2(pauseMs <= 1500, qPrintable(QString::number(pauseMs)));
        qInfo("DiLoCo pause latency: %d ms", pauseMs);
        QTRY_VERIFY_WITH_TIMEOUT(hubStats().value(QStringLiteral("last_world_size")).toInt() == 2, 60'000);
        const qint64 pausedAt = hubStats().value(QStringLiteral("outer_steps")).toInteger();
        QTRY_VERIFY_WITH_TIMEOUT(hubStats().value(QStringLiteral("outer_steps")).toInteger() >= pausedAt + 3, 60'000);
        QCOMPARE(hubStats().value(QStringLiteral("last_world_size")).toInt(), 2);

        // Resume: c comes back from its bundle and is admitted at the others' next outer step.
        QVERIFY(control(QStringLiteral("c"), QStringLiteral("resume")));
        QTRY_VERIFY_WITH_TIMEOUT(diloco(*c).value(QStringLiteral("resumed")).toBool(), 30'000);
        QTRY_VERIFY_WITH_TIMEOUT(hubStats().value(QStringLiteral("last_world_size")).toInt() == 3, 60'000);
        QTRY_VERIFY_WITH_TIMEOUT(diloco(*c).value(QStringLiteral("outer_steps_this_run")).toInt() >= 2, 60'000);
        // In step: every node's outer step (the shared revision, from its status line of the last second) is close
        // behind the hub's last completed one — none trains alone on an old revision (steps take ~0.1 s here).
        const qint64 hubStep = hubStats().value(QStringLiteral("last_outer_step")).toInteger();
        for (ChildProcess *n : {a.get(), b.get(), c.get()}) {
            const qint64 step = diloco(*n).value(QStringLiteral("outer_step")).toInteger();
            QVERIFY2(step <= hubStep + 1 && step >= hubStep - 40,
                     qPrintable(QStringLiteral("%1 vs hub %2; node %3; hub %4")
                                    .arg(step)
                                    .arg(hubStep)
                                    .arg(QString::fromUtf8(QJsonDocument(diloco(*n)).toJson(QJsonDocument::Compact)),
                                         QString::fromUtf8(QJsonDocument(hubStats()).toJson(QJsonDocument::Compact)))));
        }
        // Loss fell from uniform bytes (5.56 nats).
        QVERIFY2(diloco(*a).value(QStringLiteral("outer_loss")).toDouble() < 3.5,
                 QJsonDocument(diloco(*a)).toJson(QJsonDocument::Compact).constData());

        for (ChildProcess *n : {a.get(), b.get(), c.get()}) {
            int code = -1;
            QVERIFY(n->terminateAndWait(30'000, &code));
            QCOMPARE(code, 0);
        }

        // The evidence: every node's first commitment was replayed by the hub, and more at the task's audit rate;
        // an honest node never failed one.
        const QJsonObject audits = hubStats().value(QStringLiteral("audits")).toObject();
        QVERIFY2(audits.value(QStringLiteral("passed")).toInteger() >= 3 &&
                     audits.value(QStringLiteral("failed")).toInteger() == 0,
                 QJsonDocument(hubStats()).toJson(QJsonDocument::Compact).constData());
        qInfo("audits: %s", QJsonDocument(audits).toJson(QJsonDocument::Compact).constData());

        // The ledger: one credit of 0.5 x 5 per node and outer step, never two for the same step; confirmed once old
        // enough and covered by a passed audit, pending until then; none forfeited, and at most the steps cut off
        // at the end (the commitment or audit upload the stop interrupted) refused.
        const QStringList perNode =
            ledgerRows(QStringLiteral("SELECT node_id, COUNT(*), COUNT(DISTINCT version), MIN(credit), MAX(credit),"
                                      " SUM(status='confirmed'), SUM(status='refused'), SUM(reason LIKE 'forfeited%')"
                                      " FROM submissions WHERE task='mini-diloco' GROUP BY node_id ORDER BY node_id"));
        QCOMPARE(perNode.size(), 3);
        qint64 credited = 0;
        for (const QString &row : perNode) {
            const QStringList f = row.split(QLatin1Char('|'));
            QCOMPARE(f[1], f[2]); // no outer step twice
            QCOMPARE(f[3].toDouble(), 2.5);
            QCOMPARE(f[4].toDouble(), 2.5);
            QVERIFY2(f[5].toInt() >= 1, qPrintable(row));
            QVERIFY2(
                f[6].toInt() <= 3,
                qPrintable(
                    row + QLatin1Char('\n') +
                    ledgerRows(QStringLiteral(
                                   "SELECT version, reason FROM submissions WHERE status='refused' AND node_id='%1'")
                                   .arg(f[0]))
                        .join(u'\n')));
            QCOMPARE(f[7].toInt(), 0);
            credited += f[1].toLongLong();
        }
        QCOMPARE(credited, hubStats().value(QStringLiteral("credited_steps")).toInteger());
        // c was paused for at least three outer steps a was credited for (a's own total says little: a node can
        // join later than the others, e.g. when its first heartbeat after joining the task is slow to arrive).
        const QString cId = nodeId(*c), aId = nodeId(*a);
        QVERIFY(!cId.isEmpty() && !aId.isEmpty());
        const QString countOf = QStringLiteral("SELECT COUNT(*) FROM submissions WHERE node_id='%1'");
        const QStringList cRows = ledgerRows(countOf.arg(cId));
        const QStringList aRows = ledgerRows(countOf.arg(aId));
        const QStringList aNotC = ledgerRows(
            QStringLiteral("SELECT COUNT(*) FROM submissions WHERE task='mini-diloco' AND node_id='%1' AND version "
                           "NOT IN (SELECT version FROM submissions WHERE task='mini-diloco' AND node_id='%2')")
                .arg(aId, cId));
        QVERIFY2(aNotC.value(0).toInt() >= 3, qPrintable(aNotC.join(u',')));
        qInfo("outer steps completed: %lld; credits written: %lld; node c (paused) %d, node a %d",
              qint64(hubStats().value(QStringLiteral("outer_steps")).toInteger()), credited, cRows.value(0).toInt(),
              aRows.value(0).toInt());
    }

    void unregisteredKeyIsRefused()
    {
        const int port = get(QStringLiteral("/v1/tasks"))
                             .value(QStringLiteral("tasks"))
                             .toArray()
                             .first()
                             .toObject()
                             .value(QStringLiteral("diloco"))
                             .toObject()
                             .value(QStringLiteral("master_port"))
                             .toInt();
        const qint64 refusedBefore = hubStats().value(QStringLiteral("refused_peers")).toInteger();
        ChildProcess stranger(QDir(qEnvironmentVariable("COHORT_BUILD_DIR"))
                                  .filePath(QStringLiteral("tests/integration/cohort-diloco-peer")),
                              {QStringLiteral("--master-port"), QString::number(port), QStringLiteral("--outer-steps"),
                               QStringLiteral("1")});
        QVERIFY(stranger.start());
        QVERIFY(stranger.waitForOutput(QStringLiteral("refused"), 30'000));
        QTRY_VERIFY_WITH_TIMEOUT(hubStats().value(QStringLiteral("refused_peers")).toInteger() > refusedBefore, 10'000);
        QVERIFY(!stranger.output().contains(QStringLiteral("\"event\":\"training\"")));
        stranger.process().kill();
        stranger.process().waitForFinished(5'000);
    }

    void cleanupTestCase()
    {
        if (m_hub) {
            int code = -1;
            m_hub->terminateAndWait(10'000, &code);
        }
    }
};

QTEST_GUILESS_MAIN(TestDilocoHub)
#include "tst_diloco_hub.moc"
