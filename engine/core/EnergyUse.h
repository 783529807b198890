#pragma once
// Energy the GPUs drew: summed from the stored GPU minutes (GpuHistoryStore, each minute's mean NVML power times the
// seconds it was read, the same rule as GpuHistoryStore::energyWattHours), for the GPUs Cohort may use. The engine
// reads it once a minute (GpuTelemetry) and publishes it in the snapshot; the Earnings page shows it and its cost.
// Pure function on explicit times, so tests feed it tables.
#include <QList>
#include <QStringList>

namespace cohort {

struct GpuHistoryRecord; // core/GpuHistory.h, which needs EngineSnapshot.h: this header is part of the snapshot

struct EnergyUse {
    bool hasReadings = false; // at least one minute with a power reading in the week: without, energy is unknown, not 0
    double todayWh = 0;       // since 00:00 UTC (the ledger's "today")
    double weekWh = 0;        // the last 7 days (GpuHistoryStore keeps no more)
    bool operator==(const EnergyUse &) const = default;
};

// gpuUuids: the GPUs to count (Settings::gpuUuids); empty: all. now, todayStart: seconds since the epoch.
EnergyUse energyUse(const QList<GpuHistoryRecord> &minutes, const QStringList &gpuUuids, qint64 now, qint64 todayStart);

} // namespace cohort
