#pragma once
// The machine description sent with registration and heartbeats; GPUs from NVML (GpuTelemetry's first reading).
#include "core/EngineSnapshot.h"

#include <QJsonObject>
#include <QStringList>
#include <QString>

namespace cohort {

struct ComputeInfo {
    QString description;  // "CPU (LibTorch 1.13.1, 2 threads)"
    QString device = QStringLiteral("cpu"); // where models run: "cpu", "cuda:0"
    QString dtype = QStringLiteral("float32");
    QJsonObject json;
};

ComputeInfo probeCompute(); // runs a tiny LibTorch self-test; call off the GUI thread
// Makes the GPUs the user allowed (NVML UUIDs; empty: all) the only ones CUDA shows this process, by
// CUDA_VISIBLE_DEVICES (which takes UUIDs) with PCI bus order. Must run before CUDA starts in the process (the
// first probeCompute); a later change applies at the next start. A CUDA_VISIBLE_DEVICES already in the environment
// (set by the operator) wins. Returns what was done, for the activity log; empty when nothing was to do.
QString applyGpuChoice(const QStringList &gpuUuids);
// The share of the compute GPU's memory generation may use (`percent` of it, core/MemoryBudget), also set as the cap
// of LibTorch's CUDA allocator. 0 when computing on the CPU or when the GPU's memory is unknown. `note` says what
// was done, for the activity log.
qint64 applyGpuMemoryCap(const ComputeInfo &compute, int percent, QString *note);
// gpus: index, name, uuid, vram_mb and power_limit_w of each (what NVML could not read is left out).
QJsonObject hardwareInventory(const ComputeInfo &compute, qint64 memTotalBytes, const QList<GpuSample> &gpus = {});

} // namespace cohort
