// The engine as host of its engine checkpoints (node/ResumeBundle): what it is in the middle of, and what comes back
// at start (the task, the user's pause and snooze, the work item in hand).
#include "node/Engine.h"

namespace cohort {

ResumeState Engine::resumeState() const
{
    return {m_tasks->wished(),          m_checkpoints->version(),  m_schedule->userPaused(),
            m_schedule->snoozedUntil(), m_rollouts->worksInHand(), m_rollouts->pausedGpus()};
}

void Engine::restoreFromBundle()
{
    const std::optional<ResumeState> resumed = m_resume->restore(!m_tasks->wished().isEmpty());
    if (!resumed)
        return; // first start, or nothing valid: start afresh
    m_tasks->restoreWish(resumed->taskId);
    m_schedule->restore(resumed->userPaused, resumed->snoozedUntil);
    m_rollouts->restoreWork(resumed->work);             // the first loops to ask for work finish these
    m_rollouts->restorePausedGpus(resumed->pausedGpus); // applied as the workers start
    if (m_schedule->userPaused() || m_schedule->snoozedUntil().isValid()) {
        emitEvent(
            EngineEvent::info(QStringLiteral("lifecycle"), QStringLiteral("Still paused, as before Cohort stopped")));
        m_schedule->update();
    }
}

} // namespace cohort
