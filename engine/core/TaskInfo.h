#pragma once
// A task from the hub's catalogue, validated strictly because it arrives over the network.
#include "core/DilocoTaskConfig.h"
#include "core/Expected.h"
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

// How a list read from somewhere else treats a task of a kind this version has no work loop for.
enum class UnknownKinds {
    Refuse, // a hub's own catalogue: it must not offer what it cannot coordinate
    Keep,   // a node reading a hub's list: a newer hub's task is listed (as one this version cannot run), not fatal
};

struct TaskInfo {
    QString id;   // [a-z0-9][a-z0-9-]{0,63}
    QString kind; // "rl" (PRIME-RL rollouts), "diloco" (collective training), or one from a newer hub
    QString title;
    QString description;
    TaskRequirements requirements;
    double rewardRate = 0; // credits per 1,000 verified tokens (rl) or per verified inner step (diloco)
    QString rewardUnit;
    std::optional<RlTaskConfig> rl;         // kind "rl": how rollouts are made and trained (required for that kind)
    std::optional<DilocoTaskConfig> diloco; // kind "diloco": how the collective training runs

    QJsonObject toJson() const;
    // Keep: a task of an unknown kind keeps its common fields; its kind's own section is not read.
    static Expected<TaskInfo> fromJson(const QJsonObject &object, UnknownKinds unknownKinds = UnknownKinds::Refuse);
    static bool isValidId(const QString &id);
    static bool isKnownKind(const QString &kind); // this version has a work loop for it (node) and coordinates it (hub)
    bool isRunnableKind() const { return isKnownKind(kind); }
    bool operator==(const TaskInfo &other) const = default;
};

// Parses {"tasks": [...]} as served by GET /v1/tasks and shipped in resources.
Expected<QList<TaskInfo>> parseTaskList(const QJsonObject &object, UnknownKinds unknownKinds = UnknownKinds::Refuse);

} // namespace cohort

Q_DECLARE_METATYPE(cohort::TaskInfo)
