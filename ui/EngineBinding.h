#pragma once
// Connects the views to the engine controller. The views never see the controller themselves:
// they show snapshots and events and raise requests, which keeps them testable without an engine.
namespace cohort {

class EngineController;
class MainWindow;
class TrayIcon;

void bindWindowToEngine(MainWindow *window, EngineController *controller);
void bindTrayToEngine(TrayIcon *tray, EngineController *controller);

} // namespace cohort
