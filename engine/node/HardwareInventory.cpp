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

qint64 applyGpuMemoryCap(const ComputeInfo &compute, int percent, QString *note)
{
    if (!compute.device.startsWith(QLatin1String("cuda")))
        return 0;
    const int index = compute.device.section(QLatin1Char(':'), 1).toInt();
    const qint64 total = ml::cudaTotalMemory(index);
    if (total <= 0)
        return 0;
    const qint64 budget = gpuBudgetBytes(total, percent);
    std::string error;
    if (!ml::capCudaMemory(index, double(budget) / double(total), &error))
        *note = QStringLiteral("could not cap LibTorch's GPU memory: %1").arg(QString::fromStdString(error));
    else
        *note = QStringLiteral("GPU memory: Cohort may use %1 of %2 GB (%3 %)")
                    .arg(double(budget) / double(1LL << 30), 0, 'f', 1)
                    .arg(double(total) / double(1LL << 30), 0, 'f', 1)
                    .arg(percent);
    return budget;
}

QString applyGpuChoice(const QStringList &gpuUuids)
{
    if (gpuUuids.isEmpty())
        return {};
    const QByteArray wanted = gpuUuids.join(QLatin1Char(',')).toLatin1();
    const QByteArray existing = qgetenv("CUDA_VISIBLE_DEVICES");
    if (!existing.isEmpty() && existing != wanted)
        return QStringLiteral("CUDA_VISIBLE_DEVICES=%1 from the environment wins over the GPUs chosen in the settings")
            .arg(QString::fromLatin1(existing));
    qputenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID");
    qputenv("CUDA_VISIBLE_DEVICES", wanted);
    return QStringLiteral("Compute may use the GPU%1 chosen in the settings: %2")
        .arg(gpuUuids.size() == 1 ? QString() : QStringLiteral("s"), gpuUuids.join(QStringLiteral(", ")));
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
