#include "core/EnergyUse.h"

#include "core/GpuHistory.h"

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

} // namespace cohort
