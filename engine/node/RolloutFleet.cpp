#include "node/RolloutFleet.h"

#include "core/Logging.h"
#include "node/HardwareInventory.h"
#include "node/TestingHooks.h"

#include <QCoreApplication>
#include <QDir>
#include <QTimer>
#include <algorithm>

namespace cohort {

RolloutFleet::RolloutFleet(RolloutHost &host, const QString &dataDir, QObject *parent)
    : QObject(parent),
      m_host(host),
      m_commons(QDir(dataDir).filePath(QStringLiteral("outbox")))
{}

RolloutFleet::~RolloutFleet()
{
    // Every batch is cancelled first, so the compute threads wind down together and each loop's bounded stop below
    // mostly finds its thread done already.
    for (const auto &loop : m_loops)
        loop->cancel();
    m_loops.clear();
}

RolloutLoop *RolloutFleet::addLoop(const ComputeWorkerSpec &spec, bool standIn)
{
    auto loop = std::make_unique<RolloutLoop>(m_host, m_commons, spec, standIn, this);
    RolloutLoop *l = loop.get();
    connect(l, &RolloutLoop::eventOccurred, this, &RolloutFleet::eventOccurred);
    connect(l, &RolloutLoop::changed, this, &RolloutFleet::changed);
    connect(l, &RolloutLoop::noteChanged, this, &RolloutFleet::noteChanged);
    connect(l, &RolloutLoop::policyNeeded, this, &RolloutFleet::policyNeeded);
    connect(l, &RolloutLoop::workInHandChanged, this, &RolloutFleet::workInHandChanged);
    connect(l, &RolloutLoop::hubUnreachable, this, &RolloutFleet::hubUnreachable);
    connect(l, &RolloutLoop::batchAccepted, this, &RolloutFleet::batchAccepted);
    connect(l, &RolloutLoop::batchRejected, this, &RolloutFleet::batchRejected);
    connect(l, &RolloutLoop::generationEnded, this, [this] {
        Q_EMIT generationEnded();
        // Once no loop generates any more, every batch in hand is in the outbox (queued: the loop that just ended
        // saves its batch first) or ended without one: the safe point "pause after this step" waits for.
        QTimer::singleShot(0, this, [this] {
            if (!generating())
                Q_EMIT safePointReached();
        });
    });
    m_loops.push_back(std::move(loop));
    return l;
}

void RolloutFleet::removeLoop(RolloutLoop *loop)
{
    // Its work item is the node's: another loop finishes it. What it did still counts in the node's figures.
    if (std::optional<WorkItem> work = loop->takeWorkInHand())
        m_commons.adoptWork(*work);
    // A batch it was submitting goes back to the others: its answer will not reach it any more. Sent again, the hub
    // answers a submission it already had as the same (credited once).
    if (const QString submitting = loop->submissionInFlight(); !submitting.isEmpty())
        m_commons.release(submitting);
    // Kept by GPU: the node's figures and, should the GPU come back, its own never go back.
    const RolloutStats &s = loop->stats();
    RolloutStats &mine = m_departedByGpu[loop->spec().gpuUuid];
    mine.batchesAccepted += s.batchesAccepted;
    mine.batchesRejected += s.batchesRejected;
    mine.tokensGenerated += s.tokensGenerated;
    qCInfo(lcEngine) << "compute: stopping the worker on" << loop->spec().device << loop->spec().gpuUuid;
    const auto it = std::find_if(m_loops.begin(), m_loops.end(), [loop](const auto &l) { return l.get() == loop; });
    m_loops.erase(it); // the destructor cancels the batch and stops the compute thread (bounded)
}

void RolloutFleet::plan(const QStringList &cudaUuids, const QList<GpuSample> &gpus, const QStringList &chosen,
                        int memoryPercent, const QMap<QString, int> &memoryPercentPerGpu)
{
    const bool standIns = testingGpusOnCpu() && cudaUuids.isEmpty();
    QStringList devices = cudaUuids;
    if (standIns)
        for (const GpuSample &g : gpus)
            devices.append(g.uuid);
    applyPlan(planCompute(devices, gpus, chosen, memoryPercent, memoryPercentPerGpu), standIns);
}

QList<int> RolloutFleet::gpuIndexes(const QList<GpuSample> &gpus) const
{
    QList<int> indexes;
    for (const auto &loop : m_loops)
        for (const GpuSample &g : gpus)
            if (!loop->spec().gpuUuid.isEmpty() && g.uuid == loop->spec().gpuUuid)
                indexes.append(g.index);
    return indexes;
}

void RolloutFleet::setGpusInUse(const QMap<int, QString> &programByIndex, const QList<GpuSample> &gpus, int holdSeconds)
{
    QMap<QString, QString> byUuid;
    for (const GpuSample &g : gpus)
        if (programByIndex.contains(g.index) && !g.uuid.isEmpty())
            byUuid.insert(g.uuid, programByIndex.value(g.index));
    setGpusInUse(byUuid, holdSeconds);
}

void RolloutFleet::applyPlan(const ComputePlan &plan, bool standIns)
{
    m_standIns = standIns;
    const auto sameWorker = [](const ComputeWorkerSpec &a, const ComputeWorkerSpec &b) {
        return a.gpuUuid == b.gpuUuid && a.device == b.device;
    };
    std::vector<RolloutLoop *> gone;
    for (const auto &loop : m_loops)
        if (std::none_of(plan.workers.begin(), plan.workers.end(),
                         [&](const ComputeWorkerSpec &w) { return sameWorker(w, loop->spec()); }))
            gone.push_back(loop.get());
    for (RolloutLoop *loop : gone)
        loop->cancel(); // all at once: each one's bounded stop below mostly finds its thread done
    for (RolloutLoop *loop : gone)
        removeLoop(loop);
    std::vector<std::unique_ptr<RolloutLoop>> ordered;
    for (const ComputeWorkerSpec &spec : plan.workers) {
        RolloutLoop *loop = nullptr;
        for (const auto &l : m_loops)
            if (sameWorker(l->spec(), spec))
                loop = l.get();
        const bool added = !loop;
        if (added)
            loop = addLoop(spec, standIns);
        QString note;
        const qint64 budget = applyGpuMemoryCap(spec, standIns, &note);
        if (!note.isEmpty() && (added || loop->spec().memoryPercent != spec.memoryPercent))
            Q_EMIT eventOccurred(EngineEvent::info(EventCategory::Compute, note));
        loop->setSpec(spec, budget);
        if (added) {
            if (!spec.gpuUuid.isEmpty() && m_pausedGpus.contains(spec.gpuUuid))
                loop->setPaused(true);
            loop->start();
            if (!gone.empty() || m_loops.size() > 1)
                Q_EMIT eventOccurred(EngineEvent::info(
                    EventCategory::Compute, QStringLiteral("Computing on %1 (%2)").arg(spec.name, spec.device)));
        }
        // Kept in the plan's order: the first is the primary device.
        const auto it = std::find_if(m_loops.begin(), m_loops.end(), [loop](const auto &l) { return l.get() == loop; });
        ordered.push_back(std::move(*it));
        m_loops.erase(it);
    }
    m_loops = std::move(ordered);
    if (!plan.note.isEmpty())
        Q_EMIT eventOccurred(EngineEvent::warning(EventCategory::Compute, plan.note));
    Q_EMIT changed();
    kick(); // new loops start, and work left by removed ones is taken over
}

void RolloutFleet::kick()
{
    for (const auto &loop : m_loops)
        loop->kick();
}

void RolloutFleet::cancel()
{
    for (const auto &loop : m_loops)
        loop->cancel();
}

void RolloutFleet::taskLeft()
{
    m_commons.dropSpareWork();
    for (const auto &loop : m_loops)
        loop->taskLeft();
}

void RolloutFleet::stop()
{
    m_stopping = true;
    for (const auto &loop : m_loops)
        loop->stop();
}

bool RolloutFleet::setGpuPaused(const QString &gpuUuid, bool paused)
{
    RolloutLoop *target = nullptr;
    for (const auto &loop : m_loops)
        if (!gpuUuid.isEmpty() && loop->spec().gpuUuid == gpuUuid)
            target = loop.get();
    if (!target)
        return false;
    if (paused)
        m_pausedGpus.insert(gpuUuid);
    else
        m_pausedGpus.remove(gpuUuid);
    target->setPaused(paused);
    if (paused)
        handOnWork(target);
    Q_EMIT eventOccurred(EngineEvent::info(
        EventCategory::Compute,
        paused ? QStringLiteral("Paused %1 (%2); the other devices keep working")
                     .arg(target->spec().name, target->spec().device)
               : QStringLiteral("%1 (%2) works again").arg(target->spec().name, target->spec().device)));
    return true;
}

void RolloutFleet::handOnWork(RolloutLoop *loop)
{
    // A waiting GPU's work item would only expire at the hub while it waits: another loop finishes it.
    if (std::optional<WorkItem> work = loop->takeWorkInHand()) {
        m_commons.adoptWork(*work);
        Q_EMIT workInHandChanged("work handed on");
        kick();
    }
}

void RolloutFleet::taskJoined(const QString &taskId)
{
    m_commons.keepWorkOf(taskId); // work for another task is of no use now
    cancel();
}

void RolloutFleet::setGpusInUse(const QMap<QString, QString> &programByGpu, int holdSeconds)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (const auto &loop : m_loops) {
        const QString &gpu = loop->spec().gpuUuid;
        if (gpu.isEmpty())
            continue;
        if (programByGpu.contains(gpu)) {
            m_inUseSeen.insert(gpu, now);
            const bool newlyInUse = loop->inUseBy().isEmpty();
            loop->setInUseBy(programByGpu.value(gpu));
            if (newlyInUse) {
                Q_EMIT eventOccurred(EngineEvent::info(
                    EventCategory::Schedule,
                    QStringLiteral("%1 uses %2 (%3): its worker waits; the other devices keep working")
                        .arg(programByGpu.value(gpu), loop->spec().name, loop->spec().device)));
                handOnWork(loop.get());
            }
        } else if (!loop->inUseBy().isEmpty()) {
            const QDateTime seen = m_inUseSeen.value(gpu);
            const qint64 since = seen.isValid() ? seen.secsTo(now) : holdSeconds;
            if (since >= holdSeconds || since < 0) { // gone for the hold time (or the clock went back)
                Q_EMIT eventOccurred(EngineEvent::info(
                    EventCategory::Schedule,
                    QStringLiteral("%1 (%2) works again").arg(loop->spec().name, loop->spec().device)));
                loop->setInUseBy(QString());
                m_inUseSeen.remove(gpu);
            }
        }
    }
}

QStringList RolloutFleet::pausedGpus() const
{
    QStringList list(m_pausedGpus.begin(), m_pausedGpus.end());
    list.sort();
    return list;
}

void RolloutFleet::restorePausedGpus(const QStringList &gpuUuids)
{
    m_pausedGpus = QSet<QString>(gpuUuids.begin(), gpuUuids.end());
    for (const auto &loop : m_loops)
        loop->setPaused(m_pausedGpus.contains(loop->spec().gpuUuid));
}

bool RolloutFleet::generating() const
{
    return std::any_of(m_loops.begin(), m_loops.end(), [](const auto &l) { return l->generating(); });
}

bool RolloutFleet::busy() const
{
    return std::any_of(m_loops.begin(), m_loops.end(), [](const auto &l) { return l->busy(); });
}

bool RolloutFleet::atWork() const
{
    return std::any_of(m_loops.begin(), m_loops.end(), [](const auto &l) { return l->atWork(); });
}

qint64 RolloutFleet::generatingForMs() const
{
    qint64 longest = -1;
    for (const auto &loop : m_loops)
        longest = std::max(longest, loop->generatingForMs());
    return longest;
}

RolloutStats RolloutFleet::stats() const
{
    RolloutStats sum;
    for (const RolloutStats &gone : m_departedByGpu) {
        sum.batchesAccepted += gone.batchesAccepted;
        sum.batchesRejected += gone.batchesRejected;
        sum.tokensGenerated += gone.tokensGenerated;
    }
    const RolloutLoop *latest = nullptr;
    for (const auto &loop : m_loops) {
        const RolloutStats &s = loop->stats();
        sum.batchesAccepted += s.batchesAccepted;
        sum.batchesRejected += s.batchesRejected;
        sum.tokensGenerated += s.tokensGenerated;
        if (!loop->waiting())
            sum.tokensPerSecond += s.tokensPerSecond; // the node's rate: its working devices together
        sum.policyVersion = std::max(sum.policyVersion, s.policyVersion);
        sum.hubStep = std::max(sum.hubStep, s.hubStep);
        if (!s.lastRejection.isEmpty())
            sum.lastRejection = s.lastRejection;
        if (loop->lastBatchAtMs() > 0 && (!latest || loop->lastBatchAtMs() > latest->lastBatchAtMs()))
            latest = loop.get();
    }
    if (latest)
        sum.lastMeanReward = latest->stats().lastMeanReward;
    sum.outboxBatches = m_commons.outboxCount();
    return sum;
}

QList<ComputeWorkerStatus> RolloutFleet::workers() const
{
    QList<ComputeWorkerStatus> list;
    for (const auto &loop : m_loops) {
        ComputeWorkerStatus status = loop->status();
        const RolloutStats before = m_departedByGpu.value(loop->spec().gpuUuid);
        status.batchesAccepted += before.batchesAccepted;
        status.tokensGenerated += before.tokensGenerated;
        list.append(status);
    }
    return list;
}

qint64 RolloutFleet::memoryBudgetBytes() const
{
    qint64 largest = 0; // a policy runs on one GPU: the largest share decides whether a task fits, never their sum
    for (const auto &loop : m_loops)
        largest = std::max(largest, loop->memoryBudgetBytes());
    return largest;
}

bool RolloutFleet::primaryWaiting() const
{
    return !m_loops.empty() && m_loops.front()->waiting();
}

QString RolloutFleet::primaryDevice() const
{
    if (m_loops.empty())
        return QStringLiteral("cpu");
    return m_standIns ? QStringLiteral("cpu") : m_loops.front()->spec().device;
}

QList<RolloutFleet::WorkItem> RolloutFleet::worksInHand() const
{
    QList<WorkItem> all;
    for (const auto &loop : m_loops)
        if (std::optional<WorkItem> w = loop->workInHand())
            all.append(*w);
    all.append(m_commons.spareWork());
    return all;
}

void RolloutFleet::restoreWork(const QList<WorkItem> &work)
{
    for (const WorkItem &w : work)
        m_commons.adoptWork(w);
}

QString RolloutFleet::activity(const TaskInfo &task) const
{
    if (m_loops.empty())
        return {};
    const auto paused = std::count_if(m_loops.begin(), m_loops.end(), [](const auto &l) { return l->waiting(); });
    if (paused == qsizetype(m_loops.size()))
        return QCoreApplication::translate("cohort::Engine",
                                           "%1: every GPU Cohort may use is paused or in use by another program")
            .arg(task.id);
    const auto generating =
        std::count_if(m_loops.begin(), m_loops.end(), [](const auto &l) { return l->generating(); });
    QString text;
    if (m_loops.size() > 1 && generating > 0)
        text = QCoreApplication::translate(
                   "cohort::Engine", "%1: generating rollouts on %2 of %3 GPUs with policy v%4, %5 batches accepted")
                   .arg(task.id)
                   .arg(generating)
                   .arg(m_loops.size())
                   .arg(m_host.policyVersion())
                   .arg(stats().batchesAccepted);
    else
        for (const auto &loop : m_loops)
            if (!loop->waiting() && text.isEmpty())
                text = loop->activity(task);
    if (paused > 0)
        text += paused == 1 ? QCoreApplication::translate("cohort::Engine", " (1 GPU paused)")
                            : QCoreApplication::translate("cohort::Engine", " (%1 GPUs paused)").arg(paused);
    return text;
}

} // namespace cohort
