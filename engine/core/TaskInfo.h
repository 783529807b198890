#pragma once
// A task from the hub's catalogue, validated strictly because it arrives over the network.
#include "core/Expected.h"
#include "core/DilocoTaskConfig.h"
#include "core/RlTaskConfig.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <optional>

namespace cohort {

struct TaskRequirements {
    int minCpuCores = 1;
    qint64 minRamMb = 0;
    bool gpuRequired = false;
    qint64 minVramMb = 0;
    qint64 diskMb = 0;
    bool operator==(const TaskRequirements &) const = default;
};

struct TaskInfo {
    QString id;          // [a-z0-9][a-z0-9-]{0,63}
    QString kind;        // "rl" (PRIME-RL rollouts) or "diloco" (collective training)
    QString title;
    QString description;
    TaskRequirements requirements;
    double rewardRate = 0; // credits per 1,000 verified tokens (rl) or per verified inner step (diloco)
    QString rewardUnit;
    std::optional<RlTaskConfig> rl; // kind "rl": how rollouts are made and trained (required for that kind)
    std::optional<DilocoTaskConfig> diloco; // kind "diloco": how the collective training runs

    QJsonObject toJson() const;
    static Expected<TaskInfo> fromJson(const QJsonObject &object);
    static bool isValidId(const QString &id);
    static bool isKnownKind(const QString &kind);
    bool operator==(const TaskInfo &other) const = default;
};

// Parses {"tasks": [...]} as served by GET /v1/tasks and shipped in resources.
Expected<QList<TaskInfo>> parseTaskList(const QJsonObject &object);

} // namespace cohort

Q_DECLARE_METATYPE(cohort::TaskInfo)
