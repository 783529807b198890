// Engine checkpoints: what the node is in the middle of, as an atomic bundle in <data>/bundles (EngineBundle),
// written at the safe points (work received, batch saved in the outbox, pause/resume, quit) and read back at start.
// Finished batches live in the outbox and download progress in the downloader's own files; the bundle holds the
// rest: the work item in hand (so a crash mid-batch regenerates it, same seeds, instead of letting it expire),
// the user's pause and snooze (a paused node stays paused across a reboot), and the task and policy version.
#include "node/Engine.h"

#include "core/JsonReader.h"
#include "core/Logging.h"
#include "store/EngineBundle.h"
#include "node/Outbox.h"
#include "node/RolloutWorker.h"

#include <QDir>
#include <QFileInfo>
#include <QElapsedTimer>

namespace cohort {

void Engine::writeBundleSoon()
{
    if (!m_bundleTimer.isActive())
        m_bundleTimer.start();
}

void Engine::writeBundle(const char *why)
{
    m_bundleTimer.stop(); // this write covers a pending one
    if (!m_bundles)
        return;
    EngineBundle bundle;
    // The joined task, or the one about to be joined (the wish survives a restart before the hub answered).
    QJsonObject state{{QStringLiteral("task"), m_options.taskId},
                      {QStringLiteral("policy_version"), m_checkpoints->version()},
                      {QStringLiteral("user_paused"), m_userPaused},
                      {QStringLiteral("snoozed_until"), m_snoozedUntil.isValid() ? m_snoozedUntil.toMSecsSinceEpoch() : 0},
                      {QStringLiteral("why"), QString::fromLatin1(why)}};
    if (const auto work = m_rollouts->workInHand())
        state.insert(QStringLiteral("work"), QJsonObject{{QStringLiteral("task"), work->taskId},
                                                         {QStringLiteral("work_id"), work->workId},
                                                         {QStringLiteral("step"), work->step},
                                                         {QStringLiteral("min_version"), work->minVersion},
                                                         {QStringLiteral("seed"), QString::number(work->seed)},
                                                         {QStringLiteral("sampling_seed"), QString::number(work->samplingSeed)}});
    bundle.state = state;
    QElapsedTimer clock;
    clock.start();
    auto written = m_bundles->write(bundle);
    if (!written) {
        emitEvent(EngineEvent::warning(QStringLiteral("checkpoint"), QStringLiteral("Cannot save the engine state: %1").arg(written.error())));
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

void Engine::restoreFromBundle()
{
    m_bundles = std::make_unique<BundleStore>(QDir(m_options.dataDir).filePath(QStringLiteral("bundles")));
    m_bundleTimer.setSingleShot(true);
    m_bundleTimer.setInterval(250);
    connect(&m_bundleTimer, &QTimer::timeout, this, [this] { writeBundle("pause changed"); });
    if (testingHaltArmed())
        m_bundles->setBeforeRename([] { testingHaltPoint("bundle-part"); });
    QStringList discarded;
    auto bundle = m_bundles->readNewest(&discarded);
    for (const QString &why : discarded)
        emitEvent(EngineEvent::warning(QStringLiteral("checkpoint"), QStringLiteral("Set aside a damaged engine bundle (%1)").arg(why)));
    if (!bundle)
        return; // first start, or nothing valid: start afresh
    const QJsonObject &s = bundle->state;
    // The task the node had joined: joined again once registered, unless this start names one (cohortd --task).
    const QString task = s.value(QStringLiteral("task")).toString();
    if (m_options.taskId.isEmpty() && TaskInfo::isValidId(task)) {
        m_options.taskId = task;
        emitEvent(EngineEvent::info(QStringLiteral("task"), QStringLiteral("Joining task %1 again, as before Cohort stopped").arg(task)));
    }
    if (s.value(QStringLiteral("user_paused")).toBool())
        m_userPaused = true;
    const qint64 snooze = qint64(s.value(QStringLiteral("snoozed_until")).toDouble());
    if (snooze > QDateTime::currentMSecsSinceEpoch())
        m_snoozedUntil = QDateTime::fromMSecsSinceEpoch(snooze);
    const QJsonObject work = s.value(QStringLiteral("work")).toObject();
    bool seedOk = false, samplingOk = false;
    RolloutLoop::WorkItem w;
    w.taskId = work.value(QStringLiteral("task")).toString();
    w.workId = work.value(QStringLiteral("work_id")).toString();
    w.step = work.value(QStringLiteral("step")).toInt();
    w.minVersion = work.value(QStringLiteral("min_version")).toInt();
    w.seed = work.value(QStringLiteral("seed")).toString().toULongLong(&seedOk);
    w.samplingSeed = work.value(QStringLiteral("sampling_seed")).toString().toULongLong(&samplingOk);
    const bool workValid = !work.isEmpty() && seedOk && samplingOk && !w.workId.isEmpty() && w.workId.size() <= 64 && w.step > 0;
    if (workValid && batchInOutbox(m_options.dataDir, w.taskId, w.workId)) {
        // The batch was saved but the bundle that says so never landed (killed mid-write, or that bundle was torn):
        // the outbox submits it; generating it again would only be refused as a second batch for one work item.
        emitEvent(EngineEvent::info(QStringLiteral("rollouts"),
                                    QStringLiteral("Work %1 from the engine bundle is already finished in the outbox").arg(w.workId)));
    } else if (workValid) {
        m_rollouts->restoreWorkInHand(w);
        emitEvent(EngineEvent::info(QStringLiteral("rollouts"),
                                    QStringLiteral("Resuming work %1 from the engine bundle (the batch in hand when Cohort stopped)").arg(w.workId)));
    }
    if (m_userPaused || m_snoozedUntil.isValid()) {
        emitEvent(EngineEvent::info(QStringLiteral("lifecycle"), QStringLiteral("Still paused, as before Cohort stopped")));
        applySchedule();
    }
}

} // namespace cohort
