#include "node/ResumeBundle.h"

#include "core/JsonReader.h"
#include "core/TaskInfo.h"
#include "core/Logging.h"
#include "node/Outbox.h"
#include "node/RolloutWorker.h"
#include "store/EngineBundle.h"

#include <QDir>
#include <QJsonArray>
#include <QElapsedTimer>
#include <QFileInfo>

namespace cohort {

// The bundle's texts are the engine's events, worded as when this was part of Engine; none is translated.

ResumeBundle::ResumeBundle(ResumeHost &host, QString dataDir, QObject *parent)
    : QObject(parent), m_host(host), m_dataDir(std::move(dataDir)), m_timer(this)
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

namespace {
// Bounds on what a bundle may bring back (a damaged or hand-edited one must not make the engine hold thousands).
constexpr qsizetype kMaxWorkItems = 64;
constexpr qsizetype kMaxPausedGpus = 64;

QJsonObject workToJson(const RolloutWorkItem &work)
{
    return QJsonObject{{QStringLiteral("task"), work.taskId},
                       {QStringLiteral("work_id"), work.workId},
                       {QStringLiteral("step"), work.step},
                       {QStringLiteral("min_version"), work.minVersion},
                       {QStringLiteral("seed"), QString::number(work.seed)},
                       {QStringLiteral("sampling_seed"), QString::number(work.samplingSeed)}};
}

std::optional<RolloutWorkItem> workFromJson(const QJsonObject &work)
{
    bool seedOk = false, samplingOk = false;
    RolloutWorkItem w;
    w.taskId = work.value(QStringLiteral("task")).toString();
    w.workId = work.value(QStringLiteral("work_id")).toString();
    w.step = work.value(QStringLiteral("step")).toInt();
    w.minVersion = work.value(QStringLiteral("min_version")).toInt();
    w.seed = work.value(QStringLiteral("seed")).toString().toULongLong(&seedOk);
    w.samplingSeed = work.value(QStringLiteral("sampling_seed")).toString().toULongLong(&samplingOk);
    if (work.isEmpty() || !seedOk || !samplingOk || w.workId.isEmpty() || w.workId.size() > 64 || w.step <= 0 ||
        !TaskInfo::isValidId(w.taskId))
        return std::nullopt;
    return w;
}
} // namespace

void ResumeBundle::write(const char *why)
{
    m_timer.stop(); // this write covers a pending one
    if (!m_bundles)
        return;
    const ResumeState now = m_host.resumeState();
    EngineBundle bundle;
    QJsonObject state{{QStringLiteral("task"), now.taskId},
                      {QStringLiteral("policy_version"), now.policyVersion},
                      {QStringLiteral("user_paused"), now.userPaused},
                      {QStringLiteral("snoozed_until"), now.snoozedUntil.isValid() ? now.snoozedUntil.toMSecsSinceEpoch() : 0},
                      {QStringLiteral("why"), QString::fromLatin1(why)}};
    // The first item under "work", as bundles had it when a node had one compute device; the others after it.
    if (!now.work.isEmpty())
        state.insert(QStringLiteral("work"), workToJson(now.work.first()));
    QJsonArray more;
    for (qsizetype i = 1; i < now.work.size(); ++i)
        more.append(workToJson(now.work[i]));
    if (!more.isEmpty())
        state.insert(QStringLiteral("more_work"), more);
    if (!now.pausedGpus.isEmpty())
        state.insert(QStringLiteral("paused_gpus"), QJsonArray::fromStringList(now.pausedGpus));
    bundle.state = state;
    QElapsedTimer clock;
    clock.start();
    auto written = m_bundles->write(bundle);
    if (!written) {
        Q_EMIT eventOccurred(EngineEvent::warning(QStringLiteral("checkpoint"),
                                                  QStringLiteral("Cannot save the engine state: %1").arg(written.error())));
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
        Q_EMIT eventOccurred(EngineEvent::warning(QStringLiteral("checkpoint"), QStringLiteral("Set aside a damaged engine bundle (%1)").arg(why)));
    if (!bundle)
        return std::nullopt; // first start, or nothing valid: start afresh
    ResumeState resumed;
    const QJsonObject &s = bundle->state;
    // The task the node had joined: joined again once registered, unless this start names one (cohortd --task).
    const QString task = s.value(QStringLiteral("task")).toString();
    if (!taskNamed && TaskInfo::isValidId(task)) {
        resumed.taskId = task;
        Q_EMIT eventOccurred(EngineEvent::info(QStringLiteral("task"), QStringLiteral("Joining task %1 again, as before Cohort stopped").arg(task)));
    }
    resumed.userPaused = s.value(QStringLiteral("user_paused")).toBool();
    const qint64 snooze = qint64(s.value(QStringLiteral("snoozed_until")).toDouble());
    if (snooze > QDateTime::currentMSecsSinceEpoch())
        resumed.snoozedUntil = QDateTime::fromMSecsSinceEpoch(snooze);
    QList<QJsonObject> items;
    if (s.contains(QStringLiteral("work")))
        items.append(s.value(QStringLiteral("work")).toObject());
    for (const QJsonValue &v : s.value(QStringLiteral("more_work")).toArray())
        if (items.size() < kMaxWorkItems)
            items.append(v.toObject());
    for (const QJsonObject &item : items) {
        const std::optional<RolloutWorkItem> w = workFromJson(item);
        if (!w)
            continue;
        if (batchInOutbox(m_dataDir, w->taskId, w->workId)) {
            // The batch was saved but the bundle that says so never landed (killed mid-write, or that bundle was
            // torn): the outbox submits it; generating it again would only be refused as a second batch for one
            // work item.
            Q_EMIT eventOccurred(EngineEvent::info(QStringLiteral("rollouts"),
                                                   QStringLiteral("Work %1 from the engine bundle is already finished in the outbox").arg(w->workId)));
        } else {
            resumed.work.append(*w);
            Q_EMIT eventOccurred(EngineEvent::info(QStringLiteral("rollouts"),
                                                   QStringLiteral("Resuming work %1 from the engine bundle (the batch in hand when Cohort stopped)").arg(w->workId)));
        }
    }
    for (const QJsonValue &v : s.value(QStringLiteral("paused_gpus")).toArray()) {
        const QString uuid = v.toString();
        if (resumed.pausedGpus.size() < kMaxPausedGpus && !uuid.isEmpty() && uuid.size() <= 128 && !resumed.pausedGpus.contains(uuid))
            resumed.pausedGpus.append(uuid);
    }
    return resumed;
}

} // namespace cohort
