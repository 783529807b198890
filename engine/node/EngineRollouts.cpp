// The engine's wiring of its PRIME-RL work loops (node/RolloutFleet, a node/RolloutLoop per compute device): what
// their signals change in the engine's state (what they may do, node/PartsHost says); and of the node's earnings
// (node/EarningsFeed), fetched after accepted batches.
#include "node/Engine.h"

namespace cohort {

void Engine::connectRolloutLoop()
{
    RolloutFleet *loop = m_rollouts;
    connect(loop, &RolloutFleet::eventOccurred, this, &Engine::eventOccurred);
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
    connect(m_earnings, &EarningsFeed::eventOccurred, this, &Engine::eventOccurred);
    connect(m_earnings, &EarningsFeed::earningsReady, this, &Engine::earningsReady);
}

} // namespace cohort
