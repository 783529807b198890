#include "node/RolloutCommons.h"

namespace cohort {

std::optional<OutboxEntry> RolloutCommons::claimWaiting(const QString &taskId)
{
    for (const OutboxEntry &entry : m_outbox.entries(taskId)) {
        if (m_claimed.contains(entry.submissionId))
            continue;
        m_claimed.insert(entry.submissionId);
        return entry;
    }
    return std::nullopt;
}

Status RolloutCommons::putClaimed(const OutboxEntry &entry)
{
    m_claimed.insert(entry.submissionId); // claimed even when the write fails: the loop submits it from memory
    return m_outbox.put(entry);
}

void RolloutCommons::release(const QString &submissionId)
{
    m_claimed.remove(submissionId);
}

Status RolloutCommons::removeAnswered(const QString &submissionId)
{
    m_claimed.remove(submissionId);
    return m_outbox.remove(submissionId);
}

void RolloutCommons::adoptWork(const RolloutWorkItem &work)
{
    for (const RolloutWorkItem &w : m_spare)
        if (w.workId == work.workId && w.taskId == work.taskId)
            return;
    m_spare.append(work);
}

std::optional<RolloutWorkItem> RolloutCommons::takeWork(const QString &taskId)
{
    for (qsizetype i = 0; i < m_spare.size(); ++i)
        if (m_spare[i].taskId == taskId)
            return m_spare.takeAt(i);
    return std::nullopt;
}

} // namespace cohort
