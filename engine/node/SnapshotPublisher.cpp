#include "node/SnapshotPublisher.h"

#include "core/Logging.h"
#include "node/CheckpointTracker.h"
#include "node/DilocoSession.h"
#include "node/HubSession.h"
#include "node/RolloutFleet.h"
#include "node/ScheduleGate.h"
#include "node/TaskMembership.h"

namespace cohort {

SnapshotPublisher::SnapshotPublisher(Sources sources, QObject *parent)
    : QObject(parent),
      m_sources(sources),
      m_publishTimer(this) // parented so that moveToThread() takes it along to the engine thread
{
    m_publishTimer.setSingleShot(true);
    connect(&m_publishTimer, &QTimer::timeout, this, &SnapshotPublisher::publish);
}

void SnapshotPublisher::updateState()
{
    const HubSession &hub = *m_sources.hub;
    const ScheduleGate &schedule = *m_sources.schedule;
    m_inputs.hubLink = hub.link();
    m_inputs.hubError = hub.linkError();
    m_inputs.retryInSeconds = hub.secondsUntilRetry();
    m_inputs.pauseReasons = schedule.pauseReasons();
    m_inputs.throttleReasons = schedule.throttleReasons();
    m_inputs.foregroundUse = schedule.foregroundUse();
    // Working while the RL loop has work in hand (asking, generating, submitting), not only during generation,
    // so the state does not flicker to Idle between batches.
    m_inputs.working = m_sources.rollouts->atWork() || m_sources.diloco->atWork();
    // A newer version fetched while a batch is in hand is a background update: the node is still Working (the
    // dashboard's Model row shows the download). Downloading is the state only when the node waits for it.
    StateInputs inputs = m_inputs;
    inputs.downloading = m_inputs.downloading && !m_inputs.working;
    const ResolvedState resolved = resolveState(inputs);
    if (resolved.state != m_snapshot.state || !m_snapshot.stateSince.isValid()) {
        if (m_snapshot.stateSince.isValid())
            qCInfo(lcEngine) << "state" << nodeStateName(m_snapshot.state) << "->" << nodeStateName(resolved.state)
                             << resolved.why;
        m_snapshot.stateSince = QDateTime::currentDateTimeUtc();
    }
    m_snapshot.state = resolved.state;
    m_snapshot.reason = resolved.reason;
    m_snapshot.why = resolved.why;
    m_snapshot.pauseReasons.clear();
    // Most actionable first, the order resolveState() uses.
    QList<PauseReason> remaining = m_inputs.pauseReasons;
    while (!remaining.isEmpty()) {
        const PauseReason top = primaryReason(remaining);
        m_snapshot.pauseReasons.append(top);
        remaining.removeAll(top);
    }
    markDirty();
}

void SnapshotPublisher::refreshActivity()
{
    const TaskInfo *task = m_sources.tasks->joinedTask();
    const CheckpointTracker &checkpoints = *m_sources.checkpoints;
    if (!task)
        m_inputs.activityDetail.clear();
    else if (const QString download = checkpoints.downloadActivity(*task);
             !download.isEmpty() && !m_sources.rollouts->busy())
        m_inputs.activityDetail = download; // unless it runs behind the rollouts in hand
    else if (task->rl)
        m_inputs.activityDetail = m_sources.rollouts->activity(*task);
    else if (task->diloco)
        m_inputs.activityDetail = m_sources.diloco->activity(*task);
    else
        m_inputs.activityDetail = checkpoints.activity(*task);
}

void SnapshotPublisher::markDirty()
{
    if (m_publishTimer.isActive())
        return;
    const qint64 elapsed = m_sinceLastPublish.isValid() ? m_sinceLastPublish.elapsed() : kMinPublishIntervalMs;
    m_publishTimer.start(int(qMax<qint64>(0, kMinPublishIntervalMs - elapsed)));
}

void SnapshotPublisher::publish()
{
    m_publishTimer.stop();
    const HubSession &hub = *m_sources.hub;
    if (hub.retryScheduled() && hub.link() == HubLink::Lost) {
        // Keep the "retrying in N s" countdown honest.
        const int seconds = hub.secondsUntilRetry();
        if (seconds != m_inputs.retryInSeconds) {
            m_inputs.retryInSeconds = seconds;
            m_snapshot.why = resolveState(m_inputs).why;
        }
    }
    const RolloutFleet &rollouts = *m_sources.rollouts;
    m_snapshot.rollouts = rollouts.stats();
    m_snapshot.computeWorkers = rollouts.workers();
    m_snapshot.gpuMemoryBudgetBytes = rollouts.memoryBudgetBytes();
    m_snapshot.checkpointVersion = m_sources.checkpoints->version();
    m_snapshot.download = m_sources.checkpoints->progress();
    m_snapshot.diloco = m_sources.diloco->status();
    m_snapshot.schedule = m_sources.schedule->status();
    const HubSession::State &state = hub.state();
    m_snapshot.hubKeyFingerprint = state.hubKeyFingerprint;
    m_snapshot.registeredAt = state.registeredAt;
    m_snapshot.lastHeartbeatAt = state.lastHeartbeatAt;
    m_snapshot.heartbeatFailures = state.heartbeatFailures;
    m_snapshot.tasks = state.tasks;
    m_snapshot.progress = state.progress;
    m_snapshot.contribution = state.contribution;
    m_snapshot.update = state.update;
    ++m_snapshot.sequence;
    m_snapshot.takenAt = QDateTime::currentDateTimeUtc();
    m_sinceLastPublish.start();
    Q_EMIT published(m_snapshot);
}

} // namespace cohort
