// The scheduler's decisions, table-driven with an injected clock and readings: every pause reason alone and
// together (most actionable first), schedules across midnight and the weekend, snooze and idle with the time they
// end, and the temperature/power limits' hysteresis, which must throttle before pausing and never flap.
#include "core/Scheduler.h"

#include <QTest>

using namespace cohort;

namespace {
// Monday 30 November 2026, 10:00 local time.
QDateTime monday(int hour, int minute = 0)
{
    return QDateTime(QDate(2026, 11, 30), QTime(hour, minute));
}
QDateTime day(int offset, int hour, int minute = 0)
{
    return QDateTime(QDate(2026, 11, 30).addDays(offset), QTime(hour, minute));
}
ScheduleWindow window(const char *text)
{
    return *ScheduleWindow::fromText(QString::fromLatin1(text));
}
} // namespace

Q_DECLARE_METATYPE(SchedulerPolicy)
Q_DECLARE_METATYPE(SchedulerInputs)
Q_DECLARE_METATYPE(RunMode)

class TestScheduler : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void decisions_data()
    {
        QTest::addColumn<SchedulerPolicy>("policy");
        QTest::addColumn<SchedulerInputs>("inputs");
        QTest::addColumn<RunMode>("mode");
        QTest::addColumn<QList<PauseReason>>("reasons");
        QTest::addColumn<QDateTime>("nextChange");

        const SchedulerPolicy defaults;
        SchedulerInputs base;
        base.now = monday(10);

        QTest::newRow("nothing holds it back")
            << defaults << base << RunMode::Run << QList<PauseReason>{} << QDateTime();
        SchedulerInputs in = base;
        in.userPaused = true;
        QTest::newRow("user pause") << defaults << in << RunMode::Pause << QList{PauseReason::User} << QDateTime();
        in = base;
        in.snoozedUntil = monday(11);
        QTest::newRow("snoozed for an hour")
            << defaults << in << RunMode::Pause << QList{PauseReason::Snoozed} << monday(11);
        in.snoozedUntil = monday(9);
        QTest::newRow("snooze over") << defaults << in << RunMode::Run << QList<PauseReason>{} << QDateTime();

        SchedulerPolicy idleOnly;
        idleOnly.runOnlyWhenIdle = true;
        idleOnly.idleAfterSeconds = 300;
        in = base;
        in.inputIdleSeconds = 30;
        QTest::newRow("in use, idle-only")
            << idleOnly << in << RunMode::Pause << QList{PauseReason::NotIdle} << base.now.addSecs(270);
        in.inputIdleSeconds = 301;
        QTest::newRow("idle long enough") << idleOnly << in << RunMode::Run << QList<PauseReason>{} << QDateTime();
        in.inputIdleSeconds.reset();
        QTest::newRow("idle unknown (no desktop)")
            << idleOnly << in << RunMode::Run << QList<PauseReason>{} << QDateTime();
        in.inputIdleSeconds = 5;
        QTest::newRow("in use, idle-only off") << defaults << in << RunMode::Run << QList<PauseReason>{} << QDateTime();

        in = base;
        in.onBattery = true;
        QTest::newRow("on battery") << defaults << in << RunMode::Pause << QList{PauseReason::OnBattery} << QDateTime();
        SchedulerPolicy batteryOk;
        batteryOk.pauseOnBattery = false;
        QTest::newRow("on battery, allowed") << batteryOk << in << RunMode::Run << QList<PauseReason>{} << QDateTime();
        in.onBattery = false;
        QTest::newRow("on mains") << defaults << in << RunMode::Run << QList<PauseReason>{} << QDateTime();

        SchedulerPolicy nights;
        nights.schedule = {window("mon-fri 22:00-06:00")};
        QTest::newRow("weekday morning, night schedule")
            << nights << base << RunMode::Pause << QList{PauseReason::OutsideSchedule} << monday(22);
        in = base;
        in.now = monday(23);
        QTest::newRow("monday night") << nights << in << RunMode::Run << QList<PauseReason>{} << day(1, 6);
        in.now = day(5, 3); // Saturday 03:00: Friday's night still runs
        QTest::newRow("friday night into saturday")
            << nights << in << RunMode::Run << QList<PauseReason>{} << day(5, 6);
        in.now = day(5, 23); // Saturday 23:00: not a scheduled evening; next is Monday 22:00
        QTest::newRow("saturday night") << nights << in << RunMode::Pause << QList{PauseReason::OutsideSchedule}
                                        << day(7, 22);
        SchedulerPolicy twoWindows;
        twoWindows.schedule = {window("weekdays 12:00-13:00"), window("weekend 00:00-24:00")};
        in.now = day(6, 15); // Sunday afternoon
        QTest::newRow("weekend all day") << twoWindows << in << RunMode::Run << QList<PauseReason>{} << day(7, 0);
        in.now = monday(12, 30);
        QTest::newRow("lunch break") << twoWindows << in << RunMode::Run << QList<PauseReason>{} << monday(13);

        SchedulerPolicy capped;
        capped.diskCapBytes = 10'000;
        in = base;
        in.dataBytes = 10'000;
        QTest::newRow("data folder at its cap")
            << capped << in << RunMode::Pause << QList{PauseReason::DiskFull} << QDateTime();
        in.dataBytes = 9'999;
        in.freeDiskBytes = (1LL << 30) - 1;
        QTest::newRow("disk nearly full")
            << capped << in << RunMode::Pause << QList{PauseReason::DiskFull} << QDateTime();
        in.freeDiskBytes = 1LL << 40;
        QTest::newRow("disk fine") << capped << in << RunMode::Run << QList<PauseReason>{} << QDateTime();

        // Several at once: all listed, the most actionable first (User > DiskFull > ... > NotIdle > Snoozed).
        SchedulerPolicy all = nights;
        all.runOnlyWhenIdle = true;
        in = base;
        in.userPaused = true;
        in.snoozedUntil = monday(10, 30);
        in.inputIdleSeconds = 0;
        in.onBattery = true;
        in.freeDiskBytes = 0;
        QTest::newRow("everything at once")
            << all << in << RunMode::Pause
            << QList{PauseReason::User,    PauseReason::DiskFull, PauseReason::OnBattery, PauseReason::OutsideSchedule,
                     PauseReason::NotIdle, PauseReason::Snoozed}
            << monday(10, 5); // the earliest self-ending reason: idle in 300 s
    }

    void decisions()
    {
        QFETCH(SchedulerPolicy, policy);
        QFETCH(SchedulerInputs, inputs);
        QFETCH(RunMode, mode);
        QFETCH(QList<PauseReason>, reasons);
        QFETCH(QDateTime, nextChange);
        Scheduler scheduler;
        scheduler.setPolicy(policy);
        const SchedulerDecision d = scheduler.evaluate(inputs);
        QCOMPARE(runModeName(d.mode), runModeName(mode));
        QCOMPARE(d.pauseReasons, reasons);
        QCOMPARE(d.primary(), reasons.isEmpty() ? PauseReason::None : reasons.first());
        QCOMPARE(d.nextChange, nextChange);
        QCOMPARE(d.dutyCycle, mode == RunMode::Pause ? 0.0 : 1.0);
    }

    // Temperature limit 80 °C, hysteresis 5, hard margin 8: throttle to 1/2, then 1/4 (one step per 30 s while
    // still hot), then pause; back one step per 30 s only below 75 °C.
    void temperatureThrottlesBeforePausingWithHysteresis()
    {
        SchedulerPolicy policy;
        policy.gpuTempLimitC = 80;
        Scheduler scheduler;
        scheduler.setPolicy(policy);
        QDateTime t = monday(10);
        const auto at = [&](int seconds, double temp) {
            SchedulerInputs in;
            in.now = t.addSecs(seconds);
            in.gpuTempC = temp;
            return scheduler.evaluate(in);
        };
        QCOMPARE(at(0, 79).mode, RunMode::Run);
        SchedulerDecision d = at(1, 80);
        QCOMPARE(d.mode, RunMode::Throttle);
        QCOMPARE(d.dutyCycle, 0.5);
        QCOMPARE(d.throttleReasons, QList{PauseReason::TooHot});
        QCOMPARE(d.primary(), PauseReason::TooHot);
        QCOMPARE(at(2, 82).dutyCycle, 0.5);   // the GPU gets time to respond
        QCOMPARE(at(31, 82).dutyCycle, 0.25); // still hot after 30 s: next step
        d = at(62, 81);
        QCOMPARE(d.mode, RunMode::Pause);
        QCOMPARE(d.pauseReasons, QList{PauseReason::TooHot});
        for (int s = 63; s < 200; ++s) // inside the band (75..80): stays paused, no flapping
            QCOMPARE(at(s, 77 + (s % 3)).mode, RunMode::Pause);
        d = at(200, 74);
        QCOMPARE(d.mode, RunMode::Throttle);
        QCOMPARE(d.dutyCycle, 0.25);
        QCOMPARE(at(201, 74).dutyCycle, 0.25);
        QCOMPARE(at(231, 74).dutyCycle, 0.5);
        QCOMPARE(at(262, 70).mode, RunMode::Run);
        // Far beyond the limit: pause at once.
        QCOMPARE(at(263, 88).mode, RunMode::Pause);
        // The sensor disappears: nothing to hold the node back with.
        SchedulerInputs gone;
        gone.now = t.addSecs(300);
        QCOMPARE(scheduler.evaluate(gone).mode, RunMode::Run);
    }

    // A GPU hovering right at its limit for 10 minutes: the level only ever goes up (at most 3 changes), never
    // back and forth.
    void hoveringAtTheLimitDoesNotFlap()
    {
        SchedulerPolicy policy;
        policy.gpuTempLimitC = 80;
        Scheduler scheduler;
        scheduler.setPolicy(policy);
        int changes = 0;
        double lastDuty = 1;
        for (int s = 0; s < 600; ++s) {
            SchedulerInputs in;
            in.now = monday(10).addSecs(s);
            in.gpuTempC = s % 2 ? 80.1 : 79.9;
            const double duty = scheduler.evaluate(in).dutyCycle;
            changes += duty != lastDuty;
            QVERIFY(duty <= lastDuty); // never back up inside the band
            lastDuty = duty;
        }
        QVERIFY2(changes <= 3, qPrintable(QString::number(changes)));
    }

    void powerLimit()
    {
        SchedulerPolicy policy;
        policy.gpuPowerLimitW = 200;
        Scheduler scheduler;
        scheduler.setPolicy(policy);
        SchedulerInputs in;
        in.now = monday(10);
        in.gpuPowerW = 205;
        SchedulerDecision d = scheduler.evaluate(in);
        QCOMPARE(d.mode, RunMode::Throttle);
        QCOMPARE(d.throttleReasons, QList{PauseReason::PowerCap});
        in.now = in.now.addSecs(1);
        in.gpuPowerW = 240; // beyond 15 %: pause
        QCOMPARE(scheduler.evaluate(in).pauseReasons, QList{PauseReason::PowerCap});
        // A user pause and a throttle together: paused, the user's reason first.
        in.userPaused = true;
        QCOMPARE(scheduler.evaluate(in).primary(), PauseReason::User);
    }

    // Pause when I play: each rule counts only when it is on; a foreground program ranks below the battery and above
    // the schedule; the decision names the program.
    void foregroundRulesPauseOnlyWhenOn()
    {
        SchedulerInputs in;
        in.now = monday(10);
        in.foregroundUses = {ForegroundUse{ForegroundUse::Kind::FullScreen, QStringLiteral("supertuxkart")},
                             ForegroundUse{ForegroundUse::Kind::GpuUser, QStringLiteral("blender")}};
        Scheduler off;
        QCOMPARE(off.evaluate(in).mode, RunMode::Run); // every rule off by default

        SchedulerPolicy gpuOnly;
        gpuOnly.pauseWhenGpuBusy = true;
        Scheduler scheduler;
        scheduler.setPolicy(gpuOnly);
        SchedulerDecision d = scheduler.evaluate(in);
        QCOMPARE(d.mode, RunMode::Pause);
        QCOMPARE(d.pauseReasons, QList{PauseReason::ForegroundApp});
        QVERIFY(d.foregroundUse.has_value());
        QCOMPARE(d.foregroundUse->kind, ForegroundUse::Kind::GpuUser); // full screen is seen, but that rule is off
        QCOMPARE(d.foregroundUse->program, QStringLiteral("blender"));

        SchedulerPolicy all = gpuOnly;
        all.pauseWhenFullscreen = true;
        all.pauseForPrograms = {QStringLiteral("steam")};
        all.pauseOnBattery = true;
        all.schedule = {window("daily 22:00-06:00")};
        scheduler.setPolicy(all);
        d = scheduler.evaluate(in);
        QCOMPARE(d.foregroundUse->kind, ForegroundUse::Kind::FullScreen); // the first the engine saw
        QCOMPARE(d.pauseReasons, (QList{PauseReason::ForegroundApp, PauseReason::OutsideSchedule}));
        in.onBattery = true;
        in.now = in.now.addSecs(1);
        QCOMPARE(scheduler.evaluate(in).primary(), PauseReason::OnBattery);

        // A listed program counts only while the list has something on it.
        SchedulerPolicy listOnly;
        listOnly.pauseForPrograms = {QStringLiteral("steam")};
        Scheduler programs;
        programs.setPolicy(listOnly);
        SchedulerInputs named;
        named.now = monday(10);
        named.foregroundUses = {ForegroundUse{ForegroundUse::Kind::NamedProgram, QStringLiteral("steam")}};
        QCOMPARE(programs.evaluate(named).primary(), PauseReason::ForegroundApp);
        listOnly.pauseForPrograms.clear();
        programs.setPolicy(listOnly); // switched off: lets go at once, no hold
        named.now = named.now.addSecs(1);
        QCOMPARE(programs.evaluate(named).mode, RunMode::Run);
    }

    // The program gone: work resumes only after the hold (15 s), and a window that flickers in and out of full
    // screen every other second keeps the node paused instead of starting and stopping it each second.
    void foregroundHoldsBeforeResuming()
    {
        SchedulerPolicy policy;
        policy.pauseWhenFullscreen = true;
        Scheduler scheduler;
        scheduler.setPolicy(policy);
        const ForegroundUse game{ForegroundUse::Kind::FullScreen, QStringLiteral("game")};
        const auto at = [&](int seconds, bool seen) {
            SchedulerInputs in;
            in.now = monday(10).addSecs(seconds);
            if (seen)
                in.foregroundUses = {game};
            return scheduler.evaluate(in);
        };
        QCOMPARE(at(0, false).mode, RunMode::Run);
        QCOMPARE(at(1, true).mode, RunMode::Pause); // at once
        for (int s = 2; s < 1 + policy.foregroundHoldSeconds; ++s) {
            const SchedulerDecision d = at(s, false);
            QCOMPARE(d.mode, RunMode::Pause);
            QCOMPARE(d.foregroundUse, std::optional<ForegroundUse>(game)); // still says which program
            QCOMPARE(d.nextChange, monday(10).addSecs(1 + policy.foregroundHoldSeconds));
        }
        QCOMPARE(at(1 + policy.foregroundHoldSeconds, false).mode, RunMode::Run);

        int changes = 0;
        RunMode last = RunMode::Run;
        for (int s = 100; s < 160; ++s) {
            const RunMode mode = at(s, s % 2 == 0).mode;
            changes += mode != last;
            last = mode;
        }
        QCOMPARE(changes, 1); // paused once, never back to work in between
        // The clock set back while held: no hold across it.
        QCOMPARE(at(50, false).mode, RunMode::Run);
    }

    // The state's sentence names the program, for the tray, the dashboard and cohortd.
    void foregroundWhyNamesTheProgram()
    {
        StateInputs in;
        in.hubLink = HubLink::Online;
        in.pauseReasons = {PauseReason::ForegroundApp, PauseReason::NotIdle};
        in.foregroundUse = ForegroundUse{ForegroundUse::Kind::GpuUser, QStringLiteral("blender")};
        ResolvedState r = resolveState(in);
        QCOMPARE(r.state, NodeState::Paused);
        QCOMPARE(r.reason, PauseReason::ForegroundApp);
        QCOMPARE(r.why, QStringLiteral("Another program uses the GPU (blender)"));
        in.foregroundUse = ForegroundUse{ForegroundUse::Kind::NamedProgram, QStringLiteral("steam")};
        QCOMPARE(resolveState(in).why, QStringLiteral("A program on your list is running (steam)"));
        in.foregroundUse = ForegroundUse{ForegroundUse::Kind::FullScreen, QString()};
        QCOMPARE(resolveState(in).why, QStringLiteral("A full-screen program is running"));
        in.foregroundUse.reset();
        QCOMPARE(resolveState(in).why, QStringLiteral("Another program needs the computer"));
        QCOMPARE(pauseReasonName(PauseReason::ForegroundApp), QStringLiteral("foreground-app"));
        in.pauseReasons.prepend(PauseReason::User); // a stronger reason wins, and says its own sentence
        in.foregroundUse = ForegroundUse{ForegroundUse::Kind::GpuUser, QStringLiteral("blender")};
        QCOMPARE(resolveState(in).why, QStringLiteral("Paused by you"));
    }

    void scheduleText()
    {
        QCOMPARE(window("mon-fri 22:00-06:00").toText(), QStringLiteral("mon-fri 22:00-06:00"));
        QCOMPARE(window("Sat,Sun 0:00-24:00").toText(), QStringLiteral("sat,sun 00:00-24:00"));
        QCOMPARE(window("daily 09:30-17:00").days, 0x7F);
        QCOMPARE(window("fri-mon 10:00-11:00").days, 0x10 | 0x20 | 0x40 | 0x01); // wraps over the weekend
        QCOMPARE(window("tue,thu 08:00-09:00").toText(), QStringLiteral("tue,thu 08:00-09:00"));
        for (const char *bad : {"", "mon", "mon 25:00-26:00", "funday 10:00-11:00", "mon 10:60-11:00",
                                "mon 24:30-01:00", "mon-xyz 10:00-11:00", "10:00-11:00"}) {
            QString error;
            QVERIFY2(!ScheduleWindow::fromText(QString::fromLatin1(bad), &error), bad);
            QVERIFY2(!error.isEmpty(), bad);
        }
    }
};

QTEST_GUILESS_MAIN(TestScheduler)
#include "tst_scheduler.moc"
