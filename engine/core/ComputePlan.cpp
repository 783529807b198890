#include "core/ComputePlan.h"

#include <QCoreApplication>

namespace cohort {

namespace {
const GpuSample *nvmlGpu(const QList<GpuSample> &gpus, const QString &uuid)
{
    for (const GpuSample &g : gpus)
        if (!uuid.isEmpty() && g.uuid == uuid)
            return &g;
    return nullptr;
}

ComputeWorkerSpec cpuWorker()
{
    return {QString(), QStringLiteral("CPU"), QStringLiteral("cpu"), -1, 0, 0};
}
} // namespace

ComputePlan planCompute(const QStringList &cudaUuids, const QList<GpuSample> &nvmlGpus, const QStringList &chosen,
                        int memoryPercent, const QMap<QString, int> &perGpuPercent)
{
    ComputePlan plan;
    for (int k = 0; k < cudaUuids.size(); ++k) {
        const QString &uuid = cudaUuids[k];
        if (!chosen.isEmpty() && !chosen.contains(uuid))
            continue;
        ComputeWorkerSpec w;
        w.gpuUuid = uuid;
        w.device = QStringLiteral("cuda:%1").arg(k);
        w.cudaIndex = k;
        const GpuSample *seen = nvmlGpu(nvmlGpus, uuid);
        w.name = seen && !seen->name.isEmpty() ? seen->name : QStringLiteral("CUDA device %1").arg(k);
        w.memoryTotalBytes = seen && seen->memoryTotalBytes ? *seen->memoryTotalBytes : 0;
        w.memoryPercent = perGpuPercent.value(uuid, memoryPercent);
        plan.workers.append(w);
    }
    if (plan.workers.isEmpty()) {
        plan.workers.append(cpuWorker());
        if (!cudaUuids.isEmpty())
            plan.note = QCoreApplication::translate(
                            "cohort::Engine",
                            "None of the GPUs chosen in the settings is here (%1): Cohort computes on the CPU")
                            .arg(chosen.join(QStringLiteral(", ")));
    }
    return plan;
}

} // namespace cohort
