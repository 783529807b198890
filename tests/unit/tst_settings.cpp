#include "settings/Settings.h"
#include "core/Scheduler.h"

#include <functional>

#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace cohort;

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
        QCOMPARE(QSettings(s.filePath(), QSettings::IniFormat).value(QStringLiteral("meta/version")).toInt(), Settings::kCurrentVersion);
    }

    void validation_data()
    {
        QTest::addColumn<QString>("hub");
        QTest::addColumn<QString>("dataDir");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("badKey");
        QTest::newRow("ftp scheme") << "ftp://hub.example" << "" << "" << "hubUrl";
        QTest::newRow("not a url") << "not a url" << "" << "" << "hubUrl";
        QTest::newRow("no host") << "http://" << "" << "" << "hubUrl";
        QTest::newRow("credentials") << "https://user:pw@hub.example" << "" << "" << "hubUrl";
        QTest::newRow("query") << "https://hub.example/?a=b" << "" << "" << "hubUrl";
        QTest::newRow("relative data dir") << "" << "relative/dir" << "" << "dataDir";
        QTest::newRow("name too long") << "" << "" << QString(65, QLatin1Char('x')) << "nodeName";
        QTest::newRow("control char") << "" << "" << QStringLiteral("bad\nname") << "nodeName";
        QTest::newRow("negative limit") << "" << "" << "" << "downloadLimitKiBps";
        QTest::newRow("valid https") << "https://hub.example:8443/cohort" << "" << "my box" << "";
        QTest::newRow("valid empty") << "" << "" << "" << "";
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
        const QStringList keys = spy.at(0).at(1).toStringList();
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

        for (const auto &[key, edit] : std::initializer_list<std::pair<const char *, std::function<void(SettingsValues &)>>>{
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
};

QTEST_GUILESS_MAIN(TestSettings)
#include "tst_settings.moc"
