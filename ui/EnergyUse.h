#pragma once
// Energy the GPUs drew and what it cost, for the Earnings page: summed from the stored GPU minutes (GpuHistoryStore,
// each minute's mean NVML power times the seconds it was read, the same rule as GpuHistoryStore::energyWattHours),
// for the GPUs Cohort may use. Pure functions on explicit times, so tests feed them tables.
#include "core/GpuHistory.h"

#include <QStringList>
#include <optional>

namespace cohort {

struct EnergyUse {
    bool hasReadings = false; // at least one minute with a power reading in the week: without, energy is unknown, not 0
    double todayWh = 0;       // since 00:00 UTC (the ledger's "today")
    double weekWh = 0;        // the last 7 days (GpuHistoryStore keeps no more)
    bool operator==(const EnergyUse &) const = default;
};

// gpuUuids: the GPUs to count (Settings::gpuUuids); empty: all. now, todayStart: seconds since the epoch.
EnergyUse energyUse(const QList<GpuHistoryRecord> &minutes, const QStringList &gpuUuids, qint64 now, qint64 todayStart);

struct NetEarnings {
    double costToday = 0;               // in the tariff's currency
    double costWeek = 0;
    std::optional<double> netToday;     // earnings (pending + confirmed) x credit value - cost; nullopt: no credit value
    std::optional<double> netWeek;
};

// pricePerKWh > 0 required; creditValue 0: unknown (then only the cost).
NetEarnings netOfEnergy(const EnergyUse &energy, double creditsToday, double creditsWeek, double pricePerKWh, double creditValue);

} // namespace cohort
