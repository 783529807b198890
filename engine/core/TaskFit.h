#pragma once
// Whether this machine can run a task, and what it would earn: the Tasks page's "This computer" column. Pure: it
// reads the task's requirements and the engine snapshot (cores, memory, GPUs, the measured rollout speed).
// Estimates come only from measurements: the speed of the task being worked on, scaled by the ratio of the two
// policies' compute per token (2 x parameters). Without a measurement there is no number, and it says so.
#include "core/EngineSnapshot.h"
#include "core/TaskInfo.h"

#include <QString>
#include <QStringList>
#include <optional>

namespace cohort {

struct TaskFit {
    bool canRun = true;
    QStringList reasons; // why not, for people ("needs a GPU", "needs 8 GB of memory, this computer has 4")
    std::optional<double> tokensPerSecond; // expected, from measured speed
    std::optional<double> creditsPerHour;
    QString summary() const; // "Fits: about 1.3 credits/h" / "Cannot run: needs a GPU"
};

TaskFit assessTask(const TaskInfo &task, const EngineSnapshot &snapshot);

// The task a node that was asked to choose joins: the first of the catalogue (the operator's order) that this
// computer can run. Empty when none can, with each task's reasons in *whyNone ("arith-rl: needs 8 GB of memory, …").
QString automaticTaskChoice(const QList<TaskInfo> &tasks, const EngineSnapshot &snapshot, QString *whyNone = nullptr);

// Compute per generated token of an RL task's policy (2 x parameters, embeddings and head included), for scaling.
double flopsPerToken(const RlModelShape &model);

} // namespace cohort
