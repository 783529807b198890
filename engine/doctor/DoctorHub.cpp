// The doctor's checks that ask the hub: reachable, its key, the clock, the task list, and whether peers can reach
// this computer (the hub connects back to the DiLoCo-style listener opened here).
#include "doctor/Doctor.h"

#include "core/JsonReader.h"
#include "core/Logging.h"
#include "net/Ed25519.h"
#include "net/RequestSigning.h"
#include "net/Tls.h"
#include "node/HubPins.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRandomGenerator>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <cstdlib>
#include <limits>

namespace cohort {

namespace {
constexpr qint64 kMaxHealthBytes = 64 * 1024;
constexpr qint64 kMaxTaskListBytes = 4 << 20;
constexpr qint64 kClockWarningMs = 60'000;

QString durationText(qint64 ms)
{
    ms = std::llabs(ms);
    if (ms < 1000)
        return QStringLiteral("%1 ms").arg(ms);
    const qint64 s = ms / 1000;
    if (s < 120)
        return QStringLiteral("%1 s").arg(s);
    if (s < 7200)
        return QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60);
    return QStringLiteral("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60);
}

QString replyError(QNetworkReply *reply)
{
    if (reply->error() == QNetworkReply::OperationCanceledError)
        return QStringLiteral("no answer in time");
    return reply->errorString();
}
} // namespace

QString Doctor::hubUrl() const
{
    return m_options.engine.hubUrl;
}

QNetworkReply *Doctor::get(const QString &path)
{
    QNetworkRequest request(QUrl(hubUrl() + path));
    request.setTransferTimeout(m_options.networkTimeoutMs);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    return m_network->get(request);
}

void Doctor::askHealth()
{
    ++m_pending;
    const qint64 sentAt = QDateTime::currentMSecsSinceEpoch();
    QElapsedTimer rtt;
    rtt.start();
    QNetworkReply *reply = get(QStringLiteral("/v1/health"));
    connect(reply, &QNetworkReply::finished, this, [this, reply, sentAt, rtt] {
        onHealth(reply, sentAt, rtt.elapsed());
        reply->deleteLater();
        --m_pending;
        maybeFinish();
    });
}

void Doctor::onHealth(QNetworkReply *reply, qint64 sentAtMs, qint64 rttMs)
{
    const QString hubTitle = tr("Hub reachable, its key pinned");
    const QString clockTitle = tr("Clock");
    const QString where = hubUrl();
    const QByteArray body = reply->read(kMaxHealthBytes + 1);
    auto json = reply->error() == QNetworkReply::NoError ? parseJsonObject(body, kMaxHealthBytes)
                                                         : Expected<QJsonObject>(fail(replyError(reply)));
    QString hubKeyText;
    qint64 serverTimeMs = 0;
    if (json) {
        JsonReader r(*json);
        hubKeyText = r.string(QStringLiteral("hub_key"), 64);
        serverTimeMs = r.integer(QStringLiteral("server_time_ms"), 0, std::numeric_limits<qint64>::max());
        if (!r.ok())
            json = fail(QStringLiteral("not a Cohort hub's answer (%1)").arg(r.error()));
    }
    const QByteArray hubKey = QByteArray::fromBase64(hubKeyText.toLatin1());
    if (json && hubKey.size() != 32)
        json = fail(QStringLiteral("not a Cohort hub's answer (its key is not 32 bytes)"));
    if (!json) {
        const bool tls = reply->error() == QNetworkReply::SslHandshakeFailedError;
        add(QStringLiteral("hub"), hubTitle, DoctorOutcome::Failed, tr("%1: %2").arg(where, json.error()),
            tls ? tr("The hub's certificate is not trusted: give its certificate or CA (Settings › Network › Hub "
                     "certificate, "
                     "cohortd --hub-certificate).")
                : tr("Check the hub address (Settings › Network, cohortd --hub), that the hub runs, and that no "
                     "firewall or "
                     "proxy blocks the way to it."));
        add(QStringLiteral("clock"), clockTitle, DoctorOutcome::Skipped,
            tr("the hub did not answer, so its clock cannot be compared"));
        return;
    }

    // The key: the operator's (settings), else the one pinned at first use, else nothing yet.
    const QString presented = ed25519::fingerprint(hubKey);
    HubPins pins(QDir(m_options.engine.dataDir).filePath(QStringLiteral("identity/hubs.json")));
    const QByteArray pinned = pins.pinned(where);
    if (!m_options.engine.hubKey.isEmpty() && m_options.engine.hubKey != hubKey)
        add(QStringLiteral("hub"), hubTitle, DoctorOutcome::Failed,
            tr("%1 presents the key %2, not the one the settings name (%3): another hub, or someone in between")
                .arg(where, presented, ed25519::fingerprint(m_options.engine.hubKey)),
            tr("Ask the hub's operator for its key and compare; correct the hub address or the key (Settings › Network "
               "› "
               "Hub key, cohortd --hub-key)."));
    else if (!m_options.engine.hubKey.isEmpty())
        add(QStringLiteral("hub"), hubTitle, DoctorOutcome::Ok,
            tr("%1 answers with the key %2, the one the settings name").arg(where, presented));
    else if (!pinned.isEmpty() && pinned != hubKey)
        add(QStringLiteral("hub"), hubTitle, DoctorOutcome::Failed,
            tr("%1 presents the key %2, not the one pinned when this node first registered (%3)")
                .arg(where, presented, ed25519::fingerprint(pinned)),
            tr("If the operator replaced the hub's key, set the new one (Settings › Network › Hub key, cohortd "
               "--hub-key); "
               "otherwise something between you and the hub answers in its name."));
    else if (!pinned.isEmpty())
        add(QStringLiteral("hub"), hubTitle, DoctorOutcome::Ok,
            tr("%1 answers with the key %2, pinned at first registration").arg(where, presented));
    else
        add(QStringLiteral("hub"), hubTitle, DoctorOutcome::Warning,
            tr("%1 answers with the key %2; nothing is pinned yet, so the first registration will trust it")
                .arg(where, presented),
            tr("Ask the hub's operator for its key and set it (Settings › Network › Hub key, cohortd --hub-key), so no "
               "one "
               "in between can take the hub's place."));

    // The clock: this computer's time when the hub read its own, against the hub's.
    const qint64 localMs = sentAtMs + rttMs / 2 + m_options.clockOffsetMs;
    const qint64 skewMs = localMs - serverTimeMs;
    const QString direction = skewMs > 0 ? tr("ahead of") : tr("behind");
    const QString seen = tr("this computer's clock is %1 %2 the hub's (measured over a %3 round trip)")
                             .arg(durationText(skewMs), direction, durationText(rttMs));
    const QString fix =
        tr("Turn on time synchronisation (Linux: sudo timedatectl set-ntp true; Windows: Settings › Time & "
           "language › Sync now), or tell the hub's operator if the hub's clock is wrong.");
    if (std::llabs(skewMs) >= signing::kDefaultWindowMs)
        add(QStringLiteral("clock"), clockTitle, DoctorOutcome::Failed,
            seen +
                tr(": the hub refuses signed requests more than %1 off").arg(durationText(signing::kDefaultWindowMs)),
            fix);
    else if (std::llabs(skewMs) >= kClockWarningMs)
        add(QStringLiteral("clock"), clockTitle, DoctorOutcome::Warning, seen, fix);
    else
        add(QStringLiteral("clock"), clockTitle, DoctorOutcome::Ok, seen);
}

void Doctor::askTasks()
{
    ++m_pending;
    QNetworkReply *reply = get(QStringLiteral("/v1/tasks"));
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        onTasks(reply);
        reply->deleteLater();
        --m_pending;
        maybeFinish();
    });
}

void Doctor::onTasks(QNetworkReply *reply)
{
    if (reply->error() != QNetworkReply::NoError) {
        checkTaskNeeds(std::nullopt, tr("the hub's task list could not be read (%1)").arg(replyError(reply)));
        return;
    }
    auto json = parseJsonObject(reply->read(kMaxTaskListBytes + 1), kMaxTaskListBytes);
    auto tasks = json ? parseTaskList(*json, UnknownKinds::Keep) : Expected<QList<TaskInfo>>(fail(json.error()));
    if (!tasks) {
        checkTaskNeeds(std::nullopt, tr("the hub's task list is not valid (%1)").arg(tasks.error()));
        return;
    }
    chooseTask(*tasks);
}

void Doctor::probeInbound()
{
    const QString title = tr("Reachable by peers (DiLoCo)");
    // The listener DiLoCo opens: every IPv4 address, a port the system picks.
    m_probeListener = new QTcpServer(this);
    if (!m_probeListener->listen(QHostAddress::AnyIPv4, 0)) {
        add(QStringLiteral("inbound"), title, DoctorOutcome::Failed,
            tr("this computer cannot listen for peers: %1").arg(m_probeListener->errorString()),
            tr("Allow Cohort to accept connections (a firewall or security policy blocks listening sockets)."));
        m_inboundSettled = true;
        return;
    }
    m_probeNonce = QByteArray::number(QRandomGenerator::system()->generate64(), 16).rightJustified(16, '0') +
                   QByteArray::number(QRandomGenerator::system()->generate64(), 16).rightJustified(16, '0');
    connect(m_probeListener, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket *socket = m_probeListener->nextPendingConnection()) {
            socket->setParent(this);
            QTimer::singleShot(m_options.probeWaitMs, socket, &QObject::deleteLater); // a silent stranger does not stay
            connect(socket, &QTcpSocket::readyRead, this, [this, socket] {
                if (socket->bytesAvailable() > 64 || socket->canReadLine()) {
                    const QByteArray line = socket->read(64).trimmed();
                    socket->deleteLater();
                    if (line == "cohort-probe " + m_probeNonce)
                        settleInbound(true);
                }
            });
        }
    });
    const quint16 port = m_options.probePortOverride ? m_options.probePortOverride : m_probeListener->serverPort();
    QNetworkRequest request(QUrl(hubUrl() + QStringLiteral("/v1/reachability")));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    request.setTransferTimeout(m_options.networkTimeoutMs);
    const QByteArray body = QJsonDocument(QJsonObject{{QStringLiteral("port"), int(port)},
                                                      {QStringLiteral("nonce"), QString::fromLatin1(m_probeNonce)}})
                                .toJson(QJsonDocument::Compact);
    ++m_pending;
    QNetworkReply *reply = m_network->post(request, body);
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        onProbeReply(reply);
        reply->deleteLater();
        --m_pending;
        maybeFinish();
    });
}

void Doctor::onProbeReply(QNetworkReply *reply)
{
    const QString title = tr("Reachable by peers (DiLoCo)");
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const auto json = parseJsonObject(reply->read(kMaxHealthBytes + 1), kMaxHealthBytes);
    if (m_inboundSettled)
        return; // the hub's connection came before its answer
    if (status == 404) {
        add(QStringLiteral("inbound"), title, DoctorOutcome::Skipped, tr("this hub cannot test it (an older version)"));
        m_inboundSettled = true;
        return;
    }
    if (status == 429) {
        add(QStringLiteral("inbound"), title, DoctorOutcome::Warning, tr("the hub tests each address once every 10 s"),
            tr("Run the check again in a few seconds."));
        m_inboundSettled = true;
        return;
    }
    if (status != 202 || !json) {
        add(QStringLiteral("inbound"), title, DoctorOutcome::Warning,
            tr("the hub did not take the test (%1)")
                .arg(status ? QStringLiteral("HTTP %1").arg(status) : replyError(reply)));
        m_inboundSettled = true;
        return;
    }
    m_probeAddress = json->value(QStringLiteral("address")).toString().left(64);
    m_probePort = json->value(QStringLiteral("port")).toInt();
    ++m_pending; // the wait for the hub's connection; settleInbound ends it
    m_probeWaiting = true;
    m_probeWait = new QTimer(this);
    m_probeWait->setSingleShot(true);
    connect(m_probeWait, &QTimer::timeout, this, [this] { settleInbound(false); });
    m_probeWait->start(m_options.probeWaitMs);
}

void Doctor::settleInbound(bool reached)
{
    if (m_inboundSettled)
        return;
    m_inboundSettled = true;
    if (m_probeWaiting) {
        m_probeWaiting = false;
        m_probeWait->stop();
        --m_pending;
    }
    const QString title = tr("Reachable by peers (DiLoCo)");
    const quint16 port = m_probeListener ? m_probeListener->serverPort() : 0;
    if (reached) {
        add(QStringLiteral("inbound"), title, DoctorOutcome::Ok,
            tr("the hub connected back to port %1 of this computer").arg(port));
    } else {
        const bool needed = m_taskKind == QLatin1String("diloco");
        add(QStringLiteral("inbound"), title, needed ? DoctorOutcome::Failed : DoctorOutcome::Warning,
            tr("the hub could not connect to port %1 of %2 within %3 s: DiLoCo peers could not reach this computer "
               "either%4")
                .arg(m_probePort)
                .arg(m_probeAddress.isEmpty() ? tr("this computer") : m_probeAddress)
                .arg(m_options.probeWaitMs / 1000)
                .arg(needed ? QString() : tr(" (rollout tasks do not need it)")),
            tr("Allow incoming TCP connections to Cohort in the firewall (Linux: sudo ufw allow in proto tcp to any; "
               "Windows: "
               "allow cohortd/cohort when asked), and forward ports on a home router, or choose a rollout task."));
    }
    if (m_probeListener)
        m_probeListener->close();
    maybeFinish();
}

} // namespace cohort
