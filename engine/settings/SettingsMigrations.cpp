#include "settings/SettingsMigrations.h"

#include "core/Logging.h"

#include <QDir>
#include <QSettings>

namespace cohort {

namespace {

// v0 -> v1: development builds stored flat keys; group them.
void migrateTo1(QSettings &s)
{
    const auto move = [&s](const QString &from, const QString &to) {
        if (s.contains(from)) {
            if (!s.contains(to))
                s.setValue(to, s.value(from));
            s.remove(from);
        }
    };
    move(QStringLiteral("hub"), QStringLiteral("network/hubUrl"));
    move(QStringLiteral("dataDirectory"), QStringLiteral("storage/dataDir"));
    move(QStringLiteral("minimized"), QStringLiteral("ui/startMinimized"));
}

// v1 -> v2: hub URLs are stored without trailing slashes (the client appends /v1/...), and an
// "embedded" placeholder some builds wrote means "no hub URL".
void migrateTo2(QSettings &s)
{
    const QString key = QStringLiteral("network/hubUrl");
    QString url = s.value(key).toString().trimmed();
    if (url.compare(QLatin1String("embedded"), Qt::CaseInsensitive) == 0)
        url.clear();
    while (url.endsWith(QLatin1Char('/')))
        url.chop(1);
    if (s.contains(key))
        s.setValue(key, url);
}

// v2 -> v3 (notifications, GPU choice, upload cap, proxy, payout address, energy tariff; all new keys default sensibly
// when absent, so old files keep working without them). Two things are rewritten:
// - the data folder is stored in clean form ("/a/b", not "/a/b/" or "/a/./b"): moving it compares paths, and a
//   target inside the current folder must be recognised whatever way it was typed;
// - people who used Cohort before notifications existed get errors only, not milestone pop-ups they never asked for.
//   A new file (no keys yet) gets the default, errors and milestones.
void migrateTo3(QSettings &s)
{
    if (s.allKeys().isEmpty())
        return;
    const QString dataDir = QStringLiteral("storage/dataDir");
    if (const QString dir = s.value(dataDir).toString(); !dir.isEmpty())
        s.setValue(dataDir, QDir::cleanPath(dir));
    const QString notifications = QStringLiteral("ui/notifications");
    if (!s.contains(notifications))
        s.setValue(notifications, QStringLiteral("errors"));
}

} // namespace

int migrateSettings(QSettings &store, int targetVersion)
{
    const int found = store.value(QStringLiteral("meta/version"), 0).toInt();
    if (found > targetVersion) {
        qCWarning(lcSettings) << "settings file is from a newer version" << found << "- reading it as version"
                              << targetVersion;
        return found;
    }
    using Step = void (*)(QSettings &);
    const Step steps[] = {migrateTo1, migrateTo2, migrateTo3};
    for (int v = found; v < targetVersion && v < int(std::size(steps)); ++v) {
        qCInfo(lcSettings) << "migrating settings from version" << v << "to" << v + 1;
        steps[v](store);
    }
    store.setValue(QStringLiteral("meta/version"), targetVersion);
    return found;
}

} // namespace cohort
