#include "ui/SnapshotThrottle.h"

namespace cohort {

SnapshotThrottle::SnapshotThrottle(int intervalMs, QObject *parent)
    : QObject(parent),
      m_intervalMs(intervalMs)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &SnapshotThrottle::emitPending);
}

bool SnapshotThrottle::isUrgent(const EngineSnapshot &previous, const EngineSnapshot &next)
{
    return previous.state != next.state || previous.reason != next.reason ||
           previous.pauseReasons != next.pauseReasons || previous.joinedTaskId != next.joinedTaskId ||
           previous.lastError != next.lastError || previous.tasks != next.tasks || previous.nodeId != next.nodeId ||
           previous.schedule.pauseAfterStep != next.schedule.pauseAfterStep ||
           previous.schedule.snoozedUntil != next.schedule.snoozedUntil;
}

void SnapshotThrottle::offer(const EngineSnapshot &snapshot)
{
    const bool urgent = !m_last || isUrgent(*m_last, snapshot);
    if (urgent || !m_sinceEmit.isValid() || m_sinceEmit.elapsed() >= m_intervalMs) {
        m_pending = snapshot;
        emitPending();
        return;
    }
    m_pending = snapshot;
    if (!m_timer.isActive())
        m_timer.start(int(std::max<qint64>(0, m_intervalMs - m_sinceEmit.elapsed())));
}

void SnapshotThrottle::emitPending()
{
    m_timer.stop();
    if (!m_pending)
        return;
    m_last = std::move(m_pending);
    m_pending.reset();
    m_sinceEmit.start();
    Q_EMIT snapshotReady(*m_last);
}

} // namespace cohort
