#include "ui/Notifier.h"

#include <QLocale>

namespace cohort {

namespace {
// A download "finished" only when it went from in progress to done: a restored "done" from an earlier run is no news.
bool downloadJustFinished(const DownloadProgress &before, const DownloadProgress &after)
{
    return after.phase == DownloadProgress::Phase::Done && before.phase != DownloadProgress::Phase::Done &&
           before.phase != DownloadProgress::Phase::None;
}
} // namespace

Notifier::Notifier(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<cohort::Notification>();
}

QList<Notification> Notifier::fromSnapshots(const EngineSnapshot &before, const EngineSnapshot &after)
{
    QList<Notification> out;
    if (after.state == NodeState::Error && before.state != NodeState::Error)
        out.append({NotificationKind::EngineError, tr("Cohort has stopped working"),
                    after.why.isEmpty() ? after.lastError : after.why});
    if (after.state == NodeState::Offline && before.state != NodeState::Offline)
        out.append({NotificationKind::HubLost, tr("Cohort cannot reach its hub"),
                    after.why.isEmpty() ? tr("It keeps trying and resumes by itself.") : after.why});
    if (after.pauseReasons.contains(PauseReason::DiskFull) && !before.pauseReasons.contains(PauseReason::DiskFull))
        out.append({NotificationKind::DiskFull, tr("Cohort paused: not enough disk space"),
                    tr("Free some space or raise the disk cap in Settings › Storage.")});
    if (after.download.phase == DownloadProgress::Phase::Failed &&
        before.download.phase != DownloadProgress::Phase::Failed &&
        before.download.phase != DownloadProgress::Phase::None)
        out.append({NotificationKind::DownloadFailed, tr("A model download failed"),
                    after.download.error.isEmpty() ? tr("Cohort tries again later.") : after.download.error});
    if (after.rollouts.batchesRejected > before.rollouts.batchesRejected)
        out.append({NotificationKind::BatchRefused, tr("The hub refused a batch of work"),
                    after.rollouts.lastRejection.isEmpty() ? tr("See the Activity page for details.")
                                                           : after.rollouts.lastRejection});
    if (downloadJustFinished(before.download, after.download))
        out.append({NotificationKind::CheckpointReady, tr("Model downloaded"),
                    tr("Version %1 of %2 is ready; work continues with it.")
                        .arg(after.download.version)
                        .arg(after.download.taskId)});
    return out;
}

QList<Notification> Notifier::fromEarnings(const EarningsReport &before, const EarningsReport &after)
{
    QList<Notification> out;
    const QLocale locale;
    // Refused credit only grows when verification failed after acceptance: the hub has flagged this node's work.
    if (after.total.refused > before.total.refused)
        out.append({NotificationKind::WorkRefused, tr("Work failed verification"),
                    tr("The hub refused %1 %2 of work it had accepted. If this repeats, check the Activity page.")
                        .arg(locale.toString(after.total.refused - before.total.refused, 'f', 2), after.unit)});
    if (before.total.confirmed <= 0 && after.total.confirmed > 0)
        out.append({NotificationKind::FirstVerified, tr("Your first work was verified"),
                    tr("The hub confirmed %1 %2 for this computer.")
                        .arg(locale.toString(after.total.confirmed, 'f', 2), after.unit)});
    return out;
}

bool Notifier::allows(NotifyLevel level, const Notification &notification)
{
    switch (level) {
    case NotifyLevel::Off: return false;
    case NotifyLevel::Errors: return !notification.isMilestone();
    case NotifyLevel::ErrorsAndMilestones: break;
    }
    return true;
}

void Notifier::onSnapshot(const EngineSnapshot &snapshot)
{
    // The first snapshot, and the first of a restarted engine (its sequence starts again), only set the baseline:
    // what an engine restores at start (a finished download, a pause) is not news.
    const bool baseline = !m_haveSnapshot || snapshot.sequence < m_lastSnapshot.sequence;
    if (!baseline)
        consider(fromSnapshots(m_lastSnapshot, snapshot));
    m_lastSnapshot = snapshot;
    m_haveSnapshot = true;
}

void Notifier::onEarnings(const EarningsReport &report, bool)
{
    // The first report (usually the cached one at start) is the baseline; a node that had confirmed credit
    // before this run is not congratulated again.
    if (m_haveReport && report.nodeId == m_lastReport.nodeId)
        consider(fromEarnings(m_lastReport, report));
    m_lastReport = report;
    m_haveReport = true;
}

void Notifier::consider(const QList<Notification> &candidates)
{
    const QDateTime now = m_clock ? m_clock() : QDateTime::currentDateTimeUtc();
    for (const Notification &n : candidates) {
        if (!allows(m_level, n))
            continue;
        const QDateTime last = m_lastShown.value(int(n.kind));
        if (last.isValid() && last.secsTo(now) < m_intervalSeconds)
            continue;
        m_lastShown.insert(int(n.kind), now);
        Q_EMIT notificationReady(n);
        return;
    }
}

} // namespace cohort
