#include "platform/PowerSource.h"

#include <QDir>
#include <QFile>

#ifdef Q_OS_WIN
#  define NOMINMAX
#  include <windows.h>
#endif

namespace cohort {

namespace {
QString readLine(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLatin1(f.readLine(64)).trimmed();
}
} // namespace

PowerStatus readPowerStatus(const QString &sysfsRoot)
{
    PowerStatus status;
#if defined(Q_OS_WIN)
    Q_UNUSED(sysfsRoot);
    SYSTEM_POWER_STATUS s;
    if (GetSystemPowerStatus(&s)) {
        status.hasBattery = s.BatteryFlag != 128 && s.BatteryFlag != 255; // 128: no system battery, 255: unknown
        if (s.ACLineStatus == 0 || s.ACLineStatus == 1)
            status.onBattery = s.ACLineStatus == 0;
        if (s.BatteryLifePercent <= 100)
            status.batteryPercent = s.BatteryLifePercent;
    }
#else
    // Linux: a mains adapter that is online means mains; batteries that discharge without one mean battery.
    // Desktops have no battery at all: "not on battery".
    const QDir dir(
        QDir(sysfsRoot.isEmpty() ? QStringLiteral("/sys/class") : sysfsRoot).filePath(QStringLiteral("power_supply")));
    bool anyMains = false, mainsOnline = false, discharging = false;
    for (const QString &name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString base = dir.filePath(name) + QLatin1Char('/');
        const QString type = readLine(base + QStringLiteral("type"));
        if (type == QLatin1String("Mains")) {
            anyMains = true;
            mainsOnline = mainsOnline || readLine(base + QStringLiteral("online")) == QLatin1String("1");
        } else if (type == QLatin1String("Battery") &&
                   readLine(base + QStringLiteral("scope")) != QLatin1String("Device")) {
            // scope=Device: a mouse or headset battery, not the machine's.
            status.hasBattery = true;
            discharging = discharging || readLine(base + QStringLiteral("status")) == QLatin1String("Discharging");
            bool ok = false;
            const int percent = readLine(base + QStringLiteral("capacity")).toInt(&ok);
            if (ok)
                status.batteryPercent = percent;
        }
    }
    if (anyMains)
        status.onBattery = !mainsOnline && status.hasBattery;
    else if (status.hasBattery)
        status.onBattery = discharging;
    else
        status.onBattery = false;
#endif
    return status;
}

} // namespace cohort
