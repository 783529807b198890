#include "ui/EngineBinding.h"

#include "node/EngineController.h"
#include "ui/MainWindow.h"
#include "ui/TrayIcon.h"

namespace cohort {

void bindWindowToEngine(MainWindow *window, EngineController *controller)
{
    QObject::connect(controller, &EngineController::snapshotChanged, window, &MainWindow::showSnapshot);
    QObject::connect(controller, &EngineController::eventOccurred, window, &MainWindow::appendEvent);
    QObject::connect(window, &MainWindow::pauseRequested, controller, &EngineController::pause);
    QObject::connect(window, &MainWindow::resumeRequested, controller, &EngineController::resume);
    QObject::connect(window, &MainWindow::joinTaskRequested, controller, &EngineController::joinTask);
    QObject::connect(window, &MainWindow::leaveTaskRequested, controller, &EngineController::leaveTask);
    // The controller may have a snapshot already (a window created after start()).
    if (controller->snapshot().sequence > 0)
        window->showSnapshot(controller->snapshot());
}

void bindTrayToEngine(TrayIcon *tray, EngineController *controller)
{
    QObject::connect(controller, &EngineController::snapshotChanged, tray, &TrayIcon::showSnapshot);
    QObject::connect(tray, &TrayIcon::pauseRequested, controller, &EngineController::pause);
    QObject::connect(tray, &TrayIcon::resumeRequested, controller, &EngineController::resume);
    if (controller->snapshot().sequence > 0)
        tray->showSnapshot(controller->snapshot());
}

} // namespace cohort
