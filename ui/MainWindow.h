#pragma once
// The main window: a navigation list on the left and one page per topic on the right, a status bar
// that repeats the state and its reason, and the Pause/Resume, Settings and Quit actions.
// It knows nothing about the engine: it shows snapshots and events and asks for things through
// signals, so tests can drive it with hand-made snapshots (EngineBinding connects it to a controller).
#include "core/EngineEvent.h"
#include "core/EngineSnapshot.h"

#include <QMainWindow>

class QAction;
class QLabel;
class QListWidget;
class QStackedWidget;

namespace cohort {

class ActivityPage;
class DashboardPage;
class EarningsPage;
class TasksPage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum Page { DashboardPageIndex, TasksPageIndex, EarningsPageIndex, ActivityPageIndex };

    explicit MainWindow(QWidget *parent = nullptr);

    DashboardPage *dashboardPage() const { return m_dashboard; }
    TasksPage *tasksPage() const { return m_tasks; }
    EarningsPage *earningsPage() const { return m_earnings; }
    ActivityPage *activityPage() const { return m_activity; }
    QAction *pauseAction() const { return m_pauseAction; }
    QString statusText() const;
    int currentPage() const;

    // With a tray icon, closing the window only hides it; without one, closing means quitting,
    // because a hidden window with no tray would leave the user no way back.
    void setCloseHidesToTray(bool hides) { m_closeHidesToTray = hides; }
    bool closeHidesToTray() const { return m_closeHidesToTray; }
    // Once the app is quitting, a close event just closes: Qt 6 asks every window before it quits,
    // and a window that hid itself instead would veto the quit.
    void setQuitting() { m_quitting = true; }

public Q_SLOTS:
    void showSnapshot(const cohort::EngineSnapshot &snapshot);
    void appendEvent(const cohort::EngineEvent &event);
    void showPage(int page);
    void bringToFront();

Q_SIGNALS:
    void pauseRequested();
    void resumeRequested();
    void gpuPauseRequested(const QString &gpuUuid, bool paused); // one GPU's worker (a dashboard GPU card)
    void settingsRequested();
    void doctorRequested(); // Help › Check this computer…
    void quitRequested();
    void joinTaskRequested(const QString &taskId);
    void leaveTaskRequested();
    void hiddenToTray();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createNavigation();
    void onPauseActionTriggered();

    QListWidget *m_navigation = nullptr;
    QStackedWidget *m_pages = nullptr;
    DashboardPage *m_dashboard = nullptr;
    TasksPage *m_tasks = nullptr;
    EarningsPage *m_earnings = nullptr;
    ActivityPage *m_activity = nullptr;
    QLabel *m_statusIcon = nullptr;
    QLabel *m_statusLabel = nullptr;
    QAction *m_pauseAction = nullptr;
    QAction *m_settingsAction = nullptr;
    QAction *m_quitAction = nullptr;
    bool m_userPaused = false;
    bool m_closeHidesToTray = false;
    bool m_quitting = false;
};

} // namespace cohort
