#include "node/HubSession.h"

#include "core/Logging.h"
#include "net/Ed25519.h"
#include "net/HubClient.h"
#include "net/Identity.h"
#include "net/RegistrationWork.h"
#include "net/Tls.h"
#include "node/HubPins.h"

#include <QDir>
#include <QJsonArray>
#include <QUrl>

#include <algorithm>

namespace cohort {

// The session's texts are the engine's events, worded as when the session was part of Engine; none is translated.

HubSession::HubSession(HubSessionHost &host, Setup setup, QObject *parent)
    : QObject(parent),
      m_host(host),
      m_setup(std::move(setup)),
      m_heartbeatTimer(this),
      m_retryTimer(this)
{
    m_heartbeatTimer.setInterval(m_setup.heartbeatIntervalMs > 0 ? m_setup.heartbeatIntervalMs : 10'000);
    m_retryTimer.setSingleShot(true);
    connect(&m_heartbeatTimer, &QTimer::timeout, this, &HubSession::heartbeat);
    connect(&m_retryTimer, &QTimer::timeout, this, &HubSession::registerWithHub);
}

QString HubSession::pinsPath() const
{
    return QDir(m_setup.dataDir).filePath(QStringLiteral("identity/hubs.json"));
}

QString HubSession::pinName() const
{
    // The embedded hub's port changes every run, so it is pinned under one fixed name.
    return m_setup.embedded ? QStringLiteral("embedded") : m_setup.hubUrl;
}

Status HubSession::start(const Identity &identity)
{
    const QUrl url(m_setup.hubUrl);
    if (!url.isValid() || url.host().isEmpty())
        return fail(QStringLiteral("the hub address '%1' is not a valid URL").arg(m_setup.hubUrl));
    if (!m_setup.certificateFile.isEmpty())
        if (Status trusted = trustHubCertificates(m_setup.certificateFile); !trusted)
            return fail(QStringLiteral("the hub certificate setting: %1").arg(trusted.error()));
    m_identity = &identity;
    m_hub = new HubClient(url, identity, this);
    // The key the operator gave (settings), else a hub met before: name it in every request and take only answers it
    // signed, from the first one on.
    m_hub->setHubKey(!m_setup.hubKey.isEmpty() && !m_setup.embedded ? m_setup.hubKey
                                                                    : HubPins(pinsPath()).pinned(pinName()));
    m_link = HubLink::Connecting;
    Q_EMIT linkChanged();
    registerWithHub();
    return {};
}

void HubSession::registerWithHub()
{
    if (m_stopping || !m_hub || m_host.failed())
        return; // an engine stopped by an error waits for the person, not for the next attempt
    m_retryAt = {};
    const QJsonObject body{
        {QStringLiteral("name"), m_setup.nodeName.isEmpty() ? m_identity->nodeId() : m_setup.nodeName},
        {QStringLiteral("client_version"), QStringLiteral(COHORT_VERSION_STRING)},
        {QStringLiteral("hardware"), m_host.hardware()},
        {QStringLiteral("payout_address"), m_host.payoutAddress()},
    };
    QJsonObject withWork = body;
    if (!m_registrationStamp.isEmpty())
        withWork.insert(QStringLiteral("work"), QString::fromLatin1(m_registrationStamp));
    m_hub->post(QStringLiteral("/v1/nodes/register"), withWork, [this](const HubReply &reply) { onRegistered(reply); });
}

void HubSession::solveRegistrationWork(const HubReply &reply)
{
    const QJsonObject error = reply.body.value(QStringLiteral("error")).toObject();
    const int bits = error.value(QStringLiteral("work_bits")).toInt();
    // The work is bound to the hub's key: the pinned one, or (first contact) the one the hub names.
    const QByteArray hubKey = m_hub->hubKey().isEmpty()
                                  ? QByteArray::fromBase64(error.value(QStringLiteral("hub_key")).toString().toLatin1())
                                  : m_hub->hubKey();
    if (bits < 1 || bits > kMaxRegistrationWorkBits || hubKey.size() != 32) {
        Q_EMIT failed(
            QStringLiteral("the hub asks for a registration proof of work of %1 bits; this node does at most %2")
                .arg(bits)
                .arg(kMaxRegistrationWorkBits));
        return;
    }
    Q_EMIT eventOccurred(EngineEvent::info(
        EventCategory::Hub,
        QStringLiteral("The hub asks new nodes for a proof of work (%1 bits): computing it once").arg(bits)));
    if (!m_registrationWork)
        m_registrationWork = new RegistrationWorkSolver(this);
    m_registrationWork->solve(hubKey, m_identity->publicKey(), bits, [this](const QByteArray &stamp) {
        m_registrationStamp = stamp;
        registerWithHub();
    });
}

void HubSession::onRegistered(const HubReply &reply)
{
    const bool keyFromSettings = !m_setup.hubKey.isEmpty() && !m_setup.embedded;
    // Another hub answers at the address (its answer carries a valid signature by another key), or the hub says our
    // request named another hub's key: another server took the address, or the key this node trusts is not this hub's.
    // Only a person can settle that, so the engine stops and says how.
    if (reply.errorCode == QLatin1String("other_hub") || reply.errorCode == QLatin1String("wrong_hub")) {
        const QString where = m_setup.embedded ? QStringLiteral("the local network") : m_setup.hubUrl;
        const QString detail =
            reply.errorCode == QLatin1String("other_hub") ? QStringLiteral(" (%1)").arg(reply.error) : QString();
        if (keyFromSettings)
            Q_EMIT failed(
                QStringLiteral("the hub at %1 does not hold the key the settings name for it (%2)%3: another server "
                               "answers at that address, or the key in the settings is not this hub's")
                    .arg(where, ed25519::fingerprint(m_setup.hubKey), detail));
        else
            Q_EMIT failed(
                QStringLiteral("the hub at %1 does not hold the key this node pinned for it (%2)%3: another server "
                               "answers at that address, or its operator replaced the hub's key; if so, remove its "
                               "entry from %4 or give the new key in the settings")
                    .arg(where, ed25519::fingerprint(m_hub->hubKey()), detail, pinsPath()));
        return;
    }
    if (reply.errorCode == QLatin1String("work_required") && m_registrationStamp.isEmpty()) {
        solveRegistrationWork(reply);
        return;
    }
    if (reply.errorCode == QLatin1String("upgrade_required")) {
        onUpgradeRequired(reply);
        return;
    }
    if (!reply.ok()) {
        connectionLost(reply.error);
        return;
    }
    const QByteArray hubKey = QByteArray::fromBase64(reply.body.value(QStringLiteral("hub_key")).toString().toLatin1());
    const QString nodeId = reply.body.value(QStringLiteral("node_id")).toString();
    if (nodeId != m_identity->nodeId()) {
        connectionLost(QStringLiteral("the hub answered with another node id (%1)").arg(nodeId));
        return;
    }
    HubPins pins(pinsPath());
    if (keyFromSettings && hubKey != m_setup.hubKey) {
        // Its answer carried our key's signature (HubClient checks), so this is a hub that signs for a key it does not
        // name: refuse it as plainly as a wrong key.
        Q_EMIT failed(QStringLiteral("the hub at %1 presents the key %2, not the one the settings name (%3)")
                          .arg(m_setup.hubUrl, ed25519::fingerprint(hubKey), ed25519::fingerprint(m_setup.hubKey)));
        return;
    }
    // The operator's key replaces whatever was pinned before (the operator's word is what the user chose).
    if (Status pinned = keyFromSettings ? pins.pin(pinName(), hubKey) : pins.pinOrCheck(pinName(), hubKey); !pinned) {
        Q_EMIT failed(pinned.error());
        return;
    }
    m_hub->setHubKey(hubKey); // from now on: requests name this hub, answers must carry its signature
    if (!takeClientRelease(reply.body.value(QStringLiteral("client"))))
        return; // below the hub's minimum version: stopped, and says why
    const bool firstTime = !m_state.registeredAt.isValid();
    m_state.registeredAt =
        QDateTime::fromMSecsSinceEpoch(reply.body.value(QStringLiteral("registered_at_ms")).toInteger(), Qt::UTC);
    m_state.hubKeyFingerprint = ed25519::fingerprint(hubKey);
    Q_EMIT errorNoted(QString());
    m_state.heartbeatFailures = 0;
    m_retryDelayS = 1;
    m_link = HubLink::Online;
    m_linkError.clear();
    if (m_setup.heartbeatIntervalMs <= 0) {
        const int seconds =
            int(std::clamp<qint64>(reply.body.value(QStringLiteral("heartbeat_interval_s")).toInteger(10), 1, 300));
        m_heartbeatTimer.setInterval(seconds * 1000);
    }
    m_heartbeatTimer.start();
    Q_EMIT eventOccurred(EngineEvent::info(
        EventCategory::Hub, (firstTime ? QStringLiteral("Registered with %1 as %2 (hub key %3)")
                                       : QStringLiteral("Reconnected to %1 as %2 (hub key %3)"))
                                .arg(m_setup.embedded ? QStringLiteral("the local network") : m_setup.hubUrl,
                                     m_identity->nodeId(), m_state.hubKeyFingerprint)));
    Q_EMIT linkChanged(); // before the first heartbeat: it reports the state this makes
    fetchTasks();
    heartbeat();
    Q_EMIT registered();
}

void HubSession::fetchTasks()
{
    m_hub->get(QStringLiteral("/v1/tasks"), [this](const HubReply &reply) {
        if (!reply.ok()) {
            Q_EMIT eventOccurred(EngineEvent::warning(
                EventCategory::Hub, QStringLiteral("Could not load the task list: %1").arg(reply.error)));
            return;
        }
        auto tasks = parseTaskList(reply.body, UnknownKinds::Keep); // a newer hub's kinds are listed, not fatal
        if (!tasks) {
            Q_EMIT eventOccurred(EngineEvent::warning(
                EventCategory::Hub, QStringLiteral("The hub sent an unreadable task list: %1").arg(tasks.error())));
            return;
        }
        const bool changed = *tasks != m_state.tasks;
        m_state.tasks = std::move(tasks).value();
        if (changed)
            Q_EMIT eventOccurred(EngineEvent::info(
                EventCategory::Hub, QStringLiteral("The hub offers %1 tasks").arg(m_state.tasks.size())));
        Q_EMIT tasksArrived();
    });
}

void HubSession::fetchProgress()
{
    // The joined task's held-out curve, for the views: at most every 30 s (it changes with the trainer's versions),
    // one request at a time; a task left meanwhile drops the answer.
    const QString taskId = m_host.joinedTaskId();
    if (taskId.isEmpty()) {
        m_state.progress = {};
        return;
    }
    if (m_progressInFlight ||
        (m_state.progress.taskId == taskId && m_progressFetched.isValid() && !m_progressFetched.hasExpired(30'000)))
        return;
    m_progressInFlight = true;
    m_hub->get(QStringLiteral("/v1/tasks/%1/progress").arg(taskId), [this, taskId](const HubReply &reply) {
        m_progressInFlight = false;
        m_progressFetched.start();
        if (m_stopping || taskId != m_host.joinedTaskId() || !reply.ok())
            return; // unchanged: the next heartbeat asks again in 30 s
        auto progress = parseTaskProgress(reply.body, taskId);
        if (!progress) {
            qCWarning(lcEngine) << "the hub's progress of" << taskId << "is unreadable:" << progress.error();
            return;
        }
        if (*progress != m_state.progress) {
            m_state.progress = std::move(progress).value();
            Q_EMIT changed();
        }
    });
}

void HubSession::heartbeat()
{
    if (m_stopping || !m_hub || m_link != HubLink::Online)
        return;
    m_hub->post(QStringLiteral("/v1/nodes/heartbeat"), heartbeatBody(),
                [this](const HubReply &reply) { onHeartbeat(reply); });
}

QJsonObject HubSession::heartbeatBody() const
{
    const EngineSnapshot &node = m_host.machine();
    const SystemSample &s = node.system;
    return QJsonObject{
        {QStringLiteral("state"), nodeStateName(node.state)},
        {QStringLiteral("reason"), node.reason == PauseReason::None ? QString() : pauseReasonName(node.reason)},
        {QStringLiteral("why"), node.why.left(500)},
        {QStringLiteral("joined_task"), m_host.joinedTaskId()},
        // Every heartbeat carries it, so a change in the settings reaches the hub within one interval, and a hub
        // that lost it (restored from a backup) has it again.
        {QStringLiteral("payout_address"), m_host.payoutAddress()},
        // So that a hub whose operator raised the minimum version while this node runs can refuse it (426).
        {QStringLiteral("client_version"), QStringLiteral(COHORT_VERSION_STRING)},
        {QStringLiteral("metrics"), QJsonObject{{QStringLiteral("cpu_percent"), s.cpuPercent},
                                                {QStringLiteral("mem_used_bytes"), s.memUsedBytes},
                                                {QStringLiteral("process_rss_bytes"), s.processRssBytes}}},
    };
}

void HubSession::onHeartbeat(const HubReply &reply)
{
    if (m_stopping)
        return;
    if (reply.ok()) {
        m_state.lastHeartbeatAt = QDateTime::currentDateTimeUtc();
        m_state.heartbeatFailures = 0;
        if (!takeClientRelease(reply.body.value(QStringLiteral("client"))))
            return; // the hub's minimum version passed this one by: stopped, and says why
        const QJsonValue announced =
            reply.body.value(QStringLiteral("checkpoints")).toObject().value(m_host.joinedTaskId());
        if (announced.isDouble())
            Q_EMIT checkpointAnnounced(announced.toInt());
        if (auto contribution = parseTaskContribution(reply.body.value(QStringLiteral("contribution")).toObject(),
                                                      m_host.joinedTaskId()))
            m_state.contribution = std::move(contribution).value();
        else
            qCWarning(lcEngine) << "the hub's account of this node's contribution is unreadable:"
                                << contribution.error();
        fetchProgress();
        Q_EMIT changed();
        return;
    }
    if (reply.errorCode == QLatin1String("upgrade_required")) {
        onUpgradeRequired(reply);
        return;
    }
    ++m_state.heartbeatFailures;
    Q_EMIT errorNoted(reply.error);
    if (reply.errorCode == QLatin1String("not_registered")) {
        // The hub lost its records (or was reset): register again right away.
        Q_EMIT eventOccurred(EngineEvent::warning(
            EventCategory::Hub, QStringLiteral("The hub no longer knows this node; registering again")));
        registerWithHub();
        return;
    }
    if (reply.networkFailure() || m_state.heartbeatFailures >= 3) {
        connectionLost(reply.error);
        return;
    }
    Q_EMIT eventOccurred(
        EngineEvent::warning(EventCategory::Hub, QStringLiteral("Heartbeat refused: %1").arg(reply.error)));
    Q_EMIT changed();
}

bool HubSession::takeClientRelease(const QJsonValue &client)
{
    auto release = parseClientRelease(client);
    if (!release) {
        // Refused whole: versions a hub garbled (or made up) become neither a link nor a reason to stop.
        qCWarning(lcEngine) << "the hub's client versions are unreadable, ignored:" << release.error();
        return true;
    }
    const UpdateNotice notice = assessUpdate(*release, QStringLiteral(COHORT_VERSION_STRING));
    if (notice != m_state.update) {
        m_state.update = notice;
        Q_EMIT changed();
    }
    if (notice.belowMinimum) {
        refuseToWork(belowMinimumMessage(notice));
        return false;
    }
    // Said once per version (every heartbeat repeats the hub's word), and again only for a newer one.
    if (notice.available && notice.latest != m_announcedVersion) {
        m_announcedVersion = notice.latest;
        Q_EMIT eventOccurred(EngineEvent::info(EventCategory::Update, updateAvailableMessage(notice)));
    }
    return true;
}

void HubSession::onUpgradeRequired(const HubReply &reply)
{
    // The refusal carries the hub's versions: the reason is worded from them, with the download link.
    if (!takeClientRelease(reply.body.value(QStringLiteral("client"))))
        return;
    // A hub that refuses this version without a minimum it is below (unreadable versions, or a rule of its own) still
    // will not work with it: stop all the same, in the hub's words (bounded: they come from the network).
    refuseToWork(QStringLiteral("The hub refuses to work with Cohort %1 (%2)")
                     .arg(QStringLiteral(COHORT_VERSION_STRING), reply.error.left(300)));
}

void HubSession::refuseToWork(const QString &why)
{
    if (m_host.failed())
        return;
    // The link counts as lost, so that nothing which needs the hub (work requests, submissions, DiLoCo, checkpoint
    // queries, heartbeats) starts again and no reconnect is scheduled; Error outranks Offline, so `why` is what shows.
    m_heartbeatTimer.stop();
    m_retryTimer.stop();
    m_retryAt = {};
    m_link = HubLink::Lost;
    m_linkError = why;
    Q_EMIT refused(why);
}

void HubSession::connectionLost(const QString &error)
{
    if (m_stopping)
        return;
    const bool wasOnline = m_link == HubLink::Online;
    m_heartbeatTimer.stop();
    m_link = HubLink::Lost;
    m_linkError = error;
    Q_EMIT errorNoted(error);
    if (wasOnline || m_retryDelayS == 1)
        Q_EMIT eventOccurred(EngineEvent::warning(EventCategory::Hub, QStringLiteral("Lost the hub: %1").arg(error)));
    scheduleReconnect();
}

void HubSession::scheduleReconnect()
{
    // Exponential backoff, capped, so a dead hub is not hammered and a revived one is found quickly.
    const int delay = m_retryDelayS;
    m_retryDelayS = qMin(m_retryDelayS * 2, kMaxRetryDelayS);
    m_retryAt = QDateTime::currentDateTimeUtc().addSecs(delay);
    m_retryTimer.start(delay * 1000);
    Q_EMIT linkChanged();
}

int HubSession::secondsUntilRetry() const
{
    if (!m_retryAt.isValid())
        return 0;
    const qint64 ms = QDateTime::currentDateTimeUtc().msecsTo(m_retryAt);
    return ms <= 0 ? 0 : int((ms + 999) / 1000); // round up: "in 1 s" until the attempt starts
}

void HubSession::stop()
{
    m_stopping = true;
    m_heartbeatTimer.stop();
    m_retryTimer.stop();
}

void HubSession::farewell(std::function<void()> done)
{
    if (!m_hub || m_link != HubLink::Online) {
        done();
        return;
    }
    // Tell the hub we are going, but never wait on it for long.
    m_hub->post(QStringLiteral("/v1/nodes/heartbeat"), heartbeatBody(), [this, done](const HubReply &) {
        m_hub->abortAll();
        done();
    });
    QTimer::singleShot(2000, this, [this, done] {
        if (m_hub->pendingCount() == 0)
            return;
        m_hub->abortAll();
        done();
    });
}

} // namespace cohort
