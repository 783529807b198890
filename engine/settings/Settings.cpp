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
#include <QStandardPaths>
#include <QSysInfo>
#include <QUrl>

#include <algorithm>

namespace cohort {

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
        return refuse(
            QCoreApplication::translate("Settings", "Enter the proxy as host:port, e.g. proxy.example.org:3128."));
    QString h = t.left(colon);
    bool ok = false;
    const uint p = t.mid(colon + 1).toUInt(&ok);
    if (!ok || p < 1 || p > 65535)
        return refuse(QCoreApplication::translate("Settings", "The port must be a number from 1 to 65535."));
    if (h.startsWith(QLatin1Char('[')) && h.endsWith(QLatin1Char(']')))
        h = h.mid(1, h.size() - 2);
    // QUrl knows what a host name or address may look like; a scheme of its own would be refused by it anyway.
    const QUrl url(QStringLiteral("http://") +
                       (h.contains(QLatin1Char(':')) ? QLatin1Char('[') + h + QLatin1Char(']') : h),
                   QUrl::StrictMode);
    if (h.isEmpty() || !url.isValid() || url.host().isEmpty() || h.contains(QLatin1Char('/')) ||
        h.contains(QLatin1Char('@')))
        return refuse(QCoreApplication::translate("Settings", "\"%1\" is not a host name or address.").arg(h));
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
    // Each row's rule (settings/SettingsRules.cpp), in the rows' order; a field gives at most one message.
    QList<SettingsError> errors;
    for (const settings::Field &field : settings::fields())
        if (field.check)
            if (QString why = field.check(v); !why.isEmpty())
                errors.append({QString::fromLatin1(field.name), std::move(why)});
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
