#pragma once
// The first-run welcome: what Cohort does with this computer, in plain words, and the few choices that matter
// (start at login, only when idle, pause on battery, a GPU temperature limit). Not modal: the main window stays
// usable. "Start" saves the choices; "Not now" keeps the defaults; either way it is not shown again.
#include "settings/Settings.h"

#include <QDialog>

class QCheckBox;
class QSpinBox;

namespace cohort {

class Autostart;

class WelcomeDialog : public QDialog {
    Q_OBJECT
public:
    WelcomeDialog(Settings *settings, Autostart *autostart, QWidget *parent = nullptr);

    // The values "Start" would save (the current settings with the choices and welcomed = true).
    SettingsValues chosenValues() const;

public Q_SLOTS:
    void start();  // save the choices, close
    void notNow(); // save only that the welcome was seen, close

private:
    Settings *m_settings;
    Autostart *m_autostart;
    QCheckBox *m_autostartCheck = nullptr;
    QCheckBox *m_idleOnly = nullptr;
    QCheckBox *m_pauseOnBattery = nullptr;
    QSpinBox *m_gpuTempLimit = nullptr;
};

} // namespace cohort
