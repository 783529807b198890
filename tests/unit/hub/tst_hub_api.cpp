// The hub's HTTP API over real sockets on 127.0.0.1: signed registration and heartbeats, and every kind of
// bad input answered with a 4xx JSON error while the hub keeps serving.
#include "diloco/DilocoAudit.h"
#include "hub/DilocoCoordinator.h"
#include "hub/HubService.h"
#include "hub/HubStore.h"
#include "hub/RlCoordinator.h"
#include "net/ApiServer.h"
#include "net/Ed25519.h"
#include "net/HubClient.h"
#include "net/Identity.h"
#include "net/RequestSigning.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSet>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace cohort;

struct Reply {
    int status = 0;
    QJsonObject body;
    QByteArray raw;
    QString errorCode() const
    {
        return body.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString();
    }
};

class TestHubApi : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<HubService> m_hub;
    QNetworkAccessManager m_net;
    std::optional<Identity> m_node;

    Reply send(const QByteArray &method, const QString &path, const QByteArray &body = {},
               const HeaderList &headers = {})
    {
        QNetworkRequest request(QUrl(m_hub->url() + path));
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        for (const auto &[k, v] : headers)
            request.setRawHeader(k, v);
        QNetworkReply *reply = m_net.sendCustomRequest(request, method, body);
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!reply->isFinished())
            [&] { QVERIFY(finished.wait(10'000)); }();
        Reply r;
        r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        r.raw = reply->readAll();
        r.body = QJsonDocument::fromJson(r.raw).object();
        reply->deleteLater();
        return r;
    }
    Reply sendSigned(const QByteArray &method, const QString &path, const QJsonObject &body, const Identity &id,
                     qint64 skewMs = 0)
    {
        const QByteArray bytes = body.isEmpty() ? QByteArray() : QJsonDocument(body).toJson(QJsonDocument::Compact);
        return send(method, path, bytes,
                    signRequest(id, method, path.toUtf8(), bytes, QDateTime::currentMSecsSinceEpoch() + skewMs));
    }
    void expectError(const Reply &r, int status, const QString &code)
    {
        QCOMPARE(r.status, status);
        QCOMPARE(r.errorCode(), code);
        QVERIFY(
            !r.body.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString().isEmpty());
    }
    QJsonObject registration() const
    {
        return {{QStringLiteral("name"), QStringLiteral("test node")},
                {QStringLiteral("client_version"), QStringLiteral("0.1.0")},
                {QStringLiteral("hardware"), QJsonObject{{QStringLiteral("cpu_cores"), 2}}}};
    }

    static constexpr char kOperatorToken[] = "0123456789abcdef0123456789abcdef-operator";

private Q_SLOTS:
    void initTestCase()
    {
        HubConfig config;
        config.dataDir = m_dir.filePath(QStringLiteral("hub"));
        config.maxBodyBytes = 64 * 1024;
        config.operatorToken = kOperatorToken;
        m_hub = std::make_unique<HubService>(config);
        const Status started = m_hub->start();
        QVERIFY2(started, qPrintable(started.error()));
        QVERIFY(m_hub->port() > 0);
        auto id = Identity::loadOrCreate(m_dir.filePath(QStringLiteral("node")));
        QVERIFY(id);
        m_node = *id;
    }

    void healthAndTasksArePublic()
    {
        const Reply health = send("GET", QStringLiteral("/v1/health"));
        QCOMPARE(health.status, 200);
        QCOMPARE(health.body.value(QStringLiteral("hub_key")).toString(), m_hub->hubKeyBase64());
        const Reply tasks = send("GET", QStringLiteral("/v1/tasks"));
        QCOMPARE(tasks.status, 200);
        QVERIFY(tasks.body.value(QStringLiteral("tasks")).toArray().size() >= 2);
        const Reply one = send("GET", QStringLiteral("/v1/tasks/arith-rl"));
        QCOMPARE(one.status, 200);
        QCOMPARE(one.body.value(QStringLiteral("kind")).toString(), QStringLiteral("rl"));
        expectError(send("GET", QStringLiteral("/v1/tasks/nope")), 404, QStringLiteral("unknown_task"));
    }

    void registerAndHeartbeat()
    {
        const Reply reg = sendSigned("POST", QStringLiteral("/v1/nodes/register"), registration(), *m_node);
        QCOMPARE(reg.status, 200);
        QCOMPARE(reg.body.value(QStringLiteral("node_id")).toString(), m_node->nodeId());
        QCOMPARE(reg.body.value(QStringLiteral("hub_key")).toString(), m_hub->hubKeyBase64());

        const QJsonObject beat{{QStringLiteral("state"), QStringLiteral("paused")},
                               {QStringLiteral("reason"), QStringLiteral("user")},
                               {QStringLiteral("why"), QStringLiteral("Paused by you")},
                               {QStringLiteral("joined_task"), QStringLiteral("arith-rl")}};
        const Reply hb = sendSigned("POST", QStringLiteral("/v1/nodes/heartbeat"), beat, *m_node);
        QCOMPARE(hb.status, 200);
        QVERIFY(hb.body.value(QStringLiteral("ok")).toBool());

        // Anyone sees the public view: id, state, task, online. Not the hardware, nor why it paused (a person at the
        // keyboard), nor the heartbeat count.
        const Reply publicView = send("GET", QStringLiteral("/v1/nodes/") + m_node->nodeId());
        QCOMPARE(publicView.status, 200);
        QCOMPARE(publicView.body.value(QStringLiteral("state")).toString(), QStringLiteral("paused"));
        QCOMPARE(publicView.body.value(QStringLiteral("joined_task")).toString(), QStringLiteral("arith-rl"));
        QCOMPARE(QStringList(publicView.body.keys()),
                 (QStringList{QStringLiteral("joined_task"), QStringLiteral("node_id"), QStringLiteral("online"),
                              QStringLiteral("state")}));
        QVERIFY(!publicView.raw.contains("Paused by you"));
        // Another registered node asking with its own signature still sees only that.
        auto stranger = Identity::loadOrCreate(m_dir.filePath(QStringLiteral("stranger-view")));
        QVERIFY(stranger);
        QCOMPARE(sendSigned("POST", QStringLiteral("/v1/nodes/register"), registration(), *stranger).status, 200);
        const Reply strangerView = sendSigned("GET", QStringLiteral("/v1/nodes/") + m_node->nodeId(), {}, *stranger);
        QCOMPARE(strangerView.status, 200);
        QVERIFY(!strangerView.body.contains(QStringLiteral("hardware")));
        // The node itself, signed, sees its whole record.
        const Reply node = sendSigned("GET", QStringLiteral("/v1/nodes/") + m_node->nodeId(), {}, *m_node);
        QCOMPARE(node.status, 200);
        QCOMPARE(node.body.value(QStringLiteral("state")).toString(), QStringLiteral("paused"));
        QCOMPARE(node.body.value(QStringLiteral("why")).toString(), QStringLiteral("Paused by you"));
        QCOMPARE(node.body.value(QStringLiteral("joined_task")).toString(), QStringLiteral("arith-rl"));
        QCOMPARE(node.body.value(QStringLiteral("heartbeats")).toInt(), 1);
        QVERIFY(node.body.value(QStringLiteral("online")).toBool());
        QCOMPARE(node.body.value(QStringLiteral("hardware")).toObject().value(QStringLiteral("cpu_cores")).toInt(), 2);

        // Registering again is idempotent: same id, registration time kept.
        const Reply again = sendSigned("POST", QStringLiteral("/v1/nodes/register"), registration(), *m_node);
        QCOMPARE(again.body.value(QStringLiteral("registered_at_ms")),
                 reg.body.value(QStringLiteral("registered_at_ms")));
        QCOMPARE(send("GET", QStringLiteral("/v1/nodes")).body.value(QStringLiteral("nodes")).toArray().size(), 2);
    }

    // The payout address: sent with the registration and heartbeats, checked with the settings' rules (EIP-55),
    // stored per node, shown in the node's own signed earnings view and never in the public node list.
    void payoutAddressIsCheckedStoredAndPrivate()
    {
        const QString lower = QStringLiteral("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed");
        const QString checksummed = QStringLiteral("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359");
        const QString earningsPath = QStringLiteral("/v1/nodes/%1/earnings").arg(m_node->nodeId());
        const auto payoutOnHub = [&] {
            return sendSigned("GET", earningsPath, {}, *m_node).body.value(QStringLiteral("payout_address"));
        };
        const auto beat = [](const QJsonValue &payout) {
            QJsonObject b{{QStringLiteral("state"), QStringLiteral("idle")}};
            if (!payout.isUndefined())
                b.insert(QStringLiteral("payout_address"), payout);
            return b;
        };

        QJsonObject reg = registration();
        reg.insert(QStringLiteral("payout_address"), lower);
        QCOMPARE(sendSigned("POST", QStringLiteral("/v1/nodes/register"), reg, *m_node).status, 200);
        QCOMPARE(payoutOnHub().toString(), lower);
        // A heartbeat carries a changed address; one without the field keeps it (older clients); "" clears it.
        QCOMPARE(sendSigned("POST", QStringLiteral("/v1/nodes/heartbeat"), beat(checksummed), *m_node).status, 200);
        QCOMPARE(payoutOnHub().toString(), checksummed);
        QCOMPARE(sendSigned("POST", QStringLiteral("/v1/nodes/heartbeat"), beat(QJsonValue::Undefined), *m_node).status,
                 200);
        QCOMPARE(payoutOnHub().toString(), checksummed);
        QCOMPARE(sendSigned("POST", QStringLiteral("/v1/nodes/register"), registration(), *m_node).status, 200);
        QCOMPARE(payoutOnHub().toString(), checksummed);

        // Refused, with a clear error, and the stored address untouched.
        const struct {
            QJsonValue value;
            const char *fragment;
        } bad[] = {
            {QStringLiteral("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d358"),
             "checksum"}, // one digit off: the case no longer fits
            {QStringLiteral("0xFB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"), "checksum"}, // one letter's case flipped
            {QStringLiteral("0x5aaeb6053f3e94c9b9a09f33669435e7ef1bea"), "40 hexadecimal"},
            {QStringLiteral("5aaeb6053f3e94c9b9a09f33669435e7ef1beaed00"), "40 hexadecimal"},
            {QStringLiteral("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg"), "40 hexadecimal"},
            {QStringLiteral(" 0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"), "40 hexadecimal"},
            {QJsonValue(42), "string"},
        };
        for (const auto &b : bad) {
            const Reply hb = sendSigned("POST", QStringLiteral("/v1/nodes/heartbeat"), beat(b.value), *m_node);
            expectError(hb, 400, QStringLiteral("invalid_payout_address"));
            const QString message =
                hb.body.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString();
            QVERIFY2(message.contains(QLatin1String(b.fragment)) && message.contains(QLatin1String("payout_address")),
                     qPrintable(message));
            QJsonObject r = registration();
            r.insert(QStringLiteral("payout_address"), b.value);
            expectError(sendSigned("POST", QStringLiteral("/v1/nodes/register"), r, *m_node), 400,
                        QStringLiteral("invalid_payout_address"));
        }
        QCOMPARE(payoutOnHub().toString(), checksummed);

        // Private: the public node list and node view do not show it.
        const Reply node = send("GET", QStringLiteral("/v1/nodes/") + m_node->nodeId());
        QCOMPARE(node.status, 200);
        QVERIFY(!node.raw.contains(checksummed.toLatin1()));
        QVERIFY(!send("GET", QStringLiteral("/v1/nodes")).raw.contains(checksummed.toLatin1()));

        QCOMPARE(sendSigned("POST", QStringLiteral("/v1/nodes/heartbeat"), beat(QString()), *m_node).status, 200);
        QCOMPARE(payoutOnHub(), QJsonValue(QString()));
        QCOMPARE(sendSigned("POST", QStringLiteral("/v1/nodes/heartbeat"), beat(lower), *m_node).status, 200);
        QCOMPARE(payoutOnHub().toString(), lower); // kept for stateSurvivesRestart
    }

    // A hub database of schema 3 (before payout addresses) is upgraded in place: nodes kept, the new column empty.
    void schema3DatabaseIsUpgraded()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("hub.sqlite"));
        const QByteArray key(32, '\x11');
        {
            auto store = HubStore::open(path);
            QVERIFY2(store, qPrintable(store.error()));
            QVERIFY((*store)->registerNode(key, QStringLiteral("old"), QStringLiteral("0.1"), {}, 1000,
                                           QStringLiteral("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")));
        }
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("downgrade"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("ALTER TABLE nodes DROP COLUMN payout_address")));
            for (const char *column : {"pending_body", "sampling_worst_gap", "off_sample_tokens"}) // v5
                QVERIFY(q.exec(QStringLiteral("ALTER TABLE submissions DROP COLUMN %1").arg(QLatin1String(column))));
            QVERIFY(q.exec(QStringLiteral("UPDATE meta SET value='3' WHERE key='schema_version'")));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("downgrade"));
        auto store = HubStore::open(path);
        QVERIFY2(store, qPrintable(store.error()));
        const auto node = (*store)->nodeByKey(key);
        QVERIFY(node);
        QCOMPARE(node->name, QStringLiteral("old"));
        QCOMPARE(node->payoutAddress, QString());
        HeartbeatRecord hb;
        hb.state = QStringLiteral("idle");
        hb.payoutAddress = QStringLiteral("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359");
        QVERIFY((*store)->recordHeartbeat(key, hb, 2000));
        QCOMPARE((*store)->nodeByKey(key)->payoutAddress, *hb.payoutAddress);
    }

    void unregisteredHeartbeatIsForbidden()
    {
        QTemporaryDir dir;
        auto stranger = Identity::loadOrCreate(dir.path());
        QVERIFY(stranger);
        expectError(sendSigned("POST", QStringLiteral("/v1/nodes/heartbeat"),
                               {{QStringLiteral("state"), QStringLiteral("idle")}}, *stranger),
                    403, QStringLiteral("not_registered"));
    }

    void rlRoutesRefuseBadInput()
    {
        QTemporaryDir dir;
        auto stranger = Identity::loadOrCreate(dir.path());
        QVERIFY(stranger);
        expectError(sendSigned("POST", QStringLiteral("/v1/tasks/nope/work"), {}, *m_node), 404,
                    QStringLiteral("unknown_task"));
        expectError(sendSigned("POST", QStringLiteral("/v1/tasks/tiny-lm-diloco/work"), {}, *m_node), 409,
                    QStringLiteral("not_rl"));
        expectError(sendSigned("POST", QStringLiteral("/v1/tasks/arith-rl/work"), {}, *stranger), 403,
                    QStringLiteral("not_registered"));
        expectError(send("POST", QStringLiteral("/v1/tasks/arith-rl/work"), "{}"), 401, QStringLiteral("unsigned"));

        const QString path = QStringLiteral("/v1/tasks/arith-rl/rollouts");
        const QByteArray garbage = "{\"submission_id\": ";
        expectError(send("POST", path, garbage,
                         signRequest(*m_node, "POST", path.toUtf8(), garbage, QDateTime::currentMSecsSinceEpoch())),
                    400, QStringLiteral("bad_request"));
        expectError(sendSigned("POST", path, {{QStringLiteral("work_id"), QStringLiteral("w-x")}}, *m_node), 400,
                    QStringLiteral("bad_request"));
        const QJsonObject bogus{{QStringLiteral("submission_id"), QStringLiteral("s-00000000000000000000000000000abc")},
                                {QStringLiteral("work_id"), QStringLiteral("w-never-issued")},
                                {QStringLiteral("version"), 1},
                                {QStringLiteral("groups"), QJsonArray()}};
        const Reply first = sendSigned("POST", path, bogus, *m_node);
        expectError(first, 422, QStringLiteral("unknown_work"));
        QCOMPARE(first.body.value(QStringLiteral("status")).toString(), QStringLiteral("rejected"));
        // A retry of the same submission gets the same answer, marked as a duplicate; another node cannot reuse the id.
        const Reply retry = sendSigned("POST", path, bogus, *m_node);
        expectError(retry, 422, QStringLiteral("unknown_work"));
        QVERIFY(retry.body.value(QStringLiteral("duplicate")).toBool());
        QCOMPARE(sendSigned("POST", QStringLiteral("/v1/nodes/register"), registration(), *stranger).status, 200);
        expectError(sendSigned("POST", path, bogus, *stranger), 409, QStringLiteral("submission_id_taken"));

        // Earnings: only a node's own, and a rejected batch earned nothing.
        expectError(sendSigned("GET", QStringLiteral("/v1/nodes/%1/earnings").arg(m_node->nodeId()), {}, *stranger),
                    403, QStringLiteral("not_yours"));
        const Reply mine =
            sendSigned("GET", QStringLiteral("/v1/nodes/%1/earnings").arg(m_node->nodeId()), {}, *m_node);
        QCOMPARE(mine.status, 200);
        QCOMPARE(mine.body.value(QStringLiteral("node")).toString(), m_node->nodeId());
        const QJsonObject total = mine.body.value(QStringLiteral("total")).toObject();
        QCOMPARE(total.value(QStringLiteral("pending")).toDouble() +
                     total.value(QStringLiteral("confirmed")).toDouble(),
                 0.0);

        const Reply progress = send("GET", QStringLiteral("/v1/tasks/arith-rl/progress"));
        QCOMPARE(progress.status, 200);
        QCOMPARE(progress.body.value(QStringLiteral("task")).toString(), QStringLiteral("arith-rl"));
        const QJsonObject heldOut = progress.body.value(QStringLiteral("held_out")).toObject();
        QCOMPARE(heldOut.value(QStringLiteral("problems")).toInt(), 128);
        QVERIFY(heldOut.value(QStringLiteral("curve")).isArray());
        // A DiLoCo task has no held-out problems: no "held_out" at all (a node reads that as no curve).
        const Reply diloco = send("GET", QStringLiteral("/v1/tasks/tiny-lm-diloco/progress"));
        QCOMPARE(diloco.status, 200);
        QVERIFY(!diloco.body.contains(QStringLiteral("held_out")));
        // Its curve is the hub's held-out loss per revision: none measured yet, an empty list.
        const QJsonObject loss = diloco.body.value(QStringLiteral("held_out_loss")).toObject();
        QCOMPARE(loss.value(QStringLiteral("sequences")).toInt(), 32);
        QVERIFY(loss.value(QStringLiteral("points")).isArray() &&
                loss.value(QStringLiteral("points")).toArray().isEmpty());
        // Anyone may ask as often as they like: the points are read from the database once, until a new one is
        // recorded.
        const int readsBefore = m_hub->diloco()->heldOutReads();
        for (int i = 0; i < 50; ++i)
            QCOMPARE(send("GET", QStringLiteral("/v1/tasks/tiny-lm-diloco/progress")).status, 200);
        QCOMPARE(m_hub->diloco()->heldOutReads() - readsBefore, 0);
        QCOMPARE(send("GET", QStringLiteral("/v1/health")).status, 200); // still serving

        // Anyone may ask for progress, as often as they like: the ledger is read again only after it was written.
        const int computedBefore = m_hub->rl()->progressComputations();
        for (int i = 0; i < 50; ++i)
            QCOMPARE(send("GET", QStringLiteral("/v1/tasks/arith-rl/progress")).status, 200);
        // (A write in the background, a trainer's evaluation, may come between: a few, never one per request.)
        QVERIFY2(m_hub->rl()->progressComputations() - computedBefore <= 3,
                 qPrintable(QString::number(m_hub->rl()->progressComputations() - computedBefore)));
    }

    void signingFailuresAreRefused()
    {
        const QByteArray body = QJsonDocument(registration()).toJson(QJsonDocument::Compact);
        expectError(send("POST", QStringLiteral("/v1/nodes/register"), body), 401, QStringLiteral("unsigned"));

        // Forged: signed for one body, sent with another.
        HeaderList headers =
            signRequest(*m_node, "POST", "/v1/nodes/register", body, QDateTime::currentMSecsSinceEpoch());
        QByteArray tampered = body;
        tampered.replace("test node", "evil node");
        expectError(send("POST", QStringLiteral("/v1/nodes/register"), tampered, headers), 401,
                    QStringLiteral("bad_signature"));

        // Replayed: the exact same signed request twice.
        headers = signRequest(*m_node, "POST", "/v1/nodes/register", body, QDateTime::currentMSecsSinceEpoch());
        QCOMPARE(send("POST", QStringLiteral("/v1/nodes/register"), body, headers).status, 200);
        expectError(send("POST", QStringLiteral("/v1/nodes/register"), body, headers), 401, QStringLiteral("replayed"));

        // Stale: a clock 20 minutes off.
        expectError(sendSigned("POST", QStringLiteral("/v1/nodes/register"), registration(), *m_node, -20 * 60 * 1000),
                    401, QStringLiteral("stale"));
    }

    void badBodiesGetClearErrors_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("malformed json") << "/v1/nodes/register" << QByteArray("{\"name\": ") << "malformed";
        QTest::newRow("array body") << "/v1/nodes/register" << QByteArray("[]") << "object";
        QTest::newRow("name wrong type") << "/v1/nodes/register" << QByteArray("{\"name\": 42}") << "name";
        QTest::newRow("empty name") << "/v1/nodes/register" << QByteArray("{\"name\": \"  \"}") << "name";
        QTest::newRow("hardware wrong type")
            << "/v1/nodes/register" << QByteArray("{\"name\":\"a\",\"hardware\":[1]}") << "hardware";
        QTest::newRow("unknown state") << "/v1/nodes/heartbeat" << QByteArray("{\"state\": \"dancing\"}") << "state";
        QTest::newRow("state missing") << "/v1/nodes/heartbeat" << QByteArray("{}") << "state";
        QTest::newRow("why too long") << "/v1/nodes/heartbeat"
                                      << ("{\"state\":\"idle\",\"why\":\"" + QByteArray(600, 'w') + "\"}") << "why";
    }
    void badBodiesGetClearErrors()
    {
        QFETCH(QString, path);
        QFETCH(QByteArray, body);
        QFETCH(QString, fragment);
        const HeaderList headers =
            signRequest(*m_node, "POST", path.toUtf8(), body, QDateTime::currentMSecsSinceEpoch());
        const Reply r = send("POST", path, body, headers);
        expectError(r, 400, QStringLiteral("bad_request"));
        QVERIFY2(r.body.value(QStringLiteral("error"))
                     .toObject()
                     .value(QStringLiteral("message"))
                     .toString()
                     .contains(fragment),
                 r.raw.constData());
    }

    void unknownTaskInHeartbeatIs404()
    {
        expectError(sendSigned("POST", QStringLiteral("/v1/nodes/heartbeat"),
                               {{QStringLiteral("state"), QStringLiteral("idle")},
                                {QStringLiteral("joined_task"), QStringLiteral("ghost")}},
                               *m_node),
                    404, QStringLiteral("unknown_task"));
    }

    void routingErrors()
    {
        expectError(send("GET", QStringLiteral("/v1/nope")), 404, QStringLiteral("not_found"));
        expectError(send("GET", QStringLiteral("/")), 404, QStringLiteral("not_found"));
        const Reply wrongMethod = send("DELETE", QStringLiteral("/v1/tasks"));
        expectError(wrongMethod, 405, QStringLiteral("method_not_allowed"));
        expectError(send("GET", QStringLiteral("/v1/nodes/register")), 404, QStringLiteral("unknown_node"));
    }

    void oversizeBodyIsRefusedBeforeItIsSent()
    {
        // Announce 1 GiB but send nothing: the hub must answer 413 from the headers alone.
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, m_hub->port());
        QVERIFY(socket.waitForConnected(5000));
        socket.write("POST /v1/nodes/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     "Content-Length: 1073741824\r\n\r\n{");
        QByteArray answer;
        QTRY_VERIFY_WITH_TIMEOUT((answer += socket.readAll(), answer.contains("\r\n\r\n{")), 5000);
        QVERIFY2(answer.startsWith("HTTP/1.1 413"), answer.constData());
        QVERIFY(answer.contains("too_large"));
    }

    void headersSplitAcrossPacketsAreStillGuarded()
    {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, m_hub->port());
        QVERIFY(socket.waitForConnected(5000));
        socket.setSocketOption(QAbstractSocket::LowDelayOption, 1); // no Nagle: fragments leave as written
        socket.write("POST /v1/nodes/register HTTP/1.1\r\nHost: x\r\nContent-Le");
        QVERIFY(socket.waitForBytesWritten(1000));
        socket.write("ngth: 999999999\r\n\r\n");
        QByteArray answer;
        QTRY_VERIFY_WITH_TIMEOUT((answer += socket.readAll(), answer.contains("\r\n\r\n{")), 5000);
        QVERIFY2(answer.startsWith("HTTP/1.1 413"), answer.constData());
    }

    void chunkedBodyIsRefused()
    {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, m_hub->port());
        QVERIFY(socket.waitForConnected(5000));
        socket.write("POST /v1/nodes/register HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
        QByteArray answer;
        QTRY_VERIFY_WITH_TIMEOUT((answer += socket.readAll(), answer.contains("\r\n\r\n{")), 5000);
        QVERIFY2(answer.startsWith("HTTP/1.1 411"), answer.constData());
    }

    void conflictingLengthsAreRefused()
    {
        // Two Content-Length values is the classic request-smuggling shape: refuse it outright.
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, m_hub->port());
        QVERIFY(socket.waitForConnected(5000));
        socket.write(
            "POST /v1/nodes/register HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 40\r\n\r\n{}");
        QByteArray answer;
        QTRY_VERIFY_WITH_TIMEOUT((answer += socket.readAll(), answer.contains("\r\n\r\n{")), 5000);
        QVERIFY2(answer.startsWith("HTTP/1.1 400"), answer.constData());
        QVERIFY(answer.contains("Content-Length"));
    }

    void hubStillServesAfterAbuse()
    {
        QCOMPARE(send("GET", QStringLiteral("/v1/health")).status, 200);
        QCOMPARE(sendSigned("POST", QStringLiteral("/v1/nodes/heartbeat"),
                            {{QStringLiteral("state"), QStringLiteral("idle")}}, *m_node)
                     .status,
                 200);
    }

    void damagedDatabaseIsReportedAndKept()
    {
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.path()));
        QFile db(dir.filePath(QStringLiteral("hub.sqlite")));
        QVERIFY(db.open(QIODevice::WriteOnly));
        const QByteArray garbage = QByteArray("SQLite format 3") + QByteArray(4096, '\x5a');
        db.write(garbage);
        db.close();
        HubConfig config;
        config.dataDir = dir.path();
        HubService hub(config);
        const Status started = hub.start();
        QVERIFY(!started);
        QVERIFY2(started.error().contains(QStringLiteral("hub.sqlite")), qPrintable(started.error()));
        QVERIFY(db.open(QIODevice::ReadOnly));
        QCOMPARE(db.readAll(), garbage);
    }

    void stateSurvivesRestart()
    {
        const QString key = m_hub->hubKeyBase64();
        m_hub.reset();
        HubConfig config;
        config.dataDir = m_dir.filePath(QStringLiteral("hub"));
        config.operatorToken = kOperatorToken;
        m_hub = std::make_unique<HubService>(config);
        QVERIFY(m_hub->start());
        QCOMPARE(m_hub->hubKeyBase64(), key);
        const Reply node = send("GET", QStringLiteral("/v1/nodes/") + m_node->nodeId());
        QCOMPARE(node.status, 200);
        QCOMPARE(node.body.value(QStringLiteral("state")).toString(), QStringLiteral("idle"));
        const Reply earnings =
            sendSigned("GET", QStringLiteral("/v1/nodes/%1/earnings").arg(m_node->nodeId()), {}, *m_node);
        QCOMPARE(earnings.body.value(QStringLiteral("payout_address")).toString(),
                 QStringLiteral("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"));
    }

    // 150 identities with ~900 KiB of "hardware" each once made an anonymous node list take 5.6 s: node objects
    // are now bounded (8 KiB, a bounded shape), the list is paged, and only the operator's token shows details.
    void nodeObjectsAreBoundedAndTheListPagedAndPrivate()
    {
        QJsonObject huge = registration();
        huge.insert(QStringLiteral("hardware"), QJsonObject{{QStringLiteral("blob"), QString(9000, QLatin1Char('x'))}});
        expectError(sendSigned("POST", QStringLiteral("/v1/nodes/register"), huge, *m_node), 400,
                    QStringLiteral("bad_request"));
        QJsonObject deep{
            {QStringLiteral("a"),
             QJsonObject{{QStringLiteral("b"),
                          QJsonObject{{QStringLiteral("c"),
                                       QJsonObject{{QStringLiteral("d"), QJsonObject{{QStringLiteral("e"), 1}}}}}}}}}};
        QJsonObject nested = registration();
        nested.insert(QStringLiteral("hardware"), deep);
        expectError(sendSigned("POST", QStringLiteral("/v1/nodes/register"), nested, *m_node), 400,
                    QStringLiteral("bad_request"));
        QCOMPARE(sendSigned("POST", QStringLiteral("/v1/nodes/register"), registration(), *m_node).status, 200);
        QJsonObject beat{
            {QStringLiteral("state"), QStringLiteral("idle")},
            {QStringLiteral("metrics"), QJsonObject{{QStringLiteral("m"), QString(9000, QLatin1Char('y'))}}}};
        expectError(sendSigned("POST", QStringLiteral("/v1/nodes/heartbeat"), beat, *m_node), 400,
                    QStringLiteral("bad_request"));
        for (int i = 0; i < 4; ++i) {
            auto extra = Identity::loadOrCreate(m_dir.filePath(QStringLiteral("page%1").arg(i)));
            QVERIFY(extra);
            QCOMPARE(sendSigned("POST", QStringLiteral("/v1/nodes/register"), registration(), *extra).status, 200);
        }
        // Pages of two, in id order, until no next_after: every node exactly once.
        QStringList seen;
        QString after;
        for (int page = 0; page < 10; ++page) {
            const Reply r = send("GET", QStringLiteral("/v1/nodes?limit=2") +
                                            (after.isEmpty() ? QString() : QStringLiteral("&after=") + after));
            QCOMPARE(r.status, 200);
            for (const QJsonValue &n : r.body.value(QStringLiteral("nodes")).toArray()) {
                seen << n.toObject().value(QStringLiteral("node_id")).toString();
                QVERIFY(!n.toObject().contains(QStringLiteral("hardware")));
            }
            after = r.body.value(QStringLiteral("next_after")).toString();
            if (after.isEmpty())
                break;
        }
        QVERIFY(seen.size() >= 5);
        QStringList sorted = seen;
        sorted.sort();
        QCOMPARE(seen, sorted);
        QCOMPARE(QSet<QString>(seen.begin(), seen.end()).size(), seen.size());
        expectError(send("GET", QStringLiteral("/v1/nodes?limit=501")), 400, QStringLiteral("bad_request"));
        // The operator's token shows every field; a wrong token shows the public view.
        const Reply full =
            send("GET", QStringLiteral("/v1/nodes"), {}, {{"Authorization", QByteArray("Bearer ") + kOperatorToken}});
        QVERIFY(
            full.body.value(QStringLiteral("nodes")).toArray().first().toObject().contains(QStringLiteral("hardware")));
        const Reply wrong = send("GET", QStringLiteral("/v1/nodes"), {},
                                 {{"Authorization", "Bearer " + QByteArray(kOperatorToken).replace('a', 'b')}});
        QVERIFY(!wrong.body.value(QStringLiteral("nodes"))
                     .toArray()
                     .first()
                     .toObject()
                     .contains(QStringLiteral("hardware")));
    }

    // A node that pinned the hub's key refuses answers the hub did not sign for its request: a server that answers
    // unsigned (a proxy that rewrote the body drops or breaks the signature) and one that signs with another key.
    // The DiLoCo evidence routes as a stranger would use them (docs/CREDIT.md): commitments only from a registered
    // node of the task, strict, for the ring's current steps, one per step; audit uploads only for an audit the hub
    // asked for, in order, and what is no material forfeits (the node sent it itself) and flags the node.
    void dilocoCommitmentsAndAuditUploadsRefuseBadInput()
    {
        auto id = Identity::loadOrCreate(m_dir.filePath(QStringLiteral("diloco-node")));
        QVERIFY(id);
        const QString commitPath = QStringLiteral("/v1/tasks/tiny-lm-diloco/diloco/commitments");
        diloco::Commitment c;
        c.step = 1;
        c.startDigest = QByteArray(32, '\x01');
        c.adamDigest = QByteArray(32, '\x02');
        c.deltaDigest = QByteArray(32, '\x03');
        c.deltaNorm = 0.5;
        QVERIFY(sendSigned("POST", commitPath, c.toJson(), *id).status >= 400); // not registered yet
        QCOMPARE(sendSigned("POST", QStringLiteral("/v1/nodes/register"), registration(), *id).status, 200);
        expectError(sendSigned("POST", commitPath, c.toJson(), *id), 409, QStringLiteral("not_joined"));
        QCOMPARE(sendSigned("POST", QStringLiteral("/v1/nodes/heartbeat"),
                            {{QStringLiteral("state"), QStringLiteral("working")},
                             {QStringLiteral("joined_task"), QStringLiteral("tiny-lm-diloco")}},
                            *id)
                     .status,
                 200);
        expectError(sendSigned("POST", QStringLiteral("/v1/tasks/arith-rl/diloco/commitments"), c.toJson(), *id), 404,
                    QStringLiteral("unknown_task"));
        QJsonObject bad = c.toJson();
        bad.insert(QStringLiteral("delta_digest"), QStringLiteral("zz"));
        expectError(sendSigned("POST", commitPath, bad, *id), 400, QStringLiteral("bad_request"));
        bad = c.toJson();
        bad.insert(QStringLiteral("padding"), QString(5000, QLatin1Char('x')));
        expectError(sendSigned("POST", commitPath, bad, *id), 400, QStringLiteral("bad_request"));
        diloco::Commitment future = c;
        future.step = 99; // the ring is at step 0
        expectError(sendSigned("POST", commitPath, future.toJson(), *id), 409, QStringLiteral("wrong_step"));

        const Reply first = sendSigned("POST", commitPath, c.toJson(), *id);
        QCOMPARE(first.status, 200);
        QCOMPARE(first.body.value(QStringLiteral("audit")).toBool(),
                 true); // a node's first commitment is always audited
        QVERIFY(first.body.value(QStringLiteral("part_bytes")).toInt() > 0);
        QCOMPARE(sendSigned("POST", commitPath, c.toJson(), *id).body.value(QStringLiteral("audit")).toBool(),
                 true); // a retry
        diloco::Commitment other = c;
        other.deltaDigest = QByteArray(32, '\x04');
        expectError(sendSigned("POST", commitPath, other.toJson(), *id), 409, QStringLiteral("conflicting_commitment"));

        const auto upload = [&](quint64 step, qint64 offset, const QByteArray &bytes) {
            const QString path =
                QStringLiteral("/v1/tasks/tiny-lm-diloco/diloco/audits/%1?offset=%2").arg(step).arg(offset);
            return send("POST", path, bytes,
                        signRequest(*id, "POST", path.toUtf8(), bytes, QDateTime::currentMSecsSinceEpoch()));
        };
        expectError(upload(2, 0, QByteArray(64, 'x')), 404, QStringLiteral("no_audit"));
        expectError(upload(1, 5, QByteArray(64, 'x')), 409, QStringLiteral("wrong_offset"));
        expectError(upload(1, 0, QByteArray(64, 'x')), 400, QStringLiteral("bad_material"));
        // Junk for its own audit: the node is flagged for the task and commits no more.
        diloco::Commitment next = c;
        next.step = 2;
        expectError(sendSigned("POST", commitPath, next.toJson(), *id), 403, QStringLiteral("node_flagged"));
        const Reply stats = send("GET", QStringLiteral("/v1/tasks/tiny-lm-diloco/diloco"));
        QCOMPARE(stats.body.value(QStringLiteral("audits")).toObject().value(QStringLiteral("failed")).toInt(), 1);
        QVERIFY(stats.body.value(QStringLiteral("audits"))
                    .toObject()
                    .value(QStringLiteral("last"))
                    .toString()
                    .contains(id->nodeId()));
    }

    void hubClientRefusesUnsignedAndForgedReplies()
    {
        const QByteArray hubKey = QByteArray::fromBase64(m_hub->hubKeyBase64().toLatin1());
        const auto ask = [this](const QString &url, const QByteArray &key) {
            HubClient client(QUrl(url), *m_node, nullptr);
            client.setHubKey(key);
            HubReply got;
            bool done = false;
            client.get(QStringLiteral("/v1/health"), [&](const HubReply &r) {
                got = r;
                done = true;
            });
            [&] { QTRY_VERIFY_WITH_TIMEOUT(done, 10'000); }();
            return got;
        };
        QVERIFY2(ask(m_hub->url(), hubKey).ok(), qPrintable(ask(m_hub->url(), hubKey).error));
        // The impostor answers what the real hub would, byte for byte, but cannot sign it.
        ApiServer impostor(4096);
        impostor.addRoute("GET", QStringLiteral("/v1/health"), [](const ApiRequest &) {
            return ApiResponse::json({{QStringLiteral("ok"), true}});
        });
        QString error;
        QVERIFY(impostor.listenOn(QHostAddress::LocalHost, 0, &error) > 0);
        const QString impostorUrl = QStringLiteral("http://127.0.0.1:%1").arg(impostor.port());
        const HubReply unsignedReply = ask(impostorUrl, hubKey);
        QVERIFY(!unsignedReply.ok());
        QCOMPARE(unsignedReply.errorCode, QStringLiteral("unsigned_reply"));
        auto other = Identity::loadOrCreate(m_dir.filePath(QStringLiteral("impostor-key")));
        QVERIFY(other);
        impostor.setReplySigner([&other](const QByteArray &message) { return other->sign(message).toBase64(); },
                                other->publicKeyBase64().toLatin1());
        // Signed, and naming its key: told apart as another hub (the node stops and says so) ...
        const HubReply elsewhere = ask(impostorUrl, hubKey);
        QCOMPARE(elsewhere.errorCode, QStringLiteral("other_hub"));
        QVERIFY2(elsewhere.error.contains(ed25519::fingerprint(other->publicKey())), qPrintable(elsewhere.error));
        // ... while an answer that names one key but is signed by another is only forged.
        impostor.setReplySigner([&other](const QByteArray &message) { return other->sign(message).toBase64(); },
                                hubKey.toBase64());
        const HubReply forged = ask(impostorUrl, hubKey);
        QCOMPARE(forged.errorCode, QStringLiteral("forged_reply"));
        impostor.setReplySigner([&other](const QByteArray &message) { return other->sign(message).toBase64(); },
                                other->publicKeyBase64().toLatin1());
        // Signed by its own key, the impostor is believed only by a node that pinned that key.
        QVERIFY(ask(impostorUrl, other->publicKey()).ok());
    }
};

QTEST_GUILESS_MAIN(TestHubApi)
#include "tst_hub_api.moc"
