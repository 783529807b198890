// The engine's wiring of its checkpoint tracker (node/CheckpointTracker): the state says what it does (Downloading,
// with bytes, rate and time left; DiskFull when it must); and the activity line under the state.
#include "node/Engine.h"

namespace cohort {

void Engine::connectCheckpointTracker()
{
    connect(m_checkpoints, &CheckpointTracker::eventOccurred, this, &Engine::eventOccurred);
    connect(m_checkpoints, &CheckpointTracker::progressChanged, this, [this] {
        m_state->inputs().downloading = m_checkpoints->progress().active();
        m_state->refreshActivity();
        updateState();
    });
    connect(m_checkpoints, &CheckpointTracker::ready, this, [this] {
        m_state->inputs().downloading = false;
        m_state->refreshActivity();
        updateState();
        m_rollouts->kick();
    });
    connect(m_checkpoints, &CheckpointTracker::failed, this, [this](const QString &error) {
        m_state->inputs().downloading = false;
        m_state->snapshot().lastError = error;
        m_state->refreshActivity();
        m_schedule->update();
        updateState();
    });
}

} // namespace cohort
