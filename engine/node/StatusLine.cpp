#include "node/StatusLine.h"

namespace cohort {

QString humanBytes(qint64 bytes)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = double(bytes);
    int unit = 0;
    while (value >= 1024 && unit < 4) {
        value /= 1024;
        ++unit;
    }
    return QString::number(value, 'f', unit == 0 ? 0 : 1) + QLatin1Char(' ') + QLatin1String(units[unit]);
}

QString statusLine(const EngineSnapshot &s, qint64 elapsedSeconds)
{
    const QString elapsed = QStringLiteral("%1:%2")
                                .arg(elapsedSeconds / 60, 2, 10, QLatin1Char('0'))
                                .arg(elapsedSeconds % 60, 2, 10, QLatin1Char('0'));
    QString line = QStringLiteral("[%1] %2 — %3").arg(elapsed, nodeStateTitle(s.state), s.why);
    if (s.system.cpuPercent >= 0)
        line += QStringLiteral(" | CPU %1%").arg(s.system.cpuPercent, 0, 'f', 0);
    if (s.system.memTotalBytes > 0)
        line +=
            QStringLiteral(" | RAM %1/%2").arg(humanBytes(s.system.memUsedBytes), humanBytes(s.system.memTotalBytes));
    for (const GpuSample &g : s.gpus) { // "GPU0 87% 71°C 350 W"; what NVML could not read is left out
        QStringList parts;
        if (g.utilizationPercent)
            parts << QStringLiteral("%1%").arg(*g.utilizationPercent);
        if (g.temperatureC)
            parts << QStringLiteral("%1°C").arg(*g.temperatureC);
        if (g.powerW)
            parts << QStringLiteral("%1 W").arg(*g.powerW, 0, 'f', 0);
        line += QStringLiteral(" | GPU%1 %2")
                    .arg(g.index)
                    .arg(parts.isEmpty() ? QStringLiteral("?") : parts.join(QLatin1Char(' ')));
    }
    if (!s.tasks.isEmpty())
        line += QStringLiteral(" | %1 tasks").arg(s.tasks.size());
    if (!s.nodeId.isEmpty())
        line += QStringLiteral(" | node %1").arg(s.nodeId);
    return line;
}

} // namespace cohort
