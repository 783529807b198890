#include "ui/EngineBinding.h"

#include "api/EngineController.h"
#include "ui/DashboardPage.h"
#include "ui/EarningsPage.h"
#include "ui/MainWindow.h"
#include "ui/SnapshotThrottle.h"
#include "ui/TrayIcon.h"
#include "ui/WelcomeDialog.h"

namespace cohort {

namespace {
// Reachable: a heartbeat has been answered and none has failed since. Before the first answer the only
// earnings the engine can have sent are the cached ones.
bool hubReachable(const EngineSnapshot &snapshot)
{
    return snapshot.lastHeartbeatAt.isValid() && snapshot.heartbeatFailures == 0;
}
} // namespace

void bindWindowToEngine(MainWindow *window, EngineController *controller)
{
    // The window's pages re-lay out on every text change: at most one snapshot a second reaches them, changes of
    // state or reason at once (SnapshotThrottle). The throttle belongs to the window.
    auto *throttle = new SnapshotThrottle(1000, window);
    QObject::connect(controller, &EngineController::snapshotChanged, throttle, &SnapshotThrottle::offer);
    QObject::connect(throttle, &SnapshotThrottle::snapshotReady, window, &MainWindow::showSnapshot);
    QObject::connect(controller, &EngineController::eventOccurred, window, &MainWindow::appendEvent);
    // The GPU charts' hour and day start with the minutes earlier runs stored. Only the first engine's: after a restart
    // (settings changed) the dashboard holds them already, with this session's readings on top.
    QObject::connect(controller, &EngineController::gpuHistoryLoaded, window->dashboardPage(),
                     &DashboardPage::seedGpuHistory, Qt::SingleShotConnection);
    // The earnings signal does not say where the report came from; the heartbeat state does: a report that
    // arrives while the hub is not answering is the node's cached copy.
    EarningsPage *earnings = window->earningsPage();
    QObject::connect(controller, &EngineController::earningsChanged, earnings, &EarningsPage::setReport);
    const auto showOnEarnings = [earnings](const EngineSnapshot &snapshot) {
        earnings->setHubReachable(hubReachable(snapshot));
        if (snapshot.energy) // the engine reads it from the stored GPU history once a minute
            earnings->setEnergy(*snapshot.energy);
    };
    QObject::connect(controller, &EngineController::snapshotChanged, earnings, showOnEarnings);
    QObject::connect(window, &MainWindow::pauseRequested, controller, &EngineController::pause);
    QObject::connect(window, &MainWindow::resumeRequested, controller, &EngineController::resume);
    QObject::connect(window, &MainWindow::gpuPauseRequested, controller, &EngineController::setGpuPaused);
    QObject::connect(window, &MainWindow::joinTaskRequested, controller, &EngineController::joinTask);
    QObject::connect(window, &MainWindow::leaveTaskRequested, controller, &EngineController::leaveTask);
    // The controller may have a snapshot already (a window created after start()).
    if (controller->snapshot().sequence > 0) {
        window->showSnapshot(controller->snapshot());
        showOnEarnings(controller->snapshot());
    }
}

void bindTrayToEngine(TrayIcon *tray, EngineController *controller)
{
    QObject::connect(controller, &EngineController::snapshotChanged, tray, &TrayIcon::showSnapshot);
    QObject::connect(tray, &TrayIcon::pauseRequested, controller, &EngineController::pause);
    QObject::connect(tray, &TrayIcon::resumeRequested, controller, &EngineController::resume);
    QObject::connect(tray, &TrayIcon::pauseAfterStepRequested, controller, &EngineController::pauseAfterStep);
    QObject::connect(tray, &TrayIcon::snoozeRequested, controller, &EngineController::snooze);
    QObject::connect(controller, &EngineController::earningsChanged, tray, &TrayIcon::showEarnings);
    if (controller->snapshot().sequence > 0)
        tray->showSnapshot(controller->snapshot());
}

void bindWelcomeToEngine(WelcomeDialog *welcome, EngineController *controller)
{
    QObject::connect(welcome, &QDialog::accepted, controller, &EngineController::chooseTaskAutomatically);
}

} // namespace cohort
