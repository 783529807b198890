#include "node/RolloutCommons.h"

#include "core/TaskInfo.h"

#include <QJsonArray>

namespace cohort {

namespace {
QJsonObject workToJson(const RolloutWorkItem &work)
{
    return QJsonObject{{QStringLiteral("task"), work.taskId},
                       {QStringLiteral("work_id"), work.workId},
                       {QStringLiteral("step"), work.step},
                       {QStringLiteral("min_version"), work.minVersion},
                       {QStringLiteral("seed"), QString::number(work.seed)},
                       {QStringLiteral("sampling_seed"), QString::number(work.samplingSeed)}};
}

std::optional<RolloutWorkItem> workFromJson(const QJsonObject &work)
{
    bool seedOk = false, samplingOk = false;
    RolloutWorkItem w;
    w.taskId = work.value(QStringLiteral("task")).toString();
    w.workId = work.value(QStringLiteral("work_id")).toString();
    w.step = work.value(QStringLiteral("step")).toInt();
    w.minVersion = work.value(QStringLiteral("min_version")).toInt();
    w.seed = work.value(QStringLiteral("seed")).toString().toULongLong(&seedOk);
    w.samplingSeed = work.value(QStringLiteral("sampling_seed")).toString().toULongLong(&samplingOk);
    if (work.isEmpty() || !seedOk || !samplingOk || w.workId.isEmpty() || w.workId.size() > 64 || w.step <= 0 ||
        !TaskInfo::isValidId(w.taskId))
        return std::nullopt;
    return w;
}
} // namespace

void writeWorkState(QJsonObject &state, const QList<RolloutWorkItem> &work, const QStringList &pausedGpus)
{
    if (!work.isEmpty())
        state.insert(QStringLiteral("work"), workToJson(work.first()));
    QJsonArray more;
    for (qsizetype i = 1; i < work.size(); ++i)
        more.append(workToJson(work[i]));
    if (!more.isEmpty())
        state.insert(QStringLiteral("more_work"), more);
    if (!pausedGpus.isEmpty())
        state.insert(QStringLiteral("paused_gpus"), QJsonArray::fromStringList(pausedGpus));
}

QList<RolloutWorkItem> workFromState(const QJsonObject &state)
{
    QList<QJsonObject> items;
    if (state.contains(QStringLiteral("work")))
        items.append(state.value(QStringLiteral("work")).toObject());
    for (const QJsonValue &v : state.value(QStringLiteral("more_work")).toArray()) {
        if (items.size() >= kMaxBundledWork)
            break;
        items.append(v.toObject());
    }
    QList<RolloutWorkItem> work;
    for (const QJsonObject &item : items)
        if (const std::optional<RolloutWorkItem> w = workFromJson(item))
            work.append(*w);
    return work;
}

QStringList pausedGpusFromState(const QJsonObject &state)
{
    QStringList gpus;
    for (const QJsonValue &v : state.value(QStringLiteral("paused_gpus")).toArray()) {
        const QString uuid = v.toString();
        if (gpus.size() < kMaxBundledPausedGpus && !uuid.isEmpty() && uuid.size() <= 128 && !gpus.contains(uuid))
            gpus.append(uuid);
    }
    return gpus;
}

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
    if (m_spare.size() >= kMaxBundledWork)
        m_spare.removeFirst(); // the oldest would expire at the hub before any loop got to it
    m_spare.append(work);
}

void RolloutCommons::keepWorkOf(const QString &taskId)
{
    m_spare.removeIf([&taskId](const RolloutWorkItem &w) { return w.taskId != taskId; });
}

std::optional<RolloutWorkItem> RolloutCommons::takeWork(const QString &taskId)
{
    for (qsizetype i = 0; i < m_spare.size(); ++i)
        if (m_spare[i].taskId == taskId)
            return m_spare.takeAt(i);
    return std::nullopt;
}

} // namespace cohort
