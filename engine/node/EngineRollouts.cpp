// The engine as host of its PRIME-RL work loops (node/RolloutFleet, a node/RolloutLoop per compute device): what the
// loops may do, what their signals change in the engine's state; and of the node's earnings (node/EarningsFeed),
// fetched after accepted batches.
#include "node/Engine.h"

namespace cohort {

void Engine::connectRolloutLoop()
{
    RolloutFleet *loop = m_rollouts;
    connect(loop, &RolloutFleet::eventOccurred, this, &Engine::emitEvent);
    connect(loop, &RolloutFleet::changed, this, [this] {
        m_state->refreshActivity();
        updateState();
    });
    connect(loop, &RolloutFleet::noteChanged, this, [this](const QString &note) {
        m_state->inputs().activityDetail = note;
        m_state->markDirty();
    });
    connect(loop, &RolloutFleet::policyNeeded, m_checkpoints, &CheckpointTracker::check);
    connect(loop, &RolloutFleet::workInHandChanged, m_resume, &ResumeBundle::write);
    connect(loop, &RolloutFleet::hubUnreachable, m_hubSession, &HubSession::connectionLost);
    connect(loop, &RolloutFleet::batchAccepted, this, [this](qint64 tokens, double reward, double credit) {
        m_activitySummary.batchAccepted(tokens, reward, credit);
        m_earnings->fetch();
    });
    connect(loop, &RolloutFleet::batchRejected, this, [this] { m_activitySummary.batchRejected(); });
    connect(m_earnings, &EarningsFeed::eventOccurred, this, &Engine::emitEvent);
    connect(m_earnings, &EarningsFeed::earningsReady, this, &Engine::earningsReady);
}

bool Engine::rolloutsMayRun() const
{
    const TaskInfo *task = joinedTask();
    // "Pause after this step": no new batch starts; the pause comes once every worker's batch is in the outbox.
    return !m_stopping && task && task->rl && hub() && m_hubSession->online() && !m_schedule->paused() &&
           !m_schedule->status().pauseAfterStep;
}

} // namespace cohort
