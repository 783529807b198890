// The engine as host of its DiLoCo training (node/DilocoSession): what the session may do, and what its signals
// change in the engine's state.
#include "node/Engine.h"

#include "net/Identity.h"

namespace cohort {

void Engine::connectDilocoSession()
{
    connect(m_diloco, &DilocoSession::eventOccurred, this, &Engine::emitEvent);
    connect(m_diloco, &DilocoSession::changed, this, [this] {
        m_state->refreshActivity();
        updateState();
    });
}

bool Engine::dilocoMayRun() const
{
    // DiLoCo trains on the first worker's device: the user's pause of that GPU, or another program on it, stops it too.
    return !m_stopping && hub() && m_hubSession->online() && !m_schedule->paused() && !m_rollouts->primaryWaiting();
}

QByteArray Engine::nodeSecretKey() const
{
    return m_identity ? m_identity->secretKey() : QByteArray();
}

} // namespace cohort
