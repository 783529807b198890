#pragma once
// Connects the views to the engine controller. The views never see the controller themselves:
// they show snapshots and events and raise requests, which keeps them testable without an engine.
namespace cohort {

class EngineController;
class MainWindow;
class TrayIcon;
class WelcomeDialog;

void bindWindowToEngine(MainWindow *window, EngineController *controller);
void bindTrayToEngine(TrayIcon *tray, EngineController *controller);
// The welcome's "Start" is the user's yes: with no task joined yet, the engine takes the first one this computer
// can run (now, or once the engine and the task list are there). "Not now" joins nothing.
void bindWelcomeToEngine(WelcomeDialog *welcome, EngineController *controller);

} // namespace cohort
