#include "settings/Settings.h"

#include "core/Logging.h"
#include "core/Scheduler.h"
#include "settings/SettingsMigrations.h"

#include <QDir>
#include <QFileInfo>
#include <QSysInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QUrl>

namespace cohort {

namespace {
const QString kHubUrl = QStringLiteral("network/hubUrl");
const QString kDataDir = QStringLiteral("storage/dataDir");
const QString kNodeName = QStringLiteral("node/name");
const QString kStartMinimized = QStringLiteral("ui/startMinimized");
const QString kWelcomed = QStringLiteral("ui/welcomed");
const QString kDownloadLimit = QStringLiteral("network/downloadLimitKiBps");
const QString kIdleOnly = QStringLiteral("schedule/runOnlyWhenIdle");
const QString kIdleMinutes = QStringLiteral("schedule/idleMinutes");
const QString kPauseOnBattery = QStringLiteral("schedule/pauseOnBattery");
const QString kSchedule = QStringLiteral("schedule/windows");
const QString kGpuTempLimit = QStringLiteral("limits/gpuTempLimitC");
const QString kGpuPowerLimit = QStringLiteral("limits/gpuPowerLimitW");
const QString kDiskCap = QStringLiteral("limits/diskCapGiB");

int intValue(const QSettings &store, const QString &key, int fallback)
{
    bool ok = false;
    const int v = store.value(key, fallback).toInt(&ok);
    return ok ? v : -1; // refused by validate(), with a warning, then the default
}
} // namespace

Settings::Settings(const QString &filePath, QObject *parent)
    : QObject(parent), m_filePath(filePath.isEmpty() ? defaultFilePath() : filePath)
{
    load();
}

QString Settings::defaultFilePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) + QStringLiteral("/Cohort/cohort.ini");
}

QString Settings::defaultDataDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QStringLiteral("/Cohort");
}

SettingsValues Settings::defaults()
{
    return SettingsValues{};
}

QString Settings::normalizedHubUrl(const QString &url)
{
    QString u = url.trimmed();
    while (u.endsWith(QLatin1Char('/')))
        u.chop(1);
    return u;
}

QList<SettingsError> Settings::validate(const SettingsValues &v)
{
    QList<SettingsError> errors;
    const QString hub = normalizedHubUrl(v.hubUrl);
    if (!hub.isEmpty()) {
        const QUrl url(hub, QUrl::StrictMode);
        if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
            errors.append({QStringLiteral("hubUrl"), QStringLiteral("Enter an http:// or https:// address, or leave it empty for the local network.")});
        else if (url.host().isEmpty())
            errors.append({QStringLiteral("hubUrl"), QStringLiteral("The address has no host name.")});
        else if (!url.userInfo().isEmpty())
            errors.append({QStringLiteral("hubUrl"), QStringLiteral("Do not put a user name or password in the address.")});
        else if (url.hasQuery() || url.hasFragment())
            errors.append({QStringLiteral("hubUrl"), QStringLiteral("The address must not contain '?' or '#'.")});
    }
    if (!v.dataDir.isEmpty()) {
        const QFileInfo info(v.dataDir);
        if (!QDir::isAbsolutePath(v.dataDir))
            errors.append({QStringLiteral("dataDir"), QStringLiteral("Choose a full path (an absolute folder).")});
        else if (info.exists() && !info.isDir())
            errors.append({QStringLiteral("dataDir"), QStringLiteral("This path is a file, not a folder.")});
        else if (info.exists() && !info.isWritable())
            errors.append({QStringLiteral("dataDir"), QStringLiteral("This folder is not writable.")});
    }
    if (v.downloadLimitKiBps < 0 || v.downloadLimitKiBps > kMaxDownloadLimitKiBps)
        errors.append({QStringLiteral("downloadLimitKiBps"), QStringLiteral("Use 0 (no limit) up to %1 KiB/s.").arg(kMaxDownloadLimitKiBps)});
    if (v.idleMinutes < 1 || v.idleMinutes > 240)
        errors.append({QStringLiteral("idleMinutes"), QStringLiteral("Use 1 to 240 minutes.")});
    for (const QString &window : v.schedule) {
        QString why;
        if (!ScheduleWindow::fromText(window, &why)) {
            errors.append({QStringLiteral("schedule"), why});
            break;
        }
    }
    if (v.schedule.size() > 28)
        errors.append({QStringLiteral("schedule"), QStringLiteral("Use at most 28 time windows.")});
    if (v.gpuTempLimitC != 0 && (v.gpuTempLimitC < 50 || v.gpuTempLimitC > 100))
        errors.append({QStringLiteral("gpuTempLimitC"), QStringLiteral("Use 0 (no limit) or 50 to 100 °C.")});
    if (v.gpuPowerLimitW != 0 && (v.gpuPowerLimitW < 10 || v.gpuPowerLimitW > 2000))
        errors.append({QStringLiteral("gpuPowerLimitW"), QStringLiteral("Use 0 (no limit) or 10 to 2000 W.")});
    if (v.diskCapGiB < 0 || v.diskCapGiB > 1'000'000)
        errors.append({QStringLiteral("diskCapGiB"), QStringLiteral("Use 0 (no cap) up to 1000000 GiB.")});
    if (v.nodeName.size() > 64)
        errors.append({QStringLiteral("nodeName"), QStringLiteral("Use at most 64 characters.")});
    else {
        for (const QChar c : v.nodeName) {
            if (!c.isPrint()) {
                errors.append({QStringLiteral("nodeName"), QStringLiteral("Use printable characters only.")});
                break;
            }
        }
    }
    return errors;
}

void Settings::load()
{
    const bool existed = QFileInfo::exists(m_filePath);
    QSettings store(m_filePath, QSettings::IniFormat);
    m_versionOnDisk = migrateSettings(store, kCurrentVersion);
    SettingsValues v = defaults();
    v.hubUrl = store.value(kHubUrl, v.hubUrl).toString();
    v.dataDir = store.value(kDataDir, v.dataDir).toString();
    v.nodeName = store.value(kNodeName, v.nodeName).toString();
    v.startMinimized = store.value(kStartMinimized, v.startMinimized).toBool();
    v.welcomed = store.value(kWelcomed, existed).toBool(); // people who already use Cohort are not welcomed again
    if (!existed)
        store.setValue(kWelcomed, false); // the file is created below: keep saying "not welcomed yet" in it
    bool numeric = false;
    v.downloadLimitKiBps = store.value(kDownloadLimit, v.downloadLimitKiBps).toInt(&numeric);
    if (!numeric)
        v.downloadLimitKiBps = -1; // refused below, with a warning
    v.runOnlyWhenIdle = store.value(kIdleOnly, v.runOnlyWhenIdle).toBool();
    v.idleMinutes = intValue(store, kIdleMinutes, v.idleMinutes);
    v.pauseOnBattery = store.value(kPauseOnBattery, v.pauseOnBattery).toBool();
    v.schedule = store.value(kSchedule, v.schedule).toStringList();
    v.gpuTempLimitC = intValue(store, kGpuTempLimit, v.gpuTempLimitC);
    v.gpuPowerLimitW = intValue(store, kGpuPowerLimit, v.gpuPowerLimitW);
    v.diskCapGiB = intValue(store, kDiskCap, v.diskCapGiB);

    // A value that no longer validates (edited by hand, or a folder that became a file) falls back
    // to its default with a warning rather than stopping the app.
    const SettingsValues fallback = defaults();
    for (const SettingsError &e : validate(v)) {
        qCWarning(lcSettings) << "ignoring invalid setting" << e.key << ":" << e.message;
        if (e.key == QLatin1String("hubUrl"))
            v.hubUrl = fallback.hubUrl;
        else if (e.key == QLatin1String("dataDir"))
            v.dataDir = fallback.dataDir;
        else if (e.key == QLatin1String("nodeName"))
            v.nodeName = fallback.nodeName;
        else if (e.key == QLatin1String("downloadLimitKiBps"))
            v.downloadLimitKiBps = fallback.downloadLimitKiBps;
        else if (e.key == QLatin1String("idleMinutes"))
            v.idleMinutes = fallback.idleMinutes;
        else if (e.key == QLatin1String("schedule"))
            v.schedule = fallback.schedule;
        else if (e.key == QLatin1String("gpuTempLimitC"))
            v.gpuTempLimitC = fallback.gpuTempLimitC;
        else if (e.key == QLatin1String("gpuPowerLimitW"))
            v.gpuPowerLimitW = fallback.gpuPowerLimitW;
        else if (e.key == QLatin1String("diskCapGiB"))
            v.diskCapGiB = fallback.diskCapGiB;
    }
    v.hubUrl = normalizedHubUrl(v.hubUrl);
    m_values = v;
    store.sync();
    if (store.status() != QSettings::NoError)
        qCWarning(lcSettings) << "could not write settings file" << m_filePath;
}

QList<SettingsError> Settings::apply(const SettingsValues &requested)
{
    QList<SettingsError> errors = validate(requested);
    if (!errors.isEmpty())
        return errors;
    SettingsValues v = requested;
    v.hubUrl = normalizedHubUrl(v.hubUrl);
    v.nodeName = v.nodeName.trimmed();

    QStringList changedKeys;
    if (v.hubUrl != m_values.hubUrl)
        changedKeys << QStringLiteral("hubUrl");
    if (v.dataDir != m_values.dataDir)
        changedKeys << QStringLiteral("dataDir");
    if (v.nodeName != m_values.nodeName)
        changedKeys << QStringLiteral("nodeName");
    if (v.startMinimized != m_values.startMinimized)
        changedKeys << QStringLiteral("startMinimized");
    if (v.welcomed != m_values.welcomed)
        changedKeys << QStringLiteral("welcomed");
    if (v.downloadLimitKiBps != m_values.downloadLimitKiBps)
        changedKeys << QStringLiteral("downloadLimitKiBps");
    if (schedulerPolicy(v) != schedulerPolicy(m_values) || v.schedule != m_values.schedule)
        changedKeys << QStringLiteral("scheduler");
    if (changedKeys.isEmpty())
        return {};

    QSettings store(m_filePath, QSettings::IniFormat);
    store.setValue(QStringLiteral("meta/version"), kCurrentVersion);
    store.setValue(kHubUrl, v.hubUrl);
    store.setValue(kDataDir, v.dataDir);
    store.setValue(kNodeName, v.nodeName);
    store.setValue(kStartMinimized, v.startMinimized);
    store.setValue(kWelcomed, v.welcomed);
    store.setValue(kDownloadLimit, v.downloadLimitKiBps);
    store.setValue(kIdleOnly, v.runOnlyWhenIdle);
    store.setValue(kIdleMinutes, v.idleMinutes);
    store.setValue(kPauseOnBattery, v.pauseOnBattery);
    store.setValue(kSchedule, v.schedule);
    store.setValue(kGpuTempLimit, v.gpuTempLimitC);
    store.setValue(kGpuPowerLimit, v.gpuPowerLimitW);
    store.setValue(kDiskCap, v.diskCapGiB);
    store.sync();
    if (store.status() != QSettings::NoError)
        return {{QString(), QStringLiteral("Could not save settings to %1.").arg(m_filePath)}};

    m_values = v;
    Q_EMIT changed(m_values, changedKeys);
    return {};
}

SchedulerPolicy Settings::schedulerPolicy(const SettingsValues &v)
{
    SchedulerPolicy p;
    p.runOnlyWhenIdle = v.runOnlyWhenIdle;
    p.idleAfterSeconds = v.idleMinutes * 60;
    p.pauseOnBattery = v.pauseOnBattery;
    for (const QString &text : v.schedule)
        if (const auto window = ScheduleWindow::fromText(text))
            p.schedule.append(*window);
    p.gpuTempLimitC = v.gpuTempLimitC;
    p.gpuPowerLimitW = v.gpuPowerLimitW;
    p.diskCapBytes = qint64(v.diskCapGiB) << 30;
    return p;
}

QString Settings::effectiveDataDir() const
{
    return m_values.dataDir.isEmpty() ? defaultDataDir() : m_values.dataDir;
}

QString Settings::effectiveNodeName() const
{
    return m_values.nodeName.isEmpty() ? QSysInfo::machineHostName() : m_values.nodeName;
}

} // namespace cohort
