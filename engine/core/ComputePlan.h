#pragma once
// Which compute workers a node runs: one per GPU the user allows (Settings → Compute), each with its own share of
// that GPU's memory, or one on the CPU when there is no GPU to compute on. Pure: the engine gives it what CUDA and
// NVML see and the settings, and starts, keeps or stops a rollout loop per worker (node/RolloutFleet).
//
// GPUs are matched by UUID, never by index: CUDA numbers the devices it shows in its own order (fastest first unless
// CUDA_DEVICE_ORDER says otherwise, and only those CUDA_VISIBLE_DEVICES names), NVML in PCI order. The UUID of CUDA
// device k (cudaDeviceProp::uuid) is NVML's "GPU-…" string, so the worker on "cuda:k" is the GPU whose NVML UUID
// that is, whatever the environment of the process.
#include "core/EngineSnapshot.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace cohort {

struct ComputeWorkerSpec {
    QString gpuUuid;             // NVML's "GPU-…"; empty: the CPU worker
    QString name;                // "NVIDIA GeForce RTX 4090", "CPU"
    QString device;              // where its policy runs, as LibTorch names it: "cuda:1", "cpu"
    int cudaIndex = -1;          // -1: the CPU
    qint64 memoryTotalBytes = 0; // NVML's figure; 0: unknown
    int memoryPercent = 0;       // the share of its memory generation may use (0 on the CPU)
    bool operator==(const ComputeWorkerSpec &) const = default;
};

struct ComputePlan {
    QList<ComputeWorkerSpec> workers; // never empty: at least the CPU
    QString note;                     // what the user should hear about the choice (a chosen GPU missing); may be empty
};

// cudaUuids: the UUID of each CUDA device in CUDA's order (empty without CUDA); nvmlGpus: NVML's reading (names,
// memory); chosen: the GPUs the settings allow (empty: all); memoryPercent: the share for every GPU, perGpuPercent:
// a share of its own for some (by UUID). With CUDA but none of the chosen GPUs among its devices, the CPU computes
// and the note says why.
ComputePlan planCompute(const QStringList &cudaUuids, const QList<GpuSample> &nvmlGpus, const QStringList &chosen,
                        int memoryPercent, const QMap<QString, int> &perGpuPercent = {});

} // namespace cohort
