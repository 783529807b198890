#pragma once
// When the node may work, a part the Engine owns (engine thread): the user's choices (pause, snooze, pause after this
// step) and, on each update (once a second with the engine's readings, and at once on every choice), the clock, input
// idle time, power source, disk, GPU temperature and power and the programs in front, as the Scheduler weighs them:
// Run / Throttle / Pause with its reasons. Entering and leaving a pause it only announces; the engine stops its work
// at a safe point (generation is cancelled within a token, downloads keep every byte on disk, batches already in the
// outbox stay there) and says here when the work has stopped, for the pause latency.
#include "core/EngineEvent.h"
#include "core/EngineSnapshot.h"
#include "core/Expected.h"
#include "core/NodeState.h"
#include "core/Scheduler.h"
#include "platform/Nvml.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QObject>
#include <memory>
#include <optional>

namespace cohort {

class CheckpointTracker;
class DesktopIdle;
class ForegroundWatch;
class MachineMonitor;
class RolloutFleet;

class ScheduleGate : public QObject {
    Q_OBJECT
public:
    // The parts whose readings the gate weighs, read at each update, never cached: the machine's GPU samples and the
    // processes on the GPUs ("pause when I play"), whether the last checkpoint download ran out of disk, and the batch
    // being generated (how long, at what rate, on which GPUs). Sibling parts of the same engine: they outlive the
    // gate's updates.
    struct Sources {
        MachineMonitor *machine = nullptr;
        const CheckpointTracker *checkpoints = nullptr;
        const RolloutFleet *rollouts = nullptr;
    };
    ScheduleGate(Sources sources, QString dataDir, SchedulerPolicy policy, QObject *parent = nullptr);
    ~ScheduleGate() override;

    void start(); // the idle-time source if the policy asks for one, then the first decision
    void update();
    void setPolicy(const SchedulerPolicy &policy);

    void pause();
    void resume();            // also ends a snooze and a pending pause-after-step
    void snooze(int seconds); // pause until now + seconds (0 ends the snooze)
    void pauseAfterStep();    // pause at the next safe point: when the batch in hand is in the outbox
    void safePointReached();  // the batch in hand is in the outbox
    // The user's pause and snooze as the engine bundle kept them (no event, no decision: the engine's next).
    void restore(bool userPaused, const QDateTime &snoozedUntil);
    bool userPaused() const { return m_userPaused; }
    QDateTime snoozedUntil() const { return m_snoozedUntil; }

    // The pause latency: from the engine stopping its work (a pause cancelled it) until it says it stopped.
    void startPauseClock() { m_pauseClock.start(); }
    void pausedAtOnce() { m_status.lastPauseLatencyMs = 0; } // nothing was running
    void workStopped(const char *what);

    bool paused() const { return !m_pauseReasons.isEmpty(); }
    const QList<PauseReason> &pauseReasons() const { return m_pauseReasons; }
    const QList<PauseReason> &throttleReasons() const { return m_throttleReasons; }
    const std::optional<ForegroundUse> &foregroundUse() const { return m_foregroundUse; }
    // The worker GPUs another program uses while the node works on with the others (NVML index -> program): their
    // workers pause, not the node ("pause when another program uses the GPU" with a worker per GPU).
    QMap<int, QString> gpusInUse() const;
    const ScheduleStatus &status() const { return m_status; }

Q_SIGNALS:
    void eventOccurred(const cohort::EngineEvent &event);
    void pauseEntered();      // a pause reason holds now: stop the work in hand at a safe point
    void pauseLeft();         // none holds any more
    void reasonsChanged();    // the pause reasons or the program in front moved: the node's state follows
    void changed();           // status() moved
    void userChoiceChanged(); // the user's pause or snooze: it survives a restart (the engine bundle)

private:
    qint64 dataFolderBytes() const;
    void updateWorkAtRisk();

    Sources m_sources;
    QString m_dataDir;
    SchedulerPolicy m_policy;
    Scheduler m_scheduler;
    std::unique_ptr<DesktopIdle> m_idle;           // null: no desktop session (idle time unknown)
    std::unique_ptr<ForegroundWatch> m_foreground; // "pause when I play": made at the first update()
    bool m_userPaused = false;
    bool m_pauseAfterStepPending = false;
    QDateTime m_snoozedUntil;
    QElapsedTimer m_pauseClock; // since a pause cancelled the batch in hand (until the work stopped)
    qint64 m_dataBytes = -1;    // Cohort's data folder, measured every minute
    QElapsedTimer m_sinceDataMeasured;
    QList<PauseReason> m_pauseReasons; // the last decision's, with DiskFull when the downloads ran out of space
    QList<PauseReason> m_throttleReasons;
    std::optional<ForegroundUse> m_foregroundUse;
    ScheduleStatus m_status;
};

} // namespace cohort
