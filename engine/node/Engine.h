#pragma once
// The contributor engine. Lives in the "cohort-engine" thread; everything here is event-driven
// (QtNetwork, timers) and never blocks. It never runs a model itself: model work goes to the compute threads.
// Its work is done by parts it owns and hosts (the machine monitor, the hub session, the task membership, the schedule
// gate, the checkpoint tracker, the rollout fleet (a loop per compute device), the DiLoCo session, the earnings feed,
// the resume bundle): each asks the engine through its host interface, which the engine implements privately, and says
// what happened through signals, which the engine's connectXxx() functions wire to each other and to the state.
// The snapshot publisher (node/SnapshotPublisher) gathers the parts' readings into the state and the snapshot; the
// engine keeps the lifecycle (start, stop, live options) and the rules that join the parts.
#include "api/EngineController.h"
#include "api/EngineParts.h"
#include "core/EarningsReport.h"
#include "core/EngineEvent.h"
#include "core/EngineSnapshot.h"
#include "node/ActivitySummary.h"
#include "node/CheckpointTracker.h"
#include "node/DilocoSession.h"
#include "node/EarningsFeed.h"
#include "node/HardwareInventory.h"
#include "node/HubSession.h"
#include "node/MachineMonitor.h"
#include "node/ResumeBundle.h"
#include "node/RolloutFleet.h"
#include "node/ScheduleGate.h"
#include "node/SnapshotPublisher.h"
#include "node/TaskMembership.h"

#include <QObject>
#include <memory>

namespace cohort {

class RateLimiter;
class Identity;

class Engine : public EngineBackend,
               private RolloutHost,
               private DilocoHost,
               private CheckpointHost,
               private HubSessionHost,
               private ScheduleHost,
               private EarningsHost,
               private ResumeHost,
               private TaskMembershipHost {
    Q_OBJECT
public:
    Engine(EngineOptions options, QString hubUrl, bool hubEmbedded, QObject *parent = nullptr);
    ~Engine() override;

public Q_SLOTS:
    void start() override;
    void pause() override { m_schedule->pause(); }
    void resume() override { m_schedule->resume(); } // also ends a snooze and a pending pause-after-step
    void snooze(int seconds) override { m_schedule->snooze(seconds); } // until now + seconds (0 ends the snooze)
    void pauseAfterStep() override { m_schedule->pauseAfterStep(); }   // when the batch in hand is in the outbox
    void setGpuPaused(const QString &gpuUuid, bool paused) override;   // that GPU's worker alone
    void setSchedulerPolicy(const cohort::SchedulerPolicy &policy);
    // The options a running engine applies without a restart: the scheduler, the upload cap (at once, also to a
    // collective in flight), the payout address (sent with the next heartbeat), the GPUs and their memory shares
    // (a worker per chosen GPU: started, kept or stopped).
    void applyLiveOptions(const cohort::EngineOptions &options) override;
    void joinTask(const QString &taskId) override { m_tasks->join(taskId); }
    // Joins the first task of the catalogue this computer can run, now or when the catalogue arrives, unless a
    // task is joined or wished for already.
    void chooseTaskAutomatically() override { m_tasks->chooseAutomatically(); }
    void leaveTask() override { m_tasks->leave(); }
    void stop() override; // final heartbeat (best effort, bounded), then stopped()
    void failFatally(const QString &message) override;

private:
    void applyComputePlan(); // a worker per GPU the options allow, each with its memory share (core/ComputePlan)

    // The task membership (node/TaskMembership) as this engine hosts it: the work for a task starts and stops with it
    // (EngineTasks.cpp)
    const QList<TaskInfo> &catalogue() const override { return m_hubSession->state().tasks; }
    const EngineSnapshot &machine() const override { return m_state->snapshot(); } // also the hub session's heartbeats
    void connectTaskMembership();

    // The hub session (node/HubSession) as this engine hosts it, and the task catalogue it brings
    // (EngineHubSession.cpp)
    bool failed() const override { return !m_state->inputs().fatalError.isEmpty(); }
    QJsonObject hardware() const override
    {
        return hardwareInventory(m_compute, m_state->snapshot().system.memTotalBytes, m_state->snapshot().gpus);
    }
    QString payoutAddress() const override { return m_options.payoutAddress; }
    QString joinedTaskId() const override { return m_tasks->joined(); }
    void connectHubSession();

    // The schedule gate (node/ScheduleGate) as this engine hosts it (EngineSchedule.cpp)
    QList<GpuSample> gpuReadings() const override { return m_state->snapshot().gpus; }
    Expected<QList<GpuProcess>> gpuProcesses() override { return m_machine->gpuProcesses(); }
    bool diskFull() const override { return m_checkpoints->diskFull(); }
    bool generating() const override { return m_rollouts->generating(); }
    qint64 generatingForMs() const override { return m_rollouts->generatingForMs(); }
    double tokensPerSecond() const override { return m_rollouts->stats().tokensPerSecond; }
    QList<int> workerGpuIndexes() const override { return m_rollouts->gpuIndexes(m_state->snapshot().gpus); }
    void applyGpusInUse(); // the GPUs other programs use (the gate's reading) to the workers on them
    void connectScheduleGate();
    void enterPause(); // stops the work in hand at a safe point

    // The joined task's checkpoints (node/CheckpointTracker) as this engine hosts them (EngineCheckpoints.cpp)
    bool checkpointsMayFetch() const override;
    bool downloadsPaused() const override { return m_schedule->paused(); }
    void connectCheckpointTracker();

    // The PRIME-RL work loop (node/RolloutLoop) and the earnings feed (node/EarningsFeed) as this engine hosts
    // them (EngineRollouts.cpp)
    HubClient *hub() const override { return m_hubSession->client(); }
    const TaskInfo *joinedTask() const override { return m_tasks->joinedTask(); }
    bool rolloutsMayRun() const override;
    int policyVersion() const override { return m_checkpoints->version(); }
    QString policyPath() const override { return m_checkpoints->modelPath(); }
    double dutyCycle() const override { return m_schedule->status().dutyCycle; }
    bool earningsMayFetch() const override { return m_hubSession->online(); }
    void connectRolloutLoop();

    // Engine checkpoints (node/ResumeBundle) as this engine hosts them (EngineResume.cpp)
    ResumeState resumeState() const override;
    void restoreFromBundle();

    // DiLoCo training (node/DilocoSession) as this engine hosts it (EngineDiloco.cpp)
    bool dilocoMayRun() const override;
    QString nodeId() const override { return m_state->snapshot().nodeId; }
    QByteArray nodeSecretKey() const override;
    QString computeDevice() const override { return m_rollouts->primaryDevice(); }
    void connectDilocoSession();

    void connectMachineMonitor(); // its readings into the snapshot, and to the gate and the workers (Engine.cpp)
    void updateState();           // the DiLoCo session first (it starts and stops on the same inputs), then the state
    void emitEvent(EngineEvent event);

    EngineOptions m_options;
    QString m_hubUrl;
    bool m_hubEmbedded;
    std::unique_ptr<Identity> m_identity;
    ComputeInfo m_compute;

    bool m_stopping = false;
    // The parts: children, made in the constructor (they move to the engine thread with the engine).
    MachineMonitor *m_machine = nullptr;
    HubSession *m_hubSession = nullptr;
    TaskMembership *m_tasks = nullptr;
    ScheduleGate *m_schedule = nullptr;
    CheckpointTracker *m_checkpoints = nullptr;
    RolloutFleet *m_rollouts; // a rollout loop per compute device
    EarningsFeed *m_earnings = nullptr;
    ResumeBundle *m_resume = nullptr;
    DilocoSession *m_diloco = nullptr;
    SnapshotPublisher *m_state = nullptr;         // the state and the snapshot, gathered from the parts above
    ActivitySummary m_activitySummary;            // accepted batches, said once a minute
    std::shared_ptr<RateLimiter> m_uploadLimiter; // the upload cap; shared with the DiLoCo thread's communicator
};

} // namespace cohort
