// Update notices against a real hub (issue 23): cohort-hub processes started with --client-latest, --client-minimum and
// --client-download-url, and real cohortd nodes read through their --json status lines and their event lines. A
// newer version is announced once and the node keeps working; below the hub's minimum the node stops, says why and
// does nothing the hub would count. "Newer" is 99.0.0, never this build's version.
#include "TestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace cohort::test;

namespace {
const QString kUrl = QStringLiteral("https://cohort.example/download");
const QString kAvailable = QStringLiteral("Cohort 99.0.0 is available: https://cohort.example/download");
const QString kNeeds = QStringLiteral("This hub needs Cohort 99.0.0 or newer; you have " COHORT_VERSION_STRING
                                      ". Download: https://cohort.example/download");

QList<QJsonObject> statusLines(ChildProcess &p)
{
    QList<QJsonObject> lines;
    for (const QString &line : p.output().split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        if (const QJsonObject o = QJsonDocument::fromJson(line.toUtf8()).object(); !o.isEmpty())
            lines.append(o);
    return lines;
}

QJsonObject last(ChildProcess &p)
{
    const QList<QJsonObject> lines = statusLines(p);
    return lines.isEmpty() ? QJsonObject() : lines.last();
}

QString stateOf(ChildProcess &p)
{
    return last(p).value(QStringLiteral("state")).toString();
}
} // namespace

class UpdateNoticeTest : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QNetworkAccessManager m_net;

    std::optional<StartedHub> hub(const QString &dataDir, const QStringList &extra)
    {
        QString why;
        auto started = startHub(
            dataDir, QStringList{QStringLiteral("--registration-work-bits"), QStringLiteral("8")} + extra, &why);
        if (!started)
            qWarning("cohort-hub did not start: %s", qPrintable(why));
        return started;
    }

    std::unique_ptr<ChildProcess> node(const QString &url, const QString &dir, const QStringList &extra = {})
    {
        auto p = std::make_unique<ChildProcess>(
            programPath(QStringLiteral("cohortd")),
            QStringList{QStringLiteral("--hub"), url, QStringLiteral("--data-dir"), dir, QStringLiteral("--json"),
                        QStringLiteral("--heartbeat-ms"), QStringLiteral("300"), QStringLiteral("--settings"),
                        dir + QStringLiteral(".ini")} +
                extra);
        return p->start() ? std::move(p) : nullptr;
    }

    QJsonObject getJson(const QString &url)
    {
        QNetworkReply *reply = m_net.get(QNetworkRequest(QUrl(url)));
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!reply->isFinished() && !finished.wait(10'000))
            return {};
        const QJsonObject body = QJsonDocument::fromJson(reply->readAll()).object();
        reply->deleteLater();
        return body;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void badOptionsStopTheHubBeforeItStarts_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("not a version") << QStringList{QStringLiteral("--client-latest"), QStringLiteral("0.3.0-beta")}
                                       << "--client-latest: '0.3.0-beta' is not a version";
        QTest::newRow("minimum above latest")
            << QStringList{QStringLiteral("--client-latest"), QStringLiteral("0.2.0"),
                           QStringLiteral("--client-minimum"), QStringLiteral("0.3.0")}
            << "--client-minimum 0.3.0 is newer than --client-latest 0.2.0";
        QTest::newRow("javascript link") << QStringList{QStringLiteral("--client-latest"), QStringLiteral("0.3.0"),
                                                        QStringLiteral("--client-download-url"),
                                                        QStringLiteral("javascript:alert(1)")}
                                         << "--client-download-url: not an http:// or https:// address";
        QTest::newRow("file link") << QStringList{QStringLiteral("--client-minimum"), QStringLiteral("0.3.0"),
                                                  QStringLiteral("--client-download-url"),
                                                  QStringLiteral("file:///tmp/cohort")}
                                   << "--client-download-url: not an http:// or https:// address";
        QTest::newRow("link without version") << QStringList{QStringLiteral("--client-download-url"), kUrl}
                                              << "--client-download-url needs --client-latest or --client-minimum";
    }
    void badOptionsStopTheHubBeforeItStarts()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        ChildProcess p(programPath(QStringLiteral("cohort-hub")),
                       QStringList{QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--data-dir"),
                                   m_dir.filePath(QStringLiteral("bad-hub"))} +
                           arguments);
        QVERIFY(p.start());
        QVERIFY(p.process().waitForFinished(30'000));
        QCOMPARE(p.process().exitCode(), 2);
        QVERIFY2(p.errors().contains(message), qPrintable(p.errors()));
        QVERIFY(!p.output().contains(QStringLiteral("listening on")));
    }

    // (a) The hub advertises 99.0.0: the node's status carries the update, the event line says it once (not with
    // every heartbeat), and the node keeps working.
    void aNewerVersionIsAnnouncedOnce()
    {
        auto h = hub(m_dir.filePath(QStringLiteral("hub-latest")),
                     {QStringLiteral("--client-latest"), QStringLiteral("99.0.0"),
                      QStringLiteral("--client-download-url"), kUrl});
        QVERIFY(h);
        const QJsonObject client =
            getJson(h->url + QStringLiteral("/v1/health")).value(QStringLiteral("client")).toObject();
        QCOMPARE(client, QJsonObject({{QStringLiteral("latest"), QStringLiteral("99.0.0")},
                                      {QStringLiteral("download_url"), kUrl}}));

        auto n = node(h->url, m_dir.filePath(QStringLiteral("node-latest")));
        QVERIFY(n);
        QTRY_VERIFY_WITH_TIMEOUT(
            last(*n).value(QStringLiteral("update")).toObject().value(QStringLiteral("available")).toBool(), 60'000);
        const QJsonObject update = last(*n).value(QStringLiteral("update")).toObject();
        QCOMPARE(update.value(QStringLiteral("latest")).toString(), QStringLiteral("99.0.0"));
        QCOMPARE(update.value(QStringLiteral("running")).toString(), QStringLiteral(COHORT_VERSION_STRING));
        QCOMPARE(update.value(QStringLiteral("download_url")).toString(), kUrl);
        QVERIFY(update.value(QStringLiteral("minimum")).isNull());
        QCOMPARE(update.value(QStringLiteral("below_minimum")).toBool(), false);
        QTRY_VERIFY_WITH_TIMEOUT(n->errors().contains(QStringLiteral("update: ") + kAvailable), 10'000);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(*n), QStringLiteral("idle"), 30'000);

        // Many heartbeats later (300 ms apart, each answer repeating the hub's versions), still one line.
        QSet<QString> heartbeats;
        QTRY_VERIFY_WITH_TIMEOUT(([&] {
                                     for (const QJsonObject &line : statusLines(*n))
                                         heartbeats.insert(line.value(QStringLiteral("last_heartbeat")).toString());
                                     return heartbeats.size() >= 5;
                                 }()),
                                 30'000);
        QCOMPARE(n->errors().count(kAvailable), 1);
        QCOMPARE(stateOf(*n), QStringLiteral("idle"));
    }

    // (b') A node is working when the operator restarts its hub (the same data, key and port) with 99.0.0 as the
    // minimum, between two of the node's heartbeats: the next heartbeat is refused, and the node stops with the reason
    // at once (no reconnecting, no "Lost the hub") and stays stopped.
    void aMinimumRaisedWhileTheNodeRunsStopsItAtItsNextHeartbeat()
    {
        const QString hubDir = m_dir.filePath(QStringLiteral("hub-raised"));
        auto h = hub(hubDir, {QStringLiteral("--client-latest"), QStringLiteral("99.0.0")});
        QVERIFY(h);
        auto n = node(h->url, m_dir.filePath(QStringLiteral("node-raised")),
                      {QStringLiteral("--heartbeat-ms"), QStringLiteral("20000")});
        QVERIFY(n);
        QTRY_VERIFY_WITH_TIMEOUT(last(*n).value(QStringLiteral("last_heartbeat")).isString(), 60'000);
        QCOMPARE(stateOf(*n), QStringLiteral("idle"));
        const QString port = QString::number(QUrl(h->url).port());
        QVERIFY(h->process->terminateAndWait(15'000, nullptr));
        h = hub(hubDir, {QStringLiteral("--port"), port, QStringLiteral("--client-latest"), QStringLiteral("99.0.0"),
                         QStringLiteral("--client-minimum"), QStringLiteral("99.0.0"),
                         QStringLiteral("--client-download-url"), kUrl});
        QVERIFY(h);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(*n), QStringLiteral("error"), 60'000);
        QCOMPARE(last(*n).value(QStringLiteral("why")).toString(), kNeeds);
        QVERIFY(last(*n).value(QStringLiteral("update")).toObject().value(QStringLiteral("below_minimum")).toBool());
        QVERIFY2(n->errors().contains(kNeeds), qPrintable(n->errors().right(2000)));
        QVERIFY2(!n->errors().contains(QStringLiteral("Lost the hub")), qPrintable(n->errors().right(2000)));

        // It stays stopped: no further attempt or heartbeat over the next status lines.
        const qsizetype seen = statusLines(*n).size();
        const QString lastHeartbeat = last(*n).value(QStringLiteral("last_heartbeat")).toString();
        QTRY_VERIFY_WITH_TIMEOUT(statusLines(*n).size() >= seen + 3, 15'000);
        QCOMPARE(stateOf(*n), QStringLiteral("error"));
        QCOMPARE(last(*n).value(QStringLiteral("last_heartbeat")).toString(), lastHeartbeat);
    }

    // (b) A node older than the hub's minimum, told to work on a task: it stops at registration with the reason, and
    // the hub never registered it, so it has nothing to ask work for or submit.
    void aNodeBelowTheMinimumStopsWithTheReasonAndDoesNothing()
    {
        auto h = hub(m_dir.filePath(QStringLiteral("hub-minimum")),
                     {QStringLiteral("--client-latest"), QStringLiteral("99.0.0"), QStringLiteral("--client-minimum"),
                      QStringLiteral("99.0.0"), QStringLiteral("--client-download-url"), kUrl});
        QVERIFY(h);
        auto n = node(h->url, m_dir.filePath(QStringLiteral("node-old")),
                      {QStringLiteral("--task"), QStringLiteral("arith-rl")});
        QVERIFY(n);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(*n), QStringLiteral("error"), 60'000);
        const QJsonObject status = last(*n);
        QCOMPARE(status.value(QStringLiteral("why")).toString(), kNeeds);
        QVERIFY(status.value(QStringLiteral("registered_at")).isNull());
        QVERIFY(status.value(QStringLiteral("joined_task")).isNull());
        const QJsonObject rollouts = status.value(QStringLiteral("rollouts")).toObject();
        QCOMPARE(rollouts.value(QStringLiteral("batches_accepted")).toInt(), 0);
        QCOMPARE(rollouts.value(QStringLiteral("outbox_batches")).toInt(), 0);
        QVERIFY2(n->errors().contains(kNeeds), qPrintable(n->errors().right(2000)));
        // No "is available" line: the reason to stop says it all.
        QVERIFY(!n->errors().contains(kAvailable));
        // The hub knows no node: it refused the registration (426) before storing anything.
        const QJsonObject nodes = getJson(h->url + QStringLiteral("/v1/nodes"));
        QVERIFY(nodes.contains(QStringLiteral("nodes")));
        QCOMPARE(nodes.value(QStringLiteral("nodes")).toArray().size(), 0);
        // And the node stays stopped.
        const qsizetype seen = statusLines(*n).size();
        QTRY_VERIFY_WITH_TIMEOUT(statusLines(*n).size() >= seen + 3, 15'000);
        QCOMPARE(stateOf(*n), QStringLiteral("error"));
    }
};

QTEST_GUILESS_MAIN(UpdateNoticeTest)
#include "tst_hub_update_notice.moc"
