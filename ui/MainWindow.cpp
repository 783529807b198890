#include "ui/MainWindow.h"

#include "ui/ActivityPage.h"
#include "ui/DashboardPage.h"
#include "ui/EarningsPage.h"
#include "ui/StateIcons.h"
#include "ui/TasksPage.h"

#include <QAction>
#include <QCloseEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>

namespace cohort {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("Cohort"));
    setWindowIcon(appIcon());

    m_dashboard = new DashboardPage(this);
    m_tasks = new TasksPage(this);
    m_earnings = new EarningsPage(this);
    m_activity = new ActivityPage(this);
    m_pages = new QStackedWidget(this);
    m_pages->addWidget(m_dashboard);
    m_pages->addWidget(m_tasks);
    m_pages->addWidget(m_earnings);
    m_pages->addWidget(m_activity);
    createNavigation();

    auto *central = new QWidget(this);
    auto *layout = new QHBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_navigation);
    auto *pageFrame = new QWidget(central);
    auto *pageLayout = new QHBoxLayout(pageFrame);
    pageLayout->setContentsMargins(16, 12, 16, 12);
    pageLayout->addWidget(m_pages);
    layout->addWidget(pageFrame, 1);
    setCentralWidget(central);

    // The state and its reason are repeated at the bottom so they stay visible on every page.
    m_statusIcon = new QLabel(this);
    m_statusLabel = new QLabel(this);
    m_statusLabel->setObjectName(QStringLiteral("statusText"));
    statusBar()->addWidget(m_statusIcon);
    statusBar()->addWidget(m_statusLabel, 1);

    createActions();

    connect(m_dashboard, &DashboardPage::pauseRequested, this, &MainWindow::pauseRequested);
    connect(m_dashboard, &DashboardPage::resumeRequested, this, &MainWindow::resumeRequested);
    connect(m_dashboard, &DashboardPage::gpuPauseRequested, this, &MainWindow::gpuPauseRequested);
    connect(m_dashboard, &DashboardPage::chooseTaskRequested, this, [this] { showPage(TasksPageIndex); });
    connect(m_tasks, &TasksPage::joinRequested, this, &MainWindow::joinTaskRequested);
    connect(m_tasks, &TasksPage::leaveRequested, this, &MainWindow::leaveTaskRequested);

    resize(920, 620);
    showSnapshot(EngineSnapshot{});
}

void MainWindow::createNavigation()
{
    m_navigation = new QListWidget(this);
    m_navigation->setObjectName(QStringLiteral("navigation"));
    const QStringList titles{tr("Dashboard"), tr("Tasks"), tr("Earnings"), tr("Activity")};
    for (const QString &title : titles)
        m_navigation->addItem(title);
    m_navigation->setFrameShape(QFrame::NoFrame);
    m_navigation->setFixedWidth(160);
    // A slightly larger font: these four words are the whole map of the app.
    QFont font = m_navigation->font();
    font.setPointSizeF(font.pointSizeF() * 1.15);
    m_navigation->setFont(font);
    // A sidebar, not a list of data: roomy rows and a line between it and the page. Palette colours
    // only, so dark themes keep working.
    m_navigation->setStyleSheet(QStringLiteral(
        "QListWidget#navigation { background: palette(window); border: none;"
        "  border-right: 1px solid palette(mid); padding-top: 8px; }"
        "QListWidget#navigation::item { padding: 6px 12px; margin: 1px 6px; border-radius: 4px; }"
        "QListWidget#navigation::item:selected { background: palette(highlight); color: palette(highlighted-text); }"));
    connect(m_navigation, &QListWidget::currentRowChanged, m_pages, &QStackedWidget::setCurrentIndex);
    m_navigation->setCurrentRow(DashboardPageIndex);
}

void MainWindow::createActions()
{
    m_pauseAction = new QAction(this);
    m_pauseAction->setObjectName(QStringLiteral("pauseAction"));
    m_pauseAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    connect(m_pauseAction, &QAction::triggered, this, &MainWindow::onPauseActionTriggered);

    m_settingsAction = new QAction(QIcon::fromTheme(QStringLiteral("preferences-system")), tr("&Settings…"), this);
    m_settingsAction->setShortcut(QKeySequence::Preferences);
    m_settingsAction->setMenuRole(QAction::PreferencesRole);
    connect(m_settingsAction, &QAction::triggered, this, &MainWindow::settingsRequested);

    m_quitAction = new QAction(QIcon::fromTheme(QStringLiteral("application-exit")), tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence::Quit);
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &MainWindow::quitRequested);

    QMenu *menu = menuBar()->addMenu(tr("&Cohort"));
    menu->addAction(m_pauseAction);
    menu->addAction(m_settingsAction);
    menu->addSeparator();
    menu->addAction(m_quitAction);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *doctor = help->addAction(tr("Check this &computer…"));
    doctor->setObjectName(QStringLiteral("doctorAction"));
    doctor->setToolTip(
        tr("Check the hub, the clock, reachability by peers, disk, memory, the matrix library and the GPU, "
           "and say how to fix what is wrong"));
    connect(doctor, &QAction::triggered, this, &MainWindow::doctorRequested);

    QToolBar *toolBar = addToolBar(tr("Main"));
    toolBar->setObjectName(QStringLiteral("mainToolBar"));
    toolBar->setMovable(false);
    toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolBar->addAction(m_pauseAction);
    toolBar->addAction(m_settingsAction);
}

QString MainWindow::statusText() const
{
    return m_statusLabel->text();
}

int MainWindow::currentPage() const
{
    return m_pages->currentIndex();
}

void MainWindow::showSnapshot(const EngineSnapshot &snapshot)
{
    m_dashboard->showSnapshot(snapshot);
    m_tasks->showSnapshot(snapshot);

    const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize);
    m_statusIcon->setPixmap(stateIcon(snapshot.state).pixmap(iconSize, iconSize));
    m_statusLabel->setText(snapshot.why.isEmpty()
                               ? nodeStateTitle(snapshot.state)
                               : nodeStateTitle(snapshot.state) + QStringLiteral(" — ") + snapshot.why);

    m_userPaused = snapshot.userPaused();
    m_pauseAction->setText(m_userPaused ? tr("&Resume") : tr("&Pause"));
    m_pauseAction->setIcon(style()->standardIcon(m_userPaused ? QStyle::SP_MediaPlay : QStyle::SP_MediaPause));
    m_pauseAction->setEnabled(snapshot.state != NodeState::Stopping);
}

void MainWindow::appendEvent(const EngineEvent &event)
{
    m_activity->appendEvent(event);
}

void MainWindow::showPage(int page)
{
    m_navigation->setCurrentRow(page);
}

void MainWindow::bringToFront()
{
    if (isMinimized())
        showNormal();
    else
        show();
    raise();
    activateWindow();
}

void MainWindow::onPauseActionTriggered()
{
    if (m_userPaused)
        Q_EMIT resumeRequested();
    else
        Q_EMIT pauseRequested();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_quitting) {
        event->accept();
        return;
    }
    if (m_closeHidesToTray) {
        hide();
        event->ignore();
        Q_EMIT hiddenToTray();
        return;
    }
    event->accept();
    Q_EMIT quitRequested();
}

} // namespace cohort
