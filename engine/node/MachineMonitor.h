#pragma once
// What the node reads of its own machine, a part of the engine (node/Engine): the system (CPU, memory, battery, input
// idle) and NVML's GPUs once a second, the chosen GPUs' energy from the stored history once a minute, and, once as it
// starts, the GPU minutes earlier runs stored (for the views' charts). Lives on the engine thread; never blocks on
// more than a small read of the node database, and nothing it fails to read stops the engine.
#include "core/EnergyUse.h"
#include "core/EngineEvent.h"
#include "core/EngineSnapshot.h"
#include "core/Expected.h"
#include "core/GpuHistory.h"
#include "platform/Nvml.h"
#include "platform/SystemSampler.h"

#include <QObject>
#include <QStringList>
#include <QTimer>
#include <memory>
#include <optional>

namespace cohort {

class GpuTelemetry;

class MachineMonitor : public QObject {
    Q_OBJECT
public:
    // dataDir: the node database (GPU history) lives there; nvmlLibrary: what Nvml::open() loads.
    MachineMonitor(QString dataDir, QString nvmlLibrary, QObject *parent = nullptr);
    ~MachineMonitor() override;

    // Opens NVML and the history, says what earlier runs stored (historyLoaded), then reads at once and every second.
    // The energy counts the GPUs in `energyGpus` (NVML UUIDs; empty: all).
    void start(const QStringList &energyGpus);
    void stop();
    void setEnergyGpus(const QStringList &uuids); // reads the energy again at once

    const SystemSample &system() const { return m_system; }
    const QList<GpuSample> &gpus() const { return m_gpus; }
    const std::optional<EnergyUse> &energy() const { return m_energy; }
    QString gpuNote() const; // why there are no (or only partial) GPU readings; empty when all is well
    Expected<QList<GpuProcess>> gpuProcesses(); // the processes on the GPUs, for "pause while the GPU is busy"

Q_SIGNALS:
    void sampled(); // system() and gpus() are new
    void energyChanged();
    void historyLoaded(const QList<cohort::GpuHistoryRecord> &minutes);
    void eventOccurred(const cohort::EngineEvent &event);

private:
    void sample();
    void readEnergy();

    QString m_dataDir;
    QString m_nvmlLibrary;
    QStringList m_energyGpus;
    std::unique_ptr<SystemSampler> m_sampler;
    std::unique_ptr<GpuTelemetry> m_gpu; // NVML readings and their stored history (GpuTelemetry.h)
    QTimer m_sampleTimer;
    QTimer m_energyTimer;
    SystemSample m_system;
    QList<GpuSample> m_gpus;
    std::optional<EnergyUse> m_energy;
};

} // namespace cohort
