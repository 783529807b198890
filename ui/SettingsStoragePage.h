#pragma once
// Settings, Storage page: the data folder (typed, browsed to, or moved with its contents) and the disk space cap.
// Move… copies and checks every file with the engine stopped, switches the setting, then deletes the old copy
// (DataFolderMove); the dialog asks where to, confirms through its provider and stops and starts the engine.
#include "ui/SettingsPage.h"

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace cohort {

class DataFolderMove;

class SettingsStoragePage : public SettingsPage {
    Q_OBJECT
public:
    // settings is not owned; the page reads the data folder in use from it and switches it after a move.
    explicit SettingsStoragePage(Settings *settings, QWidget *parent = nullptr);

    bool isMoving() const { return m_move != nullptr; }
    // Checks `target`, asks `confirm`, then stops the engine (stopEngine(continuation) calls continuation once it
    // has stopped; without it the copy starts at once) and copies. The outcome is shown on the page and told by
    // moveFinished.
    void moveTo(const QString &target, const Confirm &confirm,
                const std::function<void(std::function<void()>)> &stopEngine);

Q_SIGNALS:
    void moveRequested(); // Move… was pressed: the dialog asks where to
    void moveStarted();   // from here until moveFinished, nothing may close the dialog
    // error is empty when the data moved and the settings name `to` now; else the old folder is still in use.
    void moveFinished(const QString &from, const QString &to, const QString &error);

private:
    void browseDataDir();
    void onMoveFinished(bool ok, const QString &copyError);

    Settings *m_settings;
    QLineEdit *m_dataDir = nullptr;
    QPushButton *m_moveButton = nullptr;
    QLabel *m_moveStatus = nullptr;
    QSpinBox *m_diskCap = nullptr;
    DataFolderMove *m_move = nullptr;
};

} // namespace cohort
