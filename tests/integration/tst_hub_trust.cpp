// Whom a node trusts (issue 21): real cohortd nodes and cohort-hub processes on 127.0.0.1, with an HTTP proxy between
// them that rewrites the hub's answers on the way, as anything on the network path could. A node refuses every answer
// the hub did not sign and loses nothing while it does; given the hub's key by its operator (--hub-key, the settings'
// "Hub key"), it trusts no other key even at first contact, and refuses another hub that answers at the address.
#include "TestSupport.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace cohort::test;

namespace {

// Forwards each client connection to the hub; the hub's HTTP answers pass whole (head and Content-Length body), so
// that a body can be rewritten and its length fixed up. `rewrite` on: every answer's JSON body gains a field, a change
// a node cannot see but through the hub's signature.
class RewritingProxy : public QObject {
public:
    explicit RewritingProxy(quint16 hubPort)
        : m_hubPort(hubPort)
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *client = m_server.nextPendingConnection())
                relay(client);
        });
        m_server.listen(QHostAddress::LocalHost);
    }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort()); }
    void setRewrite(bool on) { m_rewrite = on; }
    int rewritten() const { return m_rewritten; }

private:
    void relay(QTcpSocket *client)
    {
        auto *hub = new QTcpSocket(client);
        auto *pending = new QByteArray;
        connect(client, &QObject::destroyed, [pending] { delete pending; });
        hub->connectToHost(QHostAddress::LocalHost, m_hubPort);
        connect(client, &QTcpSocket::readyRead, hub, [client, hub] {
            if (hub->state() == QAbstractSocket::ConnectedState)
                hub->write(client->readAll());
        });
        connect(hub, &QTcpSocket::connected, client, [client, hub] { hub->write(client->readAll()); });
        connect(hub, &QTcpSocket::readyRead, client, [this, client, hub, pending] {
            pending->append(hub->readAll());
            while (true) {
                const qsizetype end = pending->indexOf("\r\n\r\n");
                if (end < 0)
                    return;
                QByteArray head = pending->left(end);
                const auto length = QRegularExpression(QStringLiteral("(?i)\r\ncontent-length: *(\\d+)"))
                                        .match(QString::fromLatin1(head));
                const qsizetype bodyBytes = length.hasMatch() ? length.captured(1).toLongLong() : 0;
                if (pending->size() < end + 4 + bodyBytes)
                    return;
                QByteArray body = pending->mid(end + 4, bodyBytes);
                pending->remove(0, end + 4 + bodyBytes);
                if (m_rewrite && body.startsWith('{')) {
                    body.insert(1, QByteArrayLiteral("\"rewritten_by\":\"a proxy\"") + (body.size() > 2 ? "," : ""));
                    head.replace(QByteArray::number(bodyBytes), QByteArray::number(body.size()));
                    ++m_rewritten;
                }
                client->write(head + "\r\n\r\n" + body);
            }
        });
        connect(client, &QTcpSocket::disconnected, client, &QObject::deleteLater);
        connect(hub, &QTcpSocket::disconnected, client, [client] { client->disconnectFromHost(); });
    }

    QTcpServer m_server;
    quint16 m_hubPort;
    bool m_rewrite = false;
    int m_rewritten = 0;
};

QString hubKeyOf(const StartedHub &hub)
{
    return QRegularExpression(QStringLiteral("key (\\S+)\\)")).match(hub.process->output()).captured(1);
}

} // namespace

class HubTrustTest : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    int m_runs = 0;

    std::optional<StartedHub> hub(const QString &dataDir = {}, const QStringList &extra = {})
    {
        QString why;
        auto started = startHub(dataDir.isEmpty() ? m_dir.filePath(QStringLiteral("hub%1").arg(++m_runs)) : dataDir,
                                QStringList{QStringLiteral("--train"), QStringLiteral("none"),
                                            QStringLiteral("--registration-work-bits"), QStringLiteral("8")} +
                                    extra,
                                &why);
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

    static QJsonObject last(ChildProcess &p)
    {
        const QStringList lines = p.output().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        return lines.isEmpty() ? QJsonObject() : QJsonDocument::fromJson(lines.last().toUtf8()).object();
    }

    static QByteArray pinnedKeys(const QString &dir)
    {
        QFile f(QDir(dir).filePath(QStringLiteral("identity/hubs.json")));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // After registration the proxy starts rewriting: every answer is refused as rewritten (none of its content taken),
    // the node says why, and when the path is clean again it carries on where it was.
    void rewrittenAnswersAreRefusedUntilThePathIsClean()
    {
        auto h = hub();
        QVERIFY(h);
        RewritingProxy proxy(quint16(QUrl(h->url).port()));
        const QString dir = m_dir.filePath(QStringLiteral("rewritten"));
        auto n = node(proxy.url(), dir);
        QVERIFY(n);
        QTRY_VERIFY_WITH_TIMEOUT(last(*n).value(QStringLiteral("state")).toString() == QLatin1String("idle"), 60'000);
        const QString nodeId = last(*n).value(QStringLiteral("node_id")).toString();
        QVERIFY(!nodeId.isEmpty());

        proxy.setRewrite(true);
        // (QTRY, not waitForError: the proxy lives in this process's event loop.)
        QTRY_VERIFY_WITH_TIMEOUT(n->errors().contains(QStringLiteral("rewritten on the way")), 20'000);
        QTRY_VERIFY_WITH_TIMEOUT(last(*n).value(QStringLiteral("state")).toString() == QLatin1String("offline"),
                                 20'000);
        QVERIFY2(last(*n).value(QStringLiteral("why")).toString().contains(QStringLiteral("rewritten")),
                 qPrintable(last(*n).value(QStringLiteral("why")).toString()));
        QVERIFY(proxy.rewritten() > 0);
        QVERIFY(
            !n->output().contains(QStringLiteral("a proxy"))); // nothing of a rewritten answer reached the node's state

        proxy.setRewrite(false);
        QTRY_VERIFY_WITH_TIMEOUT(last(*n).value(QStringLiteral("state")).toString() == QLatin1String("idle"), 60'000);
        QCOMPARE(last(*n).value(QStringLiteral("node_id")).toString(), nodeId); // the same identity, its pin unchanged
        QVERIFY(pinnedKeys(dir).contains(hubKeyOf(*h).toLatin1()));
    }

    // With the operator's key the very first answer must carry its signature: a path that rewrites from the first
    // byte gets nothing pinned, and the node never counts as registered.
    void theOperatorsKeyLeavesNoFirstContactToRewrite()
    {
        auto h = hub();
        QVERIFY(h);
        RewritingProxy proxy(quint16(QUrl(h->url).port()));
        proxy.setRewrite(true);
        const QString dir = m_dir.filePath(QStringLiteral("first-contact"));
        auto n = node(proxy.url(), dir, {QStringLiteral("--hub-key"), hubKeyOf(*h)});
        QVERIFY(n);
        QTRY_VERIFY_WITH_TIMEOUT(n->errors().contains(QStringLiteral("rewritten on the way")), 30'000);
        QTRY_VERIFY_WITH_TIMEOUT(last(*n).value(QStringLiteral("state")).toString() == QLatin1String("offline"),
                                 20'000);
        QVERIFY(last(*n).value(QStringLiteral("registered_at")).isNull());
        QVERIFY(pinnedKeys(dir).isEmpty());
        // The path turns clean: the same node registers with the real hub.
        proxy.setRewrite(false);
        QTRY_VERIFY_WITH_TIMEOUT(last(*n).value(QStringLiteral("state")).toString() == QLatin1String("idle"), 60'000);
        QVERIFY(pinnedKeys(dir).contains(hubKeyOf(*h).toLatin1()));
    }

    // Another hub answering at the address (a hijacked name, a server put in its place) is refused at once with a
    // clear error, even where trust on first use pinned that other hub's key: the operator's key is what counts, and
    // it replaces the first-use pin once the real hub answers there again.
    void anotherHubIsRefusedAndTheOperatorsKeyReplacesAFirstUsePin()
    {
        const QString realDir = m_dir.filePath(QStringLiteral("real-hub"));
        auto real = hub(realDir);
        auto other = hub();
        QVERIFY(real && other);
        const QString realKey = hubKeyOf(*real), otherKey = hubKeyOf(*other);
        QVERIFY(!realKey.isEmpty() && !otherKey.isEmpty() && realKey != otherKey);
        const QString dir = m_dir.filePath(QStringLiteral("other"));
        const auto run = [&](const QStringList &extra, const QString &state) -> QString {
            auto n = node(other->url, dir, extra);
            if (!n)
                return QStringLiteral("<no cohortd>");
            // The caller compares the state it ended in (returned below): a wait that times out shows there.
            (void)QTest::qWaitFor([&] { return last(*n).value(QStringLiteral("state")).toString() == state; }, 60'000);
            const QJsonObject status = last(*n);
            int code = -1;
            n->terminateAndWait(15'000, &code);
            return status.value(QStringLiteral("state")).toString() + QLatin1Char(' ') +
                   status.value(QStringLiteral("why")).toString();
        };
        const QStringList withRealKey{QStringLiteral("--hub-key"), realKey};

        QString seen = run(withRealKey, QStringLiteral("error"));
        QVERIFY2(seen.startsWith(QLatin1String("error")) &&
                     seen.contains(QStringLiteral("does not hold the key the settings name")),
                 qPrintable(seen));
        QVERIFY(!pinnedKeys(dir).contains(otherKey.toLatin1()));
        seen = run({}, QStringLiteral("idle")); // trust on first use: the other hub's key is pinned for the address
        QVERIFY2(seen.startsWith(QLatin1String("idle")), qPrintable(seen));
        QVERIFY(pinnedKeys(dir).contains(otherKey.toLatin1()));
        seen = run(withRealKey, QStringLiteral("error")); // the setting wins over the pin
        QVERIFY2(seen.contains(QStringLiteral("does not hold the key the settings name")), qPrintable(seen));

        // The real hub answers at that address again (the same data, so the same key, on the other's port).
        const QString port = QString::number(QUrl(other->url).port());
        QVERIFY(other->process->terminateAndWait(15'000, nullptr));
        QVERIFY(real->process->terminateAndWait(15'000, nullptr));
        real = hub(realDir, {QStringLiteral("--port"), port});
        QVERIFY(real);
        QCOMPARE(hubKeyOf(*real), realKey);
        seen = run({}, QStringLiteral("error")); // without the setting the first-use pin refuses the real hub
        QVERIFY2(seen.contains(QStringLiteral("does not hold the key this node pinned")), qPrintable(seen));
        seen = run(withRealKey, QStringLiteral("idle"));
        QVERIFY2(seen.startsWith(QLatin1String("idle")), qPrintable(seen));
        QVERIFY(pinnedKeys(dir).contains(realKey.toLatin1()));
        QVERIFY(!pinnedKeys(dir).contains(otherKey.toLatin1()));
    }

    void badHubKeysAreRefusedBeforeAnythingStarts()
    {
        for (const QString &bad :
             {QStringLiteral("not-a-key"), QStringLiteral("AAAA"), QString(QLatin1Char('A')).repeated(44)}) {
            const QString dir = m_dir.filePath(QStringLiteral("bad%1").arg(++m_runs));
            ChildProcess p(programPath(QStringLiteral("cohortd")),
                           {QStringLiteral("--hub"), QStringLiteral("http://127.0.0.1:9"), QStringLiteral("--data-dir"),
                            dir, QStringLiteral("--hub-key"), bad, QStringLiteral("--settings"),
                            dir + QStringLiteral(".ini")});
            QVERIFY(p.start());
            QVERIFY(p.process().waitForFinished(30'000));
            QVERIFY(p.process().exitCode() != 0);
            QVERIFY2(p.errors().contains(QStringLiteral("hubKey")), qPrintable(p.errors()));
        }
    }
};

QTEST_GUILESS_MAIN(HubTrustTest)
#include "tst_hub_trust.moc"
