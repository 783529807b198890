// The engine as host of its hub session (node/HubSession): what each heartbeat reports, what the session's answers
// change in the engine's state; the catalogue it brings goes to the task membership.
#include "node/Engine.h"

namespace cohort {

void Engine::connectHubSession()
{
    HubSession *hub = m_hubSession;
    connect(hub, &HubSession::eventOccurred, this, &Engine::emitEvent);
    connect(hub, &HubSession::linkChanged, this, &Engine::updateState);
    connect(hub, &HubSession::changed, this, &Engine::markDirty);
    connect(hub, &HubSession::errorNoted, this, [this](const QString &error) { m_snapshot.lastError = error; });
    connect(hub, &HubSession::registered, this, [this] {
        m_earnings->fetch();
        m_rollouts->kick(); // batches left in the outbox by an earlier run or an outage go first
    });
    connect(hub, &HubSession::tasksArrived, this, [this] {
        m_tasks->catalogueArrived();
        markDirty();
    });
    connect(hub, &HubSession::checkpointAnnounced, m_checkpoints, &CheckpointTracker::check);
    connect(hub, &HubSession::failed, this, &Engine::failFatally);
    connect(hub, &HubSession::refused, this, [this](const QString &why) {
        m_rollouts->cancel();   // the batch being generated stops; its work item stays in the bundle
        m_checkpoints->pause(); // progress stays on disk
        m_inputs.downloading = false;
        failFatally(why);
    });
}

QJsonObject Engine::heartbeatBody() const
{
    const SystemSample &s = m_snapshot.system;
    return QJsonObject{
        {QStringLiteral("state"), nodeStateName(m_snapshot.state)},
        {QStringLiteral("reason"), m_snapshot.reason == PauseReason::None ? QString() : pauseReasonName(m_snapshot.reason)},
        {QStringLiteral("why"), m_snapshot.why.left(500)},
        {QStringLiteral("joined_task"), m_tasks->joined()},
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

} // namespace cohort
