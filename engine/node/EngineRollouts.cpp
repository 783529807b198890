// The engine as host of its PRIME-RL work loop (node/RolloutLoop): what the loop may do, what its signals change in
// the engine's state; and of the node's earnings (node/EarningsFeed), fetched after accepted batches.
#include "node/Engine.h"

namespace cohort {

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
    connect(loop, &RolloutLoop::workInHandChanged, m_resume, &ResumeBundle::write);
    connect(loop, &RolloutLoop::hubUnreachable, m_hubSession, &HubSession::connectionLost);
    connect(loop, &RolloutLoop::batchAccepted, this, [this](qint64 tokens, double reward, double credit) {
        m_activitySummary.batchAccepted(tokens, reward, credit);
        m_earnings->fetch();
    });
    connect(loop, &RolloutLoop::batchRejected, this, [this] { m_activitySummary.batchRejected(); });
    connect(m_earnings, &EarningsFeed::eventOccurred, this, &Engine::emitEvent);
    connect(m_earnings, &EarningsFeed::earningsReady, this, &Engine::earningsReady);
}

bool Engine::rolloutsMayRun() const
{
    const TaskInfo *task = joinedTask();
    return !m_stopping && task && task->rl && hub() && m_hubSession->online() && !m_schedule->paused();
}

} // namespace cohort
