#include "node/HardwareInventory.h"

#include "core/MemoryBudget.h"

#include "ml/TorchRuntime.h"

#include <QJsonArray>
#include <QSysInfo>
#include <QThread>

namespace cohort {

ComputeInfo probeCompute()
{
    const ml::TorchRuntimeInfo info = ml::torchRuntimeInfo();
    ComputeInfo out;
    out.description = QString::fromStdString(ml::describe(info));
    const ml::ComputeDevice chosen = ml::chooseComputeDevice(info);
    out.device = QString::fromStdString(chosen.device);
    out.dtype = QString::fromStdString(chosen.dtype);
    for (const std::string &uuid : ml::cudaDeviceUuids())
        out.cudaUuids.append(QString::fromStdString(uuid));
    out.json = QJsonObject{
        {QStringLiteral("backend"), info.cudaAvailable ? QStringLiteral("cuda") : QStringLiteral("cpu")},
        {QStringLiteral("torch_version"), QString::fromStdString(info.version)},
        {QStringLiteral("threads"), info.intraOpThreads},
        {QStringLiteral("cuda_devices"), info.cudaDeviceCount},
        {QStringLiteral("self_test"), info.selfTestPassed},
        {QStringLiteral("device"), out.device},
        {QStringLiteral("dtype"), out.dtype},
    };
    if (!info.error.empty())
        out.json.insert(QStringLiteral("error"), QString::fromStdString(info.error));
    return out;
}

qint64 applyGpuMemoryCap(const ComputeWorkerSpec &worker, bool standIn, QString *note)
{
    if (worker.cudaIndex < 0)
        return 0;
    const qint64 total = standIn ? worker.memoryTotalBytes : ml::cudaTotalMemory(worker.cudaIndex);
    if (total <= 0)
        return 0;
    const qint64 budget = gpuBudgetBytes(total, worker.memoryPercent);
    std::string error;
    if (!standIn && !ml::capCudaMemory(worker.cudaIndex, double(budget) / double(total), &error))
        *note = QStringLiteral("%1: could not cap LibTorch's GPU memory: %2")
                    .arg(worker.name, QString::fromStdString(error));
    else
        *note = QStringLiteral("%1 (%2): Cohort may use %3 of %4 GB of its memory (%5 %)")
                    .arg(worker.name, worker.device)
                    .arg(double(budget) / double(1LL << 30), 0, 'f', 1)
                    .arg(double(total) / double(1LL << 30), 0, 'f', 1)
                    .arg(worker.memoryPercent);
    return budget;
}

QJsonObject hardwareInventory(const ComputeInfo &compute, qint64 memTotalBytes, const QList<GpuSample> &gpus)
{
    QJsonArray gpuList;
    for (const GpuSample &g : gpus) {
        QJsonObject o{{QStringLiteral("index"), g.index}, {QStringLiteral("name"), g.name}};
        if (!g.uuid.isEmpty())
            o.insert(QStringLiteral("uuid"), g.uuid);
        if (g.memoryTotalBytes)
            o.insert(QStringLiteral("vram_mb"), *g.memoryTotalBytes / (1024 * 1024));
        if (g.powerLimitW)
            o.insert(QStringLiteral("power_limit_w"), *g.powerLimitW);
        gpuList.append(o);
    }
    return QJsonObject{
        {QStringLiteral("os"), QSysInfo::prettyProductName()},
        {QStringLiteral("kernel"), QSysInfo::kernelVersion()},
        {QStringLiteral("arch"), QSysInfo::currentCpuArchitecture()},
        {QStringLiteral("cpu_cores"), QThread::idealThreadCount()},
        {QStringLiteral("ram_mb"), memTotalBytes / (1024 * 1024)},
        {QStringLiteral("compute"), compute.json},
        {QStringLiteral("gpus"), gpuList},
    };
}

} // namespace cohort
