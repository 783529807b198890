#include "ui/EnergyUse.h"

#include <QtNumeric>

namespace cohort {

EnergyUse energyUse(const QList<GpuHistoryRecord> &minutes, const QStringList &gpuUuids, qint64 now, qint64 todayStart)
{
    EnergyUse use;
    const qint64 weekStart = now - 7 * 24 * 3600;
    for (const GpuHistoryRecord &m : minutes) {
        if (m.point.time < weekStart || m.point.time >= now || qIsNaN(m.point.powerW))
            continue;
        if (!gpuUuids.isEmpty() && !gpuUuids.contains(m.gpu))
            continue;
        use.hasReadings = true;
        const double wh = m.point.powerW * m.point.samples / 3600.0; // 1 Hz readings: samples are seconds
        use.weekWh += wh;
        if (m.point.time >= todayStart)
            use.todayWh += wh;
    }
    return use;
}

NetEarnings netOfEnergy(const EnergyUse &energy, double creditsToday, double creditsWeek, double pricePerKWh, double creditValue)
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
