#include "ui/TrayIcon.h"

#include "ui/StateIcons.h"

#include <QAction>
#include <QDateTime>
#include <QMenu>

#include <algorithm>

namespace cohort {

namespace {
// Windows truncates tray tooltips at 127 characters; stay under it everywhere so the reason is not cut
// off mid-word by the platform.
constexpr int kMaxToolTipLength = 120;
} // namespace

TrayIcon::TrayIcon(QObject *parent)
    : QObject(parent),
      m_menu(std::make_unique<QMenu>())
{
    QAction *open = m_menu->addAction(tr("Open Cohort"));
    connect(open, &QAction::triggered, this, &TrayIcon::openRequested);
    m_pauseAction = m_menu->addAction(tr("Pause"));
    connect(m_pauseAction, &QAction::triggered, this, &TrayIcon::onPauseActionTriggered);
    m_pauseAfterStepAction = m_menu->addAction(tr("Pause after this batch"));
    connect(m_pauseAfterStepAction, &QAction::triggered, this, &TrayIcon::pauseAfterStepRequested);
    // Snooze: 15 minutes, an hour, or until tomorrow morning (07:00 local time).
    m_snoozeMenu = std::make_unique<QMenu>(tr("Snooze"));
    m_snoozeAction = m_menu->addMenu(m_snoozeMenu.get());
    connect(m_snoozeMenu->addAction(tr("For 15 minutes")), &QAction::triggered, this,
            [this] { Q_EMIT snoozeRequested(15 * 60); });
    connect(m_snoozeMenu->addAction(tr("For 1 hour")), &QAction::triggered, this,
            [this] { Q_EMIT snoozeRequested(3600); });
    connect(m_snoozeMenu->addAction(tr("Until tomorrow")), &QAction::triggered, this, [this] {
        const QDateTime now = QDateTime::currentDateTime();
        const QDateTime morning(now.date().addDays(1), QTime(7, 0));
        Q_EMIT snoozeRequested(int(std::max<qint64>(60, now.secsTo(morning))));
    });
    QAction *settings = m_menu->addAction(tr("Settings…"));
    connect(settings, &QAction::triggered, this, &TrayIcon::settingsRequested);
    m_menu->addSeparator();
    QAction *quit = m_menu->addAction(tr("Quit"));
    connect(quit, &QAction::triggered, this, &TrayIcon::quitRequested);

    m_tray = new QSystemTrayIcon(this);
    m_tray->setContextMenu(m_menu.get());
    connect(m_tray, &QSystemTrayIcon::activated, this, &TrayIcon::onActivated);
    showSnapshot(EngineSnapshot{});
}

TrayIcon::~TrayIcon()
{
    // The tray must let go of the menu before the menu is destroyed.
    m_tray->setContextMenu(nullptr);
}

QString TrayIcon::toolTipFor(const EngineSnapshot &snapshot)
{
    return toolTipFor(snapshot, -1);
}

QString TrayIcon::toolTipFor(const EngineSnapshot &snapshot, double creditsToday)
{
    const QString head = tr("Cohort — %1").arg(nodeStateTitle(snapshot.state));
    // The earnings go first in what may be cut: the state and its reason matter more.
    const QString earnings = creditsToday >= 0 ? tr(" · today %1 credits").arg(creditsToday, 0, 'f', 2) : QString();
    QString text = snapshot.why.isEmpty() ? head : head + QStringLiteral(": ") + snapshot.why;
    if (text.size() + earnings.size() <= kMaxToolTipLength)
        return text + earnings;
    if (text.size() > kMaxToolTipLength)
        text = text.left(kMaxToolTipLength - 1).trimmed() + QChar(0x2026); // …
    return text;
}

void TrayIcon::showEarnings(const EarningsReport &report)
{
    m_creditsToday = report.today.pending + report.today.confirmed;
    showSnapshot(m_lastSnapshot);
}

void TrayIcon::show()
{
    m_tray->show();
}

void TrayIcon::hide()
{
    m_tray->hide();
}

bool TrayIcon::isVisible() const
{
    return m_tray->isVisible();
}

QString TrayIcon::notificationBody(const QString &text)
{
#if defined(Q_OS_WIN) || defined(Q_OS_MACOS)
    return text;
#else
    return text.toHtmlEscaped();
#endif
}

void TrayIcon::showMessage(const QString &title, const QString &text)
{
    m_tray->showMessage(title, notificationBody(text), QIcon(m_iconPath));
}

void TrayIcon::showWarning(const QString &title, const QString &text)
{
    m_tray->showMessage(title, notificationBody(text), QSystemTrayIcon::Warning);
}

QString TrayIcon::toolTip() const
{
    return m_tray->toolTip();
}

void TrayIcon::setIconStyle(TrayIconStyle style)
{
    if (style == m_iconStyle)
        return;
    m_iconStyle = style;
    showSnapshot(m_lastSnapshot); // the same state in the new style
}

void TrayIcon::showSnapshot(const EngineSnapshot &snapshot)
{
    // Setting an identical icon makes some panels flicker; only change it when the state changes.
    const QString path = stateIconPath(snapshot.state, m_iconStyle);
    if (path != m_iconPath) {
        m_iconPath = path;
        m_tray->setIcon(trayStateIcon(snapshot.state, m_iconStyle));
    }
    m_lastSnapshot = snapshot;
    const QString tip = toolTipFor(snapshot, m_creditsToday);
    if (tip != m_tray->toolTip())
        m_tray->setToolTip(tip);

    // "Resume" also ends a snooze; pausing now says what it costs (the batch in hand is dropped).
    m_userPaused = snapshot.userPaused() || snapshot.pauseReasons.contains(PauseReason::Snoozed);
    const ScheduleStatus &schedule = snapshot.schedule;
    if (m_userPaused)
        m_pauseAction->setText(tr("Resume"));
    else if (schedule.workAtRiskSeconds >= 1)
        m_pauseAction->setText(tr("Pause now (drops %n s of work in hand)", nullptr, int(schedule.workAtRiskSeconds)));
    else
        m_pauseAction->setText(tr("Pause"));
    m_pauseAction->setEnabled(snapshot.state != NodeState::Stopping);
    m_pauseAfterStepAction->setVisible(!m_userPaused);
    m_pauseAfterStepAction->setEnabled(!schedule.pauseAfterStep && snapshot.state != NodeState::Stopping);
    m_pauseAfterStepAction->setText(schedule.pauseAfterStep ? tr("Pausing after this batch…")
                                                            : tr("Pause after this batch"));
    m_snoozeAction->setVisible(!m_userPaused);
}

void TrayIcon::onActivated(QSystemTrayIcon::ActivationReason reason)
{
    // Only a plain click or double click opens the window; the context menu is Qt's business, and
    // some panels report a right click as Context, others not at all.
    if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick)
        Q_EMIT openRequested();
}

void TrayIcon::onPauseActionTriggered()
{
    if (m_userPaused)
        Q_EMIT resumeRequested();
    else
        Q_EMIT pauseRequested();
}

} // namespace cohort
