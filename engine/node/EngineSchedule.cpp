// The engine's wiring of its schedule gate (node/ScheduleGate): what entering and leaving a pause does to the work in
// hand (at a safe point: generation is cancelled within a token, the half-made batch is dropped and its work item
// stays in hand; downloads keep every byte on disk).
#include "node/Engine.h"

namespace cohort {

void Engine::connectScheduleGate()
{
    ScheduleGate *gate = m_schedule;
    connect(gate, &ScheduleGate::eventOccurred, this, &Engine::eventOccurred);
    connect(gate, &ScheduleGate::pauseEntered, this, &Engine::enterPause);
    connect(gate, &ScheduleGate::pauseLeft, this, [this] {
        m_checkpoints->resume();
        Q_EMIT eventOccurred(EngineEvent::info(EventCategory::Lifecycle, QStringLiteral("Working again")));
        m_rollouts->kick();
    });
    connect(gate, &ScheduleGate::userChoiceChanged, m_resume, &ResumeBundle::writeSoon); // they survive a restart
    connect(gate, &ScheduleGate::reasonsChanged, this, [this] {
        updateState();
        m_hubSession->heartbeat(); // the hub learns at once, not at the next tick
    });
    connect(gate, &ScheduleGate::changed, m_state, &SnapshotPublisher::markDirty);
    connect(m_rollouts, &RolloutFleet::safePointReached, gate, &ScheduleGate::safePointReached);
    connect(m_rollouts, &RolloutFleet::generationEnded, gate, [gate] { gate->workStopped("compute"); });
    connect(m_diloco, &DilocoSession::finished, gate, [gate] { gate->workStopped("DiLoCo"); });
}

void Engine::setSchedulerPolicy(const SchedulerPolicy &policy)
{
    m_options.scheduler = policy;
    m_schedule->setPolicy(policy);
}

void Engine::applyGpusInUse()
{
    m_rollouts->setGpusInUse(m_schedule->gpusInUse(), m_state->snapshot().gpus,
                             m_options.scheduler.foregroundHoldSeconds);
}

void Engine::enterPause()
{
    m_checkpoints->pause(); // keeps every byte on disk
    if (m_rollouts->generating()) {
        m_schedule->startPauseClock(); // measured until the compute thread reports the cancellation
        m_rollouts->cancel();          // generation stops within a token
    } else if (m_diloco->running()) {
        m_schedule->startPauseClock(); // measured until the DiLoCo thread has checkpointed and left (finished())
        m_diloco->stop(0);             // stops at the next inner step; an average in flight finishes first
    } else {
        m_schedule->pausedAtOnce(); // nothing was running
    }
}

} // namespace cohort
