// The engine as host of its checkpoint tracker (node/CheckpointTracker): the state says what it does (Downloading,
// with bytes, rate and time left; DiskFull when it must); and the activity line under the state.
#include "node/Engine.h"

namespace cohort {

void Engine::connectCheckpointTracker()
{
    connect(m_checkpoints, &CheckpointTracker::eventOccurred, this, &Engine::emitEvent);
    connect(m_checkpoints, &CheckpointTracker::progressChanged, this, [this] {
        m_inputs.downloading = m_checkpoints->progress().active();
        refreshActivityDetail();
        updateState();
    });
    connect(m_checkpoints, &CheckpointTracker::ready, this, [this] {
        m_inputs.downloading = false;
        refreshActivityDetail();
        updateState();
        m_rollouts->kick();
    });
    connect(m_checkpoints, &CheckpointTracker::failed, this, [this](const QString &error) {
        m_inputs.downloading = false;
        m_snapshot.lastError = error;
        refreshActivityDetail();
        m_schedule->update();
        updateState();
    });
}

bool Engine::checkpointsMayFetch() const
{
    return !m_stopping && m_hubSession->online();
}

void Engine::refreshActivityDetail()
{
    const TaskInfo *task = joinedTask();
    if (!task)
        m_inputs.activityDetail.clear();
    else if (const QString download = m_checkpoints->downloadActivity(*task);
             !download.isEmpty() && !m_rollouts->busy())
        m_inputs.activityDetail = download; // unless it runs behind the rollouts in hand
    else if (task->rl)
        m_inputs.activityDetail = m_rollouts->activity(*task);
    else if (task->diloco)
        m_inputs.activityDetail = m_diloco->activity(*task);
    else
        m_inputs.activityDetail = m_checkpoints->activity(*task);
}

} // namespace cohort
