#pragma once
// Tray notifications for what a person away from the window would want to know: errors (the node stopped, the hub
// was lost, the disk is full, work was refused) and milestones (the first verified work, a model download finished).
// The rules are pure functions of two consecutive snapshots (or earnings reports), so tests check every transition
// without a tray; Notifier adds the user's level (Settings: off / errors / errors and milestones) and a rate limit
// of one notification per kind per interval, then emits what should be shown. DesktopApp hands it to the tray.
#include "core/EarningsReport.h"
#include "core/EngineSnapshot.h"
#include "settings/Settings.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <functional>

namespace cohort {

enum class NotificationKind {
    // errors
    EngineError,    // the engine stopped and needs the user (state Error)
    HubLost,        // the hub stopped answering (state Offline)
    DiskFull,       // paused because the data disk or the disk cap is full
    DownloadFailed, // a model download gave up
    BatchRefused,   // the hub refused a batch at intake
    WorkRefused,    // accepted work later failed verification: the node is flagged for it
    // milestones
    FirstVerified,  // the first credit confirmed for this node
    CheckpointReady // a model version finished downloading and was verified
};

struct Notification {
    NotificationKind kind = NotificationKind::EngineError;
    QString title;
    QString text;
    bool isMilestone() const
    {
        return kind == NotificationKind::FirstVerified || kind == NotificationKind::CheckpointReady;
    }
};

class Notifier : public QObject {
    Q_OBJECT
public:
    static constexpr int kDefaultIntervalSeconds = 15 * 60;

    explicit Notifier(QObject *parent = nullptr);

    // What changed between two snapshots of the same engine run, errors first. Pure: no level, no rate limit.
    static QList<Notification> fromSnapshots(const EngineSnapshot &before, const EngineSnapshot &after);
    // What changed between two earnings reports of this node (fresh from the hub or cached).
    static QList<Notification> fromEarnings(const EarningsReport &before, const EarningsReport &after);
    // Whether `level` lets this notification through.
    static bool allows(NotifyLevel level, const Notification &notification);

    void setLevel(NotifyLevel level) { m_level = level; }
    NotifyLevel level() const { return m_level; }
    // No more than one notification of a kind per this many seconds.
    void setIntervalSeconds(int seconds) { m_intervalSeconds = seconds; }
    // Tests set the time; otherwise the clock.
    void setClock(std::function<QDateTime()> clock) { m_clock = std::move(clock); }

public Q_SLOTS:
    void onSnapshot(const cohort::EngineSnapshot &snapshot);
    void onEarnings(const cohort::EarningsReport &report, bool fromCache);

Q_SIGNALS:
    // At most one per update: the tray shows one message at a time, so the most important one wins.
    void notificationReady(const cohort::Notification &notification);

private:
    void consider(const QList<Notification> &candidates);

    NotifyLevel m_level = NotifyLevel::ErrorsAndMilestones;
    int m_intervalSeconds = kDefaultIntervalSeconds;
    std::function<QDateTime()> m_clock;
    QHash<int, QDateTime> m_lastShown; // by kind
    EngineSnapshot m_lastSnapshot;
    bool m_haveSnapshot = false;
    EarningsReport m_lastReport;
    bool m_haveReport = false;
};

} // namespace cohort

Q_DECLARE_METATYPE(cohort::Notification)
