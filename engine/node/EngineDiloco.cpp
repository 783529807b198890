// The engine as host of its DiLoCo training (node/DilocoSession): what the session may do, and what its signals
// change in the engine's state.
#include "node/Engine.h"

#include "core/Logging.h"
#include "net/Identity.h"

namespace cohort {

void Engine::connectDilocoSession()
{
    connect(m_diloco, &DilocoSession::eventOccurred, this, &Engine::emitEvent);
    connect(m_diloco, &DilocoSession::changed, this, [this] {
        refreshActivityDetail();
        updateState();
    });
    connect(m_diloco, &DilocoSession::finished, this, [this] {
        if (!m_pauseClock.isValid())
            return;
        m_snapshot.schedule.lastPauseLatencyMs = int(m_pauseClock.elapsed());
        m_pauseClock.invalidate();
        qCInfo(lcEngine) << "DiLoCo stopped" << m_snapshot.schedule.lastPauseLatencyMs << "ms after the pause";
    });
}

bool Engine::dilocoMayRun() const
{
    return !m_stopping && m_hub && m_inputs.hubLink == HubLink::Online && m_inputs.pauseReasons.isEmpty();
}

QByteArray Engine::nodeSecretKey() const
{
    return m_identity ? m_identity->secretKey() : QByteArray();
}

} // namespace cohort
