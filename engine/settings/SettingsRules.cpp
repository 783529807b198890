#include "settings/SettingsRules.h"

#include "core/PayoutAddress.h"
#include "core/Scheduler.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSslCertificate>
#include <QUrl>

#include <algorithm>

namespace cohort::settings::rules {

namespace {
bool isPrintable(const QString &text)
{
    return std::all_of(text.begin(), text.end(), [](QChar c) { return c.isPrint(); });
}

QString rateLimit(int kibPerSecond, int max)
{
    if (kibPerSecond < 0 || kibPerSecond > max)
        return QCoreApplication::translate("Settings", "Use 0 (no limit) up to %1 KiB/s.").arg(max);
    return {};
}
} // namespace

QString hubUrl(const SettingsValues &v)
{
    const QString hub = Settings::normalizedHubUrl(v.hubUrl);
    if (hub.isEmpty())
        return {}; // the local network
    const QUrl url(hub, QUrl::StrictMode);
    if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
        return QCoreApplication::translate(
            "Settings", "Enter an http:// or https:// address, or leave it empty for the local network.");
    if (url.host().isEmpty())
        return QCoreApplication::translate("Settings", "The address has no host name.");
    if (!url.userInfo().isEmpty())
        return QCoreApplication::translate("Settings", "Do not put a user name or password in the address.");
    if (url.hasQuery() || url.hasFragment())
        return QCoreApplication::translate("Settings", "The address must not contain '?' or '#'.");
    return {};
}

QString dataDir(const SettingsValues &v)
{
    if (v.dataDir.isEmpty())
        return {}; // the default folder
    const QFileInfo info(v.dataDir);
    if (!QDir::isAbsolutePath(v.dataDir))
        return QCoreApplication::translate("Settings", "Choose a full path (an absolute folder).");
    if (info.exists() && !info.isDir())
        return QCoreApplication::translate("Settings", "This path is a file, not a folder.");
    if (info.exists() && !info.isWritable())
        return QCoreApplication::translate("Settings", "This folder is not writable.");
    return {};
}

QString nodeName(const SettingsValues &v)
{
    if (v.nodeName.size() > 64)
        return QCoreApplication::translate("Settings", "Use at most 64 characters.");
    if (!isPrintable(v.nodeName))
        return QCoreApplication::translate("Settings", "Use printable characters only.");
    return {};
}

QString downloadLimitKiBps(const SettingsValues &v)
{
    return rateLimit(v.downloadLimitKiBps, Settings::kMaxDownloadLimitKiBps);
}

QString idleMinutes(const SettingsValues &v)
{
    return v.idleMinutes < 1 || v.idleMinutes > 240 ? QCoreApplication::translate("Settings", "Use 1 to 240 minutes.")
                                                    : QString();
}

QString schedule(const SettingsValues &v)
{
    for (const QString &window : v.schedule) {
        QString why;
        if (!ScheduleWindow::fromText(window, &why))
            return why; // translated where ScheduleWindow says it
    }
    return v.schedule.size() > 28 ? QCoreApplication::translate("Settings", "Use at most 28 time windows.") : QString();
}

QString pauseForPrograms(const SettingsValues &v)
{
    if (v.pauseForPrograms.size() > Settings::kMaxPausePrograms)
        return QCoreApplication::translate("Settings", "List at most %1 programs.").arg(Settings::kMaxPausePrograms);
    if (std::any_of(v.pauseForPrograms.begin(), v.pauseForPrograms.end(),
                    [](const QString &p) { return p.trimmed().isEmpty() || p.size() > 260 || !isPrintable(p); }))
        return QCoreApplication::translate("Settings", "A program in the list has no usable name.");
    return {};
}

QString gpuTempLimitC(const SettingsValues &v)
{
    if (v.gpuTempLimitC != 0 && (v.gpuTempLimitC < 50 || v.gpuTempLimitC > 100))
        return QCoreApplication::translate("Settings", "Use 0 (no limit) or 50 to 100 °C.");
    return {};
}

QString gpuPowerLimitW(const SettingsValues &v)
{
    if (v.gpuPowerLimitW != 0 && (v.gpuPowerLimitW < 10 || v.gpuPowerLimitW > 2000))
        return QCoreApplication::translate("Settings", "Use 0 (no limit) or 10 to 2000 W.");
    return {};
}

QString diskCapGiB(const SettingsValues &v)
{
    return v.diskCapGiB < 0 || v.diskCapGiB > 1'000'000
               ? QCoreApplication::translate("Settings", "Use 0 (no cap) up to 1000000 GiB.")
               : QString();
}

QString language(const SettingsValues &v)
{
    if (!v.language.isEmpty() && !Settings::languages().contains(v.language))
        return QCoreApplication::translate("Settings", "Choose one of the languages offered.");
    return {};
}

QString gpuUuids(const SettingsValues &v)
{
    if (v.gpuUuids.size() > Settings::kMaxGpus)
        return QCoreApplication::translate("Settings", "Choose at most %1 GPUs.").arg(Settings::kMaxGpus);
    if (std::any_of(v.gpuUuids.begin(), v.gpuUuids.end(),
                    [](const QString &u) { return u.trimmed().isEmpty() || u.size() > 96 || !isPrintable(u); }))
        return QCoreApplication::translate("Settings", "A GPU in the list has no usable identifier.");
    return {};
}

QString gpuMemoryPercent(const SettingsValues &v)
{
    if (v.gpuMemoryPercent < 10 || v.gpuMemoryPercent > 100)
        return QCoreApplication::translate("Settings", "Use 10 to 100 % of each GPU's memory.");
    return {};
}

QString gpuMemoryPercentPerGpu(const SettingsValues &v)
{
    if (v.gpuMemoryPercentPerGpu.size() > Settings::kMaxGpus)
        return QCoreApplication::translate("Settings", "Give a memory share of its own to at most %1 GPUs.")
            .arg(Settings::kMaxGpus);
    if (std::any_of(
            v.gpuMemoryPercentPerGpu.keyValueBegin(), v.gpuMemoryPercentPerGpu.keyValueEnd(), [](const auto &entry) {
                return entry.first.trimmed().isEmpty() || entry.first.size() > 96 || !isPrintable(entry.first) ||
                       entry.first.contains(QLatin1Char(':')) || entry.second < 10 || entry.second > 100;
            }))
        return QCoreApplication::translate("Settings", "Give each GPU 10 to 100 % of its memory.");
    return {};
}

QString uploadLimitKiBps(const SettingsValues &v)
{
    return rateLimit(v.uploadLimitKiBps, Settings::kMaxUploadLimitKiBps);
}

QString hubCertificate(const SettingsValues &v)
{
    const QString path = v.hubCertificate.trimmed();
    if (path.isEmpty())
        return {}; // the system's trusted CAs
    if (path.size() > 4096 || !isPrintable(path))
        return QCoreApplication::translate("Settings", "The certificate's file name is not readable.");
    if (!QFileInfo(path).isFile())
        return QCoreApplication::translate("Settings", "There is no file %1.").arg(path);
    if (QSslCertificate::fromPath(path, QSsl::Pem).isEmpty())
        return QCoreApplication::translate("Settings", "The file holds no PEM certificate.");
    return {};
}

QString hubKey(const SettingsValues &v)
{
    if (!v.hubKey.trimmed().isEmpty() && Settings::hubKeyFromText(v.hubKey).isEmpty())
        return QCoreApplication::translate(
            "Settings", "A hub key is 44 characters of base64 (an ed25519 public key), as the hub prints it at start.");
    return {};
}

QString proxy(const SettingsValues &v)
{
    if (v.proxyMode == ProxyMode::Manual) {
        QString why;
        return Settings::parseProxy(v.proxy, nullptr, nullptr, &why) ? QString() : why;
    }
    // Kept for when manual mode comes back: it must still be readable.
    return v.proxy.size() > 300 || !isPrintable(v.proxy)
               ? QCoreApplication::translate("Settings", "The proxy address is not readable.")
               : QString();
}

QString payoutAddress(const SettingsValues &v)
{
    // The hub checks with the same rules (core/PayoutAddress).
    return v.payoutAddress.isEmpty() ? QString() : payout::addressProblem(v.payoutAddress);
}

// !(x >= 0 && ...) also refuses NaN (a hand-edited file).
QString pricePerKWh(const SettingsValues &v)
{
    return !(v.pricePerKWh >= 0 && v.pricePerKWh <= 100)
               ? QCoreApplication::translate("Settings", "Use 0 (not set) up to 100 per kWh.")
               : QString();
}

QString currency(const SettingsValues &v)
{
    if (v.currency.trimmed().size() > 8 || !isPrintable(v.currency))
        return QCoreApplication::translate("Settings", "Use a short label of at most 8 characters, e.g. EUR.");
    if ((v.pricePerKWh > 0 || v.creditValue > 0) && v.currency.trimmed().isEmpty())
        return QCoreApplication::translate("Settings", "Name the currency of the price, e.g. EUR.");
    return {};
}

QString creditValue(const SettingsValues &v)
{
    return !(v.creditValue >= 0 && v.creditValue <= 1e6)
               ? QCoreApplication::translate("Settings", "Use 0 (unknown) up to 1000000.")
               : QString();
}

} // namespace cohort::settings::rules
