#include "settings/Settings.h"

#include "core/Logging.h"
#include "core/PayoutAddress.h"
#include "core/Scheduler.h"
#include "settings/SettingsFields.h"
#include "settings/SettingsMigrations.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QMetaEnum>
#include <QSet>
#include <QSettings>
#include <QSslCertificate>
#include <QStandardPaths>
#include <QSysInfo>
#include <QUrl>

#include <algorithm>

namespace cohort {

namespace {
bool isPrintable(const QString &text)
{
    return std::all_of(text.begin(), text.end(), [](QChar c) { return c.isPrint(); });
}

} // namespace

Settings::Settings(const QString &filePath, QObject *parent)
    : QObject(parent),
      m_filePath(filePath.isEmpty() ? defaultFilePath() : filePath)
{
    load(defaults());
}

QString Settings::defaultFilePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) +
           QStringLiteral("/Cohort/cohort.ini");
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

QByteArray Settings::hubKeyFromText(const QString &text)
{
    const QByteArray ascii = text.trimmed().toLatin1();
    if (ascii.size() != 44)
        return {};
    const auto decoded = QByteArray::fromBase64Encoding(ascii, QByteArray::AbortOnBase64DecodingErrors);
    return decoded && decoded.decoded.size() == 32 ? decoded.decoded : QByteArray();
}

QStringList Settings::languages()
{
    // English as written, plus the translations in ui/translations (keep the two in step).
    return {QStringLiteral("en"), QStringLiteral("de"), QStringLiteral("fr")};
}

QString Settings::trayIconStyleName(TrayIconStyle style)
{
    switch (style) {
    case TrayIconStyle::Colour: return QStringLiteral("colour");
    case TrayIconStyle::Light: return QStringLiteral("light");
    case TrayIconStyle::Dark: return QStringLiteral("dark");
    }
    return QStringLiteral("colour");
}

QString Settings::notifyLevelName(NotifyLevel level)
{
    switch (level) {
    case NotifyLevel::Off: return QStringLiteral("off");
    case NotifyLevel::Errors: return QStringLiteral("errors");
    case NotifyLevel::ErrorsAndMilestones: break;
    }
    return QStringLiteral("all");
}

QString Settings::proxyModeName(ProxyMode mode)
{
    switch (mode) {
    case ProxyMode::System: return QStringLiteral("system");
    case ProxyMode::Manual: return QStringLiteral("manual");
    case ProxyMode::None: break;
    }
    return QStringLiteral("none");
}

bool Settings::parseProxy(const QString &text, QString *host, quint16 *port, QString *why)
{
    const auto refuse = [why](const QString &reason) {
        if (why)
            *why = reason;
        return false;
    };
    const QString t = text.trimmed();
    // The last ':' separates the port, so "[::1]:3128" works; a bare IPv6 address needs its brackets.
    const qsizetype colon = t.lastIndexOf(QLatin1Char(':'));
    if (t.isEmpty() || colon <= 0)
        return refuse(QStringLiteral("Enter the proxy as host:port, e.g. proxy.example.org:3128."));
    QString h = t.left(colon);
    bool ok = false;
    const uint p = t.mid(colon + 1).toUInt(&ok);
    if (!ok || p < 1 || p > 65535)
        return refuse(QStringLiteral("The port must be a number from 1 to 65535."));
    if (h.startsWith(QLatin1Char('[')) && h.endsWith(QLatin1Char(']')))
        h = h.mid(1, h.size() - 2);
    // QUrl knows what a host name or address may look like; a scheme of its own would be refused by it anyway.
    const QUrl url(QStringLiteral("http://") +
                       (h.contains(QLatin1Char(':')) ? QLatin1Char('[') + h + QLatin1Char(']') : h),
                   QUrl::StrictMode);
    if (h.isEmpty() || !url.isValid() || url.host().isEmpty() || h.contains(QLatin1Char('/')) ||
        h.contains(QLatin1Char('@')))
        return refuse(QStringLiteral("\"%1\" is not a host name or address.").arg(h));
    if (host)
        *host = h;
    if (port)
        *port = quint16(p);
    return true;
}

QString Settings::checksummedAddress(const QString &address)
{
    return payout::checksummed(address);
}

QString Settings::payoutAddressProblem(const QString &address)
{
    return payout::addressProblem(address); // the hub checks with the same rules (core/PayoutAddress)
}

QList<SettingsError> Settings::validate(const SettingsValues &v)
{
    // The messages are for people (the dialog shows them under the field): in the app's language when it installed
    // a translator (context "Settings"), in English in cohortd.
    QList<SettingsError> errors;
    const QString hub = normalizedHubUrl(v.hubUrl);
    if (!hub.isEmpty()) {
        const QUrl url(hub, QUrl::StrictMode);
        if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
            errors.append(
                {QStringLiteral("hubUrl"),
                 QCoreApplication::translate(
                     "Settings", "Enter an http:// or https:// address, or leave it empty for the local network.")});
        else if (url.host().isEmpty())
            errors.append(
                {QStringLiteral("hubUrl"), QCoreApplication::translate("Settings", "The address has no host name.")});
        else if (!url.userInfo().isEmpty())
            errors.append(
                {QStringLiteral("hubUrl"),
                 QCoreApplication::translate("Settings", "Do not put a user name or password in the address.")});
        else if (url.hasQuery() || url.hasFragment())
            errors.append({QStringLiteral("hubUrl"),
                           QCoreApplication::translate("Settings", "The address must not contain '?' or '#'.")});
    }
    if (!v.dataDir.isEmpty()) {
        const QFileInfo info(v.dataDir);
        if (!QDir::isAbsolutePath(v.dataDir))
            errors.append({QStringLiteral("dataDir"),
                           QCoreApplication::translate("Settings", "Choose a full path (an absolute folder).")});
        else if (info.exists() && !info.isDir())
            errors.append({QStringLiteral("dataDir"),
                           QCoreApplication::translate("Settings", "This path is a file, not a folder.")});
        else if (info.exists() && !info.isWritable())
            errors.append(
                {QStringLiteral("dataDir"), QCoreApplication::translate("Settings", "This folder is not writable.")});
    }
    if (v.downloadLimitKiBps < 0 || v.downloadLimitKiBps > kMaxDownloadLimitKiBps)
        errors.append(
            {QStringLiteral("downloadLimitKiBps"),
             QCoreApplication::translate("Settings", "Use 0 (no limit) up to %1 KiB/s.").arg(kMaxDownloadLimitKiBps)});
    if (v.idleMinutes < 1 || v.idleMinutes > 240)
        errors.append(
            {QStringLiteral("idleMinutes"), QCoreApplication::translate("Settings", "Use 1 to 240 minutes.")});
    for (const QString &window : v.schedule) {
        QString why;
        if (!ScheduleWindow::fromText(window, &why)) {
            errors.append({QStringLiteral("schedule"), why});
            break;
        }
    }
    if (v.schedule.size() > 28)
        errors.append(
            {QStringLiteral("schedule"), QCoreApplication::translate("Settings", "Use at most 28 time windows.")});
    if (v.pauseForPrograms.size() > kMaxPausePrograms)
        errors.append({QStringLiteral("pauseForPrograms"),
                       QCoreApplication::translate("Settings", "List at most %1 programs.").arg(kMaxPausePrograms)});
    else if (std::any_of(v.pauseForPrograms.begin(), v.pauseForPrograms.end(),
                         [](const QString &p) { return p.trimmed().isEmpty() || p.size() > 260 || !isPrintable(p); }))
        errors.append({QStringLiteral("pauseForPrograms"),
                       QCoreApplication::translate("Settings", "A program in the list has no usable name.")});
    if (v.gpuTempLimitC != 0 && (v.gpuTempLimitC < 50 || v.gpuTempLimitC > 100))
        errors.append({QStringLiteral("gpuTempLimitC"),
                       QCoreApplication::translate("Settings", "Use 0 (no limit) or 50 to 100 °C.")});
    if (v.gpuPowerLimitW != 0 && (v.gpuPowerLimitW < 10 || v.gpuPowerLimitW > 2000))
        errors.append({QStringLiteral("gpuPowerLimitW"),
                       QCoreApplication::translate("Settings", "Use 0 (no limit) or 10 to 2000 W.")});
    if (v.diskCapGiB < 0 || v.diskCapGiB > 1'000'000)
        errors.append({QStringLiteral("diskCapGiB"),
                       QCoreApplication::translate("Settings", "Use 0 (no cap) up to 1000000 GiB.")});
    if (!v.language.isEmpty() && !languages().contains(v.language))
        errors.append({QStringLiteral("language"),
                       QCoreApplication::translate("Settings", "Choose one of the languages offered.")});
    if (v.gpuUuids.size() > kMaxGpus)
        errors.append({QStringLiteral("gpuUuids"),
                       QCoreApplication::translate("Settings", "Choose at most %1 GPUs.").arg(kMaxGpus)});
    else if (std::any_of(v.gpuUuids.begin(), v.gpuUuids.end(),
                         [](const QString &u) { return u.trimmed().isEmpty() || u.size() > 96 || !isPrintable(u); }))
        errors.append({QStringLiteral("gpuUuids"),
                       QCoreApplication::translate("Settings", "A GPU in the list has no usable identifier.")});
    if (v.gpuMemoryPercent < 10 || v.gpuMemoryPercent > 100)
        errors.append({QStringLiteral("gpuMemoryPercent"),
                       QCoreApplication::translate("Settings", "Use 10 to 100 % of each GPU's memory.")});
    if (v.gpuMemoryPercentPerGpu.size() > kMaxGpus)
        errors.append({QStringLiteral("gpuMemoryPercentPerGpu"),
                       QCoreApplication::translate("Settings", "Give a memory share of its own to at most %1 GPUs.")
                           .arg(kMaxGpus)});
    else if (std::any_of(v.gpuMemoryPercentPerGpu.keyValueBegin(), v.gpuMemoryPercentPerGpu.keyValueEnd(),
                         [](const auto &entry) {
                             return entry.first.trimmed().isEmpty() || entry.first.size() > 96 ||
                                    !isPrintable(entry.first) || entry.first.contains(QLatin1Char(':')) ||
                                    entry.second < 10 || entry.second > 100;
                         }))
        errors.append({QStringLiteral("gpuMemoryPercentPerGpu"),
                       QCoreApplication::translate("Settings", "Give each GPU 10 to 100 % of its memory.")});
    if (v.uploadLimitKiBps < 0 || v.uploadLimitKiBps > kMaxUploadLimitKiBps)
        errors.append(
            {QStringLiteral("uploadLimitKiBps"),
             QCoreApplication::translate("Settings", "Use 0 (no limit) up to %1 KiB/s.").arg(kMaxUploadLimitKiBps)});
    if (v.proxyMode == ProxyMode::Manual) {
        QString why;
        if (!parseProxy(v.proxy, nullptr, nullptr, &why))
            errors.append({QStringLiteral("proxy"), why});
    } else if (v.proxy.size() > 300 || !isPrintable(v.proxy)) {
        errors.append(
            {QStringLiteral("proxy"), QCoreApplication::translate("Settings", "The proxy address is not readable.")});
    }
    if (!v.hubCertificate.trimmed().isEmpty()) {
        const QString path = v.hubCertificate.trimmed();
        if (path.size() > 4096 || !isPrintable(path))
            errors.append({QStringLiteral("hubCertificate"),
                           QCoreApplication::translate("Settings", "The certificate's file name is not readable.")});
        else if (!QFileInfo(path).isFile())
            errors.append({QStringLiteral("hubCertificate"),
                           QCoreApplication::translate("Settings", "There is no file %1.").arg(path)});
        else if (QSslCertificate::fromPath(path, QSsl::Pem).isEmpty())
            errors.append({QStringLiteral("hubCertificate"),
                           QCoreApplication::translate("Settings", "The file holds no PEM certificate.")});
    }
    if (!v.hubKey.trimmed().isEmpty() && Settings::hubKeyFromText(v.hubKey).isEmpty())
        errors.append(
            {QStringLiteral("hubKey"),
             QCoreApplication::translate(
                 "Settings",
                 "A hub key is 44 characters of base64 (an ed25519 public key), as the hub prints it at start.")});
    if (!v.payoutAddress.isEmpty())
        if (const QString why = payoutAddressProblem(v.payoutAddress); !why.isEmpty())
            errors.append({QStringLiteral("payoutAddress"), why});
    // !(x >= 0 && ...) also refuses NaN (a hand-edited file).
    if (!(v.pricePerKWh >= 0 && v.pricePerKWh <= 100))
        errors.append({QStringLiteral("pricePerKWh"),
                       QCoreApplication::translate("Settings", "Use 0 (not set) up to 100 per kWh.")});
    if (!(v.creditValue >= 0 && v.creditValue <= 1e6))
        errors.append(
            {QStringLiteral("creditValue"), QCoreApplication::translate("Settings", "Use 0 (unknown) up to 1000000.")});
    if (v.currency.trimmed().size() > 8 || !isPrintable(v.currency))
        errors.append(
            {QStringLiteral("currency"),
             QCoreApplication::translate("Settings", "Use a short label of at most 8 characters, e.g. EUR.")});
    else if ((v.pricePerKWh > 0 || v.creditValue > 0) && v.currency.trimmed().isEmpty())
        errors.append({QStringLiteral("currency"),
                       QCoreApplication::translate("Settings", "Name the currency of the price, e.g. EUR.")});
    if (v.nodeName.size() > 64)
        errors.append(
            {QStringLiteral("nodeName"), QCoreApplication::translate("Settings", "Use at most 64 characters.")});
    else {
        for (const QChar c : v.nodeName) {
            if (!c.isPrint()) {
                errors.append({QStringLiteral("nodeName"),
                               QCoreApplication::translate("Settings", "Use printable characters only.")});
                break;
            }
        }
    }
    return errors;
}

void Settings::load(const SettingsValues &fallback)
{
    const bool existed = QFileInfo::exists(m_filePath);
    QSettings store(m_filePath, QSettings::IniFormat);
    m_versionOnDisk = migrateSettings(store, kCurrentVersion);
    SettingsValues v = defaults();
    v.welcomed = existed; // people who already use Cohort are not welcomed again
    const auto fallBack = [&](const settings::Field &field) {
        // The field and those that only mean something with it take the value in use (the default at start).
        for (const settings::Field &f : settings::fields())
            if (&f == &field || (field.group && f.group && qstrcmp(f.group, field.group) == 0))
                f.copy(v, fallback);
    };
    QList<const settings::Field *> unreadable; // fall back once every field is read, so that a group falls back whole
    for (const settings::Field &field : settings::fields()) {
        if (!field.read(store, field, v)) {
            qCWarning(lcSettings) << "ignoring invalid setting" << QString::fromLatin1(field.name) << ":"
                                  << store.value(QLatin1StringView(field.iniKey));
            unreadable.append(&field);
        }
    }
    for (const settings::Field *field : unreadable)
        fallBack(*field);
    if (!existed)
        store.setValue(QLatin1StringView(settings::findField(QStringLiteral("welcomed"))->iniKey),
                       false); // the file is created below

    // A value that no longer validates (edited by hand, or a folder that became a file) falls back with a warning
    // rather than stopping the app: to its default at start, to the value in use on a reload.
    for (const SettingsError &e : validate(v)) {
        qCWarning(lcSettings) << "ignoring invalid setting" << e.key << ":" << e.message;
        if (const settings::Field *field = settings::findField(e.key))
            fallBack(*field);
    }
    v.hubUrl = normalizedHubUrl(v.hubUrl);
    m_values = v;
    store.sync();
    if (store.status() != QSettings::NoError)
        qCWarning(lcSettings) << "could not write settings file" << m_filePath;
}

// What differs between `before` and `v`, in the order of Settings::Change.
static Settings::Changes changesBetween(const SettingsValues &before, const SettingsValues &v)
{
    QSet<Settings::Change> changed;
    for (const settings::Field &f : settings::fields()) {
        if (f.differs(before, v)) {
            changed.insert(f.change);
            if (f.alsoChanges)
                changed.insert(*f.alsoChanges);
        }
    }
    Settings::Changes changes(changed.cbegin(), changed.cend());
    std::sort(changes.begin(), changes.end());
    return changes;
}

QString Settings::changeName(Change change)
{
    QString name = QString::fromLatin1(QMetaEnum::fromType<Change>().valueToKey(int(change)));
    if (!name.isEmpty())
        name[0] = name[0].toLower();
    return name;
}

QString Settings::changeNames(const Changes &changes)
{
    QStringList names;
    for (Change c : changes)
        names.append(changeName(c));
    return names.join(QStringLiteral(", "));
}

bool Settings::reachesEngine(const Changes &changes)
{
    for (const settings::Field &f : settings::fields())
        if (f.engine && changes.contains(f.change))
            return true;
    return false;
}

Settings::Changes Settings::reload()
{
    const SettingsValues before = m_values;
    load(before);
    const Changes changes = changesBetween(before, m_values);
    if (!changes.isEmpty())
        Q_EMIT changed(m_values, changes);
    return changes;
}

QList<SettingsError> Settings::apply(const SettingsValues &requested)
{
    QList<SettingsError> errors = validate(requested);
    if (!errors.isEmpty())
        return errors;
    SettingsValues v = requested;
    v.hubUrl = normalizedHubUrl(v.hubUrl);
    v.nodeName = v.nodeName.trimmed();
    v.proxy = v.proxy.trimmed();
    v.hubCertificate = v.hubCertificate.trimmed();
    v.hubKey = v.hubKey.trimmed();
    v.currency = v.currency.trimmed();
    v.payoutAddress = v.payoutAddress.trimmed();
    v.gpuUuids.removeDuplicates();

    const Changes changes = changesBetween(m_values, v);
    if (changes.isEmpty())
        return {};

    QSettings store(m_filePath, QSettings::IniFormat);
    store.setValue(QStringLiteral("meta/version"), kCurrentVersion);
    for (const settings::Field &field : settings::fields())
        field.write(store, field, v);
    store.sync();
    if (store.status() != QSettings::NoError)
        return {{QString(), QStringLiteral("Could not save settings to %1.").arg(m_filePath)}};

    m_values = v;
    Q_EMIT changed(m_values, changes);
    return {};
}

QStringList Settings::gpuMemorySharesText(const QMap<QString, int> &shares)
{
    QStringList entries;
    for (auto it = shares.cbegin(); it != shares.cend(); ++it)
        entries.append(QStringLiteral("%1:%2").arg(it.key()).arg(it.value()));
    return entries;
}

QMap<QString, int> Settings::gpuMemorySharesFromText(const QStringList &entries)
{
    QMap<QString, int> shares;
    for (const QString &entry : entries) {
        const qsizetype colon = entry.lastIndexOf(QLatin1Char(':'));
        bool ok = false;
        const int percent = colon > 0 ? entry.mid(colon + 1).trimmed().toInt(&ok) : 0;
        if (ok)
            shares.insert(entry.left(colon).trimmed(), percent);
        else
            shares.insert(entry, -1); // refused by validate(), with its message
        if (shares.size() > kMaxGpus)
            break; // validate() refuses the list; reading on would only cost memory
    }
    return shares;
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
    p.gpus = v.gpuUuids;
    p.pauseWhenFullscreen = v.pauseWhenFullscreen;
    for (const QString &program : v.pauseForPrograms)
        p.pauseForPrograms.append(program.trimmed());
    p.pauseWhenGpuBusy = v.pauseWhenGpuBusy;
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
