#include "node/HardwareInventory.h"

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
    out.json = QJsonObject{
        {QStringLiteral("backend"), info.cudaAvailable ? QStringLiteral("cuda") : QStringLiteral("cpu")},
        {QStringLiteral("torch_version"), QString::fromStdString(info.version)},
        {QStringLiteral("threads"), info.intraOpThreads},
        {QStringLiteral("cuda_devices"), info.cudaDeviceCount},
        {QStringLiteral("self_test"), info.selfTestPassed},
    };
    if (!info.error.empty())
        out.json.insert(QStringLiteral("error"), QString::fromStdString(info.error));
    return out;
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
