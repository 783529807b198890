#pragma once
// The notification-area icon: one picture per node state, a tooltip with the state and its reason,
// and a small menu. It only shows and asks; DesktopApp decides what the requests do.
#include "core/EarningsReport.h"
#include "core/EngineSnapshot.h"
#include "settings/Settings.h"

#include <QObject>
#include <QSystemTrayIcon>
#include <memory>

class QAction;
class QMenu;

namespace cohort {

class TrayIcon : public QObject {
    Q_OBJECT
public:
    explicit TrayIcon(QObject *parent = nullptr);
    ~TrayIcon() override;

    // "Cohort — Paused: Paused by you". Shortened to what every platform can show.
    static QString toolTipFor(const EngineSnapshot &snapshot);

    void show();
    void hide();
    bool isVisible() const;
    QString toolTip() const;
    // What a notification's body becomes: freedesktop notification servers read a subset of HTML in the body (links,
    // images), and texts here may quote a hub's words, so on Linux/BSD the text is escaped; Windows and macOS show
    // the body as plain text already.
    static QString notificationBody(const QString &text);
    void showMessage(const QString &title, const QString &text);
    // With the system's warning icon instead of the state icon (errors from Notifier).
    void showWarning(const QString &title, const QString &text);
    QString iconPath() const { return m_iconPath; }
    // Colour, or monochrome for dark / light panels (Settings): applies at once.
    void setIconStyle(TrayIconStyle style);
    TrayIconStyle iconStyle() const { return m_iconStyle; }
    QMenu *menu() const { return m_menu.get(); }
    QAction *pauseAction() const { return m_pauseAction; }
    QAction *pauseAfterStepAction() const { return m_pauseAfterStepAction; }
    QAction *snoozeAction() const { return m_snoozeAction; }

    // "Cohort — Working: task arith-rl · today 1.25 credits". Shortened to what every platform can show.
    static QString toolTipFor(const EngineSnapshot &snapshot, double creditsToday);

public Q_SLOTS:
    void showSnapshot(const cohort::EngineSnapshot &snapshot);
    void showEarnings(const cohort::EarningsReport &report); // today's credits (pending + confirmed) in the tooltip

Q_SIGNALS:
    void openRequested();
    void pauseRequested();
    void resumeRequested();
    void pauseAfterStepRequested();
    void snoozeRequested(int seconds);
    void settingsRequested();
    void quitRequested();

private:
    void onActivated(QSystemTrayIcon::ActivationReason reason);
    void onPauseActionTriggered();

    std::unique_ptr<QMenu> m_menu; // a QMenu needs a widget parent or an owner; the tray icon is neither
    QSystemTrayIcon *m_tray = nullptr;
    QAction *m_pauseAction = nullptr;
    QAction *m_pauseAfterStepAction = nullptr; // "Pause after this batch": no work lost
    QAction *m_snoozeAction = nullptr;         // the Snooze submenu's entry
    std::unique_ptr<QMenu> m_snoozeMenu;
    QString m_iconPath;
    TrayIconStyle m_iconStyle = TrayIconStyle::Colour;
    bool m_userPaused = false;
    double m_creditsToday = -1; // -1: not known yet
    EngineSnapshot m_lastSnapshot;
};

} // namespace cohort
