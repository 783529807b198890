// PRIME-RL end to end with real processes on 127.0.0.1: one cohort-hub (trainer, ledger, SHARDCAST) and cohortd
// nodes. Rollouts flow and are credited, the trainer publishes new versions that the nodes pick up, and a node
// killed with -9 after submitting but before the hub's answer arrives is credited exactly once after a restart.
#include "TestSupport.h"
#include "node/ControlApi.h"
#include "platform/FilePermissions.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <QTest>

using cohort::test::ChildProcess;
using cohort::test::programPath;

namespace {
// A tiny RL task so the warm-up and every trainer step take a moment, not minutes.
const char kCatalogue[] = R"({"tasks":[{"id":"mini-rl","kind":"rl","title":"Mini sorting","reward_rate":2.0,
  "rl":{"environments":["sort-digits","reverse"],"prompts_per_batch":4,"samples_per_prompt":4,"max_new_tokens":10,
        "batches_per_step":1,"steps_per_version":2,"warmup_steps":40,"warmup_batch":16,"async_level":2,
        "model":{"d_model":32,"n_layers":1,"n_heads":2,"d_ff":64,"max_seq_len":48}}},
  {"id":"long-rl","kind":"rl","title":"Long generations","reward_rate":1.0,
  "rl":{"environments":["reverse"],"prompts_per_batch":8,"samples_per_prompt":8,"max_new_tokens":200,
        "batches_per_step":1,"steps_per_version":1000,"warmup_steps":2,"warmup_batch":4,"async_level":2,
        "model":{"d_model":64,"n_layers":2,"n_heads":2,"d_ff":128,"max_seq_len":256}}}]})";
} // namespace

class TestRlE2e : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QNetworkAccessManager m_net;

    QString catalogue()
    {
        const QString path = m_dir.filePath(QStringLiteral("catalogue.json"));
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(kCatalogue);
        return path;
    }

    std::unique_ptr<ChildProcess> startHub(const QString &dataDir, QString *url, const QStringList &extra = {})
    {
        auto hub = std::make_unique<ChildProcess>(
            programPath(QStringLiteral("cohort-hub")),
            QStringList{QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--data-dir"), dataDir,
                        QStringLiteral("--catalogue"), catalogue(), QStringLiteral("--heartbeat-interval"), QStringLiteral("1")} + extra);
        if (!hub->start() || !hub->waitForOutput(QStringLiteral("listening on"), 20'000))
            return nullptr;
        const auto m = QRegularExpression(QStringLiteral("listening on (http://127\\.0\\.0\\.1:\\d+)")).match(hub->output());
        *url = m.captured(1);
        return hub;
    }

    std::unique_ptr<ChildProcess> startNode(const QString &hubUrl, const QString &dataDir, double weightNoise = 0,
                                           const QString &task = QStringLiteral("mini-rl"))
    {
        auto node = std::make_unique<ChildProcess>(
            programPath(QStringLiteral("cohortd")),
            QStringList{QStringLiteral("--hub"), hubUrl, QStringLiteral("--data-dir"), dataDir, QStringLiteral("--json"),
                        QStringLiteral("--task"), task, QStringLiteral("--heartbeat-ms"), QStringLiteral("500"),
                        QStringLiteral("--settings"), dataDir + QStringLiteral(".ini")});
        if (weightNoise > 0) {
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("COHORT_TESTING_WEIGHT_NOISE"), QString::number(weightNoise));
            node->process().setProcessEnvironment(env);
        }
        return node->start() ? std::move(node) : nullptr;
    }

    static QJsonObject rollouts(ChildProcess &node)
    {
        const QStringList lines = node.output().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        for (qsizetype i = lines.size() - 1; i >= 0; --i) {
            const QJsonObject o = QJsonDocument::fromJson(lines[i].toUtf8()).object();
            if (o.contains(QStringLiteral("rollouts")))
                return o.value(QStringLiteral("rollouts")).toObject();
        }
        return {};
    }

    QJsonObject get(const QString &url)
    {
        QNetworkReply *reply = m_net.get(QNetworkRequest(QUrl(url)));
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!reply->isFinished())
            finished.wait(10'000);
        const QJsonObject body = QJsonDocument::fromJson(reply->readAll()).object();
        reply->deleteLater();
        return body;
    }

    // True if one line of the process's log mentions both texts.
    static bool hasLine(ChildProcess &p, const QString &a, const QString &b)
    {
        for (const QString &line : p.errors().split(QLatin1Char('\n')))
            if (line.contains(a) && line.contains(b))
                return true;
        return false;
    }

    // Rows of a query on the hub's ledger, columns joined by '|' (read-only; the hub keeps writing in WAL mode).
    static QStringList ledgerRows(const QString &hubDir, const QString &sql, const QVariantMap &bindings = {})
    {
        QStringList rows;
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("ledger-reader"));
            db.setDatabaseName(QDir(hubDir).filePath(QStringLiteral("hub.sqlite")));
            db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=5000"));
            if (db.open()) {
                QSqlQuery q(db);
                q.prepare(sql);
                for (auto it = bindings.cbegin(); it != bindings.cend(); ++it)
                    q.bindValue(it.key(), it.value());
                if (q.exec())
                    while (q.next()) {
                        QStringList columns;
                        for (int c = 0; c < q.record().count(); ++c)
                            columns.append(q.value(c).toString());
                        rows.append(columns.join(QLatin1Char('|')));
                    }
            }
        }
        QSqlDatabase::removeDatabase(QStringLiteral("ledger-reader"));
        return rows;
    }

    static QStringList ledgerStatuses(const QString &hubDir, const QString &submissionId)
    {
        return ledgerRows(hubDir, QStringLiteral("SELECT status FROM submissions WHERE submission_id=:id"),
                          {{QStringLiteral(":id"), submissionId}});
    }

private Q_SLOTS:
    void rolloutsFlowAndNewVersionsArePickedUp()
    {
        QString url;
        const QString hubDir = m_dir.filePath(QStringLiteral("hub-a"));
        auto hub = startHub(hubDir, &url);
        QVERIFY(hub);
        auto a = startNode(url, m_dir.filePath(QStringLiteral("a")));
        auto b = startNode(url, m_dir.filePath(QStringLiteral("b")));
        QVERIFY(a && b);
        // Both nodes get work accepted, and the trainer's later versions reach them through SHARDCAST.
        for (ChildProcess *node : {a.get(), b.get()})
            QTRY_VERIFY_WITH_TIMEOUT(rollouts(*node).value(QStringLiteral("batches_accepted")).toInt() >= 3 &&
                                         rollouts(*node).value(QStringLiteral("policy_version")).toInt() >= 3,
                                     120'000);
        const QJsonObject progress = get(url + QStringLiteral("/v1/tasks/mini-rl/progress"));
        QVERIFY(progress.value(QStringLiteral("version")).toInt() >= 3);
        QVERIFY(progress.value(QStringLiteral("steps")).toInt() >= 2);
        QVERIFY(progress.value(QStringLiteral("accepted_batches")).toInt() >= 6);
        QVERIFY(!progress.value(QStringLiteral("curve")).toArray().isEmpty());
        // Honest nodes are never refused for what they sent; a batch may only come too late (the trainer moved on).
        for (ChildProcess *node : {a.get(), b.get()}) {
            const QJsonObject r = rollouts(*node);
            QVERIFY2(r.value(QStringLiteral("batches_rejected")).toInt() <= r.value(QStringLiteral("batches_accepted")).toInt() / 4,
                     QJsonDocument(r).toJson().constData());
            const QString last = r.value(QStringLiteral("last_rejection")).toString();
            QVERIFY2(last.isEmpty() || last.contains(QStringLiteral("too old")), qPrintable(last));
        }
        QVERIFY(!hub->errors().contains(QStringLiteral("reward_mismatch")));
        QVERIFY(!hub->errors().contains(QStringLiteral("bad_token")));
        QVERIFY(hasLine(*hub, QStringLiteral("confirmed"), QStringLiteral("TOPLOC: "))); // proofs checked by prefill
        QVERIFY(!hub->errors().contains(QStringLiteral("TOPLOC proof failed")));       // honest nodes always pass
        QVERIFY(hub->errors().contains(QStringLiteral("warm-up: 40 supervised steps")));
        int code = -1;
        QVERIFY(a->terminateAndWait(15'000, &code));
        QVERIFY(b->terminateAndWait(15'000, &code));
        QVERIFY(hub->terminateAndWait(15'000, &code));
        QCOMPARE(code, 0);
    }

    void outboxKeepsWorkWhileTheHubIsDown()
    {
        QString url;
        const QString hubDir = m_dir.filePath(QStringLiteral("hub-c"));
        // Slow answers keep a submitted batch waiting for its ack most of the time: the hub dies under it.
        auto hub = startHub(hubDir, &url, {QStringLiteral("--rollout-ack-delay-ms"), QStringLiteral("2000")});
        QVERIFY(hub);
        const QString port = url.section(QLatin1Char(':'), -1);
        auto node = startNode(url, m_dir.filePath(QStringLiteral("patient")));
        QVERIFY(node);
        QTRY_VERIFY_WITH_TIMEOUT(rollouts(*node).value(QStringLiteral("batches_accepted")).toInt() >= 1 &&
                                     rollouts(*node).value(QStringLiteral("outbox_batches")).toInt() >= 1,
                                 120'000);
        int code = -1;
        QVERIFY(hub->terminateAndWait(15'000, &code));
        // The unacknowledged batch stays in the outbox while the hub is away.
        QTRY_VERIFY_WITH_TIMEOUT(node->errors().contains(QStringLiteral("kept in the outbox")), 60'000);
        QVERIFY(rollouts(*node).value(QStringLiteral("outbox_batches")).toInt() >= 1);
        const int acceptedBefore = rollouts(*node).value(QStringLiteral("batches_accepted")).toInt();
        // The hub comes back on the same address with the same data: the node flushes its outbox first.
        auto back = std::make_unique<ChildProcess>(
            programPath(QStringLiteral("cohort-hub")),
            QStringList{QStringLiteral("--port"), port, QStringLiteral("--data-dir"), hubDir, QStringLiteral("--catalogue"), catalogue(),
                        QStringLiteral("--heartbeat-interval"), QStringLiteral("1")});
        QVERIFY(back->start() && back->waitForOutput(QStringLiteral("listening on"), 20'000));
        QTRY_VERIFY_WITH_TIMEOUT(rollouts(*node).value(QStringLiteral("batches_accepted")).toInt() > acceptedBefore &&
                                     rollouts(*node).value(QStringLiteral("outbox_batches")).toInt() == 0,
                                 90'000);
        QVERIFY(node->terminateAndWait(15'000, &code));
        QVERIFY(back->terminateAndWait(15'000, &code));
    }

    void killedBeforeTheAckIsCreditedOnce()
    {
        QString url;
        const QString hubDir = m_dir.filePath(QStringLiteral("hub-b"));
        // The hub answers submissions 4 s late: the window in which the node is killed.
        auto hub = startHub(hubDir, &url, {QStringLiteral("--rollout-ack-delay-ms"), QStringLiteral("4000")});
        QVERIFY(hub);
        const QString nodeDir = m_dir.filePath(QStringLiteral("victim"));
        auto node = startNode(url, nodeDir);
        QVERIFY(node);
        const QDir outbox(QDir(nodeDir).filePath(QStringLiteral("outbox")));
        QString id;
        // Wait for a batch that is durably in the outbox and already accepted by the hub, answer not yet sent.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (const QString &name : outbox.entryList({QStringLiteral("s-*.json")}, QDir::Files)) {
                    const QString candidate = name.chopped(5);
                    if (hasLine(*hub, candidate, QStringLiteral("accepted:"))) {
                        id = candidate;
                        return true;
                    }
                }
                return false;
            }(),
            120'000);
        node->process().kill(); // SIGKILL: no cleanup, no goodbye
        QVERIFY(node->process().waitForFinished(10'000));
        QVERIFY2(outbox.exists(id + QStringLiteral(".json")), "the unacknowledged batch must survive the kill");
        QCOMPARE(ledgerStatuses(hubDir, id).size(), 1);

        auto again = startNode(url, nodeDir);
        QVERIFY(again);
        QTRY_VERIFY_WITH_TIMEOUT(hasLine(*hub, id, QStringLiteral("is a retry")), 60'000);
        QTRY_VERIFY_WITH_TIMEOUT(!outbox.exists(id + QStringLiteral(".json")), 30'000);
        const QStringList statuses = ledgerStatuses(hubDir, id);
        QCOMPARE(statuses.size(), 1); // one row: credited once
        QVERIFY(statuses.first() == QLatin1String("accepted") || statuses.first() == QLatin1String("confirmed"));
        QTRY_VERIFY_WITH_TIMEOUT(again->errors().contains(QStringLiteral("retry of a batch the hub already had")), 30'000);
        int code = -1;
        QVERIFY(again->terminateAndWait(15'000, &code));
        QVERIFY(hub->terminateAndWait(15'000, &code));
    }

    // A node running modified weights (1% noise: its rewards and log-probabilities still look plausible) is caught
    // by TOPLOC: each batch is refused with its pending credit cancelled, the third failure flags the node, the hub
    // then gives it no work and the node says why; the operator's --unflag lifts it.
    void modifiedWeightsAreRefusedAndFlagged()
    {
        QString url;
        const QString hubDir = m_dir.filePath(QStringLiteral("hub-d"));
        auto hub = startHub(hubDir, &url);
        QVERIFY(hub);
        auto node = startNode(url, m_dir.filePath(QStringLiteral("tampered")), 0.01);
        QVERIFY(node);
        QTRY_VERIFY_WITH_TIMEOUT(get(url + QStringLiteral("/v1/tasks/mini-rl/progress")).value(QStringLiteral("flagged_nodes")).toInt() == 1,
                                 150'000);
        QVERIFY(hub->errors().contains(QStringLiteral("TOPLOC proof failed")));
        QVERIFY(hasLine(*hub, QStringLiteral("failed a TOPLOC proof"), QStringLiteral("flagged: no more work")));
        QVERIFY(node->errors().contains(QStringLiteral("COHORT_TESTING_WEIGHT_NOISE")));
        QTRY_VERIFY_WITH_TIMEOUT(node->errors().contains(QStringLiteral("The hub stopped giving this node work")) ||
                                     node->output().contains(QStringLiteral("The hub stopped giving this node work")),
                                 30'000);
        // Every verified batch of this node was refused for its proof, none confirmed; the statistics are stored.
        const QStringList rows = ledgerRows(hubDir, QStringLiteral("SELECT status, proof_failed, proof_chunks, proof_worst_mean,"
                                                                   " node_id FROM submissions"));
        int failed = 0;
        QString nodeId;
        for (const QString &row : rows) {
            const QStringList c = row.split(QLatin1Char('|'));
            QVERIFY2(c[0] != QLatin1String("confirmed"), qPrintable(row));
            if (c[1] == QLatin1String("1")) {
                ++failed;
                QCOMPARE(c[0], QStringLiteral("refused"));
                QVERIFY2(c[2].toInt() >= 1 && c[3].toDouble() > 0.05, qPrintable(row));
            }
            nodeId = c[4];
        }
        QVERIFY2(failed >= 3, qPrintable(rows.join(QLatin1Char('\n'))));
        const QStringList flag = ledgerRows(hubDir, QStringLiteral("SELECT proof_failures, flagged_at FROM node_flags"));
        QCOMPARE(flag.size(), 1);
        QVERIFY(flag.first().section(QLatin1Char('|'), 1).toLongLong() > 0);
        // The operator lifts the flag while the hub runs.
        ChildProcess unflag(programPath(QStringLiteral("cohort-hub")),
                            {QStringLiteral("--data-dir"), hubDir, QStringLiteral("--unflag"), nodeId + QStringLiteral(":mini-rl")});
        QVERIFY(unflag.start());
        QVERIFY(unflag.process().waitForFinished(20'000));
        QCOMPARE(unflag.process().exitCode(), 0);
        QVERIFY(unflag.output().contains(QStringLiteral("cleared the TOPLOC flag")));
        QCOMPARE(get(url + QStringLiteral("/v1/tasks/mini-rl/progress")).value(QStringLiteral("flagged_nodes")).toInt(), 0);
        ChildProcess again(programPath(QStringLiteral("cohort-hub")),
                           {QStringLiteral("--data-dir"), hubDir, QStringLiteral("--unflag"), nodeId});
        QVERIFY(again.start());
        QVERIFY(again.process().waitForFinished(20'000));
        QCOMPARE(again.process().exitCode(), 1); // nothing left to clear: said plainly
        int code = -1;
        QVERIFY(node->terminateAndWait(15'000, &code));
        QVERIFY(hub->terminateAndWait(15'000, &code));
    }

    // The local control API of a running cohortd: owner-only token file, refused without the token, pause within a
    // token while rollouts are generated (latency measured by the engine: pause -> compute thread stopped), snooze,
    // resume, pause after the step in hand, and the command-line client.
    void controlApiPausesAndSnoozes()
    {
        QString url;
        const QString hubDir = m_dir.filePath(QStringLiteral("hub-e"));
        auto hub = startHub(hubDir, &url);
        QVERIFY(hub);
        const QString nodeDir = m_dir.filePath(QStringLiteral("controlled"));
        auto node = startNode(url, nodeDir, 0, QStringLiteral("long-rl")); // batches of 64 x 200 tokens: pauses land mid-batch
        QVERIFY(node);
        const QString controlFile = QDir(nodeDir).filePath(QStringLiteral("control.json"));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(controlFile), 20'000);
        QVERIFY(cohort::isOwnerOnly(controlFile));
        auto endpoint = cohort::ControlEndpoint::fromDataDir(nodeDir);
        QVERIFY2(endpoint.ok(), qPrintable(endpoint.error()));
        cohort::ControlEndpoint forged = *endpoint;
        forged.token = QByteArray(forged.token.size(), 'a');
        auto refused = cohort::controlRequest(forged, "POST", QStringLiteral("/v1/pause"));
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().contains(QStringLiteral("HTTP 401")), qPrintable(refused.error()));

        const auto status = [&] {
            auto s = cohort::controlRequest(*endpoint, "GET", QStringLiteral("/v1/status"));
            return s.ok() ? *s : QJsonObject{};
        };
        QTRY_VERIFY_WITH_TIMEOUT(status().value(QStringLiteral("rollouts")).toObject().value(QStringLiteral("batches_accepted")).toInt() >= 1,
                                 120'000);
        // Pause while a batch is being generated, ten times; the engine measures how long the compute thread took.
        QList<int> latencies;
        for (int round = 0; round < 10; ++round) {
            QTRY_VERIFY_WITH_TIMEOUT(status().value(QStringLiteral("schedule")).toObject().value(QStringLiteral("work_at_risk_seconds")).toDouble() > 0,
                                     30'000);
            QVERIFY(cohort::controlRequest(*endpoint, "POST", QStringLiteral("/v1/pause")).ok());
            QTRY_VERIFY_WITH_TIMEOUT(status().value(QStringLiteral("state")).toString() == QLatin1String("paused"), 5'000);
            QCOMPARE(status().value(QStringLiteral("reason")).toString(), QStringLiteral("user"));
            QTRY_VERIFY_WITH_TIMEOUT(!status().value(QStringLiteral("schedule")).toObject().value(QStringLiteral("last_pause_latency_ms")).isNull(),
                                     5'000);
            latencies.append(status().value(QStringLiteral("schedule")).toObject().value(QStringLiteral("last_pause_latency_ms")).toInt());
            QVERIFY(cohort::controlRequest(*endpoint, "POST", QStringLiteral("/v1/resume")).ok());
            QTRY_VERIFY_WITH_TIMEOUT(status().value(QStringLiteral("state")).toString() != QLatin1String("paused"), 5'000);
        }
        std::sort(latencies.begin(), latencies.end());
        qInfo("pause latency over %d pauses during generation: median %d ms, max %d ms", int(latencies.size()),
              latencies[latencies.size() / 2], latencies.last());
        QVERIFY2(latencies.last() <= 1500, qPrintable(QString::number(latencies.last())));

        // Snooze: paused for that reason, with the time it ends; resume ends it early.
        auto snoozed = cohort::controlRequest(*endpoint, "POST", QStringLiteral("/v1/snooze"), {{QStringLiteral("seconds"), 3600}});
        QVERIFY2(snoozed.ok(), qPrintable(snoozed.error()));
        QTRY_VERIFY_WITH_TIMEOUT(status().value(QStringLiteral("reason")).toString() == QLatin1String("snoozed"), 5'000);
        QVERIFY(!status().value(QStringLiteral("schedule")).toObject().value(QStringLiteral("snoozed_until")).isNull());
        QVERIFY(!cohort::controlRequest(*endpoint, "POST", QStringLiteral("/v1/snooze"), {{QStringLiteral("seconds"), -5}}).ok());
        QVERIFY(!cohort::controlRequest(*endpoint, "POST", QStringLiteral("/v1/snooze"), {{QStringLiteral("minutes"), 5}}).ok());
        QVERIFY(cohort::controlRequest(*endpoint, "POST", QStringLiteral("/v1/resume")).ok());
        QTRY_VERIFY_WITH_TIMEOUT(status().value(QStringLiteral("state")).toString() != QLatin1String("paused"), 5'000);

        // Pause after this step: the batch in hand is finished and kept, then the node pauses.
        const int acceptedBefore = status().value(QStringLiteral("rollouts")).toObject().value(QStringLiteral("batches_accepted")).toInt();
        QVERIFY(cohort::controlRequest(*endpoint, "POST", QStringLiteral("/v1/pause-after-step")).ok());
        QTRY_VERIFY_WITH_TIMEOUT(status().value(QStringLiteral("reason")).toString() == QLatin1String("user"), 30'000);
        QTRY_VERIFY_WITH_TIMEOUT(status().value(QStringLiteral("rollouts")).toObject().value(QStringLiteral("outbox_batches")).toInt() == 0, 30'000);
        QVERIFY(status().value(QStringLiteral("rollouts")).toObject().value(QStringLiteral("batches_accepted")).toInt() >= acceptedBefore);

        // The command-line client.
        ChildProcess cli(programPath(QStringLiteral("cohortd")), {QStringLiteral("--data-dir"), nodeDir, QStringLiteral("--control"), QStringLiteral("resume")});
        QVERIFY(cli.start() && cli.process().waitForFinished(20'000));
        QCOMPARE(cli.process().exitCode(), 0);
        QVERIFY(cli.output().contains(QStringLiteral("\"done\":\"resume\"")));
        ChildProcess bad(programPath(QStringLiteral("cohortd")), {QStringLiteral("--data-dir"), nodeDir, QStringLiteral("--control"), QStringLiteral("explode")});
        QVERIFY(bad.start() && bad.process().waitForFinished(20'000));
        QCOMPARE(bad.process().exitCode(), 2);
        int code = -1;
        QVERIFY(node->terminateAndWait(15'000, &code));
        QVERIFY(!QFile::exists(controlFile)); // no stale address left behind
        ChildProcess gone(programPath(QStringLiteral("cohortd")), {QStringLiteral("--data-dir"), nodeDir, QStringLiteral("--control"), QStringLiteral("status")});
        QVERIFY(gone.start() && gone.process().waitForFinished(20'000));
        QCOMPARE(gone.process().exitCode(), 1);
        QVERIFY(gone.errors().contains(QStringLiteral("no running node")));
        QVERIFY(hub->terminateAndWait(15'000, &code));
    }

};

QTEST_MAIN(TestRlE2e)
#include "tst_rl_e2e.moc"
