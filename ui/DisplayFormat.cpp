#include "ui/DisplayFormat.h"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

#include <cmath>

namespace cohort::display {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("cohort::display", text);
}
} // namespace

QString bytes(qint64 value)
{
    // IEC units (GiB) because that is what the OS's own memory tools show. Whole numbers drop the
    // ".0" so requirements read "4 GiB", while measurements keep one decimal.
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double amount = double(value);
    int unit = 0;
    while (std::abs(amount) >= 1024.0 && unit < 4) {
        amount /= 1024.0;
        ++unit;
    }
    const bool whole = unit == 0 || std::abs(amount - std::round(amount)) < 0.05;
    return QLocale().toString(amount, 'f', whole ? 0 : 1) + QLatin1Char(' ') + QLatin1String(units[unit]);
}

QString cpuUsage(const SystemSample &sample)
{
    // The engine needs two readings to compute a utilisation; say so rather than show a fake 0%.
    if (sample.cpuPercent < 0)
        return tr("measuring…");
    const QString percent = QLocale().toString(sample.cpuPercent, 'f', 0) + QLatin1Char('%');
    if (sample.cpuCores <= 0)
        return percent;
    return sample.cpuCores == 1 ? tr("%1 of 1 core").arg(percent)
                                : tr("%1 of %2 cores").arg(percent).arg(sample.cpuCores);
}

QString memoryUsage(const SystemSample &sample)
{
    if (sample.memTotalBytes <= 0)
        return tr("unknown");
    const int percent = int(100.0 * double(sample.memUsedBytes) / double(sample.memTotalBytes) + 0.5);
    return tr("%1 of %2 (%3%)").arg(bytes(sample.memUsedBytes), bytes(sample.memTotalBytes)).arg(percent);
}

QString moment(const QDateTime &time, const QDateTime &now)
{
    if (!time.isValid())
        return tr("never");
    const QDateTime local = time.toLocalTime();
    // Today only needs the clock (with seconds: heartbeats are seconds apart); anything older needs
    // its date so nobody mistakes it for today.
    if (local.date() == now.toLocalTime().date())
        return local.toString(QStringLiteral("HH:mm:ss"));
    return QLocale().toString(local, QLocale::ShortFormat);
}

QString hubDescription(const EngineSnapshot &snapshot)
{
    if (snapshot.hubEmbedded) {
        if (snapshot.hubUrl.isEmpty())
            return tr("Local network (embedded)");
        return tr("Local network (embedded) at %1").arg(snapshot.hubUrl);
    }
    return snapshot.hubUrl.isEmpty() ? tr("not connected yet") : snapshot.hubUrl;
}

QString taskKind(const QString &kind)
{
    if (kind == QLatin1String("rl"))
        return tr("RL rollouts");
    if (kind == QLatin1String("diloco"))
        return tr("DiLoCo training");
    return kind;
}

QString taskKindShort(const QString &kind)
{
    if (kind == QLatin1String("rl"))
        return tr("RL");
    if (kind == QLatin1String("diloco"))
        return tr("DiLoCo");
    return kind;
}

QString taskReward(const TaskInfo &task)
{
    const QString unit = task.rewardUnit.isEmpty() ? tr("credits") : task.rewardUnit;
    const QString rate = QLocale().toString(task.rewardRate, 'g', 4);
    // The catalogue defines the rate per 1,000 verified tokens for RL and per verified inner step for DiLoCo.
    if (task.kind == QLatin1String("diloco"))
        return tr("%1 %2 / verified step").arg(rate, unit);
    return tr("%1 %2 / 1k verified tokens").arg(rate, unit);
}

QString taskRequirements(const TaskRequirements &r)
{
    QStringList parts;
    parts << (r.minCpuCores == 1 ? tr("1+ CPU core") : tr("%1+ CPU cores").arg(r.minCpuCores));
    if (r.minRamMb > 0)
        parts << tr("%1 RAM").arg(bytes(r.minRamMb * 1024 * 1024));
    if (r.gpuRequired)
        parts << (r.minVramMb > 0 ? tr("GPU (%1)").arg(bytes(r.minVramMb * 1024 * 1024)) : tr("GPU"));
    else
        parts << tr("no GPU needed");
    if (r.diskMb > 0)
        parts << tr("%1 disk").arg(bytes(r.diskMb * 1024 * 1024));
    return parts.join(QStringLiteral(", "));
}

QString taskRequirementsBrief(const TaskRequirements &r)
{
    QStringList parts;
    parts << (r.minCpuCores == 1 ? tr("1+ core") : tr("%1+ cores").arg(r.minCpuCores));
    if (r.minRamMb > 0)
        parts << tr("%1 RAM").arg(bytes(r.minRamMb * 1024 * 1024));
    if (r.gpuRequired)
        parts << (r.minVramMb > 0 ? tr("GPU %1").arg(bytes(r.minVramMb * 1024 * 1024)) : tr("GPU"));
    return parts.join(QStringLiteral(" · "));
}

QString taskTitle(const QList<TaskInfo> &tasks, const QString &taskId)
{
    if (taskId.isEmpty())
        return tr("none");
    for (const TaskInfo &task : tasks) {
        if (task.id == taskId)
            return task.title;
    }
    return taskId; // the catalogue has not arrived yet; the id is still better than nothing
}

} // namespace cohort::display
