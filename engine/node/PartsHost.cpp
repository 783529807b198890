#include "node/PartsHost.h"

#include "api/EngineController.h"
#include "net/Identity.h"
#include "node/HardwareInventory.h"
#include "node/RolloutFleet.h"
#include "node/ScheduleGate.h"
#include "node/SnapshotPublisher.h"

namespace cohort {

PartsHost::PartsHost(const EngineOptions &options, const ComputeInfo &compute,
                     const std::unique_ptr<Identity> &identity)
    : m_options(options),
      m_compute(compute),
      m_identity(identity)
{}

bool PartsHost::stopping() const
{
    return m_parts.state->inputs().stopping;
}

bool PartsHost::online() const
{
    return m_parts.hubSession->online();
}

bool PartsHost::checkpointsMayFetch() const
{
    return !stopping() && online();
}

bool PartsHost::rolloutsMayRun() const
{
    const TaskInfo *task = joinedTask();
    // "Pause after this step": no new batch starts; the pause comes once every worker's batch is in the outbox.
    return !stopping() && task && task->rl && hub() && online() && !m_parts.schedule->paused() &&
           !m_parts.schedule->status().pauseAfterStep;
}

bool PartsHost::dilocoMayRun() const
{
    // DiLoCo trains on the first worker's device: the user's pause of that GPU, or another program on it, stops it too.
    return !stopping() && hub() && online() && !m_parts.schedule->paused() && !m_parts.rollouts->primaryWaiting();
}

bool PartsHost::earningsMayFetch() const
{
    return online();
}

bool PartsHost::downloadsPaused() const
{
    return m_parts.schedule->paused();
}

HubClient *PartsHost::hub() const
{
    return m_parts.hubSession->client();
}

const TaskInfo *PartsHost::joinedTask() const
{
    return m_parts.tasks->joinedTask();
}

QString PartsHost::joinedTaskId() const
{
    return m_parts.tasks->joined();
}

const QList<TaskInfo> &PartsHost::catalogue() const
{
    return m_parts.hubSession->state().tasks;
}

int PartsHost::policyVersion() const
{
    return m_parts.checkpoints->version();
}

QString PartsHost::policyPath() const
{
    return m_parts.checkpoints->modelPath();
}

double PartsHost::dutyCycle() const
{
    return m_parts.schedule->status().dutyCycle;
}

QString PartsHost::computeDevice() const
{
    return m_parts.rollouts->primaryDevice();
}

QString PartsHost::nodeId() const
{
    return m_parts.state->snapshot().nodeId;
}

QByteArray PartsHost::nodeSecretKey() const
{
    return m_identity ? m_identity->secretKey() : QByteArray();
}

bool PartsHost::failed() const
{
    return !m_parts.state->inputs().fatalError.isEmpty();
}

QJsonObject PartsHost::hardware() const
{
    const EngineSnapshot &snapshot = m_parts.state->snapshot();
    return hardwareInventory(m_compute, snapshot.system.memTotalBytes, snapshot.gpus);
}

QString PartsHost::payoutAddress() const
{
    return m_options.payoutAddress;
}

const EngineSnapshot &PartsHost::machine() const
{
    return m_parts.state->snapshot();
}

ResumeState PartsHost::resumeState() const
{
    return {m_parts.tasks->wished(),          m_parts.checkpoints->version(),  m_parts.schedule->userPaused(),
            m_parts.schedule->snoozedUntil(), m_parts.rollouts->worksInHand(), m_parts.rollouts->pausedGpus()};
}

} // namespace cohort
