#pragma once
// The contributor engine. Lives in the "cohort-engine" thread; everything here is event-driven
// (QtNetwork, timers) and never blocks. It never runs a model itself: model work goes to the compute thread.
#include "core/EarningsReport.h"
#include "core/EngineEvent.h"
#include "core/EngineSnapshot.h"
#include "api/EngineController.h"
#include "node/ActivitySummary.h"
#include "api/EngineParts.h"
#include "node/HardwareInventory.h"
#include "node/CheckpointTracker.h"
#include "node/DilocoSession.h"
#include "node/RolloutLoop.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <memory>

namespace cohort {

class BundleStore;
class RateLimiter;
class DesktopIdle;
class ForegroundWatch;
class EarningsStore;
class GpuTelemetry;
class HubClient;
class RegistrationWorkSolver;
class Identity;
class SystemSampler;
struct HubReply;

class Engine : public EngineBackend, private RolloutHost, private DilocoHost, private CheckpointHost {
    Q_OBJECT
public:
    static constexpr int kMinPublishIntervalMs = 250; // snapshots at most 4 per second
    static constexpr int kMaxRetryDelayS = 60;

    Engine(EngineOptions options, QString hubUrl, bool hubEmbedded, QObject *parent = nullptr);
    ~Engine() override;

public Q_SLOTS:
    void start() override;
    void pause() override;
    void resume() override;                  // also ends a snooze and a pending pause-after-step
    void snooze(int seconds) override;       // pause until now + seconds (0 ends the snooze)
    void pauseAfterStep() override;          // pause at the next safe point: when the batch in hand is in the outbox
    void setSchedulerPolicy(const cohort::SchedulerPolicy &policy);
    // The options a running engine applies without a restart: the scheduler, the upload cap (at once, also to a
    // collective in flight) and the payout address (sent with the next heartbeat).
    void applyLiveOptions(const cohort::EngineOptions &options) override;
    void joinTask(const QString &taskId) override;
    // Joins the first task of the catalogue this computer can run, now or when the catalogue arrives, unless a
    // task is joined or wished for already.
    void chooseTaskAutomatically() override;
    void leaveTask() override;
    void stop() override; // final heartbeat (best effort, bounded), then stopped()
    void failFatally(const QString &message) override;

private:
    void applyGpuMemoryCap(); // the compute GPU's memory share (options) into the snapshot and LibTorch's allocator
    // Hub session (EngineHubSession.cpp)
    void registerWithHub();
    void solveRegistrationWork(const HubReply &reply);
    void onRegistered(const HubReply &reply);
    void fetchTasks();
    void fetchProgress(); // the joined task's held-out curve (TaskProgress), on a heartbeat, every 30 s at most
    void applyAutomaticTaskChoice(); // if one is pending and the catalogue is here
    void sendHeartbeat();
    void onHeartbeat(const HubReply &reply);
    void connectionLost(const QString &error);
    void scheduleReconnect();
    QJsonObject heartbeatBody() const;
    // The client versions the hub advertises ("client" of its answers; core/ClientRelease): into the snapshot, an
    // event once per newer version. False when this version is below the hub's minimum: the engine has stopped.
    bool takeClientRelease(const QJsonValue &client);
    void onUpgradeRequired(const HubReply &reply); // the hub refused this version (426 upgrade_required)
    void refuseToWork(const QString &why);         // Error with why; nothing that needs the hub runs again

    // Checkpoints (EngineCheckpoints.cpp)
    // The joined task's checkpoints (node/CheckpointTracker) as this engine hosts them (EngineCheckpoints.cpp)
    bool checkpointsMayFetch() const override;
    bool downloadsPaused() const override { return !m_inputs.pauseReasons.isEmpty(); }
    void connectCheckpointTracker();
    void refreshActivityDetail();

    // The PRIME-RL work loop (node/RolloutLoop) as this engine hosts it, and earnings (EngineRollouts.cpp)
    HubClient *hub() const override { return m_hub; }
    const TaskInfo *joinedTask() const override;
    bool rolloutsMayRun() const override;
    int policyVersion() const override { return m_checkpoints->version(); }
    QString policyPath() const override { return m_checkpoints->modelPath(); }
    double dutyCycle() const override { return m_snapshot.schedule.dutyCycle; }
    qint64 memoryBudgetBytes() const override { return m_snapshot.gpuMemoryBudgetBytes; }
    void connectRolloutLoop();
    void onGenerationEnded(); // the pause latency, when a pause cancelled the batch
    void onBatchSaved();      // the safe point "pause after this step" waits for
    void fetchEarnings();
    void openEarningsCache();
    void onEarnings(const EarningsReport &report, bool fromCache);

    // Scheduler (EngineSchedule.cpp): readings once a second -> Run / Throttle / Pause with one reason.
    void applySchedule();
    void enterPause();
    void leavePause();
    void updateWorkAtRisk();
    qint64 dataFolderBytes() const;

    // Engine checkpoints (EngineResume.cpp): the state in progress as an atomic bundle, restored at start.
    void writeBundle(const char *why);
    void writeBundleSoon(); // coalesces bursts (pause toggled 100 times) into one write within 250 ms
    void restoreFromBundle();

    // DiLoCo training (node/DilocoSession) as this engine hosts it (EngineDiloco.cpp)
    bool dilocoMayRun() const override;
    QString nodeId() const override { return m_snapshot.nodeId; }
    QByteArray nodeSecretKey() const override;
    QString computeDevice() const override { return m_compute.device; }
    void connectDilocoSession();

    void sampleSystem();
    void updateState();
    void markDirty();
    int secondsUntilRetry() const;
    void publish();
    void emitEvent(EngineEvent event);

    EngineOptions m_options;
    QString m_hubUrl;
    bool m_hubEmbedded;
    std::unique_ptr<Identity> m_identity;
    HubClient *m_hub = nullptr;
    // The proof of work a hub asked this identity to register with (net/RegistrationWork): solved once, sent with
    // every registration to that hub.
    RegistrationWorkSolver *m_registrationWork = nullptr;
    QByteArray m_registrationStamp;
    QString m_announcedVersion; // the newest version an "is available" event named (once per version, not per heartbeat)
    std::unique_ptr<SystemSampler> m_sampler;
    std::unique_ptr<GpuTelemetry> m_gpu;   // NVML readings, 1 Hz with m_sampler (GpuTelemetry.h)
    ComputeInfo m_compute;

    StateInputs m_inputs;
    EngineSnapshot m_snapshot;
    QTimer m_sampleTimer;
    QTimer m_heartbeatTimer;
    QTimer m_retryTimer;
    QTimer m_publishTimer;
    QElapsedTimer m_sinceLastPublish;
    QDateTime m_retryAt;
    int m_retryDelayS = 1;
    bool m_stopping = false;
    bool m_progressInFlight = false; // a progress request is out (fetchProgress)
    QElapsedTimer m_progressFetched; // since the last progress answer
    CheckpointTracker *m_checkpoints = nullptr; // a child, made in the constructor

    RolloutLoop *m_rollouts; // a child: moves to the engine thread with the engine
    QTimer m_earningsTimer;
    ActivitySummary m_activitySummary; // accepted batches, said once a minute
    std::unique_ptr<BundleStore> m_bundles; // <data>/bundles
    QTimer m_bundleTimer;
    Scheduler m_scheduler;
    std::unique_ptr<DesktopIdle> m_idle;   // null: no desktop session (idle time unknown)
    std::unique_ptr<ForegroundWatch> m_foreground; // "pause when I play": made at the first applySchedule()
    bool m_userPaused = false;
    bool m_pauseAfterStepPending = false;
    QDateTime m_snoozedUntil;
    bool m_scheduledPause = false;         // the scheduler's last decision was Pause
    QElapsedTimer m_pauseClock;            // since a pause cancelled the batch in hand (until the compute thread stops)
    qint64 m_dataBytes = -1;               // Cohort's data folder, measured every minute
    QElapsedTimer m_sinceDataMeasured;
    std::unique_ptr<EarningsStore> m_earningsStore; // <data>/cohort.sqlite; null if it cannot be opened
    QString m_earningsHub;                          // which ledger the cache entries belong to
    std::shared_ptr<RateLimiter> m_uploadLimiter;   // the upload cap; shared with the DiLoCo thread's communicator
    DilocoSession *m_diloco = nullptr;              // a child, made in the constructor
};

} // namespace cohort
