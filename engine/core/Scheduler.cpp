#include "core/Scheduler.h"

#include "core/EnumNames.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QStringList>
#include <algorithm>
#include <array>

namespace cohort {

namespace {

constexpr std::array<const char *, 7> kDayNames{"mon", "tue", "wed", "thu", "fri", "sat", "sun"};

int dayIndex(const QString &name)
{
    for (int i = 0; i < 7; ++i)
        if (name == QLatin1String(kDayNames[size_t(i)]))
            return i;
    return -1;
}

QString minuteText(int minute)
{
    return QStringLiteral("%1:%2").arg(minute / 60, 2, 10, QLatin1Char('0')).arg(minute % 60, 2, 10, QLatin1Char('0'));
}

bool windowContains(const ScheduleWindow &w, int day, int minute)
{
    const auto has = [&w](int d) { return (w.days >> ((d + 7) % 7)) & 1; };
    if (w.startMinute < w.endMinute)
        return has(day) && minute >= w.startMinute && minute < w.endMinute;
    // Crosses midnight (or a full 24 h from start when start == end): the evening belongs to `day`, the early
    // morning to the day before.
    return (has(day) && minute >= w.startMinute) || (has(day - 1) && minute < w.endMinute);
}

bool containsAt(const QList<ScheduleWindow> &schedule, const QDateTime &when)
{
    if (schedule.isEmpty())
        return true;
    const int day = when.date().dayOfWeek() - 1;
    const int minute = when.time().hour() * 60 + when.time().minute();
    return std::any_of(schedule.begin(), schedule.end(),
                       [&](const ScheduleWindow &w) { return windowContains(w, day, minute); });
}

void appendUnique(QList<PauseReason> &list, PauseReason reason)
{
    if (!list.contains(reason))
        list.append(reason);
}

QDateTime earliest(const QDateTime &a, const QDateTime &b)
{
    if (!a.isValid())
        return b;
    if (!b.isValid())
        return a;
    return std::min(a, b);
}

} // namespace

QString ScheduleWindow::toText() const
{
    QString dayText;
    if (days == 0x7F) {
        dayText = QStringLiteral("daily");
    } else if (days == 0x1F) {
        dayText = QStringLiteral("mon-fri");
    } else if (days == 0x60) {
        dayText = QStringLiteral("sat,sun");
    } else {
        QStringList names;
        for (int d = 0; d < 7; ++d)
            if ((days >> d) & 1)
                names.append(QLatin1String(kDayNames[size_t(d)]));
        dayText = names.join(QLatin1Char(','));
    }
    return dayText + QLatin1Char(' ') + minuteText(startMinute) + QLatin1Char('-') + minuteText(endMinute);
}

std::optional<ScheduleWindow> ScheduleWindow::fromText(const QString &text, QString *error)
{
    const auto failure = [error, &text](const QString &why) -> std::optional<ScheduleWindow> {
        if (error)
            *error = QCoreApplication::translate("ScheduleWindow", "schedule '%1': %2").arg(text, why);
        return std::nullopt;
    };
    static const QRegularExpression re(
        QStringLiteral("^\\s*([a-z,\\-]+)\\s+(\\d{1,2}):(\\d{2})\\s*-\\s*(\\d{1,2}):(\\d{2})\\s*$"));
    const auto m = re.match(text.toLower());
    if (!m.hasMatch())
        return failure(
            QCoreApplication::translate("ScheduleWindow", "expected days and hours, e.g. \"mon-fri 22:00-06:00\""));
    ScheduleWindow w;
    w.days = 0;
    for (const QString &part : m.captured(1).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        if (part == QLatin1String("daily")) {
            w.days |= 0x7F;
        } else if (part == QLatin1String("weekdays")) {
            w.days |= 0x1F;
        } else if (part == QLatin1String("weekend")) {
            w.days |= 0x60;
        } else if (part.contains(QLatin1Char('-'))) {
            const int from = dayIndex(part.section(QLatin1Char('-'), 0, 0));
            const int to = dayIndex(part.section(QLatin1Char('-'), 1));
            if (from < 0 || to < 0)
                return failure(QCoreApplication::translate("ScheduleWindow", "unknown day range '%1'").arg(part));
            for (int d = from;; d = (d + 1) % 7) { // "fri-mon" wraps over the weekend
                w.days |= 1 << d;
                if (d == to)
                    break;
            }
        } else {
            const int d = dayIndex(part);
            if (d < 0)
                return failure(
                    QCoreApplication::translate("ScheduleWindow",
                                                "unknown day '%1' (use mon, tue, ..., sun, daily, weekdays, weekend)")
                        .arg(part));
            w.days |= 1 << d;
        }
    }
    const int sh = m.captured(2).toInt(), sm = m.captured(3).toInt(), eh = m.captured(4).toInt(),
              em = m.captured(5).toInt();
    if (sh > 23 || sm > 59 || em > 59 || eh > 24 || (eh == 24 && em != 0))
        return failure(QCoreApplication::translate("ScheduleWindow", "hours must be 00:00-24:00"));
    w.startMinute = sh * 60 + sm;
    w.endMinute = eh * 60 + em;
    if (w.days == 0)
        return failure(QCoreApplication::translate("ScheduleWindow", "no days"));
    return w;
}

PauseReason SchedulerDecision::primary() const
{
    if (mode == RunMode::Pause)
        return primaryReason(pauseReasons);
    if (mode == RunMode::Throttle)
        return primaryReason(throttleReasons);
    return PauseReason::None;
}

QString runModeName(RunMode mode)
{
    const QString name = enumName(mode);
    return name.isEmpty() ? QStringLiteral("run") : name;
}

bool Scheduler::inSchedule(const QList<ScheduleWindow> &schedule, const QDateTime &when, QDateTime *nextChange)
{
    const bool inside = containsAt(schedule, when);
    if (nextChange) {
        *nextChange = {};
        if (!schedule.isEmpty()) {
            // Minute by minute over the next 8 days: simple, exact across midnight and DST, and cheap at 1 Hz.
            QDateTime t = when.addSecs(60 - when.time().second()).addMSecs(-when.time().msec());
            for (int i = 0; i < 8 * 24 * 60; ++i, t = t.addSecs(60))
                if (containsAt(schedule, t) != inside) {
                    *nextChange = t;
                    break;
                }
        }
    }
    return inside;
}

void Scheduler::setPolicy(const SchedulerPolicy &policy)
{
    // A rule switched off (or a program taken off the list) lets go at once rather than after the hold.
    if (policy.pauseWhenFullscreen != m_policy.pauseWhenFullscreen ||
        policy.pauseForPrograms != m_policy.pauseForPrograms || policy.pauseWhenGpuBusy != m_policy.pauseWhenGpuBusy)
        m_foreground.reset();
    m_policy = policy;
}

std::optional<ForegroundUse> Scheduler::wantedForegroundUse(const QList<ForegroundUse> &uses) const
{
    for (const ForegroundUse &use : uses) {
        switch (use.kind) {
        case ForegroundUse::Kind::FullScreen:
            if (m_policy.pauseWhenFullscreen)
                return use;
            break;
        case ForegroundUse::Kind::NamedProgram:
            if (!m_policy.pauseForPrograms.isEmpty())
                return use;
            break;
        case ForegroundUse::Kind::GpuUser:
            if (m_policy.pauseWhenGpuBusy)
                return use;
            break;
        }
    }
    return std::nullopt;
}

void Scheduler::stepForeground(const SchedulerInputs &in, SchedulerDecision &d)
{
    if (const std::optional<ForegroundUse> seen = wantedForegroundUse(in.foregroundUses)) {
        m_foreground = seen; // pauses at once: the game has started, the GPU is wanted now
        m_foregroundSeen = in.now;
    } else if (m_foreground) {
        const qint64 since = m_foregroundSeen.secsTo(in.now);
        if (since < 0 || since >= m_policy.foregroundHoldSeconds) // gone for the hold time (or the clock went back)
            m_foreground.reset();
        else
            d.nextChange = earliest(d.nextChange, m_foregroundSeen.addSecs(m_policy.foregroundHoldSeconds));
    }
    if (m_foreground) {
        appendUnique(d.pauseReasons, PauseReason::ForegroundApp);
        d.foregroundUse = m_foreground;
    }
}

void Scheduler::stepLimit(LimitState &state, const std::optional<double> &value, double limit, double hysteresis,
                          double hardMargin, const QDateTime &now)
{
    if (limit <= 0 || !value) { // no limit, or no reading: nothing to hold the node back with
        state = {};
        return;
    }
    const bool dwelt = !state.changedAt.isValid() || state.changedAt.secsTo(now) >= kDwellSeconds;
    int level = state.level;
    if (*value >= limit + hardMargin)
        level = kPausedLevel;
    else if (*value >= limit && (level == 0 || dwelt))
        level = std::min(kPausedLevel, level + 1);
    else if (*value < limit - hysteresis && level > 0 && dwelt)
        level -= 1;
    if (level != state.level) {
        state.level = level;
        state.changedAt = now;
    }
}

SchedulerDecision Scheduler::evaluate(const SchedulerInputs &in)
{
    SchedulerDecision d;
    const SchedulerPolicy &p = m_policy;
    if (in.userPaused)
        appendUnique(d.pauseReasons, PauseReason::User);
    if (in.snoozedUntil.isValid() && in.now < in.snoozedUntil) {
        appendUnique(d.pauseReasons, PauseReason::Snoozed);
        d.nextChange = earliest(d.nextChange, in.snoozedUntil);
    }
    if (p.runOnlyWhenIdle && in.inputIdleSeconds && *in.inputIdleSeconds < p.idleAfterSeconds) {
        appendUnique(d.pauseReasons, PauseReason::NotIdle);
        d.nextChange = earliest(d.nextChange, in.now.addSecs(p.idleAfterSeconds - *in.inputIdleSeconds));
    }
    QDateTime scheduleChange;
    if (!inSchedule(p.schedule, in.now, &scheduleChange))
        appendUnique(d.pauseReasons, PauseReason::OutsideSchedule);
    d.nextChange = earliest(d.nextChange, scheduleChange);
    if (p.pauseOnBattery && in.onBattery.value_or(false))
        appendUnique(d.pauseReasons, PauseReason::OnBattery);
    if ((p.diskCapBytes > 0 && in.dataBytes && *in.dataBytes >= p.diskCapBytes) ||
        (p.minFreeDiskBytes > 0 && in.freeDiskBytes && *in.freeDiskBytes < p.minFreeDiskBytes))
        appendUnique(d.pauseReasons, PauseReason::DiskFull);
    stepForeground(in, d);

    stepLimit(m_temp, in.gpuTempC, p.gpuTempLimitC, p.gpuTempHysteresisC, p.gpuTempHardMarginC, in.now);
    stepLimit(m_power, in.gpuPowerW, p.gpuPowerLimitW, 0.10 * p.gpuPowerLimitW, 0.15 * p.gpuPowerLimitW, in.now);
    for (const auto &[state, reason] :
         {std::pair{&m_temp, PauseReason::TooHot}, std::pair{&m_power, PauseReason::PowerCap}}) {
        if (state->level >= kPausedLevel) {
            appendUnique(d.pauseReasons, reason);
        } else if (state->level > 0) {
            appendUnique(d.throttleReasons, reason);
            d.dutyCycle = std::min(d.dutyCycle, kDutySteps[size_t(state->level)]);
        }
    }
    // Most actionable first (the order the status model shows).
    std::stable_sort(d.pauseReasons.begin(), d.pauseReasons.end(), [](PauseReason a, PauseReason b) {
        return primaryReason({a, b}) == a && a != b;
    });
    if (!d.pauseReasons.isEmpty()) {
        d.mode = RunMode::Pause;
        d.dutyCycle = 0;
    } else if (!d.throttleReasons.isEmpty()) {
        d.mode = RunMode::Throttle;
    }
    return d;
}

} // namespace cohort
