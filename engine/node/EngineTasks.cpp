// The engine's wiring of its task membership (node/TaskMembership): the work for a task starts when it is joined and
// stops when it is left; the engine bundle keeps the choice for the next start.
#include "node/Engine.h"

namespace cohort {

void Engine::connectTaskMembership()
{
    connect(m_tasks, &TaskMembership::eventOccurred, this, &Engine::eventOccurred);
    connect(m_tasks, &TaskMembership::taskJoined, this, [this](const QString &taskId) {
        m_rollouts->taskJoined(taskId); // work for another task is of no use now
        m_state->snapshot().joinedTaskId = taskId;
        m_checkpoints->taskJoined();
        m_state->refreshActivity();
        m_resume->writeSoon(); // the next start joins it again
        updateState();
        if (m_hubSession->online()) {
            m_hubSession->heartbeat();
            m_checkpoints->check(-1);
            m_rollouts->kick();
        }
    });
    connect(m_tasks, &TaskMembership::taskLeft, this, [this] {
        m_activitySummary.flush(); // the left task's last accepted batches are said under its name
        m_state->snapshot().joinedTaskId.clear();
        m_checkpoints->taskLeft();
        m_resume->writeSoon(); // and the next start does not join it again
        m_rollouts->taskLeft();
        m_state->inputs().downloading = false;
        m_state->inputs().activityDetail.clear();
        updateState();
    });
}

} // namespace cohort
