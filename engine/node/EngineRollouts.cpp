// The engine as host of its PRIME-RL work loop (node/RolloutLoop): what the loop may do, what its signals change in
// the engine's state; and the node's earnings (fetched after accepted batches, cached in SQLite).
#include "core/Logging.h"
#include "net/HubClient.h"
#include "node/Engine.h"
#include "store/EarningsStore.h"

namespace cohort {

namespace {
constexpr int kEarningsRefreshMs = 60'000;

} // namespace

void Engine::connectRolloutLoop()
{
    RolloutLoop *loop = m_rollouts;
    connect(loop, &RolloutLoop::eventOccurred, this, &Engine::emitEvent);
    connect(loop, &RolloutLoop::changed, this, [this] {
        refreshActivityDetail();
        updateState();
    });
    connect(loop, &RolloutLoop::noteChanged, this, [this](const QString &note) {
        m_inputs.activityDetail = note;
        markDirty();
    });
    connect(loop, &RolloutLoop::policyNeeded, m_checkpoints, &CheckpointTracker::check);
    connect(loop, &RolloutLoop::workInHandChanged, this, &Engine::writeBundle);
    connect(loop, &RolloutLoop::hubUnreachable, this, &Engine::connectionLost);
    connect(loop, &RolloutLoop::batchAccepted, this, [this](qint64 tokens, double reward, double credit) {
        m_activitySummary.batchAccepted(tokens, reward, credit);
        fetchEarnings();
    });
    connect(loop, &RolloutLoop::batchRejected, this, [this] { m_activitySummary.batchRejected(); });
    connect(loop, &RolloutLoop::batchSaved, this, &Engine::onBatchSaved);
    connect(loop, &RolloutLoop::generationEnded, this, &Engine::onGenerationEnded);
    m_earningsTimer.setInterval(kEarningsRefreshMs);
    connect(&m_earningsTimer, &QTimer::timeout, this, &Engine::fetchEarnings);
}

const TaskInfo *Engine::joinedTask() const
{
    for (const TaskInfo &t : m_snapshot.tasks)
        if (t.id == m_snapshot.joinedTaskId)
            return &t;
    return nullptr;
}

bool Engine::rolloutsMayRun() const
{
    const TaskInfo *task = joinedTask();
    return !m_stopping && task && task->rl && m_hub && m_inputs.hubLink == HubLink::Online && m_inputs.pauseReasons.isEmpty();
}

void Engine::onGenerationEnded()
{
    if (!m_pauseClock.isValid())
        return;
    m_snapshot.schedule.lastPauseLatencyMs = int(m_pauseClock.elapsed());
    m_pauseClock.invalidate();
    qCInfo(lcEngine) << "compute stopped" << m_snapshot.schedule.lastPauseLatencyMs << "ms after the pause";
}

void Engine::onBatchSaved()
{
    if (m_pauseAfterStepPending) { // the batch is safe in the outbox: this is the safe point the user asked for
        m_pauseAfterStepPending = false;
        pause();
    }
}

void Engine::fetchEarnings()
{
    if (m_stopping || !m_hub || m_inputs.hubLink != HubLink::Online || m_snapshot.nodeId.isEmpty())
        return;
    if (!m_earningsTimer.isActive())
        m_earningsTimer.start();
    m_hub->get(QStringLiteral("/v1/nodes/%1/earnings").arg(m_snapshot.nodeId), [this](const HubReply &reply) {
        if (m_stopping || !reply.ok())
            return;
        auto report = EarningsReport::fromJson(reply.body);
        if (!report) {
            qCWarning(lcEngine) << "earnings: the hub's report is malformed:" << report.error();
            return;
        }
        onEarnings(*report, false);
    });
}

void Engine::openEarningsCache()
{
    // Earnings of different hubs never mix: the embedded network is one ledger, a remote hub is keyed by its URL.
    m_earningsHub = m_hubEmbedded ? QStringLiteral("embedded") : m_hubUrl;
    auto store = EarningsStore::open(EarningsStore::defaultPath(m_options.dataDir));
    if (!store) {
        emitEvent(EngineEvent::warning(QStringLiteral("earnings"), QStringLiteral("Earnings history is not kept: %1").arg(store.error())));
        return;
    }
    m_earningsStore = std::move(store).value();
    auto cached = m_earningsStore->load(m_earningsHub, m_snapshot.nodeId);
    if (!cached)
        emitEvent(EngineEvent::warning(QStringLiteral("earnings"), cached.error()));
    else if (cached->has_value())
        Q_EMIT earningsReady(**cached, true);
}

void Engine::onEarnings(const EarningsReport &report, bool fromCache)
{
    if (!fromCache && m_earningsStore) {
        if (Status saved = m_earningsStore->save(m_earningsHub, report); !saved)
            qCWarning(lcEngine) << "earnings: not cached:" << saved.error();
    }
    Q_EMIT earningsReady(report, fromCache);
}

} // namespace cohort
