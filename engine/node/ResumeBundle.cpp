#include "node/ResumeBundle.h"

#include "core/JsonReader.h"
#include "core/Logging.h"
#include "core/TaskInfo.h"
#include "node/Outbox.h"
#include "node/TestingHooks.h"
#include "store/EngineBundle.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>

namespace cohort {

// The bundle's texts are the engine's events, worded as when this was part of Engine; none is translated.

ResumeBundle::ResumeBundle(ResumeHost &host, QString dataDir, QObject *parent)
    : QObject(parent),
      m_host(host),
      m_dataDir(std::move(dataDir)),
      m_timer(this)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(250);
    connect(&m_timer, &QTimer::timeout, this, [this] { write("pause changed"); });
}

ResumeBundle::~ResumeBundle() = default;

void ResumeBundle::writeSoon()
{
    if (!m_timer.isActive())
        m_timer.start();
}

void ResumeBundle::write(const char *why)
{
    m_timer.stop(); // this write covers a pending one
    if (!m_bundles)
        return;
    const ResumeState now = m_host.resumeState();
    EngineBundle bundle;
    QJsonObject state{
        {QStringLiteral("task"), now.taskId},
        {QStringLiteral("policy_version"), now.policyVersion},
        {QStringLiteral("user_paused"), now.userPaused},
        {QStringLiteral("snoozed_until"), now.snoozedUntil.isValid() ? now.snoozedUntil.toMSecsSinceEpoch() : 0},
        {QStringLiteral("why"), QString::fromLatin1(why)}};
    writeWorkState(state, now.work, now.pausedGpus);
    bundle.state = state;
    QElapsedTimer clock;
    clock.start();
    auto written = m_bundles->write(bundle);
    if (!written) {
        Q_EMIT eventOccurred(EngineEvent::warning(
            EventCategory::Checkpoint, QStringLiteral("Cannot save the engine state: %1").arg(written.error())));
        return;
    }
    qCDebug(lcEngine).nospace() << "engine bundle (" << why << "): " << QFileInfo(*written).size() << " bytes in "
                                << clock.nsecsElapsed() / 1000 << " us";
}

namespace {
// True if the outbox holds a finished batch for this work item (the outbox is read before the engine opens it).
bool batchInOutbox(const QString &dataDir, const QString &taskId, const QString &workId)
{
    const Outbox outbox(QDir(dataDir).filePath(QStringLiteral("outbox")));
    for (const OutboxEntry &entry : outbox.entries(taskId)) {
        auto body = parseJsonObject(entry.body, 64 << 20);
        if (body && body->value(QStringLiteral("work_id")).toString() == workId)
            return true;
    }
    return false;
}
} // namespace

std::optional<ResumeState> ResumeBundle::restore(bool taskNamed)
{
    m_bundles = std::make_unique<BundleStore>(QDir(m_dataDir).filePath(QStringLiteral("bundles")));
    if (testingHaltArmed())
        m_bundles->setBeforeRename([] { testingHaltPoint("bundle-part"); });
    QStringList discarded;
    auto bundle = m_bundles->readNewest(&discarded);
    for (const QString &why : discarded)
        Q_EMIT eventOccurred(EngineEvent::warning(EventCategory::Checkpoint,
                                                  QStringLiteral("Set aside a damaged engine bundle (%1)").arg(why)));
    if (!bundle)
        return std::nullopt; // first start, or nothing valid: start afresh
    ResumeState resumed;
    const QJsonObject &s = bundle->state;
    // The task the node had joined: joined again once registered, unless this start names one (cohortd --task).
    const QString task = s.value(QStringLiteral("task")).toString();
    if (!taskNamed && TaskInfo::isValidId(task)) {
        resumed.taskId = task;
        Q_EMIT eventOccurred(EngineEvent::info(
            EventCategory::Task, QStringLiteral("Joining task %1 again, as before Cohort stopped").arg(task)));
    }
    resumed.userPaused = s.value(QStringLiteral("user_paused")).toBool();
    const qint64 snooze = qint64(s.value(QStringLiteral("snoozed_until")).toDouble());
    if (snooze > QDateTime::currentMSecsSinceEpoch())
        resumed.snoozedUntil = QDateTime::fromMSecsSinceEpoch(snooze);
    for (const RolloutWorkItem &w : workFromState(s)) {
        if (batchInOutbox(m_dataDir, w.taskId, w.workId)) {
            // The batch was saved but the bundle that says so never landed (killed mid-write, or that bundle was
            // torn): the outbox submits it; generating it again would only be refused as a second batch for one
            // work item.
            Q_EMIT eventOccurred(EngineEvent::info(
                EventCategory::Rollouts,
                QStringLiteral("Work %1 from the engine bundle is already finished in the outbox").arg(w.workId)));
        } else {
            resumed.work.append(w);
            Q_EMIT eventOccurred(EngineEvent::info(
                EventCategory::Rollouts,
                QStringLiteral("Resuming work %1 from the engine bundle (the batch in hand when Cohort stopped)")
                    .arg(w.workId)));
        }
    }
    resumed.pausedGpus = pausedGpusFromState(s);
    return resumed;
}

} // namespace cohort
