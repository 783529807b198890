#pragma once
// The engine's GPU telemetry: NVML read once a second (node/MachineMonitor on the engine thread), the readings kept
// in memory (GpuHistory: 5 min at 1 Hz, 1 h and 24 h averaged) and, a row per GPU per minute, in the node database
// (GpuHistoryStore, 7 days). What earlier runs stored is read here too, for the views: the last day's minutes once
// (the GPU charts) and the week's energy (the Earnings page), so the UI never opens the database. Without NVML there
// are no GPU readings and note() says so in words; nothing here ever stops the engine. Use from one thread (the
// SQLite connection is bound to the thread that opened it).
#include "core/EnergyUse.h"
#include "core/EngineEvent.h"
#include "core/EngineSnapshot.h"
#include "core/Expected.h"
#include "core/GpuHistory.h"
#include "platform/Nvml.h"

#include <QDateTime>
#include <QList>
#include <memory>
#include <utility>

namespace cohort {

class GpuHistoryStore;
class Nvml;

class GpuTelemetry {
public:
    static constexpr int kPruneEverySeconds = 60 * 60;

    // nvmlLibrary: what Nvml::open() loads (Nvml::defaultLibrary()); databasePath empty: nothing kept on disk.
    GpuTelemetry(const QString &nvmlLibrary, const QString &databasePath,
                 qint64 now = QDateTime::currentSecsSinceEpoch());
    ~GpuTelemetry(); // stores the minute in progress
    GpuTelemetry(const GpuTelemetry &) = delete;
    GpuTelemetry &operator=(const GpuTelemetry &) = delete;

    bool hasNvml() const { return m_nvml != nullptr; }
    // Empty when every GPU value can be read; otherwise why not, for people ("No NVML (…): CPU and memory only").
    QString note() const { return m_note; }
    // Reads every GPU, adds the reading to the history and stores finished minutes.
    QList<GpuSample> sample(qint64 now = QDateTime::currentSecsSinceEpoch());
    const GpuHistory &history() const { return m_history; }
    // The minutes of the last day stored by earlier runs, as read at construction; handed over once (they seed the
    // views' hour and day charts), empty after.
    QList<GpuHistoryRecord> takeStoredMinutes() { return std::exchange(m_storedMinutes, {}); }
    // The energy the GPUs in gpuUuids (empty: all) drew today and in the 7 days before `now`, from the stored minutes:
    // one read of the database. No readings when nothing is stored; an error when the database cannot be read.
    Expected<EnergyUse> energy(const QStringList &gpuUuids, qint64 now = QDateTime::currentSecsSinceEpoch()) const;
    // The processes on the GPUs (Nvml::processes), for "pause while another program uses the GPU".
    Expected<QList<GpuProcess>> processes();
    // What happened worth telling the activity log (what was found at start, a history that cannot be stored).
    QList<EngineEvent> takeEvents();

private:
    void store(const QList<GpuHistoryRecord> &minutes);
    void prune(qint64 now);

    std::unique_ptr<Nvml> m_nvml;
    std::unique_ptr<GpuHistoryStore> m_store;
    GpuHistory m_history;
    QList<GpuHistoryRecord> m_storedMinutes; // until takeStoredMinutes()
    QString m_note;
    QList<EngineEvent> m_events;
    qint64 m_lastPrune = 0;
    bool m_storeFailed = false; // said once, not every minute
};

} // namespace cohort
