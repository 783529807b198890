#include "ui/SettingsGeneralPage.h"

#include "platform/Autostart.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>

namespace cohort {

SettingsGeneralPage::SettingsGeneralPage(Autostart *autostart, QWidget *parent)
    : SettingsPage(tr("General"), "generalPage", parent)
{
    QWidget *content = this->content();
    m_language = new QComboBox(content);
    bind(m_language, &SettingsValues::language);
    m_language->setObjectName(QStringLiteral("languageCombo"));
    m_language->setAccessibleName(tr("Language"));
    const QString systemLanguage = QLocale().nativeLanguageName(); // empty for the C locale
    m_language->addItem(systemLanguage.isEmpty() ? tr("System default") : tr("System default (%1)").arg(systemLanguage),
                        QString());
    // Each language in its own name, so whoever cannot read the current one still finds theirs.
    for (const QString &code : Settings::languages())
        m_language->addItem(QLocale(code).nativeLanguageName(), code);
    m_startMinimized = new QCheckBox(tr("Start minimized to the notification area"), content);
    bind(m_startMinimized, &SettingsValues::startMinimized);
    m_startMinimized->setObjectName(QStringLiteral("startMinimizedCheck"));
    m_startMinimized->setAccessibleName(m_startMinimized->text());
    m_startAtLogin = new QCheckBox(tr("Start Cohort when I log in"), content);
    watch(m_startAtLogin);
    m_startAtLogin->setObjectName(QStringLiteral("startAtLoginCheck"));
    m_startAtLogin->setAccessibleName(m_startAtLogin->text());
    if (!autostart || !autostart->isSupported()) {
        m_startAtLogin->setEnabled(false);
        m_startAtLogin->setToolTip(tr("Starting at login is not available on this system."));
    } else {
        m_startAtLogin->setToolTip(tr("Managed by the system: %1").arg(autostart->location()));
    }
    m_notifications = new QComboBox(content);
    bind(m_notifications, &SettingsValues::notifications);
    m_notifications->setObjectName(QStringLiteral("notificationsCombo"));
    m_notifications->setAccessibleName(tr("Notifications"));
    m_notifications->addItem(tr("Off"), int(NotifyLevel::Off));
    m_notifications->addItem(tr("Errors only"), int(NotifyLevel::Errors));
    m_notifications->addItem(tr("Errors and milestones"), int(NotifyLevel::ErrorsAndMilestones));
    m_notifications->setToolTip(tr("Errors: Cohort stopped, lost its hub, ran out of disk space or had work refused.\n"
                                   "Milestones: your first verified work, a model download finished.\n"
                                   "At most one message of each kind every 15 minutes."));
    m_trayIconStyle = new QComboBox(content);
    bind(m_trayIconStyle, &SettingsValues::trayIconStyle);
    m_trayIconStyle->setObjectName(QStringLiteral("trayIconStyleCombo"));
    m_trayIconStyle->setAccessibleName(tr("Tray icon"));
    m_trayIconStyle->addItem(tr("Colour"), int(TrayIconStyle::Colour));
    m_trayIconStyle->addItem(tr("Monochrome, light (for dark panels)"), int(TrayIconStyle::Light));
    m_trayIconStyle->addItem(tr("Monochrome, dark (for light panels)"), int(TrayIconStyle::Dark));
    m_trayIconStyle->setToolTip(
        tr("Each state keeps its own symbol in every style, so they stay apart without colour."));
    m_trayNote = note(QString());
    m_trayNote->setObjectName(QStringLiteral("trayNote"));
    m_trayNote->hide();

    auto *form = new QFormLayout(content);
    form->addRow(tr("Language:"), withErrorLabel(m_language, QStringLiteral("language")));
    form->addRow(QString(), note(tr("A new language applies the next time Cohort starts.")));
    form->addRow(tr("Start:"), m_startMinimized);
    form->addRow(QString(), withErrorLabel(m_startAtLogin, QStringLiteral("autostart")));
    form->addRow(tr("Notifications:"), withErrorLabel(m_notifications, QStringLiteral("notifications")));
    form->addRow(tr("Tray icon:"), withErrorLabel(m_trayIconStyle, QStringLiteral("trayIconStyle")));
    form->addRow(QString(), m_trayNote);
    setWidget(content);
}

bool SettingsGeneralPage::startAtLogin() const
{
    return m_startAtLogin->isChecked();
}

void SettingsGeneralPage::setStartAtLogin(bool on)
{
    m_startAtLogin->setChecked(on);
}

void SettingsGeneralPage::setTrayAvailable(bool available)
{
    const QString why = tr("There is no notification area right now, so the window opens at start even when this is "
                           "ticked, and notifications cannot be shown.");
    m_startMinimized->setToolTip(available ? QString() : why);
    m_trayNote->setText(why);
    m_trayNote->setVisible(!available);
}

} // namespace cohort
