#include "node/ScheduleGate.h"

#include "core/GpuHistory.h"
#include "core/Logging.h"
#include "node/CheckpointTracker.h"
#include "node/ForegroundWatch.h"
#include "node/MachineMonitor.h"
#include "node/RolloutFleet.h"
#include "platform/DesktopIdle.h"
#include "platform/DiskSpace.h"
#include "platform/PowerSource.h"

#include <QDirIterator>

namespace cohort {

// The gate's texts are the engine's events, worded as when the gate was part of Engine; none is translated.

ScheduleGate::ScheduleGate(Sources sources, QString dataDir, SchedulerPolicy policy, QObject *parent)
    : QObject(parent),
      m_sources(sources),
      m_dataDir(std::move(dataDir)),
      m_policy(std::move(policy))
{}

ScheduleGate::~ScheduleGate() = default;

void ScheduleGate::start()
{
    m_scheduler.setPolicy(m_policy);
    if (m_policy.runOnlyWhenIdle) {
        m_idle = createDesktopIdle();
        Q_EMIT eventOccurred(
            m_idle
                ? EngineEvent::info(EventCategory::Schedule, QStringLiteral("Idle time from %1").arg(m_idle->source()))
                : EngineEvent::warning(
                      EventCategory::Schedule,
                      QStringLiteral(
                          "\"Run only when idle\" is on, but this session cannot tell idle time; it is ignored")));
    }
    update();
}

void ScheduleGate::setPolicy(const SchedulerPolicy &policy)
{
    m_policy = policy;
    m_scheduler.setPolicy(policy);
    if (policy.runOnlyWhenIdle && !m_idle)
        m_idle = createDesktopIdle();
    update();
}

void ScheduleGate::pause()
{
    if (m_userPaused)
        return;
    m_userPaused = true;
    Q_EMIT eventOccurred(EngineEvent::info(EventCategory::Lifecycle, QStringLiteral("Paused by you")));
    update();
}

void ScheduleGate::resume()
{
    const bool wasHeld = m_userPaused || m_snoozedUntil.isValid() || m_pauseAfterStepPending;
    m_userPaused = false;
    m_snoozedUntil = {};
    m_pauseAfterStepPending = false;
    if (wasHeld)
        Q_EMIT eventOccurred(EngineEvent::info(EventCategory::Lifecycle, QStringLiteral("Resumed")));
    update();
}

void ScheduleGate::snooze(int seconds)
{
    m_snoozedUntil = seconds > 0 ? QDateTime::currentDateTime().addSecs(seconds) : QDateTime();
    Q_EMIT eventOccurred(EngineEvent::info(
        EventCategory::Lifecycle,
        seconds > 0 ? QStringLiteral("Snoozed until %1").arg(m_snoozedUntil.toString(QStringLiteral("HH:mm")))
                    : QStringLiteral("Snooze ended")));
    update();
}

void ScheduleGate::pauseAfterStep()
{
    if (m_userPaused)
        return;
    if (!m_sources.rollouts->generating()) { // nothing in hand: the safe point is now
        pause();
        return;
    }
    m_pauseAfterStepPending = true;
    Q_EMIT eventOccurred(
        EngineEvent::info(EventCategory::Lifecycle, QStringLiteral("Pausing when the batch in hand is finished")));
    update();
}

void ScheduleGate::safePointReached()
{
    if (m_pauseAfterStepPending) { // the batch is safe in the outbox: this is the safe point the user asked for
        m_pauseAfterStepPending = false;
        pause();
    }
}

void ScheduleGate::restore(bool userPaused, const QDateTime &snoozedUntil)
{
    if (userPaused)
        m_userPaused = true;
    if (snoozedUntil.isValid())
        m_snoozedUntil = snoozedUntil;
}

void ScheduleGate::workStopped(const char *what)
{
    if (!m_pauseClock.isValid())
        return;
    m_status.lastPauseLatencyMs = int(m_pauseClock.elapsed());
    m_pauseClock.invalidate();
    qCInfo(lcEngine) << what << "stopped" << m_status.lastPauseLatencyMs << "ms after the pause";
}

qint64 ScheduleGate::dataFolderBytes() const
{
    qint64 total = 0;
    QDirIterator it(m_dataDir, QDir::Files | QDir::Hidden | QDir::NoSymLinks, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        total += it.fileInfo().size();
    }
    return total;
}

QMap<int, QString> ScheduleGate::gpusInUse() const
{
    return m_foreground ? m_foreground->gpusInUse() : QMap<int, QString>();
}

void ScheduleGate::update()
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
    const QList<GpuSample> gpus = m_sources.machine->gpus();
    for (const GpuSample &g : gpus)
        if (m_policy.gpus.isEmpty() || m_policy.gpus.contains(GpuHistory::keyOf(g)))
            watched.append(g);
    in.gpuTempC = hottestGpuTemperatureC(watched);
    in.gpuPowerW = totalGpuPowerW(watched);
    // Unknown stays unknown here (no pause); the downloader, which is what writes, refuses when it cannot tell.
    if (const Expected<qint64> free = availableDiskBytes(m_dataDir))
        in.freeDiskBytes = *free;
    if (m_policy.diskCapBytes > 0) {
        if (m_dataBytes < 0 || !m_sinceDataMeasured.isValid() || m_sinceDataMeasured.elapsed() > 60'000) {
            m_dataBytes = dataFolderBytes(); // a walk of the folder: once a minute is plenty
            m_sinceDataMeasured.start();
        }
        in.dataBytes = m_dataBytes;
    }
    // Other programs (full screen, on the user's list, on the GPU): each source asked at its own bounded rate.
    if (!m_foreground)
        m_foreground = std::make_unique<ForegroundWatch>([this] { return m_sources.machine->gpuProcesses(); });
    m_foreground->setPolicy(m_policy);
    m_foreground->setWorkerGpus(m_sources.rollouts->gpuIndexes(m_sources.machine->gpus()));
    in.foregroundUses = m_foreground->read();
    for (EngineEvent &event : m_foreground->takeEvents())
        Q_EMIT eventOccurred(event);
    const SchedulerDecision d = m_scheduler.evaluate(in);

    QList<PauseReason> reasons = d.pauseReasons;
    if (m_sources.checkpoints->diskFull() && !reasons.contains(PauseReason::DiskFull))
        reasons.append(PauseReason::DiskFull);
    m_status.mode = runModeName(reasons.isEmpty() ? d.mode : RunMode::Pause);
    m_status.dutyCycle = reasons.isEmpty() ? d.dutyCycle : 0;
    m_status.throttleReasons = d.throttleReasons;
    m_status.nextChange = d.nextChange;
    m_status.snoozedUntil = m_snoozedUntil.isValid() && m_snoozedUntil > in.now ? m_snoozedUntil : QDateTime();
    m_status.pauseAfterStep = m_pauseAfterStepPending;
    m_status.idleSource = m_idle ? m_idle->source() : QString();
    m_status.inputIdleSeconds = in.inputIdleSeconds.value_or(-1);
    m_status.onBattery = power.onBattery ? int(*power.onBattery) : -1;
    updateWorkAtRisk();

    const bool pausedBefore = paused();
    const QList<PauseReason> before = m_pauseReasons;
    const std::optional<ForegroundUse> foregroundBefore = m_foregroundUse;
    m_pauseReasons = reasons;
    m_foregroundUse = d.foregroundUse;
    m_throttleReasons = d.throttleReasons;
    if (paused() && !pausedBefore) {
        Q_EMIT pauseEntered();
        m_pauseAfterStepPending = false;
    } else if (!paused() && pausedBefore) {
        Q_EMIT pauseLeft();
    }
    if (before.contains(PauseReason::User) != reasons.contains(PauseReason::User) ||
        before.contains(PauseReason::Snoozed) != reasons.contains(PauseReason::Snoozed))
        Q_EMIT userChoiceChanged();
    if (before != reasons || foregroundBefore != d.foregroundUse) { // another program in front is news too
        if (paused())
            qCInfo(lcEngine) << "paused:" << pauseReasonName(primaryReason(reasons));
        Q_EMIT reasonsChanged();
    } else {
        Q_EMIT changed();
    }
}

void ScheduleGate::updateWorkAtRisk()
{
    // Work since the last safe point: the batch being generated (its work item expires if dropped). Tokens are an
    // estimate from the last batch's rate; finished batches are safe in the outbox.
    if (const qint64 ms = m_sources.rollouts->generatingForMs(); ms >= 0) {
        m_status.workAtRiskSeconds = double(ms) / 1000.0;
        m_status.workAtRiskTokens = qint64(m_status.workAtRiskSeconds * m_sources.rollouts->stats().tokensPerSecond);
    } else {
        m_status.workAtRiskSeconds = 0;
        m_status.workAtRiskTokens = 0;
    }
}

} // namespace cohort
