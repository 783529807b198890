#include "settings/Settings.h"

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
