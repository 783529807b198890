#pragma once
// Settings, General page: language, start minimized, start at login, notifications and the tray icon's style.
// Start at login is the system's setting, not one of ours: the dialog reads and sets it through Autostart and
// only shows it here.
#include "ui/SettingsPage.h"

class QCheckBox;
class QComboBox;
class QLabel;

namespace cohort {

class Autostart;

class SettingsGeneralPage : public SettingsPage {
    Q_OBJECT
public:
    // autostart may be null (then start-at-login is disabled); it is not owned.
    explicit SettingsGeneralPage(Autostart *autostart, QWidget *parent = nullptr);

    bool startAtLogin() const;
    void setStartAtLogin(bool on);
    // Without a notification area the window opens at start anyway and notifications cannot be shown: say so.
    void setTrayAvailable(bool available);

private:
    QComboBox *m_language = nullptr;
    QCheckBox *m_startMinimized = nullptr;
    QCheckBox *m_startAtLogin = nullptr;
    QComboBox *m_notifications = nullptr;
    QComboBox *m_trayIconStyle = nullptr;
    QLabel *m_trayNote = nullptr;
};

} // namespace cohort
