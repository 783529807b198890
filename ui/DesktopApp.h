#pragma once
// The desktop program's wiring: settings, the engine controller, the window, the tray and the settings
// dialog, and the rules that tie them together (start minimized only with a tray, close-to-tray,
// restart the engine when its settings change, quit only after the engine stopped).
#include "api/EngineController.h"
#include "settings/Settings.h"

#include <QObject>
#include <QTimer>
#include <functional>
#include <memory>
#include <optional>

namespace cohort {

class Autostart;
class MainWindow;
class Notifier;
class SettingsDialog;
class TerminationSignals;
class TrayIcon;

// What the command line asked for. Overrides apply to this run only and are never saved.
struct LaunchOptions {
    std::optional<QString> hubUrl;  // --hub
    std::optional<QString> dataDir; // --data-dir
    bool minimized = false;         // --minimized (the autostart entry passes it)
};

class DesktopApp : public QObject {
    Q_OBJECT
public:
    explicit DesktopApp(LaunchOptions launch, QObject *parent = nullptr);
    ~DesktopApp() override;

    // Names, version and icon that the OS and QStandardPaths see. Call right after QApplication exists.
    static void describeApplication(const QString &version);

    // Starts everything, runs the event loop and returns the exit code.
    int run();

    EngineOptions engineOptions() const;
    MainWindow *window() const { return m_window.get(); }

public Q_SLOTS:
    void quit();
    void showSettings();
    void showDoctor();      // Help › Check this computer: cohortd --doctor on this app's settings and data folder
    void saveDiagnostics(); // asks where, then writes the diagnostics zip (engine/api/Diagnostics)
    void showWelcome();
    void startEngineOnceShown(); // the first-run welcome (once: settings remember it was seen)

private:
    void start();
    void checkForTray();
    void stopEngineThen(std::function<void()> continuation); // for moving the data folder
    void createTray();
    void onSettingsChanged(const cohort::SettingsValues &values, const cohort::Settings::Changes &changes);
    void onWindowHiddenToTray();
    void finishQuit();

    LaunchOptions m_launch;
    // Declaration order is destruction order in reverse: the window (and the dialog it parents) goes
    // before the settings and autostart it points to, and before the controller it listens to.
    std::unique_ptr<Settings> m_settings;
    std::unique_ptr<Autostart> m_autostart;
    std::unique_ptr<EngineController> m_controller;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<TerminationSignals> m_termination;
    TrayIcon *m_tray = nullptr;
    SettingsDialog *m_settingsDialog = nullptr;
    Notifier *m_notifier = nullptr;
    QTimer m_trayRetry;
    int m_trayChecksLeft = 0;
    bool m_toldAboutTray = false;
    bool m_quitting = false;
    bool m_finished = false;
    bool m_engineHung = false;
};

} // namespace cohort
