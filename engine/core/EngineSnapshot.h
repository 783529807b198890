#pragma once
// Everything the UI, the tray and cohortd show, as one plain copyable value.
// The engine publishes it at most ~4 times a second; all three views read the same fields, so they agree on *why*.
#include "core/ClientRelease.h"
#include "core/DownloadProgress.h"
#include "core/EnergyUse.h"
#include "core/NodeState.h"
#include "core/TaskInfo.h"
#include "core/TaskProgress.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QStringList>
#include <optional>

namespace cohort {

struct SystemSample {
    double cpuPercent = -1;  // whole machine, 0..100; -1 until two samples exist
    qint64 memUsedBytes = 0; // whole machine
    qint64 memTotalBytes = 0;
    qint64 processRssBytes = 0; // this process
    int cpuCores = 0;
    bool operator==(const SystemSample &) const = default;
};

// One GPU's reading at one instant (NVML, 1 Hz). A value NVML could not give (not supported, an error, a function
// the installed driver lacks) is nullopt: shown as unknown, never as 0. `notes` says why, per value.
struct GpuSample {
    int index = 0; // NVML's device index
    QString name;
    QString uuid;                          // "GPU-…"; stable across reboots, keys the history
    std::optional<int> utilizationPercent; // SM busy, 0..100
    std::optional<int> memoryUtilizationPercent;
    std::optional<qint64> memoryUsedBytes;
    std::optional<qint64> memoryTotalBytes;
    std::optional<int> temperatureC;
    std::optional<double> powerW;
    std::optional<double> powerLimitW; // the enforced limit
    std::optional<int> smClockMHz;
    std::optional<int> memoryClockMHz;
    std::optional<int> fanPercent;
    QStringList notes; // "temperature: GPU is lost", ...
    bool operator==(const GpuSample &) const = default;
    QJsonObject toJson() const;
};

// What the scheduler's GPU limits read: the hottest GPU, and the power drawn by all of them (known values only).
std::optional<double> hottestGpuTemperatureC(const QList<GpuSample> &gpus);
std::optional<double> totalGpuPowerW(const QList<GpuSample> &gpus);

// The node's RL work (PRIME-RL rollouts) since this process started, plus the outbox that survives restarts.
struct RolloutStats {
    int batchesAccepted = 0;
    int batchesRejected = 0;
    int outboxBatches = 0; // written, not yet acknowledged by the hub
    qint64 tokensGenerated = 0;
    double tokensPerSecond = 0; // of the last batch
    double lastMeanReward = -1; // of the last batch, 0..1; -1 before the first
    int policyVersion = 0;      // version the last batch was generated with
    int hubStep = 0;            // the hub's latest version when work was last asked for
    QString lastRejection;
    bool operator==(const RolloutStats &) const = default;
};

// One compute worker (core/ComputePlan): a GPU the node lends, or the CPU, with its own rollout loop, memory share and
// pause (the user's, for that GPU alone).
struct ComputeWorkerStatus {
    QString gpuUuid; // empty: the CPU
    QString name;
    QString device;      // "cuda:1", "cpu"
    bool paused = false; // the user paused this GPU (the others keep working)
    QString inUseBy;     // another program uses this GPU, so its worker waits (Settings: pause while another
                         // program uses the GPU); empty: none
    bool generating = false;
    int memoryPercent = 0;        // the share of the GPU's memory generation may use; 0 on the CPU
    qint64 memoryBudgetBytes = 0; // that share in bytes; 0: not on a GPU, or its memory is unknown
    int batchesAccepted = 0;      // since the engine started
    qint64 tokensGenerated = 0;
    double tokensPerSecond = 0; // of its last batch
    bool operator==(const ComputeWorkerStatus &) const = default;
    QJsonObject toJson() const;
};

// The node's DiLoCo training (engine/diloco), when the joined task is one.
struct DilocoStatus {
    bool active = false;  // the training loop is running
    QString phase;        // connecting, syncing, training, averaging, stopped
    qint64 outerStep = 0; // completed outer steps of the task (shared-state revision)
    int innerStep = 0;
    int innerSteps = 0;         // H
    int peers = 0;              // ring members now (this node included)
    double loss = 0;            // last inner step's loss (nats per token)
    double outerLoss = 0;       // mean inner loss of the last outer step
    qint64 lastSyncBytes = 0;   // shared state received at the last sync (0 once in step with the others)
    qint64 lastReduceBytes = 0; // sent + received by the last all-reduce
    int outerStepsThisRun = 0;  // since the engine started
    bool resumed = false;       // started from a checkpoint bundle
    QString note;               // the last thing worth saying ("a peer left mid-average; retrying")
    bool operator==(const DilocoStatus &) const = default;
    QJsonObject toJson() const;
};

// What the scheduler decided and what pausing now would cost.
struct ScheduleStatus {
    QString mode = QStringLiteral("run"); // run, throttle, pause (runModeName)
    double dutyCycle = 1.0;
    QList<PauseReason> throttleReasons;
    QDateTime nextChange; // when a time-based reason ends by itself
    QDateTime snoozedUntil;
    bool pauseAfterStep = false; // "Pause after this step" is pending
    QString idleSource;          // empty: idle time unknown (no desktop session)
    int inputIdleSeconds = -1;
    int onBattery = -1;           // -1 unknown, 0 mains, 1 battery
    double workAtRiskSeconds = 0; // compute since the last safe point, lost if paused now
    qint64 workAtRiskTokens = 0;  // estimated from the recent generation rate
    int lastPauseLatencyMs = -1;  // pause requested -> compute stopped, for the last pause (-1: none yet)
    QJsonObject toJson() const;
};

struct EngineSnapshot {
    quint64 sequence = 0;
    QDateTime takenAt;

    NodeState state = NodeState::Starting;
    PauseReason reason = PauseReason::None;
    QList<PauseReason> pauseReasons; // all active reasons, most actionable first
    QString why;
    QDateTime stateSince;

    QString nodeId;
    QString nodeName;
    QString hubUrl;
    bool hubEmbedded = false;
    QString hubKeyFingerprint; // the hub key pinned at registration
    QDateTime registeredAt;
    QDateTime lastHeartbeatAt;
    int heartbeatFailures = 0;
    QString lastError;

    SystemSample system;
    QString computeDevice;                           // "CPU (LibTorch 1.13.1, 2 threads)"
    QString computeDeviceId = QStringLiteral("cpu"); // where models run: "cpu", "cuda:0"
    QString computeDtype = QStringLiteral("float32");
    // GPU memory generation may use on the compute GPU with the largest share (Settings → Compute, a percent of
    // each; core/MemoryBudget): a policy runs on one GPU, so this decides whether a task fits. 0: not on a GPU.
    qint64 gpuMemoryBudgetBytes = 0;
    // One per GPU the node lends (or the CPU). `rollouts` is the node's: these plus what workers removed since did.
    QList<ComputeWorkerStatus> computeWorkers;
    QList<GpuSample> gpus;    // NVML's GPUs, sampled once a second; empty without NVML
    QString gpuTelemetryNote; // why there are no (or only partial) GPU readings; empty when all is well
    // The GPUs' energy today and in the last 7 days, from the stored history, read by the engine once a minute
    // (GpuTelemetry::energy). nullopt: not read yet.
    std::optional<EnergyUse> energy;

    QList<TaskInfo> tasks;
    QString joinedTaskId;
    int checkpointVersion = 0; // newest verified ("stable") checkpoint of the joined task; 0: none
    DownloadProgress download; // the current or last checkpoint download
    RolloutStats rollouts;
    TaskProgress progress;         // the joined task's held-out curve, as the hub last reported it
    TaskContribution contribution; // this node's part in the joined task's accepted work (heartbeat reply)
    DilocoStatus diloco;
    ScheduleStatus schedule;
    UpdateNotice update; // the client versions the hub advertises, against this one (core/ClientRelease)

    bool userPaused() const { return pauseReasons.contains(PauseReason::User); }
    QJsonObject toJson() const;
};

} // namespace cohort

Q_DECLARE_METATYPE(cohort::EngineSnapshot)
