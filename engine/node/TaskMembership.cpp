#include "node/TaskMembership.h"

#include "core/TaskFit.h"

namespace cohort {

TaskMembership::TaskMembership(TaskMembershipHost &host, QString wished, bool chooseAutomatically, QObject *parent)
    : QObject(parent),
      m_host(host),
      m_wished(std::move(wished)),
      m_chooseAutomatically(chooseAutomatically)
{}

const TaskInfo *TaskMembership::find(const QString &taskId) const
{
    for (const TaskInfo &t : m_host.catalogue())
        if (t.id == taskId)
            return &t;
    return nullptr;
}

void TaskMembership::restoreWish(const QString &taskId)
{
    if (!taskId.isEmpty())
        m_wished = taskId;
}

void TaskMembership::join(const QString &taskId)
{
    const TaskInfo *task = find(taskId);
    if (!task) {
        // The catalogue may not be loaded yet: remember the wish, apply it when the tasks arrive.
        m_wished = taskId;
        if (!m_host.catalogue().isEmpty())
            Q_EMIT eventOccurred(
                EngineEvent::warning(EventCategory::Task, QStringLiteral("The hub offers no task '%1'").arg(taskId)));
        return;
    }
    if (!task->isRunnableKind()) {
        // A newer hub's kind: listed, but there is no work loop for it here. The wish is kept for a newer version.
        m_wished = taskId;
        Q_EMIT eventOccurred(EngineEvent::warning(
            EventCategory::Task,
            QStringLiteral("Task %1 is a %2 task, which this version of Cohort cannot run").arg(taskId, task->kind)));
        return;
    }
    if (m_joined == taskId)
        return;
    m_wished = taskId;
    m_joined = taskId;
    // Said first, so that what the engine's work for the task says (e.g. "DiLoCo training started") follows it.
    Q_EMIT eventOccurred(
        EngineEvent::info(EventCategory::Task, QStringLiteral("Joined task %1 (%2)").arg(taskId, task->title)));
    Q_EMIT taskJoined(taskId);
}

void TaskMembership::leave()
{
    if (m_joined.isEmpty())
        return;
    const QString taskId = std::exchange(m_joined, QString());
    m_wished.clear();
    Q_EMIT taskLeft(taskId);
    Q_EMIT eventOccurred(EngineEvent::info(EventCategory::Task, QStringLiteral("Left task %1").arg(taskId)));
}

void TaskMembership::chooseAutomatically()
{
    m_chooseAutomatically = true;
    applyAutomaticChoice();
}

void TaskMembership::catalogueArrived()
{
    if (!m_wished.isEmpty() && m_joined != m_wished)
        join(m_wished); // says why when it cannot
    applyAutomaticChoice();
    if (m_wished.isEmpty() && m_joined.isEmpty()) {
        // Idle by choice, not by fault: say what could be joined, where a person reading the log looks.
        QStringList ids;
        for (const TaskInfo &t : m_host.catalogue())
            ids.append(t.id);
        Q_EMIT eventOccurred(EngineEvent::info(
            EventCategory::Task,
            QStringLiteral(
                "No task joined; this hub offers %1 (join one on the Tasks page, or cohortd --task ID or --task auto)")
                .arg(ids.isEmpty() ? QStringLiteral("none") : ids.join(QStringLiteral(", ")))));
    }
}

void TaskMembership::applyAutomaticChoice()
{
    const QList<TaskInfo> &tasks = m_host.catalogue();
    if (!m_chooseAutomatically || tasks.isEmpty())
        return;                    // not asked, or the catalogue has not arrived yet: catalogueArrived calls again
    m_chooseAutomatically = false; // once: a task left later stays left
    if (!m_wished.isEmpty() || !m_joined.isEmpty())
        return; // the user's (or the last run's) choice wins
    QString whyNone;
    const QString choice = automaticTaskChoice(tasks, m_host.machine(), &whyNone);
    if (choice.isEmpty()) {
        Q_EMIT eventOccurred(EngineEvent::warning(
            EventCategory::Task, QStringLiteral("No task of this hub can run on this computer (%1)").arg(whyNone)));
        return;
    }
    Q_EMIT eventOccurred(EngineEvent::info(
        EventCategory::Task,
        QStringLiteral("Chose task %1: the first of the hub's tasks this computer can run").arg(choice)));
    join(choice);
}

} // namespace cohort
