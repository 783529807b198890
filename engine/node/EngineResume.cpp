// The engine's engine checkpoints (node/ResumeBundle) at start: what comes back (the task, the user's pause and
// snooze, the work item in hand) goes to the parts that keep it.
#include "node/Engine.h"

namespace cohort {

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
        Q_EMIT eventOccurred(
            EngineEvent::info(EventCategory::Lifecycle, QStringLiteral("Still paused, as before Cohort stopped")));
        m_schedule->update();
    }
}

} // namespace cohort
