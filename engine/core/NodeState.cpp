#include "core/NodeState.h"

#include "core/EnumNames.h"

#include <QCoreApplication>

#include <algorithm>
#include <array>

namespace cohort {

namespace {
struct StateTitle {
    NodeState state;
    const char *title;
};
constexpr std::array kTitles{
    StateTitle{NodeState::Starting, QT_TRANSLATE_NOOP("NodeState", "Starting")},
    StateTitle{NodeState::Connecting, QT_TRANSLATE_NOOP("NodeState", "Connecting")},
    StateTitle{NodeState::Idle, QT_TRANSLATE_NOOP("NodeState", "Idle")},
    StateTitle{NodeState::Working, QT_TRANSLATE_NOOP("NodeState", "Working")},
    StateTitle{NodeState::Downloading, QT_TRANSLATE_NOOP("NodeState", "Downloading")},
    StateTitle{NodeState::Syncing, QT_TRANSLATE_NOOP("NodeState", "Syncing")},
    StateTitle{NodeState::Throttled, QT_TRANSLATE_NOOP("NodeState", "Throttled")},
    StateTitle{NodeState::Paused, QT_TRANSLATE_NOOP("NodeState", "Paused")},
    StateTitle{NodeState::Offline, QT_TRANSLATE_NOOP("NodeState", "Offline")},
    StateTitle{NodeState::Error, QT_TRANSLATE_NOOP("NodeState", "Error")},
    StateTitle{NodeState::Stopping, QT_TRANSLATE_NOOP("NodeState", "Stopping")},
};

struct ReasonText {
    PauseReason reason;
    const char *text;
};
// Ordered by priority: the first present reason is the one shown.
constexpr std::array kReasons{
    ReasonText{PauseReason::User, QT_TRANSLATE_NOOP("NodeState", "paused by you")},
    ReasonText{PauseReason::DiskFull, QT_TRANSLATE_NOOP("NodeState", "the disk is almost full")},
    ReasonText{PauseReason::TooHot, QT_TRANSLATE_NOOP("NodeState", "the GPU is above your temperature limit")},
    ReasonText{PauseReason::PowerCap, QT_TRANSLATE_NOOP("NodeState", "the power limit is reached")},
    ReasonText{PauseReason::OnBattery, QT_TRANSLATE_NOOP("NodeState", "the computer is on battery power")},
    ReasonText{PauseReason::ForegroundApp, QT_TRANSLATE_NOOP("NodeState", "another program needs the computer")},
    ReasonText{PauseReason::OutsideSchedule, QT_TRANSLATE_NOOP("NodeState", "outside your schedule")},
    ReasonText{PauseReason::NotIdle, QT_TRANSLATE_NOOP("NodeState", "the computer is in use")},
    ReasonText{PauseReason::Snoozed, QT_TRANSLATE_NOOP("NodeState", "snoozed")},
    ReasonText{PauseReason::None, ""},
};
} // namespace

QString nodeStateName(NodeState state)
{
    const QString name = enumName(state);
    return name.isEmpty() ? QStringLiteral("unknown") : name;
}

QString nodeStateTitle(NodeState state)
{
    for (const auto &s : kTitles)
        if (s.state == state)
            return QCoreApplication::translate("NodeState", s.title);
    return QCoreApplication::translate("NodeState", "Unknown");
}

NodeState nodeStateFromName(const QString &name, bool *ok)
{
    const std::optional<NodeState> state = enumFromName<NodeState>(name);
    if (ok)
        *ok = state.has_value();
    return state.value_or(NodeState::Error);
}

QString pauseReasonName(PauseReason reason)
{
    const QString name = enumName(reason);
    return name.isEmpty() ? QStringLiteral("none") : name;
}

QString pauseReasonText(PauseReason reason)
{
    for (const auto &r : kReasons)
        if (r.reason == reason)
            return *r.text ? QCoreApplication::translate("NodeState", r.text) : QString();
    return {};
}

QString foregroundUseText(const ForegroundUse &use)
{
    const bool named = !use.program.isEmpty();
    switch (use.kind) {
    case ForegroundUse::Kind::FullScreen:
        return named
                   ? QCoreApplication::translate("NodeState", "A full-screen program is running (%1)").arg(use.program)
                   : QCoreApplication::translate("NodeState", "A full-screen program is running");
    case ForegroundUse::Kind::NamedProgram:
        return QCoreApplication::translate("NodeState", "A program on your list is running (%1)").arg(use.program);
    case ForegroundUse::Kind::GpuUser:
        return named ? QCoreApplication::translate("NodeState", "Another program uses the GPU (%1)").arg(use.program)
                     : QCoreApplication::translate("NodeState", "Another program uses the GPU");
    }
    return {};
}

PauseReason primaryReason(const QList<PauseReason> &reasons)
{
    for (const auto &r : kReasons)
        if (reasons.contains(r.reason))
            return r.reason;
    return PauseReason::None;
}

// The texts people read (the state's reason) go through the application's translator when it has one (the desktop
// app installs it before the engine starts); cohortd and the logs stay in English.
ResolvedState resolveState(const StateInputs &in)
{
    ResolvedState out;
    const auto withDetail = [&in](QString text) {
        return in.activityDetail.isEmpty() ? text : text + QStringLiteral(": ") + in.activityDetail;
    };
    if (in.stopping) {
        out.state = NodeState::Stopping;
        out.why = QCoreApplication::translate("NodeState", "Finishing up and shutting down");
    } else if (!in.fatalError.isEmpty()) {
        out.state = NodeState::Error;
        out.why = in.fatalError;
    } else if (in.hubLink == HubLink::NotStarted) {
        out.state = NodeState::Starting;
        out.why = QCoreApplication::translate("NodeState", "Starting the engine");
    } else if (in.hubLink == HubLink::Lost) {
        out.state = NodeState::Offline;
        const QString retry = in.retryInSeconds > 0
                                  ? QCoreApplication::translate("NodeState", "retrying in %1 s").arg(in.retryInSeconds)
                                  : QCoreApplication::translate("NodeState", "retrying now");
        out.why =
            in.hubError.isEmpty()
                ? QCoreApplication::translate("NodeState", "Cannot reach the hub; %1").arg(retry)
                : QCoreApplication::translate("NodeState", "Cannot reach the hub (%1); %2").arg(in.hubError, retry);
    } else if (const PauseReason reason = primaryReason(in.pauseReasons); reason != PauseReason::None) {
        out.state = NodeState::Paused;
        out.reason = reason;
        if (reason == PauseReason::ForegroundApp && in.foregroundUse) {
            out.why = foregroundUseText(*in.foregroundUse); // which program: the user can close it, or list it no more
        } else {
            QString text = pauseReasonText(reason);
            text[0] = text[0].toUpper();
            out.why = text;
        }
    } else if (in.hubLink == HubLink::Connecting) {
        out.state = NodeState::Connecting;
        out.why = QCoreApplication::translate("NodeState", "Registering with the hub");
    } else if (const PauseReason throttle = primaryReason(in.throttleReasons); throttle != PauseReason::None) {
        out.state = NodeState::Throttled;
        out.reason = throttle;
        out.why = withDetail(
            QCoreApplication::translate("NodeState", "Working slower because %1").arg(pauseReasonText(throttle)));
    } else if (in.downloading) {
        out.state = NodeState::Downloading;
        out.why = withDetail(QCoreApplication::translate("NodeState", "Downloading the model"));
    } else if (in.syncing) {
        out.state = NodeState::Syncing;
        out.why = withDetail(QCoreApplication::translate("NodeState", "Synchronising with other contributors"));
    } else if (in.working) {
        out.state = NodeState::Working;
        // The state's name is already the headline ("Working"): the reason is what the work is.
        out.why = in.activityDetail.isEmpty() ? QCoreApplication::translate("NodeState", "Working") : in.activityDetail;
    } else {
        out.state = NodeState::Idle;
        out.why = in.activityDetail.isEmpty() ? QCoreApplication::translate("NodeState", "Connected; no task joined")
                                              : in.activityDetail;
    }
    return out;
}

} // namespace cohort
