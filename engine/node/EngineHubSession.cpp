// The engine as host of its hub session (node/HubSession): what each heartbeat reports, what the session's answers
// change in the engine's state, and the task catalogue it brings (the wished-for task, the automatic choice).
#include "core/TaskFit.h"
#include "node/Engine.h"

namespace cohort {

void Engine::connectHubSession()
{
    HubSession *hub = m_hubSession;
    connect(hub, &HubSession::eventOccurred, this, &Engine::emitEvent);
    connect(hub, &HubSession::linkChanged, this, &Engine::updateState);
    connect(hub, &HubSession::changed, this, &Engine::markDirty);
    connect(hub, &HubSession::errorNoted, this, [this](const QString &error) { m_snapshot.lastError = error; });
    connect(hub, &HubSession::registered, this, [this] {
        m_earnings->fetch();
        m_rollouts->kick(); // batches left in the outbox by an earlier run or an outage go first
    });
    connect(hub, &HubSession::tasksArrived, this, &Engine::onTasksArrived);
    connect(hub, &HubSession::checkpointAnnounced, m_checkpoints, &CheckpointTracker::check);
    connect(hub, &HubSession::failed, this, &Engine::failFatally);
    connect(hub, &HubSession::refused, this, [this](const QString &why) {
        m_rollouts->cancel();   // the batch being generated stops; its work item stays in the bundle
        m_checkpoints->pause(); // progress stays on disk
        m_inputs.downloading = false;
        failFatally(why);
    });
}

QJsonObject Engine::heartbeatBody() const
{
    const SystemSample &s = m_snapshot.system;
    return QJsonObject{
        {QStringLiteral("state"), nodeStateName(m_snapshot.state)},
        {QStringLiteral("reason"), m_snapshot.reason == PauseReason::None ? QString() : pauseReasonName(m_snapshot.reason)},
        {QStringLiteral("why"), m_snapshot.why.left(500)},
        {QStringLiteral("joined_task"), m_snapshot.joinedTaskId},
        // Every heartbeat carries it, so a change in the settings reaches the hub within one interval, and a hub
        // that lost it (restored from a backup) has it again.
        {QStringLiteral("payout_address"), m_options.payoutAddress},
        // So that a hub whose operator raised the minimum version while this node runs can refuse it (426).
        {QStringLiteral("client_version"), QStringLiteral(COHORT_VERSION_STRING)},
        {QStringLiteral("metrics"),
         QJsonObject{{QStringLiteral("cpu_percent"), s.cpuPercent},
                     {QStringLiteral("mem_used_bytes"), s.memUsedBytes},
                     {QStringLiteral("process_rss_bytes"), s.processRssBytes}}},
    };
}

void Engine::onTasksArrived()
{
    if (!m_options.taskId.isEmpty() && m_snapshot.joinedTaskId != m_options.taskId)
        joinTask(m_options.taskId); // says why when it cannot
    applyAutomaticTaskChoice();
    if (m_options.taskId.isEmpty() && m_snapshot.joinedTaskId.isEmpty()) {
        // Idle by choice, not by fault: say what could be joined, where a person reading the log looks.
        QStringList ids;
        for (const TaskInfo &t : m_hubSession->state().tasks)
            ids.append(t.id);
        emitEvent(EngineEvent::info(QStringLiteral("task"),
                                    QStringLiteral("No task joined; this hub offers %1 (join one on the Tasks page, or cohortd --task ID or --task auto)")
                                        .arg(ids.isEmpty() ? QStringLiteral("none") : ids.join(QStringLiteral(", ")))));
    }
    markDirty();
}

void Engine::chooseTaskAutomatically()
{
    m_options.chooseTaskAutomatically = true;
    applyAutomaticTaskChoice();
}

void Engine::applyAutomaticTaskChoice()
{
    const QList<TaskInfo> &tasks = m_hubSession->state().tasks;
    if (!m_options.chooseTaskAutomatically || tasks.isEmpty())
        return; // not asked, or the catalogue has not arrived yet: onTasksArrived calls again
    m_options.chooseTaskAutomatically = false; // once: a task left later stays left
    if (!m_options.taskId.isEmpty() || !m_snapshot.joinedTaskId.isEmpty())
        return; // the user's (or the last run's) choice wins
    QString whyNone;
    const QString choice = automaticTaskChoice(tasks, m_snapshot, &whyNone);
    if (choice.isEmpty()) {
        emitEvent(EngineEvent::warning(QStringLiteral("task"),
                                       QStringLiteral("No task of this hub can run on this computer (%1)").arg(whyNone)));
        return;
    }
    emitEvent(EngineEvent::info(QStringLiteral("task"),
                                QStringLiteral("Chose task %1: the first of the hub's tasks this computer can run").arg(choice)));
    joinTask(choice);
}

} // namespace cohort
