// PRIME-RL end to end with real processes on 127.0.0.1: one cohort-hub (trainer, ledger, SHARDCAST) and cohortd
// nodes. Rollouts flow and are credited, the trainer publishes new versions that the nodes pick up, a node
// killed with -9 after submitting but before the hub's answer arrives is credited exactly once after a restart, and
// a kill matrix (kill -9 at exact points of the rollout loop, reached through cohortd's COHORT_TESTING_HALT_AT)
// loses nothing and credits every batch once.
#include "LedgerRows.h"
#include "RlE2eCatalogue.h"
#include "TestSupport.h"
#include "node/ControlApi.h"
#include "node/Outbox.h"
#include "platform/FilePermissions.h"
#include "store/EngineBundle.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include <algorithm>
#include <optional>

using cohort::test::ChildProcess;
using cohort::test::programPath;

class TestRlE2e : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QNetworkAccessManager m_net;

    QString catalogue()
    {
        const QString path = m_dir.filePath(QStringLiteral("catalogue.json"));
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(cohort::test::kRlE2eCatalogue);
        return path;
    }

    // A hub that trains the catalogue's three RL tasks (cohort::test::startHub starts none unless asked).
    std::unique_ptr<ChildProcess> startHub(const QString &dataDir, QString *url, const QStringList &extra = {})
    {
        QString why;
        auto hub = cohort::test::startHub(dataDir,
                                          QStringList{QStringLiteral("--catalogue"), catalogue(),
                                                      QStringLiteral("--heartbeat-interval"), QStringLiteral("1"),
                                                      QStringLiteral("--train"), QStringLiteral("mini-rl"),
                                                      QStringLiteral("--train"), QStringLiteral("kill-rl"),
                                                      QStringLiteral("--train"), QStringLiteral("long-rl")} +
                                              extra,
                                          &why);
        if (!hub) {
            qWarning() << "cohort-hub did not start:" << why;
            return nullptr;
        }
        *url = hub->url;
        return std::move(hub->process);
    }

    // haltAt: COHORT_TESTING_HALT_AT for the node (it parks itself there, see RolloutWorker.h).
    std::unique_ptr<ChildProcess> startNode(const QString &hubUrl, const QString &dataDir, double weightNoise = 0,
                                            const QString &task = QStringLiteral("mini-rl"), const QString &haltAt = {})
    {
        auto node = std::make_unique<ChildProcess>(
            programPath(QStringLiteral("cohortd")),
            QStringList{QStringLiteral("--hub"), hubUrl, QStringLiteral("--data-dir"), dataDir,
                        QStringLiteral("--json"),
                        QStringLiteral("--verbose"), // each batch's event: the retry of one is checked below
                        QStringLiteral("--task"), task, QStringLiteral("--heartbeat-ms"), QStringLiteral("500"),
                        QStringLiteral("--settings"), dataDir + QStringLiteral(".ini")});
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("COHORT_TESTING_HALT_AT"));
        if (weightNoise > 0)
            env.insert(QStringLiteral("COHORT_TESTING_WEIGHT_NOISE"), QString::number(weightNoise));
        if (!haltAt.isEmpty())
            env.insert(QStringLiteral("COHORT_TESTING_HALT_AT"), haltAt);
        node->process().setProcessEnvironment(env);
        return node->start() ? std::move(node) : nullptr;
    }

    // A field of the node's last status line that has it (cohortd --json): rollouts, progress, contribution.
    static QJsonObject lastStatusField(ChildProcess &node, const QString &field)
    {
        const QStringList lines = node.output().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        for (qsizetype i = lines.size() - 1; i >= 0; --i) {
            const QJsonObject o = QJsonDocument::fromJson(lines[i].toUtf8()).object();
            if (o.contains(field))
                return o.value(field).toObject();
        }
        return {};
    }
    static QJsonObject rollouts(ChildProcess &node) { return lastStatusField(node, QStringLiteral("rollouts")); }
    // The node's view of the joined task's held-out curve (EngineSnapshot::progress).
    static QJsonObject progressOf(ChildProcess &node) { return lastStatusField(node, QStringLiteral("progress")); }

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
        return cohort::test::ledgerRows(hubDir, sql, bindings);
    }

    static QStringList ledgerStatuses(const QString &hubDir, const QString &submissionId)
    {
        return ledgerRows(hubDir, QStringLiteral("SELECT status FROM submissions WHERE submission_id=:id"),
                          {{QStringLiteral(":id"), submissionId}});
    }

    // One row of the kill matrix: what the node held on disk when it was killed, and what that kill cost.
    struct KillCase {
        QString name;
        QString haltAt;          // COHORT_TESTING_HALT_AT
        bool tearNewest = false; // truncate the newest engine bundle before the restart
        QString task = QStringLiteral("kill-rl");
    };
    struct KillOutcome {
        double lostSeconds = 0; // compute since the last bundle, generated again after the restart
        bool regenerated = false;
    };

    // Starts a node that parks itself at c.haltAt, kills it there with -9, restarts it on the same data dir and checks
    // that the work item in hand comes back, that every batch reaches the hub's ledger exactly once and that nothing
    // acknowledged is sent again.
    void killAndRecover(const KillCase &c, const QString &url, const QString &hubDir, ChildProcess &hub,
                        KillOutcome *outcome)
    {
        const QString nodeDir = m_dir.filePath(QStringLiteral("kill-") + c.name);
        auto node = startNode(url, nodeDir, 0, c.task, c.haltAt);
        QVERIFY(node);
        const QRegularExpression halted(QStringLiteral("COHORT_TESTING_HALT_AT: halted at %1 \\(t=(\\d+)\\)")
                                            .arg(QRegularExpression::escape(c.haltAt)));
        QTRY_VERIFY2_WITH_TIMEOUT(halted.match(node->errors()).hasMatch(),
                                  qPrintable(c.name + QStringLiteral(": never halted\n") + node->errors()), 90'000);
        const qint64 haltedAtMs = halted.match(node->errors()).captured(1).toLongLong();
        node->process().kill(); // SIGKILL, exactly where it stands
        QVERIFY(node->process().waitForFinished(10'000));

        // What was on disk at the kill.
        const QString bundleDir = QDir(nodeDir).filePath(QStringLiteral("bundles"));
        cohort::BundleStore bundles(bundleDir);
        const QStringList parts = QDir(bundleDir).entryList({QStringLiteral("*.part")}, QDir::Files);
        std::optional<cohort::EngineBundle> newest;
        for (const QString &file : bundles.bundleFiles())
            if (auto b = cohort::BundleStore::read(file); b && !newest)
                newest = *b;
        QVERIFY2(newest, qPrintable(c.name));
        const QString workInHand =
            newest->state.value(QStringLiteral("work")).toObject().value(QStringLiteral("work_id")).toString();
        QMap<QString, QString> outboxWork; // submission id -> work id
        for (const cohort::OutboxEntry &e : cohort::Outbox(QDir(nodeDir).filePath(QStringLiteral("outbox"))).entries())
            outboxWork.insert(e.submissionId,
                              QJsonDocument::fromJson(e.body).object().value(QStringLiteral("work_id")).toString());
        const QStringList owners =
            ledgerRows(hubDir, QStringLiteral("SELECT node_id FROM work ORDER BY issued_at DESC LIMIT 1"));
        QVERIFY(!owners.isEmpty());
        const QString nodeId = owners.first();
        const QStringList submittedBefore =
            ledgerRows(hubDir, QStringLiteral("SELECT submission_id FROM submissions WHERE node_id=:n"),
                       {{QStringLiteral(":n"), nodeId}});
        const QString context = QStringLiteral("%1: work in hand '%2', outbox %3, parts %4")
                                    .arg(c.name, workInHand, QStringList(outboxWork.values()).join(QLatin1Char(',')),
                                         parts.join(QLatin1Char(',')));

        // The halt point is the moment it claims to be.
        const QString point = c.haltAt.section(QLatin1Char('@'), 0, 0).section(QLatin1Char('#'), 0, 0);
        if (point == QLatin1String("work-received") || point == QLatin1String("token") ||
            point == QLatin1String("rollout")) {
            QVERIFY2(!workInHand.isEmpty() && outboxWork.isEmpty(),
                     qPrintable(context)); // mid-batch: only the bundle has it
        } else if (point == QLatin1String("batch-saved")) {
            QVERIFY2(workInHand.isEmpty() && outboxWork.size() == 1, qPrintable(context));
            QVERIFY2(!submittedBefore.contains(outboxWork.firstKey()), qPrintable(context)); // never sent
        } else if (point == QLatin1String("ack-received")) {
            QVERIFY2(outboxWork.size() == 1 && submittedBefore.contains(outboxWork.firstKey()),
                     qPrintable(context)); // credited, not known to be
        } else if (point == QLatin1String("bundle-part")) {
            QVERIFY2(parts.size() == 1 && !workInHand.isEmpty() && outboxWork.values().contains(workInHand),
                     qPrintable(context));
        }
        if (c.tearNewest) {
            QFile torn(bundles.bundleFiles().first());
            QVERIFY(torn.open(QIODevice::ReadWrite));
            QVERIFY(torn.resize(torn.size() / 2));
        }
        const qsizetype hubLogAtRestart = hub.errors().size();

        auto again = startNode(url, nodeDir, 0, c.task);
        QVERIFY(again);
        // The work items to see credited: the one in hand (if its batch was not finished) and those in the outbox.
        QStringList expected = outboxWork.values();
        if (c.tearNewest) {
            QTRY_VERIFY2_WITH_TIMEOUT(again->errors().contains(QStringLiteral("Set aside a damaged engine bundle")),
                                      qPrintable(context), 30'000);
            QVERIFY(QDir(bundleDir).exists(QStringLiteral("damaged")));
        } else if (!workInHand.isEmpty() && !outboxWork.values().contains(workInHand)) {
            QTRY_VERIFY2_WITH_TIMEOUT(again->errors().contains(QStringLiteral("Resuming work ") + workInHand),
                                      qPrintable(context), 30'000);
            expected.append(workInHand);
            outcome->regenerated = true;
            outcome->lostSeconds = double(haltedAtMs - newest->writtenAtMs) / 1000.0;
        } else if (!workInHand.isEmpty()) {
            QTRY_VERIFY2_WITH_TIMEOUT(
                again->errors().contains(
                    QStringLiteral("Work %1 from the engine bundle is already finished").arg(workInHand)),
                qPrintable(context), 30'000);
        }
        const auto creditedOnce = [&] {
            for (const QString &work : expected)
                if (ledgerRows(hubDir, QStringLiteral("SELECT status FROM submissions WHERE work_id=:w"),
                               {{QStringLiteral(":w"), work}})
                        .size() != 1)
                    return false;
            return QDir(QDir(nodeDir).filePath(QStringLiteral("outbox")))
                .entryList({QStringLiteral("s-*.json")}, QDir::Files)
                .isEmpty();
        };
        // A liveness bound, not a speed test: under a loaded CI machine a kill moment can take a minute to settle.
        // An explicit loop (QTRY stops early once anything marked the test failed) that tells what the node and the
        // hub did when it runs out.
        QElapsedTimer settling;
        settling.start();
        // One verdict, kept: a second look could catch the hub's database mid-write and read nothing.
        bool credited = false;
        while (!(credited = creditedOnce()) && settling.elapsed() < 120'000)
            QTest::qWait(100);
        QVERIFY2(credited,
                 qPrintable(QStringLiteral("%1\nnot credited once after %2 ms\nnode:\n%3\nhub:\n%4")
                                .arg(context)
                                .arg(settling.elapsed())
                                .arg(again->errors().right(4000), hub.errors().mid(hubLogAtRestart).right(4000))));
        int code = -1;
        QVERIFY(again->terminateAndWait(15'000, &code));
        QCOMPARE(code, 0);

        // The ledger of this node: one submission per work item, none refused as a second batch for the same work.
        const QStringList rows = ledgerRows(
            hubDir, QStringLiteral("SELECT work_id, status, submission_id FROM submissions WHERE node_id=:n"),
            {{QStringLiteral(":n"), nodeId}});
        QSet<QString> works;
        for (const QString &row : rows) {
            const QStringList col = row.split(QLatin1Char('|'));
            QVERIFY2(col[1] == QLatin1String("accepted") || col[1] == QLatin1String("confirmed"),
                     qPrintable(context + QLatin1Char('\n') + row));
            QVERIFY2(!works.contains(col[0]),
                     qPrintable(context + QStringLiteral("\nwork submitted twice: ") + col[0]));
            works.insert(col[0]);
        }
        for (const QString &work : expected)
            QVERIFY2(works.contains(work), qPrintable(context + QStringLiteral("\nlost: ") + work));
        // Nothing acknowledged is sent again; the batch whose answer the kill cut off is, and counts once.
        const auto retried = [&](const QString &id) {
            const QStringList hubLog = hub.errors().mid(hubLogAtRestart).split(QLatin1Char('\n'));
            return std::any_of(hubLog.cbegin(), hubLog.cend(), [&](const QString &line) {
                return line.contains(id) && line.contains(QStringLiteral("is a retry"));
            });
        };
        for (const QString &id : submittedBefore)
            if (outboxWork.contains(id)) // the hub's log line may still be in the pipe: read until it is there
                QTRY_VERIFY2_WITH_TIMEOUT(retried(id), qPrintable(context + QStringLiteral("\nno retry of ") + id),
                                          10'000);
        for (const QString &id : submittedBefore) {
            const bool retry = retried(id);
            QVERIFY2(retry == outboxWork.contains(id),
                     qPrintable(context + QStringLiteral("\n%1 of %2 (outbox: %3)")
                                              .arg(retry ? QStringLiteral("retry") : QStringLiteral("no retry"), id,
                                                   QStringList(outboxWork.keys()).join(QLatin1Char(',')))));
        }
        // Every work item the hub issued to this node was submitted, but the one in hand at the clean stop.
        QVERIFY2(ledgerRows(hubDir, QStringLiteral("SELECT work_id FROM work WHERE node_id=:n AND status!='submitted'"),
                            {{QStringLiteral(":n"), nodeId}})
                         .size() <= 1,
                 qPrintable(context));
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
        // Batch after batch the node stays Working: the state does not blink to Idle between a batch's answer and
        // the next request (it did once per batch), nor turn Downloading for a version fetched behind the work. A
        // node may still leave Working for a reason — the trainer outran it and its work needs a newer version, the
        // hub's answer was slow on a loaded machine (CI twice saw one or two such changes among dozens of batches,
        // its cause not visible in the message) — so what is asserted is the blink's signature: about one change per
        // batch. Every change is printed when there is more than one, to find the reason next time.
        for (ChildProcess *node : {a.get(), b.get()}) {
            const QString log = node->errors();
            const qsizetype accepted = rollouts(*node).value(QStringLiteral("batches_accepted")).toInt();
            const qsizetype left = log.count(QStringLiteral("state \"working\" -> \"idle\"")) +
                                   log.count(QStringLiteral("state \"working\" -> \"downloading\""));
            if (left > 1) {
                const QStringList lines = log.split(QLatin1Char('\n'));
                for (qsizetype i = 0; i < lines.size(); ++i)
                    if (lines[i].contains(QStringLiteral("state \"working\" ->")))
                        qWarning("%s\n--",
                                 qPrintable(lines.mid(std::max<qsizetype>(0, i - 4), 5).join(QLatin1Char('\n'))));
            }
            // Seen here on 2026-12-02 under a full ctest: two "working -> downloading" (the trainer outran the node:
            // v10 and v29 fetched behind the work) and one "working -> idle" late in the run, with 18 batches in the
            // status read and 46 by the engine's own count — three reasons, not a blink (which is ~1 per batch).
            QVERIFY2(left <= std::max<qsizetype>(3, accepted / 4),
                     qPrintable(QStringLiteral("the node left Working %1 times in %2 batches (printed above)")
                                    .arg(left)
                                    .arg(accepted)));
        }
        const QJsonObject progress = get(url + QStringLiteral("/v1/tasks/mini-rl/progress"));
        QVERIFY(progress.value(QStringLiteral("version")).toInt() >= 3);
        QVERIFY(progress.value(QStringLiteral("steps")).toInt() >= 2);
        QVERIFY(progress.value(QStringLiteral("accepted_batches")).toInt() >= 6);
        // Every published version is scored on the held-out problems, greedy and sampled, correctness and format apart.
        const QJsonObject heldOut = progress.value(QStringLiteral("held_out")).toObject();
        QCOMPARE(heldOut.value(QStringLiteral("problems")).toInt(), 128);
        QVERIFY(heldOut.value(QStringLiteral("better")).toString().contains(QStringLiteral("greedy")));
        const QJsonArray evaluated = heldOut.value(QStringLiteral("curve")).toArray();
        QVERIFY2(evaluated.size() >= 2, QJsonDocument(heldOut).toJson().constData());
        int previous = 0;
        for (const QJsonValue &v : evaluated) {
            const QJsonObject point = v.toObject();
            QVERIFY(point.value(QStringLiteral("version")).toInt() > previous);
            previous = point.value(QStringLiteral("version")).toInt();
            for (const QString &mode : {QStringLiteral("greedy"), QStringLiteral("sampled")}) {
                const QJsonObject score = point.value(mode).toObject();
                for (const QString &part :
                     {QStringLiteral("reward"), QStringLiteral("correctness"), QStringLiteral("format")}) {
                    QVERIFY2(score.contains(part), QJsonDocument(point).toJson().constData());
                    const double x = score.value(part).toDouble();
                    QVERIFY(x >= 0 && x <= 1);
                }
                // The reward is made of its parts (Environment.h: 0.2 format + 0.8 correctness).
                QVERIFY(std::fabs(score.value(QStringLiteral("reward")).toDouble() -
                                  (0.2 * score.value(QStringLiteral("format")).toDouble() +
                                   0.8 * score.value(QStringLiteral("correctness")).toDouble())) < 1e-9);
            }
        }
        // The node fetches the curve for its views (the Tasks page's chart, cohortd --json): within 30 s + a heartbeat.
        QTRY_VERIFY_WITH_TIMEOUT(progressOf(*a).value(QStringLiteral("held_out")).toArray().size() >= 1, 45'000);
        // And its own part in the accepted work (heartbeat reply): rank among the two nodes, no other node named.
        const auto contributionOf = [](ChildProcess &node) {
            return lastStatusField(node, QStringLiteral("contribution"));
        };
        QTRY_VERIFY_WITH_TIMEOUT(contributionOf(*a).value(QStringLiteral("accepted_batches")).toInt() >= 1 &&
                                     contributionOf(*a).value(QStringLiteral("contributors")).toInt() == 2,
                                 45'000);
        const QJsonObject part = contributionOf(*a);
        QVERIFY(part.value(QStringLiteral("rank")).toInt() == 1 || part.value(QStringLiteral("rank")).toInt() == 2);
        QVERIFY(part.value(QStringLiteral("share")).toDouble() > 0 &&
                part.value(QStringLiteral("share")).toDouble() < 1);
        const QJsonObject seen = progressOf(*a);
        QCOMPARE(seen.value(QStringLiteral("task")).toString(), QStringLiteral("mini-rl"));
        QCOMPARE(seen.value(QStringLiteral("problems")).toInt(), 128);
        const QJsonObject firstSeen = seen.value(QStringLiteral("held_out")).toArray().at(0).toObject();
        QCOMPARE(firstSeen.value(QStringLiteral("version")).toInt(),
                 evaluated.at(0).toObject().value(QStringLiteral("version")).toInt());
        QCOMPARE(firstSeen.value(QStringLiteral("greedy_correctness")).toDouble(),
                 evaluated.at(0)
                     .toObject()
                     .value(QStringLiteral("greedy"))
                     .toObject()
                     .value(QStringLiteral("correctness"))
                     .toDouble());
        QVERIFY(!progress.value(QStringLiteral("curve")).toArray().isEmpty());
        // Honest nodes are never refused for what they sent; a batch may only come too late (the trainer moved on),
        // and rarely: at most one in four, plus one (with 3 accepted, integer quarters would allow none at all).
        for (ChildProcess *node : {a.get(), b.get()}) {
            const QJsonObject r = rollouts(*node);
            QVERIFY2(r.value(QStringLiteral("batches_rejected")).toInt() <=
                         r.value(QStringLiteral("batches_accepted")).toInt() / 4 + 1,
                     QJsonDocument(r).toJson().constData());
            const QString last = r.value(QStringLiteral("last_rejection")).toString();
            QVERIFY2(last.isEmpty() || last.contains(QStringLiteral("too old")), qPrintable(last));
        }
        QVERIFY(!hub->errors().contains(QStringLiteral("reward_mismatch")));
        QVERIFY(!hub->errors().contains(QStringLiteral("bad_token")));
        QVERIFY(hasLine(*hub, QStringLiteral("confirmed"), QStringLiteral("TOPLOC: "))); // proofs checked by prefill
        QVERIFY2(!hub->errors().contains(QStringLiteral("TOPLOC proof failed")),         // honest nodes always pass
                 qPrintable(hub->errors()
                                .split(QLatin1Char('\n'))
                                .filter(QStringLiteral("TOPLOC proof failed"))
                                .join(QLatin1Char('\n'))));
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
        QString backUrl;
        auto back =
            startHub(hubDir, &backUrl, {QStringLiteral("--port"), port}); // the fixture's "--port 0" is overridden
        QVERIFY(back);
        QCOMPARE(backUrl, url);
        QTRY_VERIFY_WITH_TIMEOUT(rollouts(*node).value(QStringLiteral("batches_accepted")).toInt() > acceptedBefore &&
                                     rollouts(*node).value(QStringLiteral("outbox_batches")).toInt() == 0,
                                 180'000); // the restarted hub warms its trainer first: 94 s once under CI's load
        QVERIFY(node->terminateAndWait(15'000, &code));
        QVERIFY(back->terminateAndWait(15'000, &code));
    }

    // Credit pending when the hub stops is not left pending for ever: the restarted hub reads the accepted batches
    // back from its ledger and verifies them, and they turn confirmed. (The first hub holds verification back, a
    // testing knob, so there is pending credit to lose when it stops.)
    void pendingCreditSurvivesAHubRestart()
    {
        const QString hubDir = m_dir.filePath(QStringLiteral("hub-pending"));
        // The testing knob through the fixture's shell wrapper: it reaches this hub and not the one after the restart.
        QString why;
        auto started =
            cohort::test::startHub(hubDir,
                                   {QStringLiteral("--catalogue"), catalogue(), QStringLiteral("--heartbeat-interval"),
                                    QStringLiteral("1"), QStringLiteral("--train"), QStringLiteral("mini-rl")},
                                   &why, QStringLiteral("export COHORT_TESTING_HOLD_VERIFICATION=1"));
        QVERIFY2(started, qPrintable(why));
        auto hub = std::move(started->process);
        const QString url = started->url;
        auto node = startNode(url, m_dir.filePath(QStringLiteral("pending-node")));
        QVERIFY(node);
        const QString pendingSql =
            QStringLiteral("SELECT submission_id FROM submissions WHERE status='accepted' ORDER BY submission_id");
        // Two batches: the node's share awaiting verification; it is then told to wait.
        QTRY_VERIFY_WITH_TIMEOUT(ledgerRows(hubDir, pendingSql).size() >= 2, 120'000);
        int code = -1;
        QVERIFY(node->terminateAndWait(15'000, &code));
        QVERIFY(hub->terminateAndWait(15'000, &code));
        const QStringList pending = ledgerRows(hubDir, pendingSql);
        QCOMPARE(pending.size(), 2);
        QVERIFY(ledgerRows(hubDir, QStringLiteral("SELECT submission_id FROM submissions WHERE status='confirmed'"))
                    .isEmpty());

        QString backUrl;
        auto back = startHub(hubDir, &backUrl, {QStringLiteral("--train"), QStringLiteral("mini-rl")});
        QVERIFY(back);
        QTRY_VERIFY_WITH_TIMEOUT(ledgerRows(hubDir, pendingSql).isEmpty(), 60'000);
        for (const QString &id : pending)
            QCOMPARE(ledgerStatuses(hubDir, id), QStringList{QStringLiteral("confirmed")});
        QVERIFY2(back->errors().contains(QStringLiteral("verifying again 2 batches accepted before a restart")),
                 qPrintable(back->errors().right(2000)));
        // Their bodies are dropped with the verdict.
        QCOMPARE(
            ledgerRows(
                hubDir,
                QStringLiteral(
                    "SELECT COUNT(*) FROM submissions WHERE pending_body IS NOT NULL AND length(pending_body) > 0")),
            QStringList{QStringLiteral("0")});
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
        QTRY_VERIFY_WITH_TIMEOUT(again->errors().contains(QStringLiteral("retry of a batch the hub already had")),
                                 30'000);
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
        QTRY_VERIFY_WITH_TIMEOUT(
            get(url + QStringLiteral("/v1/tasks/mini-rl/progress")).value(QStringLiteral("flagged_nodes")).toInt() == 1,
            150'000);
        // Refused on evidence: TOPLOC when no sampled token changed, verifiable sampling when one did.
        QVERIFY(hub->errors().contains(QStringLiteral("TOPLOC proof failed")) ||
                hub->errors().contains(QStringLiteral("not sampled by version")));
        QVERIFY(hasLine(*hub, QStringLiteral("failed verification"), QStringLiteral("flagged: no more work")));
        QVERIFY(node->errors().contains(QStringLiteral("COHORT_TESTING_WEIGHT_NOISE")));
        QTRY_VERIFY_WITH_TIMEOUT(node->errors().contains(QStringLiteral("The hub stopped giving this node work")) ||
                                     node->output().contains(QStringLiteral("The hub stopped giving this node work")),
                                 30'000);
        // Every verified batch of this node was refused on evidence, none confirmed; the statistics are stored: a
        // TOPLOC refusal has compared chunks and a mantissa error, a sampling refusal its off-sample tokens.
        const QStringList rows =
            ledgerRows(hubDir, QStringLiteral("SELECT status, proof_failed, proof_chunks, proof_worst_mean,"
                                              " node_id, off_sample_tokens FROM submissions"));
        int failed = 0;
        QString nodeId;
        for (const QString &row : rows) {
            const QStringList c = row.split(QLatin1Char('|'));
            QVERIFY2(c[0] != QLatin1String("confirmed"), qPrintable(row));
            if (c[1] == QLatin1String("1")) {
                ++failed;
                QCOMPARE(c[0], QStringLiteral("refused"));
                QVERIFY2((c[2].toInt() >= 1 && c[3].toDouble() > 0.05) || c[5].toInt() >= 1, qPrintable(row));
            }
            nodeId = c[4];
        }
        QVERIFY2(failed >= 3, qPrintable(rows.join(QLatin1Char('\n'))));
        const QStringList flag =
            ledgerRows(hubDir, QStringLiteral("SELECT proof_failures, flagged_at FROM node_flags"));
        QCOMPARE(flag.size(), 1);
        QVERIFY(flag.first().section(QLatin1Char('|'), 1).toLongLong() > 0);
        // The operator lifts the flag while the hub runs.
        ChildProcess unflag(
            programPath(QStringLiteral("cohort-hub")),
            {QStringLiteral("--data-dir"), hubDir, QStringLiteral("--unflag"), nodeId + QStringLiteral(":mini-rl")});
        QVERIFY(unflag.start());
        QVERIFY(unflag.process().waitForFinished(20'000));
        QCOMPARE(unflag.process().exitCode(), 0);
        QVERIFY(unflag.output().contains(QStringLiteral("cleared the TOPLOC flag")));
        QCOMPARE(get(url + QStringLiteral("/v1/tasks/mini-rl/progress")).value(QStringLiteral("flagged_nodes")).toInt(),
                 0);
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
        auto node =
            startNode(url, nodeDir, 0, QStringLiteral("long-rl")); // batches of 64 x 200 tokens: pauses land mid-batch
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
        QTRY_VERIFY_WITH_TIMEOUT(
            status().value(QStringLiteral("rollouts")).toObject().value(QStringLiteral("batches_accepted")).toInt() >=
                1,
            120'000);
        // Pause while a batch is being generated, ten times; the engine measures how long the compute thread took.
        QList<int> latencies;
        for (int round = 0; round < 10; ++round) {
            QTRY_VERIFY_WITH_TIMEOUT(status().value(QStringLiteral("schedule"))
                                             .toObject()
                                             .value(QStringLiteral("work_at_risk_seconds"))
                                             .toDouble() > 0,
                                     30'000);
            QVERIFY(cohort::controlRequest(*endpoint, "POST", QStringLiteral("/v1/pause")).ok());
            QTRY_VERIFY_WITH_TIMEOUT(status().value(QStringLiteral("state")).toString() == QLatin1String("paused"),
                                     5'000);
            QCOMPARE(status().value(QStringLiteral("reason")).toString(), QStringLiteral("user"));
            QTRY_VERIFY_WITH_TIMEOUT(!status()
                                          .value(QStringLiteral("schedule"))
                                          .toObject()
                                          .value(QStringLiteral("last_pause_latency_ms"))
                                          .isNull(),
                                     5'000);
            latencies.append(status()
                                 .value(QStringLiteral("schedule"))
                                 .toObject()
                                 .value(QStringLiteral("last_pause_latency_ms"))
                                 .toInt());
            QVERIFY(cohort::controlRequest(*endpoint, "POST", QStringLiteral("/v1/resume")).ok());
            QTRY_VERIFY_WITH_TIMEOUT(status().value(QStringLiteral("state")).toString() != QLatin1String("paused"),
                                     5'000);
        }
        std::sort(latencies.begin(), latencies.end());
        qInfo("pause latency over %d pauses during generation: median %d ms, max %d ms", int(latencies.size()),
              latencies[latencies.size() / 2], latencies.last());
        QVERIFY2(latencies.last() <= 1500, qPrintable(QString::number(latencies.last())));

        // Snooze: paused for that reason, with the time it ends; resume ends it early.
        auto snoozed = cohort::controlRequest(*endpoint, "POST", QStringLiteral("/v1/snooze"),
                                              {{QStringLiteral("seconds"), 3600}});
        QVERIFY2(snoozed.ok(), qPrintable(snoozed.error()));
        QTRY_VERIFY_WITH_TIMEOUT(status().value(QStringLiteral("reason")).toString() == QLatin1String("snoozed"),
                                 5'000);
        QVERIFY(!status().value(QStringLiteral("schedule")).toObject().value(QStringLiteral("snoozed_until")).isNull());
        QVERIFY(
            !cohort::controlRequest(*endpoint, "POST", QStringLiteral("/v1/snooze"), {{QStringLiteral("seconds"), -5}})
                 .ok());
        QVERIFY(
            !cohort::controlRequest(*endpoint, "POST", QStringLiteral("/v1/snooze"), {{QStringLiteral("minutes"), 5}})
                 .ok());
        QVERIFY(cohort::controlRequest(*endpoint, "POST", QStringLiteral("/v1/resume")).ok());
        QTRY_VERIFY_WITH_TIMEOUT(status().value(QStringLiteral("state")).toString() != QLatin1String("paused"), 5'000);

        // Pause after this step: the batch in hand is finished and kept, then the node pauses.
        const int acceptedBefore =
            status().value(QStringLiteral("rollouts")).toObject().value(QStringLiteral("batches_accepted")).toInt();
        QVERIFY(cohort::controlRequest(*endpoint, "POST", QStringLiteral("/v1/pause-after-step")).ok());
        QTRY_VERIFY_WITH_TIMEOUT(status().value(QStringLiteral("reason")).toString() == QLatin1String("user"), 30'000);
        QTRY_VERIFY_WITH_TIMEOUT(
            status().value(QStringLiteral("rollouts")).toObject().value(QStringLiteral("outbox_batches")).toInt() == 0,
            30'000);
        QVERIFY(
            status().value(QStringLiteral("rollouts")).toObject().value(QStringLiteral("batches_accepted")).toInt() >=
            acceptedBefore);

        // The command-line client.
        ChildProcess cli(
            programPath(QStringLiteral("cohortd")),
            {QStringLiteral("--data-dir"), nodeDir, QStringLiteral("--control"), QStringLiteral("resume")});
        QVERIFY(cli.start() && cli.process().waitForFinished(20'000));
        QCOMPARE(cli.process().exitCode(), 0);
        QVERIFY(cli.output().contains(QStringLiteral("\"done\":\"resume\"")));
        ChildProcess bad(
            programPath(QStringLiteral("cohortd")),
            {QStringLiteral("--data-dir"), nodeDir, QStringLiteral("--control"), QStringLiteral("explode")});
        QVERIFY(bad.start() && bad.process().waitForFinished(20'000));
        QCOMPARE(bad.process().exitCode(), 2);
        int code = -1;
        QVERIFY(node->terminateAndWait(15'000, &code));
        QVERIFY(!QFile::exists(controlFile)); // no stale address left behind
        ChildProcess gone(
            programPath(QStringLiteral("cohortd")),
            {QStringLiteral("--data-dir"), nodeDir, QStringLiteral("--control"), QStringLiteral("status")});
        QVERIFY(gone.start() && gone.process().waitForFinished(20'000));
        QCOMPARE(gone.process().exitCode(), 1);
        QVERIFY(gone.errors().contains(QStringLiteral("no running node")));
        QVERIFY(hub->terminateAndWait(15'000, &code));
    }
    // kill -9 at exact points of the rollout loop, then a restart on the same data dir: the engine bundle brings
    // back the work item in hand (generated again, same seeds), the outbox what was finished, and the hub credits
    // every batch once. The node parks itself at the point (COHORT_TESTING_HALT_AT), so no kill depends on timing.
    void killMatrixLosesNothingAndCreditsOnce()
    {
        QString url;
        const QString hubDir = m_dir.filePath(QStringLiteral("hub-f"));
        auto hub = startHub(hubDir, &url);
        QVERIFY(hub);
        const QList<KillCase> cases{
            {QStringLiteral("work-received"), QStringLiteral("work-received")}, // work item saved, nothing generated
            {QStringLiteral("first-token"), QStringLiteral("token@0")},         // policy loaded, before the first token
            {QStringLiteral("mid-rollout"), QStringLiteral("token@24#2")},      // halfway through the second batch
            {QStringLiteral("between-rollouts"), QStringLiteral("rollout@8")},  // 8 of 16 samples scored and proved
            {QStringLiteral("batch-saved"), QStringLiteral("batch-saved")},     // in the outbox, not yet sent
            {QStringLiteral("before-ack"), QStringLiteral("ack-received")},     // credited by the hub, answer unread
            {QStringLiteral("bundle-write"), QStringLiteral("bundle-part#2")},  // "batch saved" bundle not renamed yet
            {QStringLiteral("torn-bundle"), QStringLiteral("ack-received#2"),
             true}, // and its newest bundle cut in half
            // 150 of 200 tokens into a batch of 64 samples: what a kill costs with a bigger batch
            {QStringLiteral("long-mid-rollout"), QStringLiteral("token@150"), false, QStringLiteral("long-rl")},
        };
        QStringList table;
        double lostSum = 0;
        int regenerated = 0;
        for (const KillCase &c : cases) {
            KillOutcome outcome;
            killAndRecover(c, url, hubDir, *hub, &outcome);
            if (QTest::currentTestFailed())
                return;
            table.append(
                QStringLiteral("  %1 (%2): %3")
                    .arg(c.name, c.haltAt,
                         outcome.regenerated
                             ? QStringLiteral("%1 s of compute generated again").arg(outcome.lostSeconds, 0, 'f', 2)
                             : QStringLiteral("nothing generated again")));
            lostSum += outcome.lostSeconds;
            regenerated += outcome.regenerated ? 1 : 0;
        }
        qInfo("work lost per kill -9 (compute since the last engine bundle, generated again after the restart):\n%s\n"
              "  mean %.2f s over %d kills (%d of them mid-batch)",
              qPrintable(table.join(QLatin1Char('\n'))), lostSum / double(cases.size()), int(cases.size()),
              regenerated);
        QVERIFY(regenerated >= 4);
        // The hub's own count agrees with its ledger: every batch credited once, none refused.
        const QJsonObject progress = get(url + QStringLiteral("/v1/tasks/kill-rl/progress"));
        const QStringList credited =
            ledgerRows(hubDir, QStringLiteral("SELECT COUNT(*), COUNT(DISTINCT work_id) FROM submissions"
                                              " WHERE task='kill-rl' AND status IN ('accepted','confirmed')"));
        QCOMPARE(credited.first().section(QLatin1Char('|'), 0, 0), credited.first().section(QLatin1Char('|'), 1, 1));
        QCOMPARE(progress.value(QStringLiteral("accepted_batches")).toInteger(),
                 credited.first().section(QLatin1Char('|'), 0, 0).toLongLong());
        QCOMPARE(
            ledgerRows(
                hubDir,
                QStringLiteral(
                    "SELECT COUNT(*) FROM submissions WHERE task='kill-rl' AND status NOT IN ('accepted','confirmed')"))
                .first(),
            QStringLiteral("0"));
        int code = -1;
        QVERIFY(hub->terminateAndWait(15'000, &code));
    }
};

QTEST_MAIN(TestRlE2e)
#include "tst_rl_e2e.moc"
