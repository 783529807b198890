#include "node/Engine.h"

#include "core/Logging.h"
#include "core/PayoutAddress.h"
#include "core/RateLimiter.h"
#include "net/Identity.h"
#include "platform/Nvml.h"

#include <QDir>
#include <QThread>

namespace cohort {

Engine::Engine(EngineOptions options, QString hubUrl, bool hubEmbedded, QObject *parent)
    : EngineBackend(parent),
      m_options(std::move(options)),
      m_hubUrl(std::move(hubUrl)),
      m_hubEmbedded(hubEmbedded),
      m_host(m_options, m_compute, m_identity),
      m_rollouts(new RolloutFleet(m_host, m_options.dataDir, this)),
      m_activitySummary(this)
{
    connect(&m_activitySummary, &ActivitySummary::summarized, this, &Engine::eventOccurred);
    m_machine = new MachineMonitor(m_options.dataDir, Nvml::defaultLibrary(), this);
    m_hubSession = new HubSession(m_host,
                                  {m_hubUrl, m_hubEmbedded, m_options.dataDir, m_options.hubKey,
                                   m_options.hubCertificateFile, m_options.nodeName, m_options.heartbeatIntervalMs},
                                  this);
    m_tasks = new TaskMembership(m_host, m_options.taskId, m_options.chooseTaskAutomatically, this);
    // Earnings of different hubs never mix: the embedded network is one ledger, a remote hub is keyed by its URL.
    m_earnings =
        new EarningsFeed(m_host, m_options.dataDir, m_hubEmbedded ? QStringLiteral("embedded") : m_hubUrl, this);
    m_resume = new ResumeBundle(m_host, m_options.dataDir, this);
    connect(m_resume, &ResumeBundle::eventOccurred, this, &Engine::eventOccurred);
    m_uploadLimiter = std::make_shared<RateLimiter>(m_options.maxUploadBytesPerSecond);
    m_diloco = new DilocoSession(m_host, m_options.dataDir, m_hubUrl, m_uploadLimiter, this);
    connectDilocoSession();
    const QDir data(m_options.dataDir);
    m_checkpoints = new CheckpointTracker(
        m_host,
        {data.filePath(QStringLiteral("checkpoints")), data.filePath(QStringLiteral("identity/hubs.json")),
         m_hubEmbedded ? QStringLiteral("embedded") : m_hubUrl, m_options.maxDownloadBytesPerSecond},
        this);
    m_schedule = new ScheduleGate({m_machine, m_checkpoints, m_rollouts}, m_options.dataDir, m_options.scheduler, this);
    connectCheckpointTracker();
    m_state = new SnapshotPublisher({m_hubSession, m_schedule, m_rollouts, m_checkpoints, m_diloco, m_tasks}, this);
    connect(m_state, &SnapshotPublisher::published, this, &Engine::snapshotReady);
    m_host.setParts({m_hubSession, m_tasks, m_schedule, m_checkpoints, m_rollouts, m_state});
    EngineSnapshot &snapshot = m_state->snapshot();
    snapshot.hubUrl = m_hubUrl;
    snapshot.hubEmbedded = m_hubEmbedded;
    snapshot.nodeName = m_options.nodeName;
    // After the tracker: the loop and the hub session ask it for newer versions, the gate whether the disk is full.
    connectRolloutLoop();
    connectHubSession();
    connectScheduleGate();
    connectTaskMembership();
    connectMachineMonitor();
}

Engine::~Engine()
{
    // The wiring and the publisher read the parts: a signal sent while the DiLoCo session or the rollout fleet shuts
    // down must not reach them half-deleted (their connections to the other parts stay).
    for (QObject *part : std::initializer_list<QObject *>{m_diloco, m_rollouts}) {
        part->disconnect(this);
        part->disconnect(m_state);
    }
    delete m_diloco; // stops the training thread within its bound (a collective in flight may take 30 s)
    m_diloco = nullptr;
    delete m_rollouts; // cancels the batches in hand and stops the compute threads
    m_rollouts = nullptr;
}

void Engine::start()
{
    qCInfo(lcEngine) << "engine starting in thread" << QThread::currentThread()->objectName();
    m_machine->start(m_options.gpuUuids); // the stored GPU history goes out ahead of the first snapshot
    m_state->snapshot().gpuTelemetryNote = m_machine->gpuNote();
    m_schedule->start();

    auto identity = Identity::loadOrCreate(QDir(m_options.dataDir).filePath(QStringLiteral("identity")));
    if (!identity) {
        failFatally(identity.error());
        return;
    }
    m_identity = std::make_unique<Identity>(std::move(identity).value());
    m_state->snapshot().nodeId = m_identity->nodeId();
    Q_EMIT eventOccurred(EngineEvent::info(
        EventCategory::Lifecycle,
        m_identity->wasCreated()
            ? QStringLiteral("Created node identity %1 (key %2)").arg(m_identity->nodeId(), m_identity->fingerprint())
            : QStringLiteral("Loaded node identity %1").arg(m_identity->nodeId())));

    restoreFromBundle(); // before anything runs: the pause and the work item in hand come back first
    m_compute = probeCompute();
    m_state->snapshot().computeDevice = m_compute.description;
    m_state->snapshot().computeDtype = m_compute.dtype;
    applyComputePlan();
    m_earnings->openCache();
    if (Status started = m_hubSession->start(*m_identity); !started)
        failFatally(started.error());
}

void Engine::failFatally(const QString &message)
{
    qCCritical(lcEngine) << message;
    m_state->inputs().fatalError = message;
    m_state->snapshot().lastError = message;
    Q_EMIT eventOccurred(EngineEvent::error(EventCategory::Lifecycle, message));
    updateState();
}

void Engine::stop()
{
    if (m_state->inputs().stopping)
        return;
    m_state->inputs().stopping = true; // the parts' host reads it too (node/PartsHost)
    m_machine->stop();
    m_hubSession->stop();
    m_earnings->stop();
    m_activitySummary.flush();
    m_rollouts->stop(); // the batch in progress stops; its work item is in the bundle, finished batches in the outbox
    m_diloco->shutdown(5'000); // checkpoints its state and leaves the ring (a collective in flight may hold it longer)
    m_resume->write("quit");
    m_checkpoints->pause(); // progress on disk; the next start resumes
    updateState();
    m_state->publish();
    m_hubSession->farewell([this] { Q_EMIT stopped(); });
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
        qCInfo(lcEngine) << "payout address now" << payout::redacted(options.payoutAddress)
                         << "(sent with the next heartbeat)";
    }
    if (!(options.scheduler == m_options.scheduler))
        setSchedulerPolicy(options.scheduler);
    if (options.gpuUuids != m_options.gpuUuids || options.gpuMemoryPercent != m_options.gpuMemoryPercent ||
        options.gpuMemoryPercentPerGpu != m_options.gpuMemoryPercentPerGpu) {
        m_options.gpuUuids = options.gpuUuids;
        m_options.gpuMemoryPercent = options.gpuMemoryPercent;
        m_options.gpuMemoryPercentPerGpu = options.gpuMemoryPercentPerGpu;
        applyComputePlan(); // the next batch of each worker is sized by its share; GPUs come and go without a restart
        m_machine->setEnergyGpus(m_options.gpuUuids); // the energy counts the chosen GPUs
    }
}

void Engine::applyComputePlan()
{
    m_rollouts->plan(m_compute.cudaUuids, m_state->snapshot().gpus, m_options.gpuUuids, m_options.gpuMemoryPercent,
                     m_options.gpuMemoryPercentPerGpu);
    // The engine bundle needs no new write: a removed worker's work item and pause stay with the fleet.
    m_state->snapshot().computeDeviceId = m_rollouts->workers().value(0).device;
    m_state->markDirty();
}

void Engine::setGpuPaused(const QString &gpuUuid, bool paused)
{
    if (!m_rollouts->setGpuPaused(gpuUuid, paused)) {
        Q_EMIT eventOccurred(EngineEvent::warning(EventCategory::Compute,
                                                  QStringLiteral("No compute worker runs on GPU %1").arg(gpuUuid)));
        return;
    }
    m_resume->writeSoon(); // survives a restart, like the node's pause
    updateState();
}

void Engine::connectMachineMonitor()
{
    connect(m_machine, &MachineMonitor::eventOccurred, this, &Engine::eventOccurred);
    connect(m_machine, &MachineMonitor::historyLoaded, this, &Engine::gpuHistoryLoaded);
    connect(m_machine, &MachineMonitor::sampled, this, [this] {
        m_state->snapshot().system = m_machine->system();
        m_state->snapshot().gpus = m_machine->gpus();
        m_schedule->update(); // marks the snapshot dirty
        applyGpusInUse();     // a worker whose GPU another program uses waits; the node works on with the others
    });
    connect(m_machine, &MachineMonitor::energyChanged, this, [this] {
        m_state->snapshot().energy = m_machine->energy();
        m_state->markDirty();
    });
}

void Engine::updateState()
{
    m_diloco->update(); // every input that can start or stop the training loop passes through here
    m_state->updateState();
}

} // namespace cohort
