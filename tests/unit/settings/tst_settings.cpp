#include "core/Scheduler.h"
#include "settings/Settings.h"
#include "settings/SettingsFileWatcher.h"

#include <functional>

#include <QFile>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace cohort;

// What a changed() signal or reload() reported, by name (Settings::changeName), in order.
[[maybe_unused]] static QStringList names(const Settings::Changes &changes)
{
    QStringList out;
    for (Settings::Change c : changes)
        out.append(Settings::changeName(c));
    return out;
}
[[maybe_unused]] static QStringList names(const QVariant &changes)
{
    return names(changes.value<Settings::Changes>());
}

class TestSettings : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString file(const QString &name) { return m_dir.filePath(name); }
    static bool hasErrorFor(const QList<SettingsError> &errors, const QString &key)
    {
        for (const auto &e : errors)
            if (e.key == key && !e.message.isEmpty())
                return true;
        return false;
    }

private Q_SLOTS:
    void defaultsOnFirstRun()
    {
        Settings s(file(QStringLiteral("fresh.ini")));
        QCOMPARE(s.values(), Settings::defaults());
        QVERIFY(s.values().hubUrl.isEmpty()); // embedded local network by default
        QCOMPARE(s.effectiveDataDir(), Settings::defaultDataDir());
        QVERIFY(!s.effectiveNodeName().isEmpty());
        QCOMPARE(QSettings(s.filePath(), QSettings::IniFormat).value(QStringLiteral("meta/version")).toInt(),
                 Settings::kCurrentVersion);
    }

    void validation_data()
    {
        QTest::addColumn<QString>("hub");
        QTest::addColumn<QString>("dataDir");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("badKey");
        QTest::newRow("ftp scheme") << "ftp://hub.example"
                                    << ""
                                    << ""
                                    << "hubUrl";
        QTest::newRow("not a url") << "not a url"
                                   << ""
                                   << ""
                                   << "hubUrl";
        QTest::newRow("no host") << "http://"
                                 << ""
                                 << ""
                                 << "hubUrl";
        QTest::newRow("credentials") << "https://user:pw@hub.example"
                                     << ""
                                     << ""
                                     << "hubUrl";
        QTest::newRow("query") << "https://hub.example/?a=b"
                               << ""
                               << ""
                               << "hubUrl";
        QTest::newRow("relative data dir") << ""
                                           << "relative/dir"
                                           << ""
                                           << "dataDir";
        QTest::newRow("name too long") << ""
                                       << "" << QString(65, QLatin1Char('x')) << "nodeName";
        QTest::newRow("control char") << ""
                                      << "" << QStringLiteral("bad\nname") << "nodeName";
        QTest::newRow("negative limit") << ""
                                        << ""
                                        << ""
                                        << "downloadLimitKiBps";
        QTest::newRow("valid https") << "https://hub.example:8443/cohort"
                                     << ""
                                     << "my box"
                                     << "";
        QTest::newRow("valid empty") << ""
                                     << ""
                                     << ""
                                     << "";
    }
    void validation()
    {
        QFETCH(QString, hub);
        QFETCH(QString, dataDir);
        QFETCH(QString, name);
        QFETCH(QString, badKey);
        SettingsValues v;
        v.hubUrl = hub;
        v.dataDir = dataDir;
        v.nodeName = name;
        if (QByteArray(QTest::currentDataTag()) == "negative limit")
            v.downloadLimitKiBps = -5;
        const auto errors = Settings::validate(v);
        if (badKey.isEmpty())
            QVERIFY2(errors.isEmpty(), qPrintable(errors.value(0).message));
        else
            QVERIFY(hasErrorFor(errors, badKey));
    }

    void dataDirThatIsAFileIsRefused()
    {
        QFile f(file(QStringLiteral("plainfile")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        SettingsValues v;
        v.dataDir = f.fileName();
        QVERIFY(hasErrorFor(Settings::validate(v), QStringLiteral("dataDir")));
    }

    void applyPersistsAndSignalsOnce()
    {
        const QString path = file(QStringLiteral("apply.ini"));
        Settings s(path);
        QSignalSpy spy(&s, &Settings::changed);
        SettingsValues v = s.values();
        v.hubUrl = QStringLiteral("https://hub.example/");
        v.nodeName = QStringLiteral("  den  ");
        v.startMinimized = true;
        v.downloadLimitKiBps = 2048;
        QVERIFY(s.apply(v).isEmpty());
        QCOMPARE(spy.count(), 1);
        const QStringList keys = names(spy.at(0).at(1));
        QVERIFY(keys.contains(QStringLiteral("hubUrl")));
        QVERIFY(keys.contains(QStringLiteral("nodeName")));
        QVERIFY(keys.contains(QStringLiteral("startMinimized")));
        QVERIFY(keys.contains(QStringLiteral("downloadLimitKiBps")));
        QVERIFY(!keys.contains(QStringLiteral("dataDir")));
        QCOMPARE(s.values().hubUrl, QStringLiteral("https://hub.example")); // normalised
        QCOMPARE(s.values().nodeName, QStringLiteral("den"));

        Settings reopened(path);
        QCOMPARE(reopened.values(), s.values());

        // Applying the same values again changes nothing and says nothing.
        QVERIFY(s.apply(s.values()).isEmpty());
        QCOMPARE(spy.count(), 1);
    }

    void invalidApplyChangesNothing()
    {
        const QString path = file(QStringLiteral("invalid.ini"));
        Settings s(path);
        QSignalSpy spy(&s, &Settings::changed);
        const SettingsValues before = s.values();
        SettingsValues v = before;
        v.hubUrl = QStringLiteral("ftp://nope");
        v.nodeName = QStringLiteral("fine");
        const auto errors = s.apply(v);
        QVERIFY(hasErrorFor(errors, QStringLiteral("hubUrl")));
        QCOMPARE(spy.count(), 0);
        QCOMPARE(s.values(), before);
        QCOMPARE(Settings(path).values(), before);
    }

    void migratesVersion0File()
    {
        const QString path = file(QStringLiteral("v0.ini"));
        {
            QSettings old(path, QSettings::IniFormat);
            old.setValue(QStringLiteral("hub"), QStringLiteral("https://old.example//"));
            old.setValue(QStringLiteral("dataDirectory"), m_dir.filePath(QStringLiteral("data")));
            old.setValue(QStringLiteral("minimized"), true);
        }
        Settings s(path);
        QCOMPARE(s.versionOnDisk(), 0);
        QCOMPARE(s.values().hubUrl, QStringLiteral("https://old.example"));
        QCOMPARE(s.values().dataDir, m_dir.filePath(QStringLiteral("data")));
        QVERIFY(s.values().startMinimized);
        QSettings after(path, QSettings::IniFormat);
        QVERIFY(!after.contains(QStringLiteral("hub")));
        QVERIFY(!after.contains(QStringLiteral("dataDirectory")));
        QCOMPARE(after.value(QStringLiteral("meta/version")).toInt(), Settings::kCurrentVersion);
        QCOMPARE(Settings(path).versionOnDisk(), Settings::kCurrentVersion); // migrations run once
    }

    void migratesEmbeddedPlaceholder()
    {
        const QString path = file(QStringLiteral("v1.ini"));
        {
            QSettings old(path, QSettings::IniFormat);
            old.setValue(QStringLiteral("meta/version"), 1);
            old.setValue(QStringLiteral("network/hubUrl"), QStringLiteral("embedded"));
        }
        Settings s(path);
        QCOMPARE(s.versionOnDisk(), 1);
        QVERIFY(s.values().hubUrl.isEmpty());
    }

    // The scheduler's settings: stored, validated field by field, turned into the engine's policy; a hand-edited
    // bad value falls back to its default alone.
    void schedulingSettings()
    {
        const QString path = file(QStringLiteral("schedule.ini"));
        Settings s(path);
        SettingsValues v = s.values();
        QVERIFY(v.pauseOnBattery && !v.runOnlyWhenIdle && v.schedule.isEmpty() && v.gpuTempLimitC == 0);
        v.runOnlyWhenIdle = true;
        v.idleMinutes = 10;
        v.schedule = {QStringLiteral("mon-fri 22:00-06:00"), QStringLiteral("weekend 00:00-24:00")};
        v.gpuTempLimitC = 80;
        v.gpuPowerLimitW = 250;
        v.diskCapGiB = 50;
        QVERIFY(s.apply(v).isEmpty());
        Settings reread(path);
        QCOMPARE(reread.values(), v);
        const SchedulerPolicy p = Settings::schedulerPolicy(reread.values());
        QVERIFY(p.runOnlyWhenIdle);
        QCOMPARE(p.idleAfterSeconds, 600);
        QCOMPARE(p.schedule.size(), 2);
        QCOMPARE(p.schedule[0].toText(), QStringLiteral("mon-fri 22:00-06:00"));
        QCOMPARE(p.gpuTempLimitC, 80.0);
        QCOMPARE(p.gpuPowerLimitW, 250.0);
        QCOMPARE(p.diskCapBytes, 50LL << 30);

        for (const auto &[key, edit] :
             std::initializer_list<std::pair<const char *, std::function<void(SettingsValues &)>>>{
                 {"idleMinutes", [](SettingsValues &x) { x.idleMinutes = 0; }},
                 {"schedule", [](SettingsValues &x) { x.schedule = {QStringLiteral("someday 25:00-26:00")}; }},
                 {"gpuTempLimitC", [](SettingsValues &x) { x.gpuTempLimitC = 30; }},
                 {"gpuPowerLimitW", [](SettingsValues &x) { x.gpuPowerLimitW = 5; }},
                 {"diskCapGiB", [](SettingsValues &x) { x.diskCapGiB = -1; }}}) {
            SettingsValues bad = v;
            edit(bad);
            QVERIFY2(hasErrorFor(Settings::validate(bad), QString::fromLatin1(key)), key);
            QVERIFY(!s.apply(bad).isEmpty());
        }
        QCOMPARE(s.values(), v); // refused changes change nothing
        {
            QSettings edited(path, QSettings::IniFormat);
            edited.setValue(QStringLiteral("schedule/windows"), QStringList{QStringLiteral("never o'clock")});
            edited.setValue(QStringLiteral("limits/gpuTempLimitC"), QStringLiteral("hot"));
        }
        Settings fallback(path);
        QVERIFY(fallback.values().schedule.isEmpty());
        QCOMPARE(fallback.values().gpuTempLimitC, 0);
        QCOMPARE(fallback.values().idleMinutes, 10); // the rest is kept
    }

    // Pause when I play: off by default; stored under schedule/*, part of the scheduler's policy (so a hand edit is
    // applied live under the "scheduler" key); a list with an unusable name is refused, and falls back on a reload.
    void pauseWhenPlayingSettings()
    {
        const QString path = file(QStringLiteral("playing.ini"));
        Settings s(path);
        SettingsValues v = s.values();
        QVERIFY(!v.pauseWhenFullscreen && v.pauseForPrograms.isEmpty() && !v.pauseWhenGpuBusy);
        QVERIFY(Settings::schedulerPolicy(v) == SchedulerPolicy{});
        v.pauseWhenFullscreen = true;
        v.pauseForPrograms = {QStringLiteral("steam"), QStringLiteral(" Game.exe ")};
        v.pauseWhenGpuBusy = true;
        QVERIFY(s.apply(v).isEmpty());
        Settings reread(path);
        QCOMPARE(reread.values(), v);
        const SchedulerPolicy p = Settings::schedulerPolicy(reread.values());
        QVERIFY(p.pauseWhenFullscreen && p.pauseWhenGpuBusy);
        QCOMPARE(p.pauseForPrograms, (QStringList{QStringLiteral("steam"), QStringLiteral("Game.exe")}));
        {
            QSettings stored(path, QSettings::IniFormat);
            QCOMPARE(stored.value(QStringLiteral("schedule/pauseWhenFullscreen")).toBool(), true);
            QCOMPARE(stored.value(QStringLiteral("schedule/pauseWhenGpuBusy")).toBool(), true);
            QCOMPARE(stored.value(QStringLiteral("schedule/pauseForPrograms")).toStringList().size(), 2);
        }

        for (const QStringList &bad : {QStringList{QStringLiteral("steam"), QStringLiteral("  ")},
                                       QStringList{QStringLiteral("tab\tname")}, // a control character
                                       QStringList(Settings::kMaxPausePrograms + 1, QStringLiteral("x"))}) {
            SettingsValues refused = v;
            refused.pauseForPrograms = bad;
            QVERIFY2(hasErrorFor(Settings::validate(refused), QStringLiteral("pauseForPrograms")),
                     qPrintable(bad.join(u'|')));
        }

        QSignalSpy changed(&s, &Settings::changed);
        QSettings(path, QSettings::IniFormat)
            .setValue(QStringLiteral("schedule/pauseForPrograms"), QStringList{QStringLiteral("blender")});
        QCOMPARE(names(s.reload()), QStringList{QStringLiteral("scheduler")});
        QCOMPARE(s.values().pauseForPrograms, QStringList{QStringLiteral("blender")});
        QSettings(path, QSettings::IniFormat)
            .setValue(QStringLiteral("schedule/pauseForPrograms"), QStringList{QString()});
        QVERIFY(s.reload().isEmpty()); // unusable: the list in use stays
        QCOMPARE(s.values().pauseForPrograms, QStringList{QStringLiteral("blender")});
        QCOMPARE(changed.count(), 1);
    }

    // Every field added in settings version 3: stored, re-read, reported once under its change key.
    void version3FieldsPersist()
    {
        const QString path = file(QStringLiteral("v3fields.ini"));
        Settings s(path);
        QCOMPARE(s.values().notifications, NotifyLevel::ErrorsAndMilestones); // a new file: the default
        QCOMPARE(s.values().proxyMode, ProxyMode::None);
        QSignalSpy spy(&s, &Settings::changed);
        SettingsValues v = s.values();
        v.language = QStringLiteral("de");
        v.notifications = NotifyLevel::Errors;
        v.gpuUuids = {QStringLiteral("GPU-1111"), QStringLiteral("GPU-2222"), QStringLiteral("GPU-1111")};
        v.uploadLimitKiBps = 300;
        v.gpuMemoryPercent = 60;
        v.proxyMode = ProxyMode::Manual;
        v.proxy = QStringLiteral(" proxy.example.org:3128 ");
        v.payoutAddress = QStringLiteral("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed");
        v.pricePerKWh = 0.31;
        v.currency = QStringLiteral("EUR");
        v.creditValue = 0.02;
        v.hubKey = QStringLiteral(" 11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo= ");
        QVERIFY(s.apply(v).isEmpty());
        QCOMPARE(spy.count(), 1);
        QStringList keys = names(spy.at(0).at(1));
        keys.sort();
        QCOMPARE(keys,
                 (QStringList{QStringLiteral("energy"), QStringLiteral("gpuMemoryPercent"), QStringLiteral("gpuUuids"),
                              QStringLiteral("hubKey"), QStringLiteral("language"), QStringLiteral("notifications"),
                              QStringLiteral("payoutAddress"), QStringLiteral("proxy"), QStringLiteral("scheduler"),
                              QStringLiteral("uploadLimitKiBps")}));          // GPUs feed the limits
        QCOMPARE(s.values().proxy, QStringLiteral("proxy.example.org:3128")); // trimmed
        QCOMPARE(s.values().hubKey, QStringLiteral("11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="));
        QCOMPARE(Settings::hubKeyFromText(s.values().hubKey).toHex(),
                 QByteArrayLiteral(
                     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")); // RFC 8032's test key 1
        QCOMPARE(s.values().gpuUuids, (QStringList{QStringLiteral("GPU-1111"), QStringLiteral("GPU-2222")}));
        Settings reread(path);
        QCOMPARE(reread.values(), s.values());
        // The chosen GPUs are the ones the scheduler's temperature and power limits watch.
        QCOMPARE(Settings::schedulerPolicy(reread.values()).gpus,
                 (QStringList{QStringLiteral("GPU-1111"), QStringLiteral("GPU-2222")}));
        QVERIFY(Settings::schedulerPolicy(SettingsValues{}).gpus.isEmpty());
        QCOMPARE(reread.values().notifications, NotifyLevel::Errors);
        QCOMPARE(reread.values().proxyMode, ProxyMode::Manual);
        QCOMPARE(reread.values().pricePerKWh, 0.31);
        QCOMPARE(reread.values().gpuMemoryPercent, 60);
        QCOMPARE(Settings(file(QStringLiteral("fresh.ini"))).values().gpuMemoryPercent, 90); // the default
        QSettings raw(path, QSettings::IniFormat);
        QCOMPARE(raw.value(QStringLiteral("ui/notifications")).toString(), QStringLiteral("errors"));
        QCOMPARE(raw.value(QStringLiteral("network/proxyMode")).toString(), QStringLiteral("manual"));
    }

    void version3Validation_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("valid");
        QTest::newRow("language offered") << "language"
                                          << "language"
                                          << "fr" << true;
        QTest::newRow("language not offered") << "language"
                                              << "language"
                                              << "xx" << false;
        QTest::newRow("upload negative") << "uploadLimitKiBps"
                                         << "upload"
                                         << "-1" << false;
        QTest::newRow("upload too big") << "uploadLimitKiBps"
                                        << "upload"
                                        << "10000001" << false;
        QTest::newRow("proxy host:port") << "proxy"
                                         << "proxy"
                                         << "10.0.0.1:8080" << true;
        QTest::newRow("proxy ipv6") << "proxy"
                                    << "proxy"
                                    << "[::1]:3128" << true;
        QTest::newRow("proxy no port") << "proxy"
                                       << "proxy"
                                       << "proxy.example.org" << false;
        QTest::newRow("proxy port 0") << "proxy"
                                      << "proxy"
                                      << "proxy.example.org:0" << false;
        QTest::newRow("proxy port too big") << "proxy"
                                            << "proxy"
                                            << "proxy.example.org:70000" << false;
        QTest::newRow("proxy url") << "proxy"
                                   << "proxy"
                                   << "http://proxy:3128" << false;
        QTest::newRow("proxy empty") << "proxy"
                                     << "proxy"
                                     << "" << false;
        QTest::newRow("payout lower") << "payoutAddress"
                                      << "payout"
                                      << "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed" << true;
        QTest::newRow("payout upper") << "payoutAddress"
                                      << "payout"
                                      << "0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED" << true;
        QTest::newRow("payout checksum") << "payoutAddress"
                                         << "payout"
                                         << "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359" << true;
        QTest::newRow("payout bad checksum")
            << "payoutAddress"
            << "payout"
            << "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d358" << false; // a digit typo: the case no longer matches
        QTest::newRow("payout one letter flipped") << "payoutAddress"
                                                   << "payout"
                                                   << "0xFB6916095ca1df60bB79Ce92cE3Ea74c37c5d359" << false;
        QTest::newRow("payout short") << "payoutAddress"
                                      << "payout"
                                      << "0x5aaeb6053f3e94c9b9a09f33669435e7ef1bea" << false;
        QTest::newRow("payout no 0x") << "payoutAddress"
                                      << "payout"
                                      << "5aaeb6053f3e94c9b9a09f33669435e7ef1beaed00" << false;
        QTest::newRow("payout not hex") << "payoutAddress"
                                        << "payout"
                                        << "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg" << false;
        QTest::newRow("price negative") << "pricePerKWh"
                                        << "price"
                                        << "-0.1" << false;
        QTest::newRow("price NaN") << "pricePerKWh"
                                   << "price"
                                   << "nan" << false;
        QTest::newRow("price without currency") << "currency"
                                                << "priceOnly"
                                                << "0.3" << false;
        QTest::newRow("currency too long") << "currency"
                                           << "currency"
                                           << "EURO-DOLLAR" << false;
        QTest::newRow("credit value negative") << "creditValue"
                                               << "credit"
                                               << "-2" << false;
        QTest::newRow("gpu empty id") << "gpuUuids"
                                      << "gpu"
                                      << " " << false;
        QTest::newRow("gpu memory 10 %") << "gpuMemoryPercent"
                                         << "gpuMemory"
                                         << "10" << true;
        QTest::newRow("gpu memory 100 %") << "gpuMemoryPercent"
                                          << "gpuMemory"
                                          << "100" << true;
        QTest::newRow("gpu memory 9 %") << "gpuMemoryPercent"
                                        << "gpuMemory"
                                        << "9" << false;
        QTest::newRow("gpu memory 101 %") << "gpuMemoryPercent"
                                          << "gpuMemory"
                                          << "101" << false;
        // An ed25519 public key as cohort-hub prints it: 32 bytes in 44 characters of base64.
        QTest::newRow("hub key") << "hubKey"
                                 << "hubKey"
                                 << "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=" << true;
        QTest::newRow("hub key with blanks") << "hubKey"
                                             << "hubKey"
                                             << "  11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo= " << true;
        QTest::newRow("hub key fingerprint") << "hubKey"
                                             << "hubKey"
                                             << "d75a 9801 82b1 0ab7" << false;
        QTest::newRow("hub key 31 bytes") << "hubKey"
                                          << "hubKey"
                                          << "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHUQ==" << false;
        QTest::newRow("hub key not base64") << "hubKey"
                                            << "hubKey"
                                            << "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHUR!=" << false;
    }
    void version3Validation()
    {
        QFETCH(QString, key);
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(bool, valid);
        SettingsValues v;
        if (field == QLatin1String("language"))
            v.language = value;
        else if (field == QLatin1String("upload"))
            v.uploadLimitKiBps = value.toInt();
        else if (field == QLatin1String("proxy")) {
            v.proxyMode = ProxyMode::Manual;
            v.proxy = value;
        } else if (field == QLatin1String("payout"))
            v.payoutAddress = value;
        else if (field == QLatin1String("price")) {
            v.pricePerKWh = value == QLatin1String("nan") ? qQNaN() : value.toDouble();
            v.currency = QStringLiteral("EUR");
        } else if (field == QLatin1String("priceOnly"))
            v.pricePerKWh = value.toDouble();
        else if (field == QLatin1String("currency"))
            v.currency = value;
        else if (field == QLatin1String("credit")) {
            v.creditValue = value.toDouble();
            v.currency = QStringLiteral("EUR");
        } else if (field == QLatin1String("gpu"))
            v.gpuUuids = {value};
        else if (field == QLatin1String("gpuMemory"))
            v.gpuMemoryPercent = value.toInt();
        else if (field == QLatin1String("hubKey"))
            v.hubKey = value;
        const auto errors = Settings::validate(v);
        if (valid)
            QVERIFY2(errors.isEmpty(), qPrintable(errors.value(0).message));
        else
            QVERIFY(hasErrorFor(errors, key));
    }

    // EIP-55's own examples: the checksum is computed, not just the case looked at.
    void payoutChecksumMatchesEip55()
    {
        const QStringList examples{QStringLiteral("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"),
                                   QStringLiteral("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"),
                                   QStringLiteral("0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB"),
                                   QStringLiteral("0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb")};
        for (const QString &address : examples) {
            QCOMPARE(Settings::checksummedAddress(address.toLower()), address);
            QVERIFY(Settings::payoutAddressProblem(address).isEmpty());
            QString typo = address;
            const qsizetype letter = typo.indexOf(QRegularExpression(QStringLiteral("[a-fA-F]")), 2);
            typo[letter] = typo[letter].isUpper() ? typo[letter].toLower() : typo[letter].toUpper();
            QVERIFY2(!Settings::payoutAddressProblem(typo).isEmpty(), qPrintable(typo));
        }
    }

    // v2 -> v3: an existing user's data folder is stored clean and they get error notifications only; nothing
    // else they had changes.
    void migratesVersion2File()
    {
        const QString path = file(QStringLiteral("v2.ini"));
        const QString data = m_dir.filePath(QStringLiteral("data"));
        {
            QSettings old(path, QSettings::IniFormat);
            old.setValue(QStringLiteral("meta/version"), 2);
            old.setValue(QStringLiteral("storage/dataDir"), QString(data + QStringLiteral("/./")));
            old.setValue(QStringLiteral("network/downloadLimitKiBps"), 512);
            old.setValue(QStringLiteral("ui/welcomed"), true);
        }
        Settings s(path);
        QCOMPARE(s.versionOnDisk(), 2);
        QCOMPARE(s.values().dataDir, data);
        QCOMPARE(s.values().notifications, NotifyLevel::Errors);
        QCOMPARE(s.values().downloadLimitKiBps, 512);
        QVERIFY(s.values().welcomed);
        QCOMPARE(s.values().uploadLimitKiBps, 0);
        QCOMPARE(s.values().proxyMode, ProxyMode::None);
        QVERIFY(s.values().gpuUuids.isEmpty());
        QCOMPARE(QSettings(path, QSettings::IniFormat).value(QStringLiteral("meta/version")).toInt(), 3);
        // Choosing milestones afterwards sticks: the migration runs once.
        SettingsValues v = s.values();
        v.notifications = NotifyLevel::ErrorsAndMilestones;
        QVERIFY(s.apply(v).isEmpty());
        QCOMPARE(Settings(path).values().notifications, NotifyLevel::ErrorsAndMilestones);
    }

    // Settings declared once (SettingsFields.cpp): every field is written, read back and reported under its change
    // key by the same table; a change reaches the engine exactly when the engine's options hold the value.
    void everyFieldIsStoredReadAndReported()
    {
        const QString path = file(QStringLiteral("every.ini"));
        Settings s(path);
        QSignalSpy changed(&s, &Settings::changed);
        SettingsValues v = s.values();
        v.hubUrl = QStringLiteral("https://hub.example");
        v.dataDir = m_dir.filePath(QStringLiteral("every-data"));
        v.nodeName = QStringLiteral("den");
        v.startMinimized = true;
        v.welcomed = !v.welcomed;
        v.downloadLimitKiBps = 100;
        v.runOnlyWhenIdle = true;
        v.idleMinutes = 9;
        v.pauseOnBattery = false;
        v.schedule = {QStringLiteral("daily 22:00-06:00")};
        v.pauseWhenFullscreen = true;
        v.pauseForPrograms = {QStringLiteral("steam")};
        v.pauseWhenGpuBusy = true;
        v.gpuTempLimitC = 80;
        v.gpuPowerLimitW = 200;
        v.diskCapGiB = 30;
        v.language = QStringLiteral("de");
        v.notifications = NotifyLevel::Errors;
        v.trayIconStyle = TrayIconStyle::Dark;
        v.gpuUuids = {QStringLiteral("GPU-aaaa")};
        v.gpuMemoryPercent = 50;
        v.gpuMemoryPercentPerGpu = {{QStringLiteral("GPU-aaaa"), 30}};
        v.uploadLimitKiBps = 200;
        v.proxyMode = ProxyMode::Manual;
        v.proxy = QStringLiteral("proxy.example:3128");
        v.hubKey = QString::fromLatin1(QByteArray(32, 'k').toBase64());
        v.payoutAddress = QStringLiteral("0x52908400098527886e0f7030069857d2e4169ee7");
        v.pricePerKWh = 0.3;
        v.currency = QStringLiteral("EUR");
        v.creditValue = 0.01;
        QVERIFY(s.apply(v).isEmpty());
        QCOMPARE(changed.count(), 1);
        QCOMPARE(
            names(changed.at(0).at(1)),
            (QStringList{QStringLiteral("hubUrl"), QStringLiteral("dataDir"), QStringLiteral("nodeName"),
                         QStringLiteral("startMinimized"), QStringLiteral("welcomed"),
                         QStringLiteral("downloadLimitKiBps"), QStringLiteral("scheduler"), QStringLiteral("language"),
                         QStringLiteral("notifications"), QStringLiteral("trayIconStyle"), QStringLiteral("gpuUuids"),
                         QStringLiteral("gpuMemoryPercent"), QStringLiteral("gpuMemoryPercentPerGpu"),
                         QStringLiteral("uploadLimitKiBps"), QStringLiteral("hubKey"), QStringLiteral("proxy"),
                         QStringLiteral("payoutAddress"), QStringLiteral("energy")}));
        QCOMPARE(Settings(path).values(), s.values());
        // Where the file keeps them is part of the format (hand edits, older versions): pinned for a few.
        QSettings stored(path, QSettings::IniFormat);
        QCOMPARE(stored.value(QStringLiteral("ui/trayIcon")).toString(), QStringLiteral("dark"));
        QCOMPARE(stored.value(QStringLiteral("compute/gpuMemoryPerGpu")).toStringList(),
                 QStringList{QStringLiteral("GPU-aaaa:30")});
        QCOMPARE(stored.value(QStringLiteral("schedule/windows")).toStringList(), v.schedule);
        QCOMPARE(stored.value(QStringLiteral("energy/currency")).toString(), QStringLiteral("EUR"));

        using C = Settings::Change;
        for (C c : {C::HubUrl, C::DataDir, C::Scheduler, C::GpuUuids, C::GpuMemoryPercentPerGpu, C::HubKey,
                    C::PayoutAddress, C::UploadLimitKiBps})
            QVERIFY2(Settings::reachesEngine({c}), qPrintable(Settings::changeName(c)));
        for (C c :
             {C::StartMinimized, C::Welcomed, C::Language, C::Notifications, C::TrayIconStyle, C::Proxy, C::Energy})
            QVERIFY2(!Settings::reachesEngine({c}), qPrintable(Settings::changeName(c)));

        // A proxy mode that no longer reads keeps the proxy in use, mode and address together (before the table it
        // became "none" with the address in the file).
        QSettings(path, QSettings::IniFormat)
            .setValue(QStringLiteral("network/proxyMode"), QStringLiteral("carrier-pigeon"));
        QVERIFY(s.reload().isEmpty());
        QCOMPARE(s.values().proxyMode, ProxyMode::Manual);
        QCOMPARE(s.values().proxy, QStringLiteral("proxy.example:3128"));
        // An energy figure that is no number keeps all three in use.
        {
            QSettings edited(path, QSettings::IniFormat);
            edited.setValue(QStringLiteral("energy/pricePerKWh"), QStringLiteral("cheap"));
            edited.setValue(QStringLiteral("energy/currency"), QStringLiteral("USD"));
        }
        QVERIFY(s.reload().isEmpty());
        QCOMPARE(s.values().currency, QStringLiteral("EUR"));
        QCOMPARE(s.values().pricePerKWh, 0.3);
    }

    void invalidStoredValueFallsBackToDefault()
    {
        const QString path = file(QStringLiteral("handedited.ini"));
        {
            QSettings edited(path, QSettings::IniFormat);
            edited.setValue(QStringLiteral("meta/version"), Settings::kCurrentVersion);
            edited.setValue(QStringLiteral("network/hubUrl"), QStringLiteral("gopher://x"));
            edited.setValue(QStringLiteral("node/name"), QStringLiteral("kept"));
            edited.setValue(QStringLiteral("network/downloadLimitKiBps"), QStringLiteral("lots"));
        }
        Settings s(path);
        QVERIFY(s.values().hubUrl.isEmpty());
        QCOMPARE(s.values().nodeName, QStringLiteral("kept"));
        QCOMPARE(s.values().downloadLimitKiBps, 0);
    }

    // An edit of the file while the program runs: reload() reports the changed keys once; a value that does not
    // validate keeps the one in use (not the default) with a warning.
    void reloadReportsEditsAndKeepsValuesInUse()
    {
        const QString path = file(QStringLiteral("reload.ini"));
        Settings s(path);
        QSignalSpy changed(&s, &Settings::changed);
        QVERIFY(s.reload().isEmpty());
        QCOMPARE(changed.count(), 0);
        {
            QSettings edited(path, QSettings::IniFormat);
            edited.setValue(QStringLiteral("network/uploadLimitKiBps"), 512);
            edited.setValue(QStringLiteral("schedule/windows"), QStringList{QStringLiteral("daily 22:00-06:00")});
        }
        QCOMPARE(names(s.reload()), (QStringList{QStringLiteral("scheduler"), QStringLiteral("uploadLimitKiBps")}));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(s.values().uploadLimitKiBps, 512);
        {
            QSettings edited(path, QSettings::IniFormat);
            edited.setValue(QStringLiteral("schedule/windows"), QStringList{QStringLiteral("whenever")});
            edited.setValue(QStringLiteral("network/uploadLimitKiBps"), -3);
        }
        QVERIFY(s.reload().isEmpty()); // both invalid: the values in use stay
        QCOMPARE(s.values().schedule, QStringList{QStringLiteral("daily 22:00-06:00")});
        QCOMPARE(s.values().uploadLimitKiBps, 512);
        QCOMPARE(changed.count(), 1);
        // The same for a named choice (issue 25: notifications fell back to the default, not the value in use).
        SettingsValues quiet = s.values();
        quiet.notifications = NotifyLevel::Off; // not the default
        QVERIFY(s.apply(quiet).isEmpty());
        QCOMPARE(changed.count(), 2);
        QSettings(path, QSettings::IniFormat).setValue(QStringLiteral("ui/notifications"), QStringLiteral("loud"));
        QVERIFY(s.reload().isEmpty());
        QCOMPARE(s.values().notifications, NotifyLevel::Off);
        QCOMPARE(changed.count(), 2);
    }

    // Every GPU used: a memory share of its own for some GPUs, stored as "GPU-…:percent" entries a server owner can
    // edit, applied as it is edited (a live key), and a hand-edited entry that does not read keeps the shares in use.
    void perGpuMemorySharesPersistAndRefuseNonsense()
    {
        const QString path = file(QStringLiteral("gpushares.ini"));
        Settings s(path);
        QSignalSpy changed(&s, &Settings::changed);
        SettingsValues v = s.values();
        v.gpuMemoryPercentPerGpu = {{QStringLiteral("GPU-aaaa"), 40}, {QStringLiteral("GPU-bbbb"), 100}};
        QVERIFY(s.apply(v).isEmpty());
        QCOMPARE(changed.count(), 1);
        QCOMPARE(names(changed.at(0).at(1)), QStringList{QStringLiteral("gpuMemoryPercentPerGpu")});
        QCOMPARE(QSettings(path, QSettings::IniFormat).value(QStringLiteral("compute/gpuMemoryPerGpu")).toStringList(),
                 (QStringList{QStringLiteral("GPU-aaaa:40"), QStringLiteral("GPU-bbbb:100")}));
        QCOMPARE(Settings(path).values().gpuMemoryPercentPerGpu, v.gpuMemoryPercentPerGpu);

        const QList<QStringList> hostile{
            {QStringLiteral("GPU-aaaa:5")}, // under 10 %
            {QStringLiteral("GPU-aaaa:101")}, {QStringLiteral("GPU-aaaa:lots")},
            {QStringLiteral(":50")},      // no GPU
            {QStringLiteral("GPU-aaaa")}, // no share
            {QStringLiteral("GPU-\x01:50")},  {QString(200, QLatin1Char('G')) + QStringLiteral(":50")},
        };
        for (const QStringList &entries : hostile) {
            QSettings(path, QSettings::IniFormat).setValue(QStringLiteral("compute/gpuMemoryPerGpu"), entries);
            QVERIFY2(s.reload().isEmpty(), qPrintable(entries.join(QLatin1Char(','))));
            QCOMPARE(s.values().gpuMemoryPercentPerGpu, v.gpuMemoryPercentPerGpu);
            QCOMPARE(Settings(path).values().gpuMemoryPercentPerGpu, Settings::defaults().gpuMemoryPercentPerGpu);
        }
        QStringList thousand;
        for (int i = 0; i < 1000; ++i)
            thousand.append(QStringLiteral("GPU-%1:50").arg(i));
        QVERIFY(Settings::gpuMemorySharesFromText(thousand).size() <= Settings::kMaxGpus + 1); // reading stops early
        SettingsValues many = v;
        many.gpuMemoryPercentPerGpu = Settings::gpuMemorySharesFromText(thousand);
        QCOMPARE(Settings::validate(many).value(0).key, QStringLiteral("gpuMemoryPercentPerGpu"));
        QCOMPARE(changed.count(), 1);
    }

    // The tray icon's style: colour by default, stored by name, an unknown name falls back with a warning.
    void trayIconStylePersists()
    {
        const QString path = file(QStringLiteral("tray.ini"));
        Settings s(path);
        QCOMPARE(s.values().trayIconStyle, TrayIconStyle::Colour);
        QSignalSpy changed(&s, &Settings::changed);
        SettingsValues v = s.values();
        v.trayIconStyle = TrayIconStyle::Dark;
        QVERIFY(s.apply(v).isEmpty());
        QCOMPARE(changed.count(), 1);
        QCOMPARE(names(changed.at(0).at(1)), QStringList{QStringLiteral("trayIconStyle")});
        QCOMPARE(Settings(path).values().trayIconStyle, TrayIconStyle::Dark);
        QCOMPARE(QSettings(path, QSettings::IniFormat).value(QStringLiteral("ui/trayIcon")).toString(),
                 QStringLiteral("dark"));
        QSettings(path, QSettings::IniFormat).setValue(QStringLiteral("ui/trayIcon"), QStringLiteral("sparkly"));
        QCOMPARE(Settings(path).values().trayIconStyle, TrayIconStyle::Colour);
    }

    // The watcher reports an edit once the writes settle, also when the file is replaced (as editors and QSaveFile
    // do), and stays quiet when the same bytes are written again.
    void fileWatcherSeesEditsAndReplacements()
    {
        const QString path = file(QStringLiteral("watched.ini"));
        const auto write = [&path](const QByteArray &bytes, bool replace) {
            const QString target = replace ? path + QStringLiteral(".new") : path;
            QFile f(target);
            if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
                return false;
            f.close();
            return !replace || (QFile::remove(path) && QFile::rename(target, path));
        };
        QVERIFY(write("[node]\nname=a\n", false));
        SettingsFileWatcher watcher(path, 50);
        QSignalSpy edited(&watcher, &SettingsFileWatcher::edited);
        QVERIFY(write("[node]\nname=b\n", false));
        QVERIFY(edited.wait(5000));
        QVERIFY(write("[node]\nname=c\n", true));
        QVERIFY(edited.wait(5000));
        QCOMPARE(edited.count(), 2);
        QVERIFY(write("[node]\nname=c\n", true)); // same content
        QVERIFY(!edited.wait(500));
        QVERIFY(write("[node]\nname=d\n", false)); // the replaced file is still watched
        QVERIFY(edited.wait(5000));
        QCOMPARE(edited.count(), 3);
    }
};

QTEST_GUILESS_MAIN(TestSettings)
#include "tst_settings.moc"
