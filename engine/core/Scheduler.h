#pragma once
// The one place that decides whether the node runs, runs slower (throttled) or pauses, and why. Pure logic: the
// engine feeds it readings once a second (clock, input idle time, power source, GPU temperature and power, disk)
// and the user's choices; tests feed it tables. Stateful only where it must be: the temperature and power limits
// use hysteresis so a GPU hovering at its limit does not flap between running and paused.
#include "core/NodeState.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace cohort {

// An allowed period on some weekdays: [start, end) in minutes after local midnight. end <= start crosses
// midnight (22:00-06:00 on Friday runs into Saturday morning).
struct ScheduleWindow {
    int days = 0x7F; // bit 0 = Monday ... bit 6 = Sunday (Qt's dayOfWeek() - 1)
    int startMinute = 0;
    int endMinute = 24 * 60;
    bool operator==(const ScheduleWindow &) const = default;
    QString toText() const; // "mon-fri 22:00-06:00"
    static std::optional<ScheduleWindow> fromText(const QString &text, QString *error = nullptr);
};

struct SchedulerPolicy {
    bool runOnlyWhenIdle = false;
    int idleAfterSeconds = 300; // input idle this long counts as "not in use"
    bool pauseOnBattery = true;
    QList<ScheduleWindow> schedule; // empty: any time
    double gpuTempLimitC = 0;       // 0: no limit. At the limit: throttle; at limit + hardMargin: pause
    double gpuTempHysteresisC = 5;  // back one step only below limit - hysteresis
    double gpuTempHardMarginC = 8;
    double gpuPowerLimitW = 0;           // 0: no limit; same scheme, in watts (hysteresis 10%)
    qint64 diskCapBytes = 0;             // 0: no cap on Cohort's data folder
    qint64 minFreeDiskBytes = 1LL << 30; // keep at least this much free on the data disk
    QStringList gpus;                    // the GPUs the limits watch (GpuHistory::keyOf: UUID or "index-N"); empty: all
    // Step aside for the user's other programs ("pause when I play"): a full-screen window, a program on this list
    // (executable names), another process on the GPU. Work resumes once none has been seen for the hold time, so a
    // window that flickers in and out of full screen does not start and stop work every second.
    bool pauseWhenFullscreen = false;
    QStringList pauseForPrograms;
    bool pauseWhenGpuBusy = false;
    int foregroundHoldSeconds = 15;
    bool operator==(const SchedulerPolicy &) const = default;
};

struct SchedulerInputs {
    QDateTime now; // local time is what schedules mean
    bool userPaused = false;
    QDateTime snoozedUntil;              // invalid or past: not snoozed
    std::optional<int> inputIdleSeconds; // nullopt: unknown (no desktop) -> idle-only cannot hold the node back
    std::optional<bool> onBattery;       // nullopt: unknown / no battery
    std::optional<double> gpuTempC;      // hottest GPU
    std::optional<double> gpuPowerW;     // sum over the GPUs in use
    std::optional<qint64> dataBytes;     // Cohort's data folder
    std::optional<qint64> freeDiskBytes; // on the data folder's disk
    QList<ForegroundUse> foregroundUses; // what the sources see now, most telling first (unknown: none)
};

namespace scheduling { // for moc: the wire names come from the enumerators (core/EnumNames.h)
Q_NAMESPACE
enum class RunMode { Run, Throttle, Pause };
Q_ENUM_NS(RunMode)
} // namespace scheduling
using scheduling::RunMode;

struct SchedulerDecision {
    RunMode mode = RunMode::Run;
    QList<PauseReason> pauseReasons; // every reason that holds now, most actionable first
    QList<PauseReason> throttleReasons;
    double dutyCycle = 1.0;                     // share of wall time to compute while throttled (1 when running)
    QDateTime nextChange;                       // when a time-based reason ends by itself (snooze, schedule), if known
    std::optional<ForegroundUse> foregroundUse; // the program behind ForegroundApp (seen now, or held)
    PauseReason primary() const;                // the one reason shown (None when running)
};

QString runModeName(RunMode mode); // "run", "throttle", "pause"

class Scheduler {
public:
    static constexpr double kDutySteps[] = {1.0, 0.5, 0.25}; // throttle levels before pausing

    void setPolicy(const SchedulerPolicy &policy);
    const SchedulerPolicy &policy() const { return m_policy; }
    SchedulerDecision evaluate(const SchedulerInputs &inputs);

    // Whether `when` falls inside the schedule (always true for an empty one), and when that next changes.
    static bool inSchedule(const QList<ScheduleWindow> &schedule, const QDateTime &when,
                           QDateTime *nextChange = nullptr);

private:
    // One limit with hysteresis: level 0 = fine, 1..kDutySteps-1 = throttled, kDutySteps = paused.
    // A level moves one step at most every kDwellSeconds (the GPU needs time to respond to a lower duty cycle),
    // except straight to paused beyond the hard margin, and never up and down within the hysteresis band.
    struct LimitState {
        int level = 0;
        QDateTime changedAt;
    };
    static constexpr int kPausedLevel = 3;
    static constexpr int kDwellSeconds = 30;
    static void stepLimit(LimitState &state, const std::optional<double> &value, double limit, double hysteresis,
                          double hardMargin, const QDateTime &now);

    // The foreground rule's hold: the last program seen and when, kept for foregroundHoldSeconds after it is gone.
    std::optional<ForegroundUse> wantedForegroundUse(const QList<ForegroundUse> &uses) const;
    void stepForeground(const SchedulerInputs &in, SchedulerDecision &d);

    SchedulerPolicy m_policy;
    LimitState m_temp;
    LimitState m_power;
    std::optional<ForegroundUse> m_foreground;
    QDateTime m_foregroundSeen;
};

} // namespace cohort
