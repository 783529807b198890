#pragma once
// How engine values read to people: sizes, percentages, moments, task requirements.
// Kept apart from the widgets so every page (and the tray) words things the same way.
#include "core/EngineSnapshot.h"

#include <QDateTime>
#include <QString>

namespace cohort::display {

QString bytes(qint64 bytes);                     // "7.8 GiB"
QString cpuUsage(const SystemSample &sample);    // "23% of 2 cores", or "measuring…" before the second sample
QString memoryUsage(const SystemSample &sample); // "3.1 GiB of 7.8 GiB (40%)"
QString moment(const QDateTime &time, const QDateTime &now = QDateTime::currentDateTime()); // "14:03:12", "never"
QString hubDescription(const EngineSnapshot &snapshot);
QString taskKind(const QString &kind);      // "RL rollouts", "DiLoCo training"
QString taskKindShort(const QString &kind); // "RL", "DiLoCo"
QString taskReward(const TaskInfo &task);   // "1.5 credits / 1k tokens"
QString taskRequirements(const TaskRequirements &requirements);
QString
taskRequirementsBrief(const TaskRequirements &requirements); // for a table cell: "2+ cores · 4 GiB RAM · GPU 8 GiB"
QString taskTitle(const QList<TaskInfo> &tasks, const QString &taskId); // "none" for an empty id

} // namespace cohort::display
