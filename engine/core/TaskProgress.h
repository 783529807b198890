#pragma once
// What the network is achieving on the joined task, as the hub reports it (GET /v1/tasks/{id}/progress, "held_out"):
// each evaluated version's score on problems no contributor trained on (rl/WorkSampling.h), and what "better" means.
// The views draw it; the engine fetches it. The parser is strict: the reply comes from the network.
#include "core/Expected.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

namespace cohort {

struct HeldOutPoint {
    int version = 0;
    double greedyCorrectness = 0; // what "better" is measured by
    double greedyFormat = 0;
    double greedyReward = 0;
    double sampledCorrectness = 0; // at the task's temperature
    double sampledReward = 0;
    bool operator==(const HeldOutPoint &) const = default;
};

// A DiLoCo task's shared model at one recorded revision (outer step), on text no node trains on
// (diloco/DilocoReplay.h).
struct HeldOutLossPoint {
    qint64 revision = 0;
    double loss = 0; // nats per byte token
    bool operator==(const HeldOutLossPoint &) const = default;
};

struct TaskProgress {
    QString taskId;
    int problems = 0;            // held-out problems each version is scored on
    QString better;              // the hub's one sentence on what "better" means for the task
    QList<HeldOutPoint> heldOut; // by version, ascending
    // DiLoCo tasks ("held_out_loss"): the hub's measure of the shared model per revision, and what "better" means.
    int lossSequences = 0;
    QString lossBetter;
    QList<HeldOutLossPoint> heldOutLoss; // by revision, ascending
    bool operator==(const TaskProgress &) const = default;
    QJsonObject toJson() const;
};

// The node's own part in the joined task's accepted work (the hub's heartbeat reply, "contribution"): no other
// node is named, only how many contribute and where this one stands.
struct TaskContribution {
    QString taskId;
    qint64 acceptedBatches = 0;
    double share = 0; // of all accepted batches of the task, 0..1
    int rank = 0;     // 1: the most accepted batches; 0: none yet
    int contributors = 0;
    bool operator==(const TaskContribution &) const = default;
    QJsonObject toJson() const;
};

inline constexpr int kMaxHeldOutPoints = 2048;

// The "contribution" object of a heartbeat reply. An empty object (a DiLoCo task, an older hub) is no contribution;
// a share outside [0, 1], a rank above the contributors, negative counts or another task are refused.
Expected<TaskContribution> parseTaskContribution(const QJsonObject &contribution, const QString &joinedTaskId);

// The "held_out" object of a progress reply for `taskId`. Refuses (with the reason) a missing or malformed object,
// values outside [0, 1] or not finite, versions not strictly ascending or below 1, more than kMaxHeldOutPoints
// points, a "better" text over 400 characters. A reply without "held_out" (a DiLoCo task, an older hub) is an
// empty progress, not an error. A "held_out_loss" object (a DiLoCo task) is held to the same rules: revisions strictly
// ascending, losses finite in [0, 100], at most kMaxHeldOutPoints points, "better" at most 400 characters.
Expected<TaskProgress> parseTaskProgress(const QJsonObject &reply, const QString &taskId);

} // namespace cohort

Q_DECLARE_METATYPE(cohort::TaskProgress)
