// The engine's conversation with the hub: registration, task catalogue, heartbeats, reconnecting.
#include "core/ClientRelease.h"
#include "core/Logging.h"
#include "core/PayoutAddress.h"
#include "core/RateLimiter.h"
#include "core/TaskFit.h"
#include "net/Ed25519.h"
#include "net/HubClient.h"
#include "net/Identity.h"
#include "net/RegistrationWork.h"
#include "node/Engine.h"
#include "node/HubPins.h"

#include <QDir>
#include <QJsonArray>

#include <algorithm>

namespace cohort {

void Engine::registerWithHub()
{
    if (m_stopping || !m_hub || !m_inputs.fatalError.isEmpty())
        return; // an engine stopped by an error waits for the person, not for the next attempt
    m_retryAt = {};
    const QJsonObject body{
        {QStringLiteral("name"), m_options.nodeName.isEmpty() ? m_identity->nodeId() : m_options.nodeName},
        {QStringLiteral("client_version"), QStringLiteral(COHORT_VERSION_STRING)},
        {QStringLiteral("hardware"), hardwareInventory(m_compute, m_snapshot.system.memTotalBytes, m_snapshot.gpus)},
        {QStringLiteral("payout_address"), m_options.payoutAddress},
    };
    QJsonObject withWork = body;
    if (!m_registrationStamp.isEmpty())
        withWork.insert(QStringLiteral("work"), QString::fromLatin1(m_registrationStamp));
    m_hub->post(QStringLiteral("/v1/nodes/register"), withWork, [this](const HubReply &reply) { onRegistered(reply); });
}

void Engine::solveRegistrationWork(const HubReply &reply)
{
    const QJsonObject error = reply.body.value(QStringLiteral("error")).toObject();
    const int bits = error.value(QStringLiteral("work_bits")).toInt();
    // The work is bound to the hub's key: the pinned one, or (first contact) the one the hub names.
    const QByteArray hubKey = m_hub->hubKey().isEmpty()
                                  ? QByteArray::fromBase64(error.value(QStringLiteral("hub_key")).toString().toLatin1())
                                  : m_hub->hubKey();
    if (bits < 1 || bits > kMaxRegistrationWorkBits || hubKey.size() != 32) {
        failFatally(QStringLiteral("the hub asks for a registration proof of work of %1 bits; this node does at most %2")
                        .arg(bits).arg(kMaxRegistrationWorkBits));
        return;
    }
    emitEvent(EngineEvent::info(QStringLiteral("hub"),
                                QStringLiteral("The hub asks new nodes for a proof of work (%1 bits): computing it once").arg(bits)));
    if (!m_registrationWork)
        m_registrationWork = new RegistrationWorkSolver(this);
    m_registrationWork->solve(hubKey, m_identity->publicKey(), bits, [this](const QByteArray &stamp) {
        m_registrationStamp = stamp;
        registerWithHub();
    });
}

void Engine::onRegistered(const HubReply &reply)
{
    const bool keyFromSettings = !m_options.hubKey.isEmpty() && !m_hubEmbedded;
    // Another hub answers at the address (its answer carries a valid signature by another key), or the hub says our
    // request named another hub's key: another server took the address, or the key this node trusts is not this hub's.
    // Only a person can settle that, so the engine stops and says how.
    if (reply.errorCode == QLatin1String("other_hub") || reply.errorCode == QLatin1String("wrong_hub")) {
        const QString where = m_hubEmbedded ? QStringLiteral("the local network") : m_hubUrl;
        const QString detail = reply.errorCode == QLatin1String("other_hub") ? QStringLiteral(" (%1)").arg(reply.error) : QString();
        if (keyFromSettings)
            failFatally(QStringLiteral("the hub at %1 does not hold the key the settings name for it (%2)%3: another server "
                                       "answers at that address, or the key in the settings is not this hub's")
                            .arg(where, ed25519::fingerprint(m_options.hubKey), detail));
        else
            failFatally(QStringLiteral("the hub at %1 does not hold the key this node pinned for it (%2)%3: another server "
                                       "answers at that address, or its operator replaced the hub's key; if so, remove its "
                                       "entry from %4 or give the new key in the settings")
                            .arg(where, ed25519::fingerprint(m_hub->hubKey()), detail,
                                 QDir(m_options.dataDir).filePath(QStringLiteral("identity/hubs.json"))));
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
    // The embedded hub's port changes every run, so it is pinned under one fixed name.
    HubPins pins(QDir(m_options.dataDir).filePath(QStringLiteral("identity/hubs.json")));
    const QString hubId = m_hubEmbedded ? QStringLiteral("embedded") : m_hubUrl;
    if (keyFromSettings && hubKey != m_options.hubKey) {
        // Its answer carried our key's signature (HubClient checks), so this is a hub that signs for a key it does not
        // name: refuse it as plainly as a wrong key.
        failFatally(QStringLiteral("the hub at %1 presents the key %2, not the one the settings name (%3)")
                        .arg(m_hubUrl, ed25519::fingerprint(hubKey), ed25519::fingerprint(m_options.hubKey)));
        return;
    }
    // The operator's key replaces whatever was pinned before (the operator's word is what the user chose).
    if (Status pinned = keyFromSettings ? pins.pin(hubId, hubKey) : pins.pinOrCheck(hubId, hubKey); !pinned) {
        failFatally(pinned.error());
        return;
    }
    m_hub->setHubKey(hubKey); // from now on: requests name this hub, answers must carry its signature
    if (!takeClientRelease(reply.body.value(QStringLiteral("client"))))
        return; // below the hub's minimum version: stopped, and says why
    const bool firstTime = !m_snapshot.registeredAt.isValid();
    m_snapshot.registeredAt = QDateTime::fromMSecsSinceEpoch(reply.body.value(QStringLiteral("registered_at_ms")).toInteger(), Qt::UTC);
    m_snapshot.hubKeyFingerprint = ed25519::fingerprint(hubKey);
    m_snapshot.lastError.clear();
    m_snapshot.heartbeatFailures = 0;
    m_retryDelayS = 1;
    m_inputs.hubLink = HubLink::Online;
    m_inputs.hubError.clear();
    if (m_options.heartbeatIntervalMs <= 0) {
        const int seconds = int(std::clamp<qint64>(reply.body.value(QStringLiteral("heartbeat_interval_s")).toInteger(10), 1, 300));
        m_heartbeatTimer.setInterval(seconds * 1000);
    }
    m_heartbeatTimer.start();
    emitEvent(EngineEvent::info(QStringLiteral("hub"),
                                (firstTime ? QStringLiteral("Registered with %1 as %2 (hub key %3)")
                                           : QStringLiteral("Reconnected to %1 as %2 (hub key %3)"))
                                    .arg(m_hubEmbedded ? QStringLiteral("the local network") : m_hubUrl,
                                         m_identity->nodeId(), m_snapshot.hubKeyFingerprint)));
    updateState();
    fetchTasks();
    sendHeartbeat();
    fetchEarnings();
    m_rollouts->kick(); // batches left in the outbox by an earlier run or an outage go first
}

void Engine::applyLiveOptions(const EngineOptions &options)
{
    if (options.maxUploadBytesPerSecond != m_options.maxUploadBytesPerSecond) {
        m_options.maxUploadBytesPerSecond = options.maxUploadBytesPerSecond;
        m_uploadLimiter->setRate(options.maxUploadBytesPerSecond); // wakes a sender waiting under the old rate
        qCInfo(lcEngine) << "upload cap now" << options.maxUploadBytesPerSecond << "bytes/s (0: none)";
    }
    if (options.payoutAddress != m_options.payoutAddress) {
        m_options.payoutAddress = options.payoutAddress;
        qCInfo(lcEngine) << "payout address now" << payout::redacted(options.payoutAddress) << "(sent with the next heartbeat)";
    }
    if (!(options.scheduler == m_options.scheduler))
        setSchedulerPolicy(options.scheduler);
    if (options.gpuMemoryPercent != m_options.gpuMemoryPercent) {
        m_options.gpuMemoryPercent = options.gpuMemoryPercent;
        applyGpuMemoryCap(); // the next batch is sized by it
    }
}

void Engine::applyGpuMemoryCap()
{
    QString note;
    m_snapshot.gpuMemoryBudgetBytes = cohort::applyGpuMemoryCap(m_compute, m_options.gpuMemoryPercent, &note);
    if (!note.isEmpty())
        emitEvent(EngineEvent::info(QStringLiteral("compute"), note));
}

void Engine::fetchTasks()
{
    m_hub->get(QStringLiteral("/v1/tasks"), [this](const HubReply &reply) {
        if (!reply.ok()) {
            emitEvent(EngineEvent::warning(QStringLiteral("hub"), QStringLiteral("Could not load the task list: %1").arg(reply.error)));
            return;
        }
        auto tasks = parseTaskList(reply.body, UnknownKinds::Keep); // a newer hub's kinds are listed, not fatal
        if (!tasks) {
            emitEvent(EngineEvent::warning(QStringLiteral("hub"), QStringLiteral("The hub sent an unreadable task list: %1").arg(tasks.error())));
            return;
        }
        const bool changed = *tasks != m_snapshot.tasks;
        m_snapshot.tasks = std::move(tasks).value();
        if (changed)
            emitEvent(EngineEvent::info(QStringLiteral("hub"), QStringLiteral("The hub offers %1 tasks").arg(m_snapshot.tasks.size())));
        if (!m_options.taskId.isEmpty() && m_snapshot.joinedTaskId != m_options.taskId)
            joinTask(m_options.taskId); // says why when it cannot
        applyAutomaticTaskChoice();
        if (m_options.taskId.isEmpty() && m_snapshot.joinedTaskId.isEmpty()) {
            // Idle by choice, not by fault: say what could be joined, where a person reading the log looks.
            QStringList ids;
            for (const TaskInfo &t : m_snapshot.tasks)
                ids.append(t.id);
            emitEvent(EngineEvent::info(QStringLiteral("task"),
                                        QStringLiteral("No task joined; this hub offers %1 (join one on the Tasks page, or cohortd --task ID or --task auto)")
                                            .arg(ids.isEmpty() ? QStringLiteral("none") : ids.join(QStringLiteral(", ")))));
        }
        markDirty();
    });
}

void Engine::chooseTaskAutomatically()
{
    m_options.chooseTaskAutomatically = true;
    applyAutomaticTaskChoice();
}

void Engine::applyAutomaticTaskChoice()
{
    if (!m_options.chooseTaskAutomatically || m_snapshot.tasks.isEmpty())
        return; // not asked, or the catalogue has not arrived yet: fetchTasks calls again
    m_options.chooseTaskAutomatically = false; // once: a task left later stays left
    if (!m_options.taskId.isEmpty() || !m_snapshot.joinedTaskId.isEmpty())
        return; // the user's (or the last run's) choice wins
    QString whyNone;
    const QString choice = automaticTaskChoice(m_snapshot.tasks, m_snapshot, &whyNone);
    if (choice.isEmpty()) {
        emitEvent(EngineEvent::warning(QStringLiteral("task"),
                                       QStringLiteral("No task of this hub can run on this computer (%1)").arg(whyNone)));
        return;
    }
    emitEvent(EngineEvent::info(QStringLiteral("task"),
                                QStringLiteral("Chose task %1: the first of the hub's tasks this computer can run").arg(choice)));
    joinTask(choice);
}

void Engine::fetchProgress()
{
    // The joined task's held-out curve, for the views: at most every 30 s (it changes with the trainer's versions),
    // one request at a time; a task left meanwhile drops the answer.
    const QString taskId = m_snapshot.joinedTaskId;
    if (taskId.isEmpty()) {
        m_snapshot.progress = {};
        return;
    }
    if (m_progressInFlight || (m_snapshot.progress.taskId == taskId && m_progressFetched.isValid() &&
                               !m_progressFetched.hasExpired(30'000)))
        return;
    m_progressInFlight = true;
    m_hub->get(QStringLiteral("/v1/tasks/%1/progress").arg(taskId), [this, taskId](const HubReply &reply) {
        m_progressInFlight = false;
        m_progressFetched.start();
        if (m_stopping || taskId != m_snapshot.joinedTaskId || !reply.ok())
            return; // unchanged: the next heartbeat asks again in 30 s
        auto progress = parseTaskProgress(reply.body, taskId);
        if (!progress) {
            qCWarning(lcEngine) << "the hub's progress of" << taskId << "is unreadable:" << progress.error();
            return;
        }
        if (*progress != m_snapshot.progress) {
            m_snapshot.progress = std::move(progress).value();
            markDirty();
        }
    });
}

QJsonObject Engine::heartbeatBody() const
{
    const SystemSample &s = m_snapshot.system;
    return QJsonObject{
        {QStringLiteral("state"), nodeStateName(m_snapshot.state)},
        {QStringLiteral("reason"), m_snapshot.reason == PauseReason::None ? QString() : pauseReasonName(m_snapshot.reason)},
        {QStringLiteral("why"), m_snapshot.why.left(500)},
        {QStringLiteral("joined_task"), m_snapshot.joinedTaskId},
        // Every heartbeat carries it, so a change in the settings reaches the hub within one interval, and a hub
        // that lost it (restored from a backup) has it again.
        {QStringLiteral("payout_address"), m_options.payoutAddress},
        // So that a hub whose operator raised the minimum version while this node runs can refuse it (426).
        {QStringLiteral("client_version"), QStringLiteral(COHORT_VERSION_STRING)},
        {QStringLiteral("metrics"),
         QJsonObject{{QStringLiteral("cpu_percent"), s.cpuPercent},
                     {QStringLiteral("mem_used_bytes"), s.memUsedBytes},
                     {QStringLiteral("process_rss_bytes"), s.processRssBytes}}},
    };
}

void Engine::sendHeartbeat()
{
    if (m_stopping || !m_hub || m_inputs.hubLink != HubLink::Online)
        return;
    m_hub->post(QStringLiteral("/v1/nodes/heartbeat"), heartbeatBody(), [this](const HubReply &reply) { onHeartbeat(reply); });
}

void Engine::onHeartbeat(const HubReply &reply)
{
    if (m_stopping)
        return;
    if (reply.ok()) {
        m_snapshot.lastHeartbeatAt = QDateTime::currentDateTimeUtc();
        m_snapshot.heartbeatFailures = 0;
        if (!takeClientRelease(reply.body.value(QStringLiteral("client"))))
            return; // the hub's minimum version passed this one by: stopped, and says why
        const QJsonValue announced = reply.body.value(QStringLiteral("checkpoints")).toObject().value(m_snapshot.joinedTaskId);
        if (announced.isDouble())
            m_checkpoints->check(announced.toInt());
        if (auto contribution = parseTaskContribution(reply.body.value(QStringLiteral("contribution")).toObject(),
                                                      m_snapshot.joinedTaskId))
            m_snapshot.contribution = std::move(contribution).value();
        else
            qCWarning(lcEngine) << "the hub's account of this node's contribution is unreadable:" << contribution.error();
        fetchProgress();
        markDirty();
        return;
    }
    if (reply.errorCode == QLatin1String("upgrade_required")) {
        onUpgradeRequired(reply);
        return;
    }
    ++m_snapshot.heartbeatFailures;
    m_snapshot.lastError = reply.error;
    if (reply.errorCode == QLatin1String("not_registered")) {
        // The hub lost its records (or was reset): register again right away.
        emitEvent(EngineEvent::warning(QStringLiteral("hub"), QStringLiteral("The hub no longer knows this node; registering again")));
        registerWithHub();
        return;
    }
    if (reply.networkFailure() || m_snapshot.heartbeatFailures >= 3) {
        connectionLost(reply.error);
        return;
    }
    emitEvent(EngineEvent::warning(QStringLiteral("hub"), QStringLiteral("Heartbeat refused: %1").arg(reply.error)));
    markDirty();
}

bool Engine::takeClientRelease(const QJsonValue &client)
{
    auto release = parseClientRelease(client);
    if (!release) {
        // Refused whole: versions a hub garbled (or made up) become neither a link nor a reason to stop.
        qCWarning(lcEngine) << "the hub's client versions are unreadable, ignored:" << release.error();
        return true;
    }
    const UpdateNotice notice = assessUpdate(*release, QStringLiteral(COHORT_VERSION_STRING));
    if (notice != m_snapshot.update) {
        m_snapshot.update = notice;
        markDirty();
    }
    if (notice.belowMinimum) {
        refuseToWork(belowMinimumMessage(notice));
        return false;
    }
    // Said once per version (every heartbeat repeats the hub's word), and again only for a newer one.
    if (notice.available && notice.latest != m_announcedVersion) {
        m_announcedVersion = notice.latest;
        emitEvent(EngineEvent::info(QStringLiteral("update"), updateAvailableMessage(notice)));
    }
    return true;
}

void Engine::onUpgradeRequired(const HubReply &reply)
{
    // The refusal carries the hub's versions: the reason is worded from them, with the download link.
    if (!takeClientRelease(reply.body.value(QStringLiteral("client"))))
        return;
    // A hub that refuses this version without a minimum it is below (unreadable versions, or a rule of its own) still
    // will not work with it: stop all the same, in the hub's words (bounded: they come from the network).
    refuseToWork(QStringLiteral("The hub refuses to work with Cohort %1 (%2)")
                     .arg(QStringLiteral(COHORT_VERSION_STRING), reply.error.left(300)));
}

void Engine::refuseToWork(const QString &why)
{
    if (!m_inputs.fatalError.isEmpty())
        return;
    // The link counts as lost, so that nothing which needs the hub (work requests, submissions, DiLoCo, checkpoint
    // queries, heartbeats) starts again and no reconnect is scheduled; Error outranks Offline, so `why` is what shows.
    m_heartbeatTimer.stop();
    m_retryTimer.stop();
    m_retryAt = {};
    m_inputs.hubLink = HubLink::Lost;
    m_inputs.hubError = why;
    m_rollouts->cancel(); // the batch being generated stops; its work item stays in the bundle
    m_checkpoints->pause(); // progress stays on disk
    m_inputs.downloading = false;
    failFatally(why);
}

void Engine::connectionLost(const QString &error)
{
    if (m_stopping)
        return;
    const bool wasOnline = m_inputs.hubLink == HubLink::Online;
    m_heartbeatTimer.stop();
    m_inputs.hubLink = HubLink::Lost;
    m_inputs.hubError = error;
    m_snapshot.lastError = error;
    if (wasOnline || m_retryDelayS == 1)
        emitEvent(EngineEvent::warning(QStringLiteral("hub"), QStringLiteral("Lost the hub: %1").arg(error)));
    scheduleReconnect();
}

void Engine::scheduleReconnect()
{
    // Exponential backoff, capped, so a dead hub is not hammered and a revived one is found quickly.
    const int delay = m_retryDelayS;
    m_retryDelayS = qMin(m_retryDelayS * 2, kMaxRetryDelayS);
    m_retryAt = QDateTime::currentDateTimeUtc().addSecs(delay);
    m_retryTimer.start(delay * 1000);
    updateState();
}

} // namespace cohort
