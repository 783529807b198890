// The engine as host of its checkpoint tracker (node/CheckpointTracker): the state says what it does (Downloading,
// with bytes, rate and time left; DiskFull when it must); and the activity line under the state.
#include "node/Engine.h"
#include "node/StatusLine.h"

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
        applySchedule();
        updateState();
    });
}

bool Engine::checkpointsMayFetch() const
{
    return !m_stopping && m_inputs.hubLink == HubLink::Online;
}

void Engine::refreshActivityDetail()
{
    const TaskInfo *task = nullptr;
    for (const TaskInfo &t : m_snapshot.tasks)
        if (t.id == m_snapshot.joinedTaskId)
            task = &t;
    if (!task) {
        m_inputs.activityDetail.clear();
        return;
    }
    const DownloadProgress &d = m_checkpoints->progress();
    const bool rolloutsInHand = m_rollouts->busy(); // the download runs behind them
    if (d.active() && d.taskId == task->id && !rolloutsInHand) {
        QString text = tr("%1 v%2, %3 of %4").arg(task->id).arg(d.version).arg(humanBytes(d.doneBytes), humanBytes(d.totalBytes));
        if (d.bytesPerSecond > 0)
            text += tr(" at %1/s").arg(humanBytes(qint64(d.bytesPerSecond)));
        if (d.etaSeconds >= 0)
            text += tr(", %1 s left").arg(d.etaSeconds);
        m_inputs.activityDetail = text;
        return;
    }
    if (task->rl) {
        m_inputs.activityDetail = m_rollouts->activity(*task);
        return;
    }
    if (task->diloco) {
        m_inputs.activityDetail = m_diloco->activity(*task);
        return;
    }
    QString text = tr("Joined \"%1\"").arg(task->title);
    if (const int version = m_checkpoints->version(); version > 0)
        text += tr("; checkpoint v%1 ready").arg(version);
    else if (d.phase == DownloadProgress::Phase::Failed && d.taskId == task->id)
        text += tr("; checkpoint download failed, retrying later");
    m_inputs.activityDetail = text + tr("; this version cannot run %1 work yet").arg(task->kind);
}

} // namespace cohort
