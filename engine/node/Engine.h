#pragma once
// The contributor engine. Lives in the "cohort-engine" thread; everything here is event-driven
// (QtNetwork, timers) and never blocks. It never runs a model itself: model work goes to the compute threads.
// Its work is done by parts it owns (the machine monitor, the hub session, the task membership, the schedule gate, the
// checkpoint tracker, the rollout fleet (a loop per compute device), the DiLoCo session, the earnings feed, the resume
// bundle). A part that only reads its siblings holds them (the schedule gate, the snapshot publisher); the others ask
// through their host interfaces, which node/PartsHost answers from the siblings, the engine's rules and the node's
// identity. Each part says what happened through signals, which the engine's connectXxx() functions wire to each
// other and to the state.
// The snapshot publisher (node/SnapshotPublisher) gathers the parts' readings into the state and the snapshot; the
// engine keeps the lifecycle (start, stop, live options) and the wiring.
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
#include "node/PartsHost.h"
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

class Engine : public EngineBackend {
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
    void applyComputePlan();  // a worker per GPU the options allow, each with its memory share (core/ComputePlan)
    void restoreFromBundle(); // the task, the user's pause and snooze, the work in hand (EngineResume.cpp)
    void enterPause();        // stops the work in hand at a safe point (EngineSchedule.cpp)
    void applyGpusInUse();    // the GPUs other programs use (the gate's reading) to the workers on them
    // What each part's signals change in the others and in the state, one function per part (Engine<Part>.cpp).
    void connectTaskMembership();
    void connectHubSession();
    void connectScheduleGate();
    void connectCheckpointTracker();
    void connectRolloutLoop(); // and the earnings feed, fetched after accepted batches
    void connectDilocoSession();
    void connectMachineMonitor(); // its readings into the snapshot, and to the gate and the workers (Engine.cpp)
    void updateState();           // the DiLoCo session first (it starts and stops on the same inputs), then the state

    EngineOptions m_options;
    QString m_hubUrl;
    bool m_hubEmbedded;
    std::unique_ptr<Identity> m_identity;
    ComputeInfo m_compute;

    PartsHost m_host; // answers what the parts ask (node/PartsHost)
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
