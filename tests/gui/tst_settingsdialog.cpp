// The settings dialog against a real Settings on a temporary INI file and a real Autostart
// pointed at a temporary folder (COHORT_AUTOSTART_DIR).
#include "platform/Autostart.h"
#include "settings/Settings.h"
#include "ui/InlineErrorLabel.h"
#include "ui/SettingsDialog.h"
#include "ui/WelcomeDialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QLineEdit>
#include <QSpinBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>

using namespace cohort;

class TestSettingsDialog : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Settings> m_settings;
    std::unique_ptr<Autostart> m_autostart;
    std::unique_ptr<SettingsDialog> m_dialog;

    QString iniPath() const { return m_dir->filePath(QStringLiteral("cohort.ini")); }
    QString autostartDir() const { return m_dir->filePath(QStringLiteral("autostart")); }
    template <typename T>
    T *field(const char *name) const
    {
        T *widget = m_dialog->findChild<T *>(QLatin1String(name));
        if (!widget)
            qFatal("missing widget %s", name);
        return widget;
    }
    QString fileText() const
    {
        QFile file(iniPath());
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        qputenv("COHORT_AUTOSTART_DIR", autostartDir().toLocal8Bit());
        m_settings = std::make_unique<Settings>(iniPath());
        m_autostart = createAutostart(QStringLiteral("/opt/cohort/bin/cohort"));
        m_dialog = std::make_unique<SettingsDialog>(m_settings.get(), m_autostart.get());
        m_dialog->openAndRaise();
        QVERIFY(QTest::qWaitForWindowExposed(m_dialog.get()));
    }

    void cleanup()
    {
        m_dialog.reset();
        m_autostart.reset();
        m_settings.reset();
        m_dir.reset();
        qunsetenv("COHORT_AUTOSTART_DIR");
    }

    void applySavesTheHubUrl()
    {
        QSignalSpy changed(m_settings.get(), &Settings::changed);
        QVERIFY(!m_dialog->applyButton()->isEnabled()); // nothing changed yet
        QVERIFY(!m_dialog->okButton()->isEnabled());

        field<QLineEdit>("hubUrlEdit")->setText(QStringLiteral("https://hub.example.org/"));
        QVERIFY(m_dialog->applyButton()->isEnabled());
        QTest::mouseClick(m_dialog->applyButton(), Qt::LeftButton);

        QCOMPARE(m_settings->values().hubUrl, QStringLiteral("https://hub.example.org")); // normalised
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().at(1).toStringList(), QStringList{QStringLiteral("hubUrl")});
        QVERIFY(!m_dialog->applyButton()->isEnabled()); // saved: nothing pending any more
        QCOMPARE(field<QLineEdit>("hubUrlEdit")->text(), QStringLiteral("https://hub.example.org"));

        // It is on disk, not only in memory.
        QVERIFY(fileText().contains(QStringLiteral("https://hub.example.org")));
        Settings reread(iniPath());
        QCOMPARE(reread.values(), m_settings->values());
    }

    void invalidHubUrlIsRefusedInline_data()
    {
        QTest::addColumn<QString>("url");
        QTest::newRow("ftp") << QStringLiteral("ftp://x");
        QTest::newRow("not a url") << QStringLiteral("not a url");
        QTest::newRow("no host") << QStringLiteral("http://");
    }

    void invalidHubUrlIsRefusedInline()
    {
        QFETCH(QString, url);
        QSignalSpy changed(m_settings.get(), &Settings::changed);
        const SettingsValues before = m_settings->values();
        const QString fileBefore = fileText();
        InlineErrorLabel *error = m_dialog->errorLabel(QStringLiteral("hubUrl"));
        QVERIFY(error);
        QVERIFY(!error->isVisible());

        field<QLineEdit>("nodeNameEdit")->setText(QStringLiteral("render-box")); // a valid change rides along
        field<QLineEdit>("hubUrlEdit")->setText(url);
        QTest::mouseClick(m_dialog->applyButton(), Qt::LeftButton);

        QVERIFY(error->isVisible());
        QVERIFY(!error->text().isEmpty());
        QCOMPARE(error->objectName(), QStringLiteral("hubUrlError"));
        QCOMPARE(m_settings->values(), before); // nothing at all was saved
        QCOMPARE(changed.count(), 0);
        QCOMPARE(fileText(), fileBefore);
        QCOMPARE(field<QLineEdit>("hubUrlEdit")->text(), url); // what the user typed is kept
        QVERIFY(m_dialog->applyButton()->isEnabled());

        // OK does not close over an error either.
        QTest::mouseClick(m_dialog->okButton(), Qt::LeftButton);
        QVERIFY(m_dialog->isVisible());

        // Fixing the address clears the message as it is typed.
        field<QLineEdit>("hubUrlEdit")->setText(QStringLiteral("http://127.0.0.1:8080"));
        QVERIFY(!error->isVisible());
        QTest::mouseClick(m_dialog->okButton(), Qt::LeftButton);
        QVERIFY(!m_dialog->isVisible());
        QCOMPARE(m_settings->values().hubUrl, QStringLiteral("http://127.0.0.1:8080"));
        QCOMPARE(m_settings->values().nodeName, QStringLiteral("render-box"));
    }

    // "When to work": the fields load, apply and persist; a bad schedule or temperature is refused next to its field.
    void whenToWorkFields()
    {
        field<QCheckBox>("idleOnlyCheck")->setChecked(true);
        QVERIFY(field<QSpinBox>("idleMinutesSpin")->isEnabled());
        field<QSpinBox>("idleMinutesSpin")->setValue(15);
        field<QLineEdit>("scheduleEdit")->setText(QStringLiteral("mon-fri 22:00-06:00; weekend 00:00-24:00"));
        field<QSpinBox>("gpuTempLimitSpin")->setValue(82);
        field<QSpinBox>("diskCapSpin")->setValue(40);
        field<QCheckBox>("pauseOnBatteryCheck")->setChecked(false);
        QVERIFY(m_dialog->applyButton()->isEnabled());
        QTest::mouseClick(m_dialog->applyButton(), Qt::LeftButton);
        const SettingsValues &v = m_settings->values();
        QVERIFY(v.runOnlyWhenIdle);
        QCOMPARE(v.idleMinutes, 15);
        QCOMPARE(v.schedule, (QStringList{QStringLiteral("mon-fri 22:00-06:00"), QStringLiteral("weekend 00:00-24:00")}));
        QCOMPARE(v.gpuTempLimitC, 82);
        QCOMPARE(v.diskCapGiB, 40);
        QVERIFY(!v.pauseOnBattery);
        QCOMPARE(Settings(iniPath()).values(), v);

        field<QLineEdit>("scheduleEdit")->setText(QStringLiteral("mon 9-5"));
        field<QSpinBox>("gpuTempLimitSpin")->setValue(30);
        QTest::mouseClick(m_dialog->applyButton(), Qt::LeftButton);
        QVERIFY(m_dialog->errorLabel(QStringLiteral("schedule"))->isVisibleTo(m_dialog.get()));
        QVERIFY(m_dialog->errorLabel(QStringLiteral("schedule"))->text().contains(QStringLiteral("mon 9-5")));
        QVERIFY(m_dialog->errorLabel(QStringLiteral("gpuTempLimitC"))->isVisibleTo(m_dialog.get()));
        QCOMPARE(m_settings->values().gpuTempLimitC, 82); // nothing saved

        m_dialog->restoreDefaults();
        QVERIFY(!field<QCheckBox>("idleOnlyCheck")->isChecked());
        QVERIFY(field<QLineEdit>("scheduleEdit")->text().isEmpty());
        QCOMPARE(field<QSpinBox>("gpuTempLimitSpin")->value(), 0);
    }

    // The first-run welcome: shown for a new settings file only; Start saves the choices (and start at login),
    // Not now keeps the defaults; either way it is remembered.
    void welcomeOnFirstRunOnly()
    {
        QVERIFY(!m_settings->values().welcomed); // a new settings file
        {
            WelcomeDialog welcome(m_settings.get(), m_autostart.get());
            welcome.findChild<QCheckBox *>(QStringLiteral("welcomeIdleOnly"))->setChecked(true);
            welcome.findChild<QCheckBox *>(QStringLiteral("welcomeAutostart"))->setChecked(true);
            QCOMPARE(welcome.findChild<QSpinBox *>(QStringLiteral("welcomeGpuTempLimit"))->value(), 83);
            welcome.findChild<QPushButton *>(QStringLiteral("welcomeStart"))->click();
            QCOMPARE(welcome.result(), int(QDialog::Accepted));
        }
        QVERIFY(m_settings->values().welcomed);
        QVERIFY(m_settings->values().runOnlyWhenIdle);
        QCOMPARE(m_settings->values().gpuTempLimitC, 83);
        QVERIFY(m_autostart->isEnabled());
        QVERIFY(Settings(iniPath()).values().welcomed); // on disk

        // "Not now" on another fresh file: defaults kept, the welcome remembered.
        const QString other = m_dir->filePath(QStringLiteral("other.ini"));
        Settings fresh(other);
        QVERIFY(!fresh.values().welcomed);
        WelcomeDialog later(&fresh, nullptr);
        QVERIFY(!later.findChild<QCheckBox *>(QStringLiteral("welcomeAutostart"))->isEnabled()); // no autostart here
        later.findChild<QPushButton *>(QStringLiteral("welcomeNotNow"))->click();
        QVERIFY(fresh.values().welcomed);
        QVERIFY(!fresh.values().runOnlyWhenIdle);
        QCOMPARE(fresh.values().gpuTempLimitC, 0);

        // Settings written before the welcome existed: the user is not welcomed again.
        const QString old = m_dir->filePath(QStringLiteral("old.ini"));
        {
            QSettings legacy(old, QSettings::IniFormat);
            legacy.setValue(QStringLiteral("meta/version"), Settings::kCurrentVersion);
            legacy.setValue(QStringLiteral("node/name"), QStringLiteral("veteran"));
        }
        QVERIFY(Settings(old).values().welcomed);
    }

    void relativeDataDirIsRefusedInline()
    {
        field<QLineEdit>("dataDirEdit")->setText(QStringLiteral("relative/folder"));
        QVERIFY(!m_dialog->apply());
        QVERIFY(m_dialog->errorLabel(QStringLiteral("dataDir"))->isVisible());
        QVERIFY(!m_dialog->errorLabel(QStringLiteral("hubUrl"))->isVisible());
        QVERIFY(m_settings->values().dataDir.isEmpty());
    }

    void startAtLoginWritesAndRemovesTheDesktopEntry()
    {
        auto *check = field<QCheckBox>("startAtLoginCheck");
        QVERIFY(check->isEnabled());
        QVERIFY(!check->isChecked());
        QVERIFY(m_autostart->location().startsWith(autostartDir()));
        QVERIFY(!QFile::exists(m_autostart->location()));

        check->setChecked(true);
        QVERIFY(m_dialog->applyButton()->isEnabled());
        QTest::mouseClick(m_dialog->applyButton(), Qt::LeftButton);
        QVERIFY(QFile::exists(m_autostart->location()));
        QFile entry(m_autostart->location());
        QVERIFY(entry.open(QIODevice::ReadOnly));
        QVERIFY(entry.readAll().contains("/opt/cohort/bin/cohort"));
        QVERIFY(!m_dialog->applyButton()->isEnabled());
        QVERIFY(!fileText().contains(QStringLiteral("autostart"), Qt::CaseInsensitive)); // the OS holds it, not our file

        // A fresh dialog asks the OS, so it shows the box ticked.
        SettingsDialog again(m_settings.get(), m_autostart.get());
        QVERIFY(again.findChild<QCheckBox *>(QStringLiteral("startAtLoginCheck"))->isChecked());

        check->setChecked(false);
        QTest::mouseClick(m_dialog->applyButton(), Qt::LeftButton);
        QVERIFY(!QFile::exists(m_autostart->location()));
    }

    void restoreDefaultsAndCancelChangeNothingStored()
    {
        QVERIFY(m_settings->apply([] {
            SettingsValues v;
            v.hubUrl = QStringLiteral("https://hub.example.org");
            v.nodeName = QStringLiteral("box");
            v.startMinimized = true;
            return v;
        }()).isEmpty());
        m_dialog->load();
        QCOMPARE(field<QLineEdit>("hubUrlEdit")->text(), QStringLiteral("https://hub.example.org"));

        m_dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::RestoreDefaults)->click();
        QVERIFY(field<QLineEdit>("hubUrlEdit")->text().isEmpty());
        QVERIFY(field<QLineEdit>("nodeNameEdit")->text().isEmpty());
        QVERIFY(!field<QCheckBox>("startMinimizedCheck")->isChecked());
        QVERIFY(m_dialog->applyButton()->isEnabled());
        QCOMPARE(m_settings->values().hubUrl, QStringLiteral("https://hub.example.org")); // not saved yet

        m_dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Cancel)->click();
        QVERIFY(!m_dialog->isVisible());
        QCOMPARE(m_settings->values().nodeName, QStringLiteral("box"));
        m_dialog->openAndRaise(); // reopening shows what is stored, not the abandoned edits
        QCOMPARE(field<QLineEdit>("hubUrlEdit")->text(), QStringLiteral("https://hub.example.org"));
        QVERIFY(field<QCheckBox>("startMinimizedCheck")->isChecked());
        QVERIFY(!m_dialog->applyButton()->isEnabled());
    }

    void withoutAutostartSupportTheOptionIsDisabled()
    {
        SettingsDialog dialog(m_settings.get(), nullptr);
        auto *check = dialog.findChild<QCheckBox *>(QStringLiteral("startAtLoginCheck"));
        QVERIFY(!check->isEnabled());
        QVERIFY(!check->toolTip().isEmpty());
    }
};

QTEST_MAIN(TestSettingsDialog)
#include "tst_settingsdialog.moc"
