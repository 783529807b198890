#pragma once
// Everything a DiLoCo node needs to continue after a crash, as one engine bundle (engine/store/EngineBundle.h:
// atomic QuaZip zip, SHA-256 per entry, torn ones set aside): the shared state (global weights + outer momentum,
// identical on every peer), the node's own inner model and AdamW moments, and where it was (outer step, inner step).
#include "core/Expected.h"

#include "diloco/Optimizers.h"

#include <QString>
#include <vector>

namespace cohort {
struct EngineBundle;
}

namespace cohort::diloco {

struct DilocoCheckpoint {
    QString taskId;
    uint64_t outerStep = 0; // the shared state's revision
    int innerStep = 0;      // inner steps taken on `local` since the last outer step
    std::vector<float> global, momentum, local;
    AdamWState adam;
    double lastLoss = 0;

    EngineBundle toBundle() const;
    // Validates everything against the expected weight count: a bundle for another model or task is an error.
    static Expected<DilocoCheckpoint> fromBundle(const EngineBundle &bundle, const QString &taskId, size_t weightCount);
};

} // namespace cohort::diloco
