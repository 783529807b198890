#include "node/Engine.h"

#include "store/EngineBundle.h"
#include "platform/DesktopIdle.h"
#include "node/ForegroundWatch.h"

#include "core/Logging.h"
#include "core/RateLimiter.h"
#include "net/HubClient.h"
#include "node/GpuTelemetry.h"
#include "node/HubPins.h"
#include "net/Identity.h"
#include "net/Tls.h"
#include "store/EarningsStore.h"
#include "platform/Nvml.h"
#include "platform/SystemSampler.h"

#include <QDir>
#include <QThread>

namespace cohort {

Engine::Engine(EngineOptions options, QString hubUrl, bool hubEmbedded, QObject *parent)
    : EngineBackend(parent),
      m_options(std::move(options)),
      m_hubUrl(std::move(hubUrl)),
      m_hubEmbedded(hubEmbedded),
      // Parented so that moveToThread() takes the timers along to the engine thread.
      m_sampleTimer(this),
      m_heartbeatTimer(this),
      m_retryTimer(this),
      m_publishTimer(this),
      m_rollouts(new RolloutLoop(*this, m_options.dataDir, this)),
      m_earningsTimer(this),
      m_activitySummary(this),
      m_bundleTimer(this)
{
    m_sampleTimer.setInterval(1000);
    m_heartbeatTimer.setInterval(m_options.heartbeatIntervalMs > 0 ? m_options.heartbeatIntervalMs : 10'000);
    m_retryTimer.setSingleShot(true);
    m_publishTimer.setSingleShot(true);
    connect(&m_sampleTimer, &QTimer::timeout, this, &Engine::sampleSystem);
    connect(&m_heartbeatTimer, &QTimer::timeout, this, &Engine::sendHeartbeat);
    connect(&m_retryTimer, &QTimer::timeout, this, &Engine::registerWithHub);
    connect(&m_publishTimer, &QTimer::timeout, this, &Engine::publish);
    connect(&m_activitySummary, &ActivitySummary::summarized, this, &Engine::emitEvent);

    m_snapshot.hubUrl = m_hubUrl;
    m_snapshot.hubEmbedded = m_hubEmbedded;
    m_snapshot.nodeName = m_options.nodeName;
    m_uploadLimiter = std::make_shared<RateLimiter>(m_options.maxUploadBytesPerSecond);
    m_diloco = new DilocoSession(*this, m_options.dataDir, m_hubUrl, m_uploadLimiter, this);
    connectDilocoSession();
    const QDir data(m_options.dataDir);
    m_checkpoints = new CheckpointTracker(*this,
                                          {data.filePath(QStringLiteral("checkpoints")),
                                           data.filePath(QStringLiteral("identity/hubs.json")),
                                           m_hubEmbedded ? QStringLiteral("embedded") : m_hubUrl,
                                           m_options.maxDownloadBytesPerSecond},
                                          this);
    connectCheckpointTracker();
    connectRolloutLoop(); // after the tracker: the loop asks it for newer versions
}

Engine::~Engine()
{
    delete m_diloco; // stops the training thread within its bound (a collective in flight may take 30 s)
    m_diloco = nullptr;
    delete m_rollouts; // cancels the batch in hand and stops the compute thread
    m_rollouts = nullptr;
}

void Engine::start()
{
    qCInfo(lcEngine) << "engine starting in thread" << QThread::currentThread()->objectName();
    m_sampler = createSystemSampler();
    m_gpu = std::make_unique<GpuTelemetry>(Nvml::defaultLibrary(), EarningsStore::defaultPath(m_options.dataDir));
    m_snapshot.gpuTelemetryNote = m_gpu->note();
    sampleSystem();
    m_sampleTimer.start();
    m_scheduler.setPolicy(m_options.scheduler);
    if (m_options.scheduler.runOnlyWhenIdle) {
        m_idle = createDesktopIdle();
        emitEvent(m_idle ? EngineEvent::info(QStringLiteral("schedule"), QStringLiteral("Idle time from %1").arg(m_idle->source()))
                         : EngineEvent::warning(QStringLiteral("schedule"),
                                                QStringLiteral("\"Run only when idle\" is on, but this session cannot tell idle time; it is ignored")));
    }
    applySchedule();

    auto identity = Identity::loadOrCreate(QDir(m_options.dataDir).filePath(QStringLiteral("identity")));
    if (!identity) {
        failFatally(identity.error());
        return;
    }
    m_identity = std::make_unique<Identity>(std::move(identity).value());
    m_snapshot.nodeId = m_identity->nodeId();
    emitEvent(EngineEvent::info(QStringLiteral("lifecycle"),
                                m_identity->wasCreated()
                                    ? QStringLiteral("Created node identity %1 (key %2)").arg(m_identity->nodeId(), m_identity->fingerprint())
                                    : QStringLiteral("Loaded node identity %1").arg(m_identity->nodeId())));

    restoreFromBundle(); // before anything runs: the pause and the work item in hand come back first
    if (const QString gpus = applyGpuChoice(m_options.gpuUuids); !gpus.isEmpty())
        emitEvent(EngineEvent::info(QStringLiteral("compute"), gpus));
    m_compute = probeCompute();
    m_snapshot.computeDevice = m_compute.description;
    m_snapshot.computeDeviceId = m_compute.device;
    m_snapshot.computeDtype = m_compute.dtype;
    applyGpuMemoryCap();
    m_rollouts->start(m_compute.device);
    openEarningsCache();

    const QUrl url(m_hubUrl);
    if (!url.isValid() || url.host().isEmpty()) {
        failFatally(QStringLiteral("the hub address '%1' is not a valid URL").arg(m_hubUrl));
        return;
    }
    if (!m_options.hubCertificateFile.isEmpty())
        if (Status trusted = trustHubCertificates(m_options.hubCertificateFile); !trusted) {
            failFatally(QStringLiteral("the hub certificate setting: %1").arg(trusted.error()));
            return;
        }
    m_hub = new HubClient(url, *m_identity, this);
    // The key the operator gave (settings), else a hub met before: name it in every request and take only answers it
    // signed, from the first one on.
    m_hub->setHubKey(!m_options.hubKey.isEmpty() && !m_hubEmbedded
                         ? m_options.hubKey
                         : HubPins(QDir(m_options.dataDir).filePath(QStringLiteral("identity/hubs.json")))
                               .pinned(m_hubEmbedded ? QStringLiteral("embedded") : m_hubUrl));
    m_inputs.hubLink = HubLink::Connecting;
    updateState();
    registerWithHub();
}

void Engine::joinTask(const QString &taskId)
{
    const TaskInfo *task = nullptr;
    for (const TaskInfo &t : m_snapshot.tasks)
        if (t.id == taskId)
            task = &t;
    if (!task) {
        // The catalogue may not be loaded yet: remember the wish, apply it when the tasks arrive.
        m_options.taskId = taskId;
        if (!m_snapshot.tasks.isEmpty())
            emitEvent(EngineEvent::warning(QStringLiteral("task"), QStringLiteral("The hub offers no task '%1'").arg(taskId)));
        return;
    }
    if (!task->isRunnableKind()) {
        // A newer hub's kind: listed, but there is no work loop for it here. The wish is kept for a newer version.
        m_options.taskId = taskId;
        emitEvent(EngineEvent::warning(QStringLiteral("task"),
                                       QStringLiteral("Task %1 is a %2 task, which this version of Cohort cannot run").arg(taskId, task->kind)));
        return;
    }
    if (m_snapshot.joinedTaskId == taskId)
        return;
    m_rollouts->cancel(); // work for another task is of no use now
    m_options.taskId = taskId;
    m_snapshot.joinedTaskId = taskId;
    m_checkpoints->taskJoined();
    refreshActivityDetail();
    emitEvent(EngineEvent::info(QStringLiteral("task"), QStringLiteral("Joined task %1 (%2)").arg(task->id, task->title)));
    writeBundleSoon(); // the next start joins it again
    updateState();
    if (m_inputs.hubLink == HubLink::Online) {
        sendHeartbeat();
        m_checkpoints->check(-1);
        m_rollouts->kick();
    }
}

void Engine::leaveTask()
{
    if (m_snapshot.joinedTaskId.isEmpty())
        return;
    m_activitySummary.flush();
    emitEvent(EngineEvent::info(QStringLiteral("task"), QStringLiteral("Left task %1").arg(m_snapshot.joinedTaskId)));
    m_snapshot.joinedTaskId.clear();
    m_checkpoints->taskLeft();
    m_options.taskId.clear();
    writeBundleSoon(); // and the next start does not join it again
    m_rollouts->taskLeft();
    m_inputs.downloading = false;
    m_inputs.activityDetail.clear();
    updateState();
}

void Engine::failFatally(const QString &message)
{
    qCCritical(lcEngine) << message;
    m_inputs.fatalError = message;
    m_snapshot.lastError = message;
    emitEvent(EngineEvent::error(QStringLiteral("lifecycle"), message));
    updateState();
}

void Engine::stop()
{
    if (m_stopping)
        return;
    m_stopping = true;
    m_inputs.stopping = true;
    m_sampleTimer.stop();
    m_heartbeatTimer.stop();
    m_retryTimer.stop();
    m_earningsTimer.stop();
    m_activitySummary.flush();
    m_rollouts->stop(); // the batch in progress stops; its work item is in the bundle, finished batches in the outbox
    m_diloco->shutdown(5'000); // checkpoints its state and leaves the ring (a collective in flight may hold it longer)
    writeBundle("quit");
    m_checkpoints->pause(); // progress on disk; the next start resumes
    updateState();
    publish();
    if (m_hub && m_inputs.hubLink == HubLink::Online) {
        // Tell the hub we are going, but never wait on it for long.
        m_hub->post(QStringLiteral("/v1/nodes/heartbeat"), heartbeatBody(), [this](const HubReply &) {
            if (m_hub)
                m_hub->abortAll();
            Q_EMIT stopped();
        });
        QTimer::singleShot(2000, this, [this] {
            if (m_hub && m_hub->pendingCount() > 0)
                m_hub->abortAll();
            else
                return;
            Q_EMIT stopped();
        });
        return;
    }
    Q_EMIT stopped();
}

void Engine::sampleSystem()
{
    if (!m_sampler)
        return;
    m_snapshot.system = m_sampler->sample();
    if (m_gpu) {
        m_snapshot.gpus = m_gpu->sample();
        for (EngineEvent &event : m_gpu->takeEvents())
            emitEvent(std::move(event));
    }
    applySchedule(); // marks the snapshot dirty
}

void Engine::updateState()
{
    m_diloco->update(); // every input that can start or stop the training loop passes through here
    m_inputs.retryInSeconds = secondsUntilRetry();
    // Working while the RL loop has work in hand (asking, generating, submitting), not only during generation,
    // so the state does not flicker to Idle between batches.
    m_inputs.working = m_rollouts->atWork()
                       || m_diloco->atWork();
    // A newer version fetched while a batch is in hand is a background update: the node is still Working (the
    // dashboard's Model row shows the download). Downloading is the state only when the node waits for it.
    StateInputs inputs = m_inputs;
    inputs.downloading = m_inputs.downloading && !m_inputs.working;
    const ResolvedState resolved = resolveState(inputs);
    if (resolved.state != m_snapshot.state || !m_snapshot.stateSince.isValid()) {
        if (m_snapshot.stateSince.isValid())
            qCInfo(lcEngine) << "state" << nodeStateName(m_snapshot.state) << "->" << nodeStateName(resolved.state) << resolved.why;
        m_snapshot.stateSince = QDateTime::currentDateTimeUtc();
    }
    m_snapshot.state = resolved.state;
    m_snapshot.reason = resolved.reason;
    m_snapshot.why = resolved.why;
    m_snapshot.pauseReasons.clear();
    // Most actionable first, the order resolveState() uses.
    QList<PauseReason> remaining = m_inputs.pauseReasons;
    while (!remaining.isEmpty()) {
        const PauseReason top = primaryReason(remaining);
        m_snapshot.pauseReasons.append(top);
        remaining.removeAll(top);
    }
    markDirty();
}

int Engine::secondsUntilRetry() const
{
    if (!m_retryAt.isValid())
        return 0;
    const qint64 ms = QDateTime::currentDateTimeUtc().msecsTo(m_retryAt);
    return ms <= 0 ? 0 : int((ms + 999) / 1000); // round up: "in 1 s" until the attempt starts
}

void Engine::markDirty()
{
    if (m_publishTimer.isActive())
        return;
    const qint64 elapsed = m_sinceLastPublish.isValid() ? m_sinceLastPublish.elapsed() : kMinPublishIntervalMs;
    m_publishTimer.start(int(qMax<qint64>(0, kMinPublishIntervalMs - elapsed)));
}

void Engine::publish()
{
    m_publishTimer.stop();
    if (m_retryAt.isValid() && m_inputs.hubLink == HubLink::Lost) {
        // Keep the "retrying in N s" countdown honest.
        const int seconds = secondsUntilRetry();
        if (seconds != m_inputs.retryInSeconds) {
            m_inputs.retryInSeconds = seconds;
            m_snapshot.why = resolveState(m_inputs).why;
        }
    }
    m_snapshot.rollouts = m_rollouts->stats();
    m_snapshot.checkpointVersion = m_checkpoints->version();
    m_snapshot.download = m_checkpoints->progress();
    m_snapshot.diloco = m_diloco->status();
    ++m_snapshot.sequence;
    m_snapshot.takenAt = QDateTime::currentDateTimeUtc();
    m_sinceLastPublish.start();
    Q_EMIT snapshotReady(m_snapshot);
}

void Engine::emitEvent(EngineEvent event)
{
    Q_EMIT eventOccurred(event);
}

} // namespace cohort
