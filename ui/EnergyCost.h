#pragma once
// What the GPUs' energy cost and the earnings net of it, for the Earnings page: the engine's EnergyUse (in the
// snapshot) priced with the electricity tariff from Settings. Pure function, so tests feed it values.
#include "core/EnergyUse.h"

#include <optional>

namespace cohort {

struct NetEarnings {
    double costToday = 0; // in the tariff's currency
    double costWeek = 0;
    std::optional<double> netToday; // earnings (pending + confirmed) x credit value - cost; nullopt: no credit value
    std::optional<double> netWeek;
};

// pricePerKWh > 0 required; creditValue 0: unknown (then only the cost).
NetEarnings netOfEnergy(const EnergyUse &energy, double creditsToday, double creditsWeek, double pricePerKWh,
                        double creditValue);

} // namespace cohort
