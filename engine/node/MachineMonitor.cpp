#include "node/MachineMonitor.h"

#include "core/Logging.h"
#include "node/GpuTelemetry.h"
#include "store/EarningsStore.h" // its default path: the GPU history lives in the same database

namespace cohort {

MachineMonitor::MachineMonitor(QString dataDir, QString nvmlLibrary, QObject *parent)
    : QObject(parent),
      m_dataDir(std::move(dataDir)),
      m_nvmlLibrary(std::move(nvmlLibrary)),
      // Parented so that moveToThread() takes the timers along to the engine thread.
      m_sampleTimer(this),
      m_energyTimer(this)
{
    m_sampleTimer.setInterval(1000);
    connect(&m_sampleTimer, &QTimer::timeout, this, &MachineMonitor::sample);
    // The stored history gains one row per GPU per minute; reading it more often would show nothing new.
    m_energyTimer.setInterval(std::chrono::minutes(1));
    connect(&m_energyTimer, &QTimer::timeout, this, &MachineMonitor::readEnergy);
}

MachineMonitor::~MachineMonitor() = default; // GpuTelemetry stores the minute in progress

void MachineMonitor::start(const QStringList &energyGpus)
{
    m_energyGpus = energyGpus;
    m_sampler = createSystemSampler();
    m_gpu = std::make_unique<GpuTelemetry>(m_nvmlLibrary, EarningsStore::defaultPath(m_dataDir));
    // What earlier runs stored, for the views (they never open the database): ahead of the first reading, so the
    // charts hold the earlier minutes before this run's readings arrive.
    Q_EMIT historyLoaded(m_gpu->takeStoredMinutes());
    readEnergy();
    m_energyTimer.start();
    sample();
    m_sampleTimer.start();
}

void MachineMonitor::stop()
{
    m_sampleTimer.stop();
    m_energyTimer.stop();
}

void MachineMonitor::setEnergyGpus(const QStringList &uuids)
{
    m_energyGpus = uuids;
    if (m_gpu)
        readEnergy();
}

QString MachineMonitor::gpuNote() const
{
    return m_gpu ? m_gpu->note() : QString();
}

Expected<QList<GpuProcess>> MachineMonitor::gpuProcesses()
{
    return m_gpu ? m_gpu->processes() : fail(QStringLiteral("GPU telemetry has not started"));
}

void MachineMonitor::sample()
{
    m_system = m_sampler->sample();
    m_gpus = m_gpu->sample();
    for (EngineEvent &event : m_gpu->takeEvents())
        Q_EMIT eventOccurred(event);
    Q_EMIT sampled();
}

void MachineMonitor::readEnergy()
{
    // A small read of the database this thread writes the history to anyway; failing, the last figures stay.
    const auto energy = m_gpu->energy(m_energyGpus);
    if (!energy) {
        qCWarning(lcEngine) << "GPU energy:" << energy.error();
        return;
    }
    if (m_energy == *energy)
        return;
    m_energy = *energy;
    Q_EMIT energyChanged();
}

} // namespace cohort
