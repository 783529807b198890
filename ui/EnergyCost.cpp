#include "ui/EnergyCost.h"

namespace cohort {

NetEarnings netOfEnergy(const EnergyUse &energy, double creditsToday, double creditsWeek, double pricePerKWh,
                        double creditValue)
{
    NetEarnings net;
    net.costToday = energy.todayWh / 1000.0 * pricePerKWh;
    net.costWeek = energy.weekWh / 1000.0 * pricePerKWh;
    if (creditValue > 0) {
        net.netToday = creditsToday * creditValue - net.costToday;
        net.netWeek = creditsWeek * creditValue - net.costWeek;
    }
    return net;
}

} // namespace cohort
