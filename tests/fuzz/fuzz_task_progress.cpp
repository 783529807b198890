// A hub's progress reply (GET /v1/tasks/{id}/progress, "held_out") and a heartbeat reply's "contribution": the node
// parses both from the network and the views draw them. What parses must hold its promises (finite shares in [0, 1],
// versions ascending, ranks within the contributors, bounded).
#include "core/JsonReader.h"
#include "core/TaskProgress.h"

#include <cmath>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const auto object = cohort::parseJsonObject(bytes);
    if (!object)
        return 0;
    if (const auto c = cohort::parseTaskContribution(object->value(QStringLiteral("contribution")).toObject(),
                                                     QStringLiteral("t"))) {
        if (!(c->share >= 0 && c->share <= 1) || c->rank > c->contributors || c->acceptedBatches < 0)
            __builtin_trap();
        (void)c->toJson();
    }
    const auto progress = cohort::parseTaskProgress(*object, QStringLiteral("t"));
    if (!progress)
        return 0;
    if (progress->heldOut.size() > cohort::kMaxHeldOutPoints || progress->better.size() > 400)
        __builtin_trap();
    int previous = 0;
    for (const cohort::HeldOutPoint &p : progress->heldOut) {
        if (p.version <= previous)
            __builtin_trap();
        previous = p.version;
        for (const double share :
             {p.greedyCorrectness, p.greedyFormat, p.greedyReward, p.sampledCorrectness, p.sampledReward})
            if (!std::isfinite(share) || share < 0 || share > 1)
                __builtin_trap();
    }
    (void)progress->toJson();
    return 0;
}
