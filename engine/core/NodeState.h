#pragma once
// The node's overall state, the reasons it may be paused, and the one place that decides which wins.
// The enums are Q_ENUM_NS: their wire names ("idle", "on-battery") come from the enumerators (core/EnumNames.h).
#include <QList>
#include <QObject>
#include <QString>
#include <optional>

namespace cohort {

// A namespace of its own for moc (only one header may declare cohort itself with Q_NAMESPACE); the enums are used
// as cohort::NodeState and so on.
namespace states {
Q_NAMESPACE

enum class NodeState {
    Starting,    // loading identity and settings
    Connecting,  // registering with the hub for the first time
    Idle,        // registered, nothing to do
    Working,     // generating rollouts / training
    Downloading, // fetching a checkpoint
    Syncing,     // collective operation in progress
    Throttled,   // working at reduced rate (reason says why)
    Paused,      // not working (reason says why)
    Offline,     // hub unreachable after having tried; retrying
    Error,       // cannot continue without the user's help
    Stopping,    // shutting down cleanly
};
Q_ENUM_NS(NodeState)

enum class PauseReason {
    None,
    User,            // the user pressed Pause
    Snoozed,         // "pause for an hour"
    NotIdle,         // the computer is in use
    OutsideSchedule, // outside the allowed hours
    OnBattery,
    TooHot, // GPU/CPU temperature above the user's limit
    PowerCap,
    DiskFull,
    ForegroundApp, // a full-screen program, a program on the user's list, or another program on the GPU
};
Q_ENUM_NS(PauseReason)

enum class HubLink { NotStarted, Connecting, Online, Lost };
Q_ENUM_NS(HubLink)
} // namespace states
using states::HubLink;
using states::NodeState;
using states::PauseReason;

QString nodeStateName(NodeState state);      // stable, lower-case: "idle", "paused", ... (JSON, icons)
QString nodeStateTitle(NodeState state);     // for people: "Idle", "Paused", ...
QString pauseReasonName(PauseReason reason); // stable, lower-case: "user", "on-battery", ...
QString pauseReasonText(PauseReason reason); // for people: "paused by you", "on battery power", ...
NodeState nodeStateFromName(const QString &name, bool *ok = nullptr);

// What another program is doing that makes Cohort step aside (PauseReason::ForegroundApp), and which program.
struct ForegroundUse {
    enum class Kind { FullScreen, NamedProgram, GpuUser };
    Kind kind = Kind::FullScreen;
    QString program; // the executable or window class; empty when the source cannot name it
    bool operator==(const ForegroundUse &) const = default;
};
QString
foregroundUseText(const ForegroundUse &use); // one sentence for people: "Another program uses the GPU (blender)"

// Everything the state depends on. The engine fills it; resolveState() applies the precedence.
struct StateInputs {
    bool stopping = false;
    QString fatalError; // non-empty: Error
    HubLink hubLink = HubLink::NotStarted;
    QString hubError;       // last network error, shown while Offline
    int retryInSeconds = 0; // next reconnect attempt while Offline
    QList<PauseReason> pauseReasons;
    QList<PauseReason> throttleReasons;
    std::optional<ForegroundUse> foregroundUse; // which program ForegroundApp is about (the `why` names it)
    bool downloading = false;
    bool syncing = false;
    bool working = false;
    QString activityDetail; // e.g. "task arith-rl, step 12" or why the node is idle
};

struct ResolvedState {
    NodeState state = NodeState::Starting;
    PauseReason reason = PauseReason::None; // the reason shown for Paused / Throttled
    QString why;                            // one sentence for the tray tooltip, dashboard and cohortd
};

// Precedence (highest first):
//   Stopping > Error > Starting > Offline > Paused > Connecting > Throttled > Downloading > Syncing > Working > Idle
// Of several pause reasons the most actionable wins: User > DiskFull > TooHot > PowerCap > OnBattery >
// ForegroundApp > OutsideSchedule > NotIdle > Snoozed.
ResolvedState resolveState(const StateInputs &inputs);
PauseReason primaryReason(const QList<PauseReason> &reasons);

} // namespace cohort
