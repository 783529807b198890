// The engine's side of the scheduler: once a second it gathers the readings (clock, input idle time, power
// source, disk, GPU temperature and power from GpuTelemetry) and the user's choices (pause, snooze, pause after this
// step), asks the Scheduler for Run / Throttle / Pause, and applies the change at a safe point: generation is
// cancelled within a token (the half-made batch is dropped: its work item simply expires), downloads keep every
// byte on disk, batches already in the outbox stay there.
#include "node/Engine.h"

#include "core/GpuHistory.h"
#include "core/Logging.h"
#include "node/ForegroundWatch.h"
#include "node/GpuTelemetry.h"
#include "platform/DesktopIdle.h"
#include "platform/DiskSpace.h"
#include "platform/PowerSource.h"

#include <QDirIterator>

namespace cohort {

void Engine::pause()
{
    if (m_userPaused)
        return;
    m_userPaused = true;
    emitEvent(EngineEvent::info(QStringLiteral("lifecycle"), QStringLiteral("Paused by you")));
    applySchedule();
}

void Engine::resume()
{
    const bool wasHeld = m_userPaused || m_snoozedUntil.isValid() || m_pauseAfterStepPending;
    m_userPaused = false;
    m_snoozedUntil = {};
    m_pauseAfterStepPending = false;
    if (wasHeld)
        emitEvent(EngineEvent::info(QStringLiteral("lifecycle"), QStringLiteral("Resumed")));
    applySchedule();
}

void Engine::snooze(int seconds)
{
    m_snoozedUntil = seconds > 0 ? QDateTime::currentDateTime().addSecs(seconds) : QDateTime();
    emitEvent(EngineEvent::info(QStringLiteral("lifecycle"),
                                seconds > 0 ? QStringLiteral("Snoozed until %1").arg(m_snoozedUntil.toString(QStringLiteral("HH:mm")))
                                            : QStringLiteral("Snooze ended")));
    applySchedule();
}

void Engine::pauseAfterStep()
{
    if (m_userPaused)
        return;
    if (!m_rollouts->generating()) { // nothing in hand: the safe point is now
        pause();
        return;
    }
    m_pauseAfterStepPending = true;
    emitEvent(EngineEvent::info(QStringLiteral("lifecycle"), QStringLiteral("Pausing when the batch in hand is finished")));
    applySchedule();
}

void Engine::setSchedulerPolicy(const SchedulerPolicy &policy)
{
    m_options.scheduler = policy;
    m_scheduler.setPolicy(policy);
    if (policy.runOnlyWhenIdle && !m_idle)
        m_idle = createDesktopIdle();
    applySchedule();
}

qint64 Engine::dataFolderBytes() const
{
    qint64 total = 0;
    QDirIterator it(m_options.dataDir, QDir::Files | QDir::Hidden | QDir::NoSymLinks, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        total += it.fileInfo().size();
    }
    return total;
}

void Engine::applySchedule()
{
    SchedulerInputs in;
    in.now = QDateTime::currentDateTime();
    in.userPaused = m_userPaused;
    in.snoozedUntil = m_snoozedUntil;
    if (m_idle)
        in.inputIdleSeconds = m_idle->idleSeconds();
    const PowerStatus power = readPowerStatus();
    in.onBattery = power.onBattery;
    // GPU limits: the hottest GPU and the power all of them draw, from the last telemetry sample (GpuTelemetry);
    // only the GPUs chosen in Settings when some are (a GPU left to other work is not Cohort's to throttle for).
    QList<GpuSample> watched;
    for (const GpuSample &g : std::as_const(m_snapshot.gpus))
        if (m_options.scheduler.gpus.isEmpty() || m_options.scheduler.gpus.contains(GpuHistory::keyOf(g)))
            watched.append(g);
    in.gpuTempC = hottestGpuTemperatureC(watched);
    in.gpuPowerW = totalGpuPowerW(watched);
    // Unknown stays unknown here (no pause); the downloader, which is what writes, refuses when it cannot tell.
    if (const Expected<qint64> free = availableDiskBytes(m_options.dataDir))
        in.freeDiskBytes = *free;
    if (m_options.scheduler.diskCapBytes > 0) {
        if (m_dataBytes < 0 || !m_sinceDataMeasured.isValid() || m_sinceDataMeasured.elapsed() > 60'000) {
            m_dataBytes = dataFolderBytes(); // a walk of the folder: once a minute is plenty
            m_sinceDataMeasured.start();
        }
        in.dataBytes = m_dataBytes;
    }
    // Other programs (full screen, on the user's list, on the GPU): each source asked at its own bounded rate.
    if (!m_foreground)
        m_foreground = std::make_unique<ForegroundWatch>([this]() -> Expected<QList<GpuProcess>> {
            return m_gpu ? m_gpu->processes() : fail(QStringLiteral("GPU telemetry has not started"));
        });
    m_foreground->setPolicy(m_options.scheduler);
    in.foregroundUses = m_foreground->read();
    for (EngineEvent &event : m_foreground->takeEvents())
        emitEvent(std::move(event));
    const SchedulerDecision d = m_scheduler.evaluate(in);

    QList<PauseReason> reasons = d.pauseReasons;
    if (m_checkpoints->diskFull() && !reasons.contains(PauseReason::DiskFull))
        reasons.append(PauseReason::DiskFull);
    ScheduleStatus &status = m_snapshot.schedule;
    status.mode = runModeName(reasons.isEmpty() ? d.mode : RunMode::Pause);
    status.dutyCycle = reasons.isEmpty() ? d.dutyCycle : 0;
    status.throttleReasons = d.throttleReasons;
    status.nextChange = d.nextChange;
    status.snoozedUntil = m_snoozedUntil.isValid() && m_snoozedUntil > in.now ? m_snoozedUntil : QDateTime();
    status.pauseAfterStep = m_pauseAfterStepPending;
    status.idleSource = m_idle ? m_idle->source() : QString();
    status.inputIdleSeconds = in.inputIdleSeconds.value_or(-1);
    status.onBattery = power.onBattery ? int(*power.onBattery) : -1;
    updateWorkAtRisk();

    const bool pausedBefore = m_scheduledPause;
    const QList<PauseReason> before = m_inputs.pauseReasons;
    const std::optional<ForegroundUse> foregroundBefore = m_inputs.foregroundUse;
    m_inputs.pauseReasons = reasons;
    m_inputs.foregroundUse = d.foregroundUse;
    m_inputs.throttleReasons = d.throttleReasons;
    m_scheduledPause = !reasons.isEmpty();
    if (m_scheduledPause && !pausedBefore)
        enterPause();
    else if (!m_scheduledPause && pausedBefore)
        leavePause();
    if (before.contains(PauseReason::User) != reasons.contains(PauseReason::User) ||
        before.contains(PauseReason::Snoozed) != reasons.contains(PauseReason::Snoozed))
        writeBundleSoon(); // the user's pause and snooze survive a restart
    if (before != reasons || foregroundBefore != d.foregroundUse) { // another program in front is news too
        if (m_scheduledPause)
            qCInfo(lcEngine) << "paused:" << pauseReasonName(primaryReason(reasons));
        updateState();
        if (m_inputs.hubLink == HubLink::Online)
            sendHeartbeat(); // the hub learns at once, not at the next tick
    } else {
        markDirty();
    }
}

void Engine::enterPause()
{
    m_checkpoints->pause(); // keeps every byte on disk
    if (m_rollouts->generating()) {
        m_pauseClock.start();  // measured until the compute thread reports the cancellation
        m_rollouts->cancel();  // generation stops within a token
    } else if (m_diloco->running()) {
        m_pauseClock.start();  // measured until the DiLoCo thread has checkpointed and left (finished())
        m_diloco->stop(0);     // stops at the next inner step; an average in flight finishes first
    } else {
        m_snapshot.schedule.lastPauseLatencyMs = 0; // nothing was running: paused at once
    }
    m_pauseAfterStepPending = false;
}

void Engine::leavePause()
{
    m_checkpoints->resume();
    emitEvent(EngineEvent::info(QStringLiteral("lifecycle"), QStringLiteral("Working again")));
    m_rollouts->kick();
}

void Engine::updateWorkAtRisk()
{
    // Work since the last safe point: the batch being generated (its work item expires if dropped). Tokens are an
    // estimate from the last batch's rate; finished batches are safe in the outbox.
    ScheduleStatus &status = m_snapshot.schedule;
    if (const qint64 ms = m_rollouts->generatingForMs(); ms >= 0) {
        status.workAtRiskSeconds = double(ms) / 1000.0;
        status.workAtRiskTokens = qint64(status.workAtRiskSeconds * m_rollouts->stats().tokensPerSecond);
    } else {
        status.workAtRiskSeconds = 0;
        status.workAtRiskTokens = 0;
    }
}

} // namespace cohort
