// The settings dialog against a real Settings on a temporary INI file and a real Autostart
// pointed at a temporary folder (COHORT_AUTOSTART_DIR).
#include "SampleSnapshots.h"
#include "TestCertificates.h"
#include "core/Scheduler.h"
#include "platform/Autostart.h"
#include "settings/Settings.h"
#include "ui/DataFolderMove.h"
#include "ui/InlineErrorLabel.h"
#include "ui/SettingsDialog.h"
#include "ui/WelcomeDialog.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMetaEnum>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTreeWidget>
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

    // The first setting in which a and b differ, by name ("" when none), so that a failure names it.
    static QString differingField(const SettingsValues &a, const SettingsValues &b)
    {
        QString name;
#define COHORT_DIFFERS(field)                                                                                          \
  if (name.isEmpty() && !(a.field == b.field))                                                                         \
    name = QStringLiteral(#field);
        COHORT_DIFFERS(hubUrl)
        COHORT_DIFFERS(dataDir)
        COHORT_DIFFERS(nodeName)
        COHORT_DIFFERS(startMinimized)
        COHORT_DIFFERS(welcomed)
        COHORT_DIFFERS(downloadLimitKiBps)
        COHORT_DIFFERS(runOnlyWhenIdle)
        COHORT_DIFFERS(idleMinutes)
        COHORT_DIFFERS(pauseOnBattery)
        COHORT_DIFFERS(schedule)
        COHORT_DIFFERS(gpuTempLimitC)
        COHORT_DIFFERS(gpuPowerLimitW)
        COHORT_DIFFERS(diskCapGiB)
        COHORT_DIFFERS(pauseWhenFullscreen)
        COHORT_DIFFERS(pauseForPrograms)
        COHORT_DIFFERS(pauseWhenGpuBusy)
        COHORT_DIFFERS(language)
        COHORT_DIFFERS(notifications)
        COHORT_DIFFERS(trayIconStyle)
        COHORT_DIFFERS(gpuUuids)
        COHORT_DIFFERS(gpuMemoryPercent)
        COHORT_DIFFERS(gpuMemoryPercentPerGpu)
        COHORT_DIFFERS(uploadLimitKiBps)
        COHORT_DIFFERS(proxyMode)
        COHORT_DIFFERS(proxy)
        COHORT_DIFFERS(hubCertificate)
        COHORT_DIFFERS(hubKey)
        COHORT_DIFFERS(payoutAddress)
        COHORT_DIFFERS(pricePerKWh)
        COHORT_DIFFERS(currency)
        COHORT_DIFFERS(creditValue)
#undef COHORT_DIFFERS
        return name;
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
        QCOMPARE(changed.first().at(1).value<Settings::Changes>(), Settings::Changes{Settings::Change::HubUrl});
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
        QCOMPARE(field<QSpinBox>("gpuMemorySpin")->value(), 90); // the default share of each GPU's memory
        QCOMPARE(field<QSpinBox>("gpuMemorySpin")->minimum(), 10);
        field<QSpinBox>("gpuMemorySpin")->setValue(55);
        field<QSpinBox>("diskCapSpin")->setValue(40);
        field<QCheckBox>("pauseOnBatteryCheck")->setChecked(false);
        QVERIFY(m_dialog->applyButton()->isEnabled());
        QTest::mouseClick(m_dialog->applyButton(), Qt::LeftButton);
        const SettingsValues &v = m_settings->values();
        QVERIFY(v.runOnlyWhenIdle);
        QCOMPARE(v.idleMinutes, 15);
        QCOMPARE(v.schedule,
                 (QStringList{QStringLiteral("mon-fri 22:00-06:00"), QStringLiteral("weekend 00:00-24:00")}));
        QCOMPARE(v.gpuTempLimitC, 82);
        QCOMPARE(v.diskCapGiB, 40);
        QCOMPARE(v.gpuMemoryPercent, 55);
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
        QCOMPARE(field<QSpinBox>("gpuMemorySpin")->value(), 90);
    }

    // Pause when I play: the three controls load, apply and persist; a program name that cannot be used is refused
    // next to the list.
    void pauseWhenPlayingFields()
    {
        QVERIFY(!field<QCheckBox>("pauseWhenFullscreenCheck")->isChecked());
        QVERIFY(field<QLineEdit>("pauseForProgramsEdit")->text().isEmpty());
        QVERIFY(!field<QCheckBox>("pauseWhenGpuBusyCheck")->isChecked());
        field<QCheckBox>("pauseWhenFullscreenCheck")->setChecked(true);
        field<QLineEdit>("pauseForProgramsEdit")->setText(QStringLiteral("steam; ;Game.exe "));
        field<QCheckBox>("pauseWhenGpuBusyCheck")->setChecked(true);
        QVERIFY(m_dialog->applyButton()->isEnabled());
        QTest::mouseClick(m_dialog->applyButton(), Qt::LeftButton);
        const SettingsValues &v = m_settings->values();
        QVERIFY(v.pauseWhenFullscreen);
        QCOMPARE(v.pauseForPrograms, (QStringList{QStringLiteral("steam"), QStringLiteral("Game.exe")}));
        QVERIFY(v.pauseWhenGpuBusy);
        QCOMPARE(Settings(iniPath()).values(), v);
        QCOMPARE(Settings::schedulerPolicy(v).pauseForPrograms, v.pauseForPrograms); // what the engine gets, live
        m_dialog->load();
        QCOMPARE(field<QLineEdit>("pauseForProgramsEdit")->text(), QStringLiteral("steam; Game.exe"));

        field<QLineEdit>("pauseForProgramsEdit")->setText(QStringLiteral("steam; bad\x01name"));
        QTest::mouseClick(m_dialog->applyButton(), Qt::LeftButton);
        QVERIFY(m_dialog->errorLabel(QStringLiteral("pauseForPrograms"))->isVisibleTo(m_dialog.get()));
        QCOMPARE(m_settings->values().pauseForPrograms, v.pauseForPrograms); // nothing saved

        m_dialog->restoreDefaults();
        QVERIFY(!field<QCheckBox>("pauseWhenFullscreenCheck")->isChecked());
        QVERIFY(field<QLineEdit>("pauseForProgramsEdit")->text().isEmpty());
        QVERIFY(!field<QCheckBox>("pauseWhenGpuBusyCheck")->isChecked());
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
        QVERIFY(
            !fileText().contains(QStringLiteral("autostart"), Qt::CaseInsensitive)); // the OS holds it, not our file

        // A fresh dialog asks the OS, so it shows the box ticked.
        SettingsDialog again(m_settings.get(), m_autostart.get());
        QVERIFY(again.findChild<QCheckBox *>(QStringLiteral("startAtLoginCheck"))->isChecked());

        check->setChecked(false);
        QTest::mouseClick(m_dialog->applyButton(), Qt::LeftButton);
        QVERIFY(!QFile::exists(m_autostart->location()));
    }

    void restoreDefaultsAndCancelChangeNothingStored()
    {
        QVERIFY(m_settings
                    ->apply([] {
                        SettingsValues v;
                        v.hubUrl = QStringLiteral("https://hub.example.org");
                        v.nodeName = QStringLiteral("box");
                        v.startMinimized = true;
                        return v;
                    }())
                    .isEmpty());
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

    // Every page's load and read-back are inverse: a settings file with every setting off its default (the GPU choice
    // and shares too, for GPUs not detected now) comes back unchanged from the fields, and Restore Defaults gives the
    // defaults back. A setting whose widget is missing, unbound or read back wrong fails here, by name.
    void fieldsGiveBackWhatTheyLoaded()
    {
        test::TestCertificates certificates(m_dir->filePath(QStringLiteral("certificates")));
        QVERIFY(certificates.ok());
        SettingsValues v;
        v.hubUrl = QStringLiteral("https://hub.example.org");
        v.dataDir = m_dir->filePath(QStringLiteral("data"));
        v.nodeName = QStringLiteral("render-box");
        v.startMinimized = true;
        v.welcomed = true; // shown on no page: the dialog carries it through
        v.downloadLimitKiBps = 2048;
        v.runOnlyWhenIdle = true;
        v.idleMinutes = 15;
        v.pauseOnBattery = false;
        v.schedule = {QStringLiteral("mon-fri 22:00-06:00"), QStringLiteral("weekend 00:00-24:00")};
        v.gpuTempLimitC = 82;
        v.gpuPowerLimitW = 250;
        v.diskCapGiB = 40;
        v.pauseWhenFullscreen = true;
        v.pauseForPrograms = {QStringLiteral("steam"), QStringLiteral("Game.exe")};
        v.pauseWhenGpuBusy = true;
        v.language = QStringLiteral("de");
        v.notifications = NotifyLevel::Errors;
        v.trayIconStyle = TrayIconStyle::Dark;
        v.gpuUuids = {QStringLiteral("GPU-aaaa")};
        v.gpuMemoryPercent = 55;
        v.gpuMemoryPercentPerGpu = {{QStringLiteral("GPU-aaaa"), 60}, {QStringLiteral("GPU-bbbb"), 40}};
        v.uploadLimitKiBps = 256;
        v.proxyMode = ProxyMode::Manual;
        v.proxy = QStringLiteral("proxy.example.org:3128");
        v.hubCertificate = certificates.caFile();
        v.hubKey = QString::fromLatin1(QByteArray(32, 'k').toBase64());
        v.payoutAddress = QStringLiteral("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed");
        v.pricePerKWh = 0.3125; // exact in binary and in the spin box's 4 decimals
        v.currency = QStringLiteral("EUR");
        v.creditValue = 0.0625;
        QSignalSpy changed(m_settings.get(), &Settings::changed);
        QVERIFY(m_settings->apply(v).isEmpty());
        QCOMPARE(m_settings->values(), v); // already in the stored form
        // Off the defaults everywhere: every kind of change is reported (a new one needs a value above).
        QCOMPARE(changed.count(), 1);
        const auto changes = changed.first().at(1).value<Settings::Changes>();
        const QMetaEnum kinds = QMetaEnum::fromType<Settings::Change>();
        for (int i = 0; i < kinds.keyCount(); ++i)
            QVERIFY2(changes.contains(Settings::Change(kinds.value(i))), kinds.key(i));

        // A new dialog over the file loads every page; what its fields say is what the file holds.
        Settings stored(iniPath());
        QCOMPARE(stored.values(), v);
        SettingsDialog dialog(&stored, m_autostart.get());
        const SettingsValues shown = dialog.fieldValues();
        QCOMPARE(differingField(shown, v), QString());
        QVERIFY(shown == v); // nor one differingField misses
        QVERIFY(!dialog.isModified());

        // Restore Defaults loads the defaults into every page, and they read back as such (bar the payout address,
        // which it keeps, and the welcome, which no page shows). This half also catches a widget left unbound: the
        // fields read back into the loaded values, so above it would still show the stored value.
        dialog.restoreDefaults();
        SettingsValues defaults = Settings::defaults();
        defaults.welcomed = v.welcomed;
        defaults.payoutAddress = v.payoutAddress;
        QCOMPARE(differingField(dialog.fieldValues(), defaults), QString());
        QVERIFY(dialog.fieldValues() == defaults);
        QVERIFY(dialog.isModified());
    }

    // Pages: five, in a list that picks them (keyboard: the list's arrows, Ctrl+Tab from anywhere); every control has
    // an accessible name.
    void pagesAreReachable()
    {
        auto *navigation = field<QListWidget>("settingsNavigation");
        QCOMPARE(navigation->count(), int(SettingsDialog::PageCount));
        const QStringList titles{QStringLiteral("General"), QStringLiteral("Compute"), QStringLiteral("Network"),
                                 QStringLiteral("Storage"), QStringLiteral("Account")};
        for (int i = 0; i < titles.size(); ++i)
            QCOMPARE(m_dialog->pageTitle(i), titles.at(i));
        QCOMPARE(m_dialog->currentPage(), int(SettingsDialog::GeneralPage));
        navigation->setFocus();
        QTest::keyClick(navigation, Qt::Key_Down);
        QCOMPARE(m_dialog->currentPage(), int(SettingsDialog::ComputePage));
        QVERIFY(field<QWidget>("computePage")->isVisible());
        QTest::keyClick(field<QLineEdit>("scheduleEdit"), Qt::Key_Tab, Qt::ControlModifier);
        QCOMPARE(m_dialog->currentPage(), int(SettingsDialog::NetworkPage));
        QTest::keyClick(m_dialog.get(), Qt::Key_PageUp, Qt::ControlModifier);
        QCOMPARE(m_dialog->currentPage(), int(SettingsDialog::ComputePage));
        QVERIFY(!field<QWidget>("generalPage")->isVisible());

        for (QWidget *w : m_dialog->findChildren<QWidget *>()) {
            const bool control = qobject_cast<QAbstractButton *>(w) || qobject_cast<QLineEdit *>(w) ||
                                 qobject_cast<QAbstractSpinBox *>(w) || qobject_cast<QComboBox *>(w) ||
                                 qobject_cast<QListWidget *>(w);
            if (!control || w->objectName().isEmpty() || w->objectName().startsWith(QLatin1String("qt_")))
                continue;
            const QString name = w->accessibleName().isEmpty() && qobject_cast<QAbstractButton *>(w)
                                     ? static_cast<QAbstractButton *>(w)->text()
                                     : w->accessibleName();
            QVERIFY2(!name.isEmpty(), qPrintable(w->objectName()));
        }
    }

    void generalPage()
    {
        auto *language = field<QComboBox>("languageCombo");
        auto *notifications = field<QComboBox>("notificationsCombo");
        QVERIFY(language->currentData().toString().isEmpty()); // the system's by default
        QCOMPARE(notifications->currentData().toInt(), int(NotifyLevel::ErrorsAndMilestones));
        language->setCurrentIndex(language->findData(QStringLiteral("fr")));
        notifications->setCurrentIndex(notifications->findData(int(NotifyLevel::Errors)));
        QVERIFY(m_dialog->applyButton()->isEnabled());
        QVERIFY(m_dialog->apply());
        QCOMPARE(m_settings->values().language, QStringLiteral("fr"));
        QCOMPARE(m_settings->values().notifications, NotifyLevel::Errors);
        QCOMPARE(Settings(iniPath()).values().language, QStringLiteral("fr"));
        QVERIFY(fileText().contains(QStringLiteral("notifications=errors")));
        auto *trayIcon = field<QComboBox>("trayIconStyleCombo");
        QCOMPARE(trayIcon->currentData().toInt(), int(TrayIconStyle::Colour));
        QCOMPARE(trayIcon->count(), 3);
        trayIcon->setCurrentIndex(trayIcon->findData(int(TrayIconStyle::Light)));
        QVERIFY(m_dialog->apply());
        QCOMPARE(m_settings->values().trayIconStyle, TrayIconStyle::Light);
        QVERIFY(fileText().contains(QStringLiteral("trayIcon=light")));
        m_dialog->setTrayAvailable(false);
        QVERIFY(field<QLabel>("trayNote")->isVisibleTo(m_dialog.get()));
        m_dialog->setTrayAvailable(true);
        QVERIFY(!field<QLabel>("trayNote")->isVisibleTo(m_dialog.get()));
    }

    // The GPU list comes from the engine's snapshot; "use all" is the default; a choice persists and is shown even
    // while the GPU is not detected. Each GPU may have a memory share of its own, also while all are used.
    void computePageGpus()
    {
        auto *useAll = field<QCheckBox>("useAllGpusCheck");
        auto *list = field<QTreeWidget>("gpuList");
        QVERIFY(useAll->isChecked());
        QCOMPARE(list->topLevelItemCount(), 0);
        QVERIFY(field<QLabel>("gpuNote")->text().contains(QStringLiteral("No GPUs detected")));
        EngineSnapshot snapshot =
            samples::withGpus(samples::snapshot(NodeState::Working, QStringLiteral("working")), 0);
        QVERIFY(snapshot.gpus.size() >= 2);
        m_dialog->showSnapshot(snapshot);
        QCOMPARE(list->topLevelItemCount(), snapshot.gpus.size());
        // All are used: every row ticked, no tick to change; the shares can still be set.
        QVERIFY(!(list->topLevelItem(0)->flags() & Qt::ItemIsUserCheckable));
        QCOMPARE(list->topLevelItem(1)->checkState(0), Qt::Checked);
        QVERIFY(!m_dialog->applyButton()->isEnabled()); // learning the GPUs is not an edit
        auto *share = field<QSpinBox>("gpuShare1");
        QCOMPARE(share->value(), 0);
        QCOMPARE(share->text(), QStringLiteral("as above"));
        share->setValue(40);
        QVERIFY(m_dialog->apply());
        QCOMPARE(m_settings->values().gpuMemoryPercentPerGpu, (QMap<QString, int>{{snapshot.gpus.at(1).uuid, 40}}));
        QVERIFY(m_settings->values().gpuUuids.isEmpty());
        // A share under 10 % is refused next to the list. (Applying refilled the list: its spin boxes are new.)
        share = field<QSpinBox>("gpuShare1");
        QCOMPARE(share->value(), 40);
        share->setValue(5);
        QVERIFY(!m_dialog->apply());
        QVERIFY(m_dialog->errorLabel(QStringLiteral("gpuMemoryPercentPerGpu"))->isVisibleTo(m_dialog.get()));
        QCOMPARE(m_settings->values().gpuMemoryPercentPerGpu.value(snapshot.gpus.at(1).uuid), 40);
        share->setValue(0); // as above: no share of its own
        QVERIFY(m_dialog->apply());
        QVERIFY(m_settings->values().gpuMemoryPercentPerGpu.isEmpty());

        useAll->setChecked(false);
        QVERIFY(list->topLevelItem(0)->flags() & Qt::ItemIsUserCheckable);
        list->topLevelItem(1)->setCheckState(0, Qt::Unchecked);
        QVERIFY(m_dialog->apply());
        QCOMPARE(m_settings->values().gpuUuids, QStringList{snapshot.gpus.at(0).uuid});
        QCOMPARE(Settings(iniPath()).values().gpuUuids, QStringList{snapshot.gpus.at(0).uuid});

        // None ticked is refused next to the list.
        list->topLevelItem(0)->setCheckState(0, Qt::Unchecked);
        QVERIFY(!m_dialog->apply());
        QVERIFY(m_dialog->errorLabel(QStringLiteral("gpuUuids"))->isVisibleTo(m_dialog.get()));
        QCOMPARE(m_settings->values().gpuUuids, QStringList{snapshot.gpus.at(0).uuid});

        // A new dialog before any snapshot: the chosen GPU is listed, ticked, as not detected now.
        SettingsDialog again(m_settings.get(), m_autostart.get());
        auto *againList = again.findChild<QTreeWidget *>(QStringLiteral("gpuList"));
        QCOMPARE(againList->topLevelItemCount(), 1);
        QCOMPARE(againList->topLevelItem(0)->checkState(0), Qt::Checked);
        QVERIFY(againList->topLevelItem(0)->text(0).contains(snapshot.gpus.at(0).uuid));
        QVERIFY(!again.findChild<QCheckBox *>(QStringLiteral("useAllGpusCheck"))->isChecked());
    }

    void networkPage()
    {
        field<QSpinBox>("uploadLimitSpin")->setValue(256);
        auto *mode = field<QComboBox>("proxyModeCombo");
        auto *proxy = field<QLineEdit>("proxyEdit");
        QVERIFY(!proxy->isEnabled());
        mode->setCurrentIndex(mode->findData(int(ProxyMode::Manual)));
        QVERIFY(proxy->isEnabled());
        proxy->setText(QStringLiteral("proxy.example.org"));
        m_dialog->showPage(SettingsDialog::GeneralPage);
        QVERIFY(!m_dialog->apply());
        // The message is under the field, and the dialog turned to its page.
        QCOMPARE(m_dialog->currentPage(), int(SettingsDialog::NetworkPage));
        QVERIFY(m_dialog->errorLabel(QStringLiteral("proxy"))->isVisible());
        QVERIFY(m_dialog->errorLabel(QStringLiteral("proxy"))->text().contains(QStringLiteral("host:port")));
        QCOMPARE(m_settings->values().uploadLimitKiBps, 0); // nothing saved
        proxy->setText(QStringLiteral("proxy.example.org:3128"));
        QVERIFY(!m_dialog->errorLabel(QStringLiteral("proxy"))->isVisible()); // cleared as it is fixed
        QVERIFY(m_dialog->apply());
        const Settings reread(iniPath());
        QCOMPARE(reread.values().uploadLimitKiBps, 256);
        QCOMPARE(reread.values().proxyMode, ProxyMode::Manual);
        QCOMPARE(reread.values().proxy, QStringLiteral("proxy.example.org:3128"));
    }

    // Move…: refused targets say why inline; a good one is copied, checked, switched to, and the old files go,
    // with the engine stopped around it (hooks).
    void storagePageMovesTheDataFolder()
    {
        const QString oldDir = m_dir->filePath(QStringLiteral("data"));
        QVERIFY(QDir().mkpath(oldDir + QStringLiteral("/identity")));
        QVERIFY(QDir().mkpath(oldDir + QStringLiteral("/checkpoints/arith-rl")));
        const auto write = [](const QString &path, const QByteArray &data) {
            QFile f(path);
            return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
        };
        QVERIFY(write(oldDir + QStringLiteral("/identity/node.key"), "{\"secret_key\":\"abc\"}"));
        QFile::setPermissions(oldDir + QStringLiteral("/identity/node.key"), QFile::ReadOwner | QFile::WriteOwner);
        QVERIFY(write(oldDir + QStringLiteral("/checkpoints/arith-rl/model.bin"), QByteArray(3 << 20, 'w')));
        QVERIFY(m_settings
                    ->apply([&] {
                        SettingsValues v = m_settings->values();
                        v.dataDir = oldDir;
                        return v;
                    }())
                    .isEmpty());
        m_dialog->load();

        int stops = 0;
        int starts = 0;
        m_dialog->setEngineHooks(
            [&stops](std::function<void()> continuation) {
                ++stops;
                continuation();
            },
            [&starts] { ++starts; });
        bool answer = true;
        m_dialog->setConfirmProvider([&answer](const QString &, const QString &) { return answer; });
        InlineErrorLabel *error = m_dialog->errorLabel(QStringLiteral("moveDataDir"));

        m_dialog->moveDataFolderTo(oldDir + QStringLiteral("/inside"));
        QVERIFY(error->isVisible());
        QVERIFY(error->text().contains(QStringLiteral("inside")));
        QCOMPARE(m_dialog->currentPage(), int(SettingsDialog::StoragePage));
        const QString foreign = m_dir->filePath(QStringLiteral("foreign"));
        QVERIFY(QDir().mkpath(foreign));
        QVERIFY(write(foreign + QStringLiteral("/notes.txt"), "mine"));
        m_dialog->moveDataFolderTo(foreign);
        QVERIFY(error->text().contains(QStringLiteral("not empty")));
        answer = false;
        const QString target = m_dir->filePath(QStringLiteral("new/place"));
        m_dialog->moveDataFolderTo(target);
        QVERIFY(!error->isVisible());
        QVERIFY(!QFileInfo::exists(target)); // not confirmed: nothing happened
        QCOMPARE(stops, 0);

        answer = true;
        // A copy that fails (the target's parent is a file, so the folder cannot be created): the setting and the
        // old folder stay, the engine starts again there, and the message says why.
        QVERIFY(write(m_dir->filePath(QStringLiteral("plainfile")), "x"));
        QSignalSpy failed(m_dialog.get(), &SettingsDialog::dataFolderMoveFailed);
        m_dialog->moveDataFolderTo(m_dir->filePath(QStringLiteral("plainfile/sub")));
        QVERIFY(failed.wait(20000));
        QCOMPARE(stops, 1);
        QCOMPARE(starts, 1);
        QVERIFY(error->isVisibleTo(m_dialog.get()));
        QVERIFY(error->text().contains(QStringLiteral("not moved")));
        QCOMPARE(m_settings->values().dataDir, oldDir);
        QVERIFY(QFileInfo::exists(oldDir + QStringLiteral("/checkpoints/arith-rl/model.bin")));
        QVERIFY(m_dialog->findChild<QDialogButtonBox *>()->isEnabled());

        QSignalSpy moved(m_dialog.get(), &SettingsDialog::dataFolderMoved);
        m_dialog->moveDataFolderTo(target);
        QVERIFY(m_dialog->isMovingDataFolder());
        QVERIFY(!m_dialog->findChild<QDialogButtonBox *>()->isEnabled()); // no OK/Cancel halfway through
        QVERIFY(moved.wait(20000));
        QCOMPARE(stops, 2);
        QCOMPARE(starts, 2);
        QCOMPARE(m_settings->values().dataDir, target);
        QCOMPARE(Settings(iniPath()).values().dataDir, target);
        QCOMPARE(field<QLineEdit>("dataDirEdit")->text(), target);
        QFile model(target + QStringLiteral("/checkpoints/arith-rl/model.bin"));
        QVERIFY(model.open(QIODevice::ReadOnly));
        QCOMPARE(model.readAll(), QByteArray(3 << 20, 'w'));
        QVERIFY(!(QFile::permissions(target + QStringLiteral("/identity/node.key")) &
                  (QFile::ReadOther | QFile::ReadGroup)));
        QVERIFY(!QFileInfo::exists(oldDir)); // deleted only after the switch
        QVERIFY(field<QLabel>("moveDataDirStatus")->text().contains(QStringLiteral("Moved")));
        QVERIFY(QFileInfo::exists(foreign + QStringLiteral("/notes.txt")));
    }

    // Where a data folder may not go, each with its reason.
    void dataFolderMoveTargets()
    {
        const QString from = m_dir->filePath(QStringLiteral("data"));
        QVERIFY(QDir().mkpath(from + QStringLiteral("/identity")));
        const QString otherNode = m_dir->filePath(QStringLiteral("other"));
        QVERIFY(QDir().mkpath(otherNode + QStringLiteral("/identity")));
        QFile key(otherNode + QStringLiteral("/identity/node.key"));
        QVERIFY(key.open(QIODevice::WriteOnly));
        key.close();
        QFile file(m_dir->filePath(QStringLiteral("afile")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        const auto why = [&from](const QString &to) { return DataFolderMove::checkTarget(from, to); };
        QVERIFY(why(from).contains(QStringLiteral("current data folder")));
        QVERIFY(
            why(from + QStringLiteral("/./")).contains(QStringLiteral("current data folder"))); // however it is written
        QVERIFY(why(from + QStringLiteral("/identity/x")).contains(QStringLiteral("inside")));
        QVERIFY(why(m_dir->path()).contains(QStringLiteral("inside that folder"))); // the parent holds the data folder
        QVERIFY(why(otherNode).contains(QStringLiteral("node key")));
        QVERIFY(why(file.fileName()).contains(QStringLiteral("file")));
        QVERIFY(why(QStringLiteral("relative/path")).contains(QStringLiteral("full path")));
        QVERIFY(why(QString()).contains(QStringLiteral("Choose")));
        QVERIFY(why(m_dir->filePath(QStringLiteral("fresh/place"))).isEmpty()); // not there yet: fine
        QVERIFY(QDir().mkpath(m_dir->filePath(QStringLiteral("empty"))));
        QVERIFY(why(m_dir->filePath(QStringLiteral("empty"))).isEmpty()); // empty: fine
        QVERIFY(DataFolderMove::checkTarget(m_dir->filePath(QStringLiteral("missing")),
                                            m_dir->filePath(QStringLiteral("x")))
                    .contains(QStringLiteral("nothing to move")));
    }

    void accountPage()
    {
        // Payout address: format and checksum refused inline, a checksummed one saved.
        auto *payout = field<QLineEdit>("payoutAddressEdit");
        payout->setText(QStringLiteral("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD")); // last letter's case wrong
        QVERIFY(!m_dialog->apply());
        QCOMPARE(m_dialog->currentPage(), int(SettingsDialog::AccountPage));
        QVERIFY(m_dialog->errorLabel(QStringLiteral("payoutAddress"))->text().contains(QStringLiteral("checksum")));
        payout->setText(QStringLiteral("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"));
        QVERIFY(field<QLabel>("payoutAddressHint")
                    ->text()
                    .contains(QStringLiteral("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")));
        // Tariff: a price without a currency is refused; with one, saved.
        field<QDoubleSpinBox>("pricePerKWhSpin")->setValue(0.32);
        QVERIFY(!m_dialog->apply());
        QVERIFY(m_dialog->errorLabel(QStringLiteral("currency"))->isVisibleTo(m_dialog.get()));
        field<QLineEdit>("currencyEdit")->setText(QStringLiteral("EUR"));
        field<QDoubleSpinBox>("creditValueSpin")->setValue(0.05);
        QVERIFY(m_dialog->apply());
        const Settings reread(iniPath());
        QCOMPARE(reread.values().payoutAddress, QStringLiteral("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"));
        QCOMPARE(reread.values().pricePerKWh, 0.32);
        QCOMPARE(reread.values().currency, QStringLiteral("EUR"));
        QCOMPARE(reread.values().creditValue, 0.05);

        // Node id: read-only, copied to the clipboard.
        auto *nodeId = field<QLineEdit>("nodeIdEdit");
        QVERIFY(nodeId->isReadOnly());
        QVERIFY(!field<QPushButton>("copyNodeIdButton")->isEnabled());
        m_dialog->setNodeId(QStringLiteral("n-0123456789abcdef0123"));
        QCOMPARE(nodeId->text(), QStringLiteral("n-0123456789abcdef0123"));
        field<QPushButton>("copyNodeIdButton")->click();
        QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("n-0123456789abcdef0123"));
    }

    // Export key…: explained and confirmed first; written whole, owner-only.
    void exportKeyWritesAPrivateCopy()
    {
        const QString keyFile = m_dir->filePath(QStringLiteral("identity/node.key"));
        QVERIFY(QDir().mkpath(QFileInfo(keyFile).path()));
        {
            QFile f(keyFile);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"public_key\":\"p\",\"secret_key\":\"s3cr3t\"}");
        }
        m_dialog->setIdentityFile(keyFile);
        const QString target = m_dir->filePath(QStringLiteral("backup.key"));
        QString explained;
        bool answer = false;
        m_dialog->setConfirmProvider([&](const QString &, const QString &text) {
            explained = text;
            return answer;
        });
        m_dialog->setPathProvider([&target](SettingsDialog::PathRequest request) {
            return request == SettingsDialog::PathRequest::ExportKey ? target : QString();
        });
        QVERIFY(!m_dialog->exportKey()); // declined
        QVERIFY(explained.contains(QStringLiteral("identity")));
        QVERIFY(!QFileInfo::exists(target));
        answer = true;
        QVERIFY(m_dialog->exportKey());
        QFile copy(target);
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QCOMPARE(copy.readAll(), QByteArray("{\"public_key\":\"p\",\"secret_key\":\"s3cr3t\"}"));
        const QFile::Permissions others = QFile::ReadGroup | QFile::WriteGroup | QFile::ReadOther | QFile::WriteOther;
        QCOMPARE(QFile::permissions(target) & others, QFile::Permissions());
        QVERIFY(field<QLabel>("exportKeyStatus")->isVisibleTo(m_dialog.get()));

        // Without a key file there is nothing to export, and it says so.
        m_dialog->setIdentityFile(m_dir->filePath(QStringLiteral("missing/node.key")));
        QVERIFY(!m_dialog->exportKey());
        QVERIFY(m_dialog->errorLabel(QStringLiteral("exportKey"))->isVisibleTo(m_dialog.get()));
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
