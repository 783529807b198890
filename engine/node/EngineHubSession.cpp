// The engine's wiring of its hub session (node/HubSession): what the session's answers change in the engine's state;
// the catalogue it brings goes to the task membership.
#include "node/Engine.h"

namespace cohort {

void Engine::connectHubSession()
{
    HubSession *hub = m_hubSession;
    connect(hub, &HubSession::eventOccurred, this, &Engine::eventOccurred);
    connect(hub, &HubSession::linkChanged, this, &Engine::updateState);
    connect(hub, &HubSession::changed, m_state, &SnapshotPublisher::markDirty);
    connect(hub, &HubSession::errorNoted, this,
            [this](const QString &error) { m_state->snapshot().lastError = error; });
    connect(hub, &HubSession::registered, this, [this] {
        m_earnings->fetch();
        m_rollouts->kick(); // batches left in the outbox by an earlier run or an outage go first
    });
    connect(hub, &HubSession::tasksArrived, this, [this] {
        m_tasks->catalogueArrived();
        m_state->markDirty();
    });
    connect(hub, &HubSession::checkpointAnnounced, m_checkpoints, &CheckpointTracker::check);
    connect(hub, &HubSession::failed, this, &Engine::failFatally);
    connect(hub, &HubSession::refused, this, [this](const QString &why) {
        m_rollouts->cancel();   // the batch being generated stops; its work item stays in the bundle
        m_checkpoints->pause(); // progress stays on disk
        m_state->inputs().downloading = false;
        failFatally(why);
    });
}

} // namespace cohort
