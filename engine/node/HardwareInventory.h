#pragma once
// The machine description sent with registration and heartbeats; GPUs from NVML (GpuTelemetry's first reading).
#include "core/ComputePlan.h"
#include "core/EngineSnapshot.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace cohort {

struct ComputeInfo {
    QString description;                    // "CPU (LibTorch 1.13.1, 2 threads)"
    QString device = QStringLiteral("cpu"); // where models run: "cpu", "cuda:0"
    QString dtype = QStringLiteral("float32");
    QStringList cudaUuids; // each CUDA device's UUID, in CUDA's order (ml::cudaDeviceUuids); empty without CUDA
    QJsonObject json;
};

ComputeInfo probeCompute(); // runs a tiny LibTorch self-test; call off the GUI thread
// The share of a GPU worker's memory its generation may use (its memoryPercent, core/MemoryBudget), also set as the
// cap of LibTorch's CUDA allocator on that device. 0 for the CPU worker or when the GPU's memory is unknown. `note`
// says what was done, for the activity log. A stand-in (testingGpusOnCpu) is given its share of NVML's total and caps
// no allocator.
qint64 applyGpuMemoryCap(const ComputeWorkerSpec &worker, bool standIn, QString *note);
// gpus: index, name, uuid, vram_mb and power_limit_w of each (what NVML could not read is left out).
QJsonObject hardwareInventory(const ComputeInfo &compute, qint64 memTotalBytes, const QList<GpuSample> &gpus = {});

} // namespace cohort
