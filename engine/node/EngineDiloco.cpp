// The engine's wiring of its DiLoCo training (node/DilocoSession): what the session's signals change in the engine's
// state (what it may do, node/PartsHost says).
#include "node/Engine.h"

namespace cohort {

void Engine::connectDilocoSession()
{
    connect(m_diloco, &DilocoSession::eventOccurred, this, &Engine::eventOccurred);
    connect(m_diloco, &DilocoSession::changed, this, [this] {
        m_state->refreshActivity();
        updateState();
    });
}

} // namespace cohort
