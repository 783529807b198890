#pragma once
// Settings: hub, data folder, node name, start minimized, start at login.
// Fields are checked with Settings::validate and errors appear under the field they concern. Apply
// commits everything through Settings::apply (one change signal) and asks the OS for start-at-login;
// whatever fails stays in the fields with its message, so nothing the user typed is lost.
#include "settings/Settings.h"

#include <QDialog>
#include <QHash>

class QCheckBox;
class QDialogButtonBox;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace cohort {

class Autostart;
class InlineErrorLabel;

class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    // autostart may be null (then start-at-login is disabled); neither pointer is owned.
    SettingsDialog(Settings *settings, Autostart *autostart, QWidget *parent = nullptr);

    SettingsValues fieldValues() const;
    bool isModified() const;
    // The message under a field ("hubUrl", "dataDir", "nodeName", "autostart", or "" for the dialog).
    InlineErrorLabel *errorLabel(const QString &key) const;
    QPushButton *applyButton() const;
    QPushButton *okButton() const;

    void setTrayAvailable(bool available);

public Q_SLOTS:
    void load();              // fill the fields from what is stored now
    bool apply();             // false if anything was refused; the messages are shown inline
    void restoreDefaults();   // fields only: nothing is saved until Apply or OK
    void openAndRaise();      // reloads first if the dialog was closed

protected:
    void accept() override;   // OK closes only when Apply succeeded

private:
    QWidget *withErrorLabel(QWidget *field, const QString &key);
    void browseDataDir();
    QWidget *buildScheduleBox();
    void setFields(const SettingsValues &values);
    void onFieldEdited();
    void showErrors(const QList<SettingsError> &errors);
    void clearErrors();

    Settings *m_settings;
    Autostart *m_autostart;
    QLineEdit *m_hubUrl = nullptr;
    QLineEdit *m_dataDir = nullptr;
    QLineEdit *m_nodeName = nullptr;
    QCheckBox *m_startMinimized = nullptr;
    QSpinBox *m_downloadLimit = nullptr;
    QCheckBox *m_startAtLogin = nullptr;
    // When to work (the engine's scheduler)
    QCheckBox *m_idleOnly = nullptr;
    QSpinBox *m_idleMinutes = nullptr;
    QCheckBox *m_pauseOnBattery = nullptr;
    QLineEdit *m_schedule = nullptr;  // windows separated by ';'
    QSpinBox *m_gpuTempLimit = nullptr;
    QSpinBox *m_gpuPowerLimit = nullptr;
    QSpinBox *m_diskCap = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QHash<QString, InlineErrorLabel *> m_errorLabels;
    SettingsValues m_loadedValues;
    bool m_loadedAutostart = false;
    bool m_loading = false;
};

} // namespace cohort
