// The hub's update notices over real sockets: the client versions its operator set are advertised in /v1/health and
// in the registration and heartbeat answers, and a node below the minimum is refused with 426 upgrade_required at
// registration and heartbeat. A hub without them serves every version as before.
#include "hub/HubService.h"
#include "net/Identity.h"
#include "net/RequestSigning.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace cohort;

namespace {
struct Reply {
    int status = 0;
    QJsonObject body;
    QString errorCode() const
    {
        return body.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString();
    }
    QString errorMessage() const
    {
        return body.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString();
    }
    QJsonObject client() const { return body.value(QStringLiteral("client")).toObject(); }
};

const ClientRelease kRelease{QStringLiteral("99.0.0"), QStringLiteral("0.2.0"),
                             QStringLiteral("https://cohort.example/download")};
} // namespace

class TestHubClientRelease : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QNetworkAccessManager m_net;
    std::unique_ptr<HubService> m_hub;
    std::optional<Identity> m_node;

    Status startHub(const ClientRelease &release)
    {
        m_hub.reset();
        HubConfig config;
        config.dataDir = m_dir.filePath(QStringLiteral("hub"));
        config.clientRelease = release;
        m_hub = std::make_unique<HubService>(config);
        return m_hub->start();
    }

    Reply send(const QByteArray &method, const QString &path, const QJsonObject &body = {}, bool sign = false)
    {
        const QByteArray bytes = body.isEmpty() ? QByteArray() : QJsonDocument(body).toJson(QJsonDocument::Compact);
        QNetworkRequest request(QUrl(m_hub->url() + path));
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        if (sign)
            for (const auto &[k, v] :
                 signRequest(*m_node, method, path.toUtf8(), bytes, QDateTime::currentMSecsSinceEpoch()))
                request.setRawHeader(k, v);
        QNetworkReply *reply = m_net.sendCustomRequest(request, method, bytes);
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!reply->isFinished())
            [&] { QVERIFY(finished.wait(10'000)); }();
        Reply r;
        r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        r.body = QJsonDocument::fromJson(reply->readAll()).object();
        reply->deleteLater();
        return r;
    }
    Reply registerAs(const QJsonValue &version)
    {
        QJsonObject body{{QStringLiteral("name"), QStringLiteral("release test")}};
        if (!version.isUndefined())
            body.insert(QStringLiteral("client_version"), version);
        return send("POST", QStringLiteral("/v1/nodes/register"), body, true);
    }
    Reply heartbeatAs(const QJsonValue &version)
    {
        QJsonObject body{{QStringLiteral("state"), QStringLiteral("idle")}};
        if (!version.isUndefined())
            body.insert(QStringLiteral("client_version"), version);
        return send("POST", QStringLiteral("/v1/nodes/heartbeat"), body, true);
    }
    static void expectUpgradeRequired(const Reply &r, const QString &fragment)
    {
        QCOMPARE(r.status, 426);
        QCOMPARE(r.errorCode(), QStringLiteral("upgrade_required"));
        QVERIFY2(r.errorMessage().contains(fragment), qPrintable(r.errorMessage()));
        // The refusal names what to get and where, for the node to say so.
        QCOMPARE(r.client(), kRelease.toJson());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        auto id = Identity::loadOrCreate(m_dir.filePath(QStringLiteral("node")));
        QVERIFY(id);
        m_node = *id;
    }

    // No versions set: nothing advertised, and a request without a version is served as it always was.
    void aHubWithoutVersionsServesEveryClient()
    {
        const Status started = startHub({});
        QVERIFY2(started, qPrintable(started.error()));
        const Reply health = send("GET", QStringLiteral("/v1/health"));
        QCOMPARE(health.status, 200);
        QVERIFY(!health.body.contains(QStringLiteral("client")));
        const Reply reg = registerAs(QJsonValue::Undefined);
        QCOMPARE(reg.status, 200);
        QVERIFY(!reg.body.contains(QStringLiteral("client")));
        const Reply beat = heartbeatAs(QJsonValue::Undefined);
        QCOMPARE(beat.status, 200);
        QVERIFY(!beat.body.contains(QStringLiteral("client")));
        // The node is stored with the version it registered with (0.1.0), for the heartbeats below.
        QCOMPARE(registerAs(QStringLiteral("0.1.0")).status, 200);
    }

    void theVersionsAreAdvertised()
    {
        const Status started = startHub(kRelease);
        QVERIFY2(started, qPrintable(started.error()));
        const Reply health = send("GET", QStringLiteral("/v1/health"));
        QCOMPARE(health.status, 200);
        QCOMPARE(health.client(),
                 QJsonObject({{QStringLiteral("latest"), QStringLiteral("99.0.0")},
                              {QStringLiteral("minimum"), QStringLiteral("0.2.0")},
                              {QStringLiteral("download_url"), QStringLiteral("https://cohort.example/download")}}));
        const Reply reg = registerAs(QStringLiteral("0.2.0"));
        QCOMPARE(reg.status, 200);
        QCOMPARE(reg.client(), kRelease.toJson());
        const Reply beat = heartbeatAs(QStringLiteral("0.2.1"));
        QCOMPARE(beat.status, 200);
        QCOMPARE(beat.client(), kRelease.toJson());
    }

    void oldClientsAreRefusedAtRegistrationAndHeartbeat()
    {
        QVERIFY(startHub(kRelease));
        expectUpgradeRequired(registerAs(QStringLiteral("0.1.0")),
                              QStringLiteral("0.2.0 or newer; this client is 0.1.0"));
        expectUpgradeRequired(registerAs(QJsonValue::Undefined), QStringLiteral("does not say its version"));
        expectUpgradeRequired(registerAs(QStringLiteral("0.3.0-beta")), QStringLiteral("not a version"));
        expectUpgradeRequired(heartbeatAs(QStringLiteral("0.1.9")), QStringLiteral("this client is 0.1.9"));
        // A heartbeat without a version (an older node): the version it registered with (0.2.0 above) stands for it.
        QCOMPARE(heartbeatAs(QJsonValue::Undefined).status, 200);
        QCOMPARE(heartbeatAs(QStringLiteral("0.2.0")).status, 200);
        // A version field of the wrong type is a bad request, not a pass.
        QCOMPARE(heartbeatAs(QJsonValue(2)).status, 400);
    }

    // A node registered at 0.1.0 while the hub had no minimum; the operator restarts it with one: the node's next
    // heartbeat, even one that does not say its version, is refused.
    void aRaisedMinimumRefusesANodeAlreadyRegistered()
    {
        QVERIFY(startHub({}));
        QCOMPARE(registerAs(QStringLiteral("0.1.0")).status, 200);
        QVERIFY(startHub(kRelease));
        expectUpgradeRequired(heartbeatAs(QJsonValue::Undefined), QStringLiteral("this client is 0.1.0"));
    }

    void aHubWithBadVersionsDoesNotStart()
    {
        for (const ClientRelease &bad :
             {ClientRelease{QStringLiteral("1.0"), {}, QStringLiteral("javascript:alert(1)")},
              ClientRelease{QStringLiteral("one"), {}, {}},
              ClientRelease{QStringLiteral("0.2.0"), QStringLiteral("0.3.0"), {}}}) {
            const Status started = startHub(bad);
            QVERIFY(!started);
            QVERIFY2(started.error().startsWith(QStringLiteral("client versions:")), qPrintable(started.error()));
        }
    }
};

QTEST_GUILESS_MAIN(TestHubClientRelease)
#include "tst_hub_client_release.moc"
