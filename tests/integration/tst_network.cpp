// Real processes on 127.0.0.1: one cohort-hub and two cohortd nodes register, heartbeat and list tasks;
// a forged request is refused; SIGTERM stops each process cleanly. Also cohortd on its embedded network.
#include "TestSupport.h"
#include "net/Identity.h"
#include "net/RequestSigning.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace cohort;
using cohort::test::ChildProcess;
using cohort::test::programPath;
using cohort::test::startHub;

class TestNetwork : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QNetworkAccessManager m_net;

    // The hub's operator token (--operator-token-file): node records in full, as an operator sees them.
    static constexpr char kOperatorToken[] = "tst-network-operator-token-0123456789abcdef";

    QJsonObject get(const QString &url, int *status = nullptr)
    {
        QNetworkRequest request{QUrl(url)};
        request.setRawHeader("Authorization", QByteArray("Bearer ") + kOperatorToken);
        QNetworkReply *reply = m_net.get(request);
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!reply->isFinished())
            finished.wait(10'000);
        if (status)
            *status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QJsonObject body = QJsonDocument::fromJson(reply->readAll()).object();
        reply->deleteLater();
        return body;
    }
    QJsonObject nodeById(const QString &hubUrl, const QString &nodeId)
    {
        for (const QJsonValue &n : get(hubUrl + QStringLiteral("/v1/nodes")).value(QStringLiteral("nodes")).toArray())
            if (n.toObject().value(QStringLiteral("node_id")).toString() == nodeId)
                return n.toObject();
        return {};
    }
    static QJsonObject lastJsonLine(ChildProcess &p)
    {
        const QStringList lines = p.output().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        return lines.isEmpty() ? QJsonObject() : QJsonDocument::fromJson(lines.last().toUtf8()).object();
    }

private Q_SLOTS:
    void hubAndTwoNodes()
    {
        const QString tokenFile = m_dir.filePath(QStringLiteral("operator.token"));
        QFile token(tokenFile);
        QVERIFY(token.open(QIODevice::WriteOnly));
        token.write(kOperatorToken);
        token.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        token.close();
        QString why;
        auto started = startHub(m_dir.filePath(QStringLiteral("hub")),
                                {QStringLiteral("--heartbeat-interval"), QStringLiteral("1"),
                                 QStringLiteral("--operator-token-file"), tokenFile},
                                &why);
        QVERIFY2(started, qPrintable(why));
        ChildProcess &hub = *started->process;
        const QString hubUrl = started->url;

        std::vector<std::unique_ptr<ChildProcess>> nodes;
        QStringList nodeIds;
        for (int i = 0; i < 2; ++i) {
            const QString dataDir = m_dir.filePath(QStringLiteral("node%1").arg(i));
            auto node = std::make_unique<ChildProcess>(
                programPath(QStringLiteral("cohortd")),
                QStringList{QStringLiteral("--hub"), hubUrl, QStringLiteral("--data-dir"), dataDir,
                            QStringLiteral("--json"), QStringLiteral("--name"), QStringLiteral("node-%1").arg(i),
                            QStringLiteral("--heartbeat-ms"), QStringLiteral("300"), QStringLiteral("--settings"),
                            m_dir.filePath(QStringLiteral("settings%1.ini").arg(i))});
            QVERIFY(node->start());
            nodes.push_back(std::move(node));
        }
        // Both register, heartbeat and list the catalogue.
        for (auto &node : nodes) {
            QTRY_VERIFY_WITH_TIMEOUT(lastJsonLine(*node).value(QStringLiteral("state")).toString() ==
                                             QLatin1String("idle") &&
                                         lastJsonLine(*node).value(QStringLiteral("tasks")).toArray().size() == 3,
                                     30'000);
            nodeIds << lastJsonLine(*node).value(QStringLiteral("node_id")).toString();
        }
        QCOMPARE(nodeIds.size(), 2);
        QVERIFY(nodeIds[0] != nodeIds[1]);
        for (const QString &id : nodeIds) {
            QTRY_VERIFY_WITH_TIMEOUT(nodeById(hubUrl, id).value(QStringLiteral("heartbeats")).toInt() >= 3, 20'000);
            const QJsonObject record = nodeById(hubUrl, id);
            QVERIFY(record.value(QStringLiteral("online")).toBool());
            QCOMPARE(record.value(QStringLiteral("state")).toString(), QStringLiteral("idle"));
            QVERIFY(record.value(QStringLiteral("hardware")).toObject().contains(QStringLiteral("compute")));
        }
        QCOMPARE(nodeById(hubUrl, nodeIds[1]).value(QStringLiteral("name")).toString(), QStringLiteral("node-1"));

        // A forged heartbeat claiming to be node 0 is refused; node 0's record is untouched.
        auto identity = Identity::load(m_dir.filePath(QStringLiteral("node0/identity/node.key")));
        QVERIFY2(identity, qPrintable(identity.error()));
        QCOMPARE(identity->nodeId(), nodeIds[0]);
        const QByteArray honest = R"({"state":"idle"})";
        const QByteArray forged = R"({"state":"error","why":"forged"})";
        QNetworkRequest request(QUrl(hubUrl + QStringLiteral("/v1/nodes/heartbeat")));
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        for (const auto &[k, v] :
             signRequest(*identity, "POST", "/v1/nodes/heartbeat", honest, QDateTime::currentMSecsSinceEpoch()))
            request.setRawHeader(k, v);
        QNetworkReply *reply = m_net.post(request, forged);
        QSignalSpy done(reply, &QNetworkReply::finished);
        QVERIFY(done.wait(10'000));
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 401);
        QCOMPARE(QJsonDocument::fromJson(reply->readAll())
                     .object()
                     .value(QStringLiteral("error"))
                     .toObject()
                     .value(QStringLiteral("code"))
                     .toString(),
                 QStringLiteral("bad_signature"));
        reply->deleteLater();
        QVERIFY(nodeById(hubUrl, nodeIds[0]).value(QStringLiteral("why")).toString() != QLatin1String("forged"));

#ifndef Q_OS_WIN // QProcess::terminate() is SIGTERM on POSIX; Windows has no equivalent for console apps
        // SIGTERM stops each node cleanly: exit code 0 and a goodbye heartbeat saying "stopping".
        for (int i = 0; i < 2; ++i) {
            int exitCode = -2;
            QVERIFY(nodes[i]->terminateAndWait(20'000, &exitCode));
            QCOMPARE(exitCode, 0);
            QVERIFY(nodes[i]->errors().contains(QStringLiteral("stopping (signal 15)")));
            QCOMPARE(nodeById(hubUrl, nodeIds[i]).value(QStringLiteral("state")).toString(),
                     QStringLiteral("stopping"));
        }
        int hubExit = -2;
        QVERIFY(hub.terminateAndWait(10'000, &hubExit));
        QCOMPARE(hubExit, 0);
#endif
    }

    // --task names one, or 'auto' (what `setup.sh run` passes): the first of the hub's tasks this computer can run.
    void cohortdOnEmbeddedNetwork_data()
    {
        QTest::addColumn<QString>("task");
        QTest::newRow("named") << QStringLiteral("arith-rl");
        QTest::newRow("auto") << QStringLiteral("auto");
    }
    void cohortdOnEmbeddedNetwork()
    {
        QFETCH(QString, task);
        const QString dataDir = m_dir.filePath(QStringLiteral("embedded-") + task);
        ChildProcess node(programPath(QStringLiteral("cohortd")),
                          {QStringLiteral("--data-dir"), dataDir, QStringLiteral("--duration"), QStringLiteral("3"),
                           QStringLiteral("--task"), task, QStringLiteral("--settings"),
                           dataDir + QStringLiteral(".ini")});
        QVERIFY(node.start());
        QVERIFY(node.process().waitForFinished(30'000));
        QCOMPARE(node.process().exitCode(), 0);
        const QString out = node.output();
        QVERIFY2(out.contains(QStringLiteral("Idle")), qPrintable(out));
        QVERIFY2(node.errors().contains(QStringLiteral("Local network started at http://127.0.0.1:")),
                 qPrintable(node.errors()));
        QVERIFY2(node.errors().contains(QStringLiteral("Joined task arith-rl")), qPrintable(node.errors()));
        QCOMPARE(node.errors().contains(
                     QStringLiteral("Chose task arith-rl: the first of the hub's tasks this computer can run")),
                 task == QLatin1String("auto"));
        // Qt's complaint when an object's timer is used from a thread it does not live in (a timer left behind by
        // moveToThread): such a timer never fires.
        QVERIFY2(!node.errors().contains(QStringLiteral("cannot be started from another thread")) &&
                     !node.errors().contains(QStringLiteral("cannot be stopped from another thread")),
                 qPrintable(node.errors()));
    }

    // cohortd follows its settings file: a schedule written into it while cohortd runs pauses the node ("outside
    // your schedule"), taking it out resumes; a broken value is reported and the running settings kept.
    void cohortdAppliesSettingsFileEdits()
    {
        const QString ini = m_dir.filePath(QStringLiteral("live.ini"));
        ChildProcess node(programPath(QStringLiteral("cohortd")),
                          {QStringLiteral("--data-dir"), m_dir.filePath(QStringLiteral("live")),
                           QStringLiteral("--json"), QStringLiteral("--settings"), ini,
                           QStringLiteral("--no-control-api")});
        QVERIFY(node.start());
        const auto sawState = [&node](const QString &state, const QString &reason, int timeoutMs) {
            QDeadlineTimer deadline(timeoutMs);
            qsizetype from = 0;
            while (!deadline.hasExpired()) {
                const QStringList lines = node.output().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
                for (qsizetype i = from; i < lines.size(); ++i) {
                    const QJsonObject o = QJsonDocument::fromJson(lines.at(i).toUtf8()).object();
                    if (o.value(QStringLiteral("state")).toString() == state &&
                        (reason.isEmpty() || o.value(QStringLiteral("reason")).toString() == reason))
                        return true;
                }
                from = lines.size();
                node.process().waitForReadyRead(500);
            }
            return false;
        };
        QVERIFY2(sawState(QStringLiteral("idle"), QString(), 30'000), qPrintable(node.output() + node.errors()));

        // A window that starts two hours from now: the node is outside it.
        const QTime start = QTime::currentTime().addSecs(2 * 3600);
        const QString window =
            QStringLiteral("daily %1-%2")
                .arg(start.toString(QStringLiteral("HH:00")), start.addSecs(3600).toString(QStringLiteral("HH:00")));
        {
            QSettings file(ini, QSettings::IniFormat);
            file.setValue(QStringLiteral("schedule/windows"), QStringList{window});
        }
        QVERIFY2(sawState(QStringLiteral("paused"), QStringLiteral("outside-schedule"), 15'000),
                 qPrintable(node.errors()));
        QVERIFY(node.errors().contains(QStringLiteral("settings file changed (scheduler); applied")));

        // A broken edit: reported, and the schedule in use stays.
        {
            QSettings file(ini, QSettings::IniFormat);
            file.setValue(QStringLiteral("schedule/windows"), QStringList{QStringLiteral("whenever")});
        }
        QVERIFY2(node.waitForError(QStringLiteral("ignoring invalid setting \"schedule\""), 15'000),
                 qPrintable(node.errors()));
        const qsizetype linesBefore = node.output().count(QLatin1Char('\n'));
        QTRY_VERIFY_WITH_TIMEOUT(node.output().count(QLatin1Char('\n')) > linesBefore + 1,
                                 10'000); // a fresh status line
        QCOMPARE(lastJsonLine(node).value(QStringLiteral("reason")).toString(), QStringLiteral("outside-schedule"));

        {
            QSettings file(ini, QSettings::IniFormat);
            file.setValue(QStringLiteral("schedule/windows"), QStringList{});
        }
        QVERIFY2(sawState(QStringLiteral("idle"), QString(), 15'000), qPrintable(node.errors()));

        node.process().terminate();
        QVERIFY(node.process().waitForFinished(20'000));
        QCOMPARE(node.process().exitCode(), 0);
    }

    void cohortdRefusesBadArguments()
    {
        ChildProcess node(programPath(QStringLiteral("cohortd")),
                          {QStringLiteral("--hub"), QStringLiteral("ftp://nope"), QStringLiteral("--data-dir"),
                           m_dir.filePath(QStringLiteral("bad"))});
        QVERIFY(node.start());
        QVERIFY(node.process().waitForFinished(10'000));
        QCOMPARE(node.process().exitCode(), 2);
        QVERIFY(node.errors().contains(QStringLiteral("hubUrl")));
    }

    void unreachableHubShowsOfflineWithReason()
    {
        // Nothing listens on port 9 of loopback (discard): the node must say Offline and why, not hang.
        ChildProcess node(programPath(QStringLiteral("cohortd")),
                          {QStringLiteral("--hub"), QStringLiteral("http://127.0.0.1:9"), QStringLiteral("--data-dir"),
                           m_dir.filePath(QStringLiteral("offline")), QStringLiteral("--json"),
                           QStringLiteral("--duration"), QStringLiteral("3"), QStringLiteral("--settings"),
                           m_dir.filePath(QStringLiteral("offline.ini"))});
        QVERIFY(node.start());
        QVERIFY(node.process().waitForFinished(30'000));
        QCOMPARE(node.process().exitCode(), 1); // never reached its hub
        bool sawOffline = false;
        for (const QString &line : node.output().split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            const QJsonObject o = QJsonDocument::fromJson(line.toUtf8()).object();
            if (o.value(QStringLiteral("state")).toString() == QLatin1String("offline")) {
                sawOffline = true;
                QVERIFY(o.value(QStringLiteral("why")).toString().contains(QStringLiteral("Cannot reach the hub")));
            }
        }
        QVERIFY2(sawOffline, qPrintable(node.output()));
    }
};

QTEST_GUILESS_MAIN(TestNetwork)
#include "tst_network.moc"
