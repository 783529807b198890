#pragma once
// The machine description sent with registration and heartbeats; GPUs from NVML (GpuTelemetry's first reading).
#include "core/EngineSnapshot.h"

#include <QJsonObject>
#include <QString>

namespace cohort {

struct ComputeInfo {
    QString description;  // "CPU (LibTorch 1.13.1, 2 threads)"
    QJsonObject json;
};

ComputeInfo probeCompute(); // runs a tiny LibTorch self-test; call off the GUI thread
// gpus: index, name, uuid, vram_mb and power_limit_w of each (what NVML could not read is left out).
QJsonObject hardwareInventory(const ComputeInfo &compute, qint64 memTotalBytes, const QList<GpuSample> &gpus = {});

} // namespace cohort
