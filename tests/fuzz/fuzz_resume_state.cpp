// The engine bundle's state (node/ResumeBundle) brings back the work items in hand, one per compute worker, and the
// GPUs the user paused on their own, read from disk at every start, after crashes and disk faults. Any bytes as the
// state's JSON must give at most kMaxBundledWork well-formed items and kMaxBundledPausedGpus bounded GPU names, and
// what comes back must be written and read back unchanged.
#include "core/JsonReader.h"
#include "core/TaskInfo.h"
#include "node/RolloutCommons.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    auto object = cohort::parseJsonObject(bytes, 1 << 20);
    if (!object)
        return 0;
    const QList<cohort::RolloutWorkItem> work = cohort::workFromState(*object);
    const QStringList gpus = cohort::pausedGpusFromState(*object);
    if (work.size() > cohort::kMaxBundledWork || gpus.size() > cohort::kMaxBundledPausedGpus)
        __builtin_trap();
    for (const cohort::RolloutWorkItem &w : work)
        if (w.workId.isEmpty() || w.workId.size() > 64 || w.step <= 0 || !cohort::TaskInfo::isValidId(w.taskId))
            __builtin_trap();
    for (const QString &g : gpus)
        if (g.isEmpty() || g.size() > 128)
            __builtin_trap();
    QJsonObject again;
    cohort::writeWorkState(again, work, gpus);
    if (cohort::workFromState(again) != work || cohort::pausedGpusFromState(again) != gpus)
        __builtin_trap();
    return 0;
}
