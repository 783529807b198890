#include "node/RolloutLoop.h"

#include "core/JsonReader.h"
#include "core/Logging.h"
#include "core/MemoryBudget.h"
#include "net/HubClient.h"
#include "node/RolloutWorker.h"
#include "node/TestingHooks.h"
#include "rl/WorkSampling.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QRandomGenerator>

namespace cohort {

// The loop's texts keep the engine's translation context ("cohort::Engine"): the loop was part of Engine, and
// ui/translations files them there. Written out in full so that lupdate sees each one.

namespace {
// "cohort-compute" for the CPU, "cohort-compute-1" for CUDA device 1: `top -H` tells the GPUs' threads apart.
QString threadName(const ComputeWorkerSpec &spec)
{
    return spec.cudaIndex < 0 ? QStringLiteral("cohort-compute")
                              : QStringLiteral("cohort-compute-%1").arg(spec.cudaIndex);
}
} // namespace

RolloutLoop::RolloutLoop(RolloutHost &host, RolloutCommons &commons, ComputeWorkerSpec spec, bool standIn,
                         QObject *parent)
    : QObject(parent),
      m_host(host),
      m_commons(commons),
      m_spec(std::move(spec)),
      m_runDevice(standIn ? QStringLiteral("cpu") : m_spec.device),
      m_computeThread(threadName(m_spec), this),
      m_timer(this)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &RolloutLoop::kick);
}

// A cancelled batch ends within one generated token; what may take longer is loading a policy from disk, which
// cannot be interrupted. Past this the thread is let go (OwnedThread) rather than holding up the engine's exit.
constexpr std::chrono::seconds kStopBound{30};

RolloutLoop::~RolloutLoop()
{
    if (m_worker)
        m_worker->cancel();
    m_computeThread.stop(kStopBound);
    m_worker = nullptr;
}

void RolloutLoop::start()
{
    m_started = true;
    m_stats.outboxBatches = m_commons.outboxCount();
    m_worker = new RolloutWorker;
    connect(m_worker, &RolloutWorker::finished, this, &RolloutLoop::onGenerated);
    m_computeThread.host(m_worker);
    m_computeThread.startEventLoop(QThread::LowPriority);
}

void RolloutLoop::cancel()
{
    if (m_worker)
        m_worker->cancel();
}

void RolloutLoop::taskLeft()
{
    m_throttled = false;
    if (m_worker) {
        m_worker->cancel();
        QMetaObject::invokeMethod(m_worker, &RolloutWorker::unload, Qt::QueuedConnection);
    }
}

void RolloutLoop::setPaused(bool paused)
{
    if (paused != m_paused)
        changeWaiting([&] { m_paused = paused; });
}

void RolloutLoop::setInUseBy(const QString &program)
{
    if (program != m_inUseBy)
        changeWaiting([&] { m_inUseBy = program; });
}

void RolloutLoop::changeWaiting(const std::function<void()> &change)
{
    const bool wasWaiting = waiting();
    change();
    if (waiting() && !wasWaiting) {
        m_timer.stop();
        cancel(); // within a token; the work item stays in hand and is finished when this GPU works again
    } else if (!waiting()) {
        kick();
    }
    Q_EMIT changed();
}

void RolloutLoop::setSpec(const ComputeWorkerSpec &spec, qint64 memoryBudgetBytes)
{
    m_spec = spec;
    m_memoryBudget = memoryBudgetBytes;
}

std::optional<RolloutLoop::WorkItem> RolloutLoop::takeWorkInHand()
{
    cancel();
    return std::exchange(m_workInHand, std::nullopt);
}

ComputeWorkerStatus RolloutLoop::status() const
{
    ComputeWorkerStatus s;
    s.gpuUuid = m_spec.gpuUuid;
    s.name = m_spec.name;
    s.device = m_spec.device;
    s.paused = m_paused;
    s.inUseBy = m_inUseBy;
    s.generating = m_generating;
    s.memoryPercent = m_spec.memoryPercent;
    s.memoryBudgetBytes = m_memoryBudget;
    s.batchesAccepted = m_stats.batchesAccepted;
    s.tokensGenerated = m_stats.tokensGenerated;
    s.tokensPerSecond = m_stats.tokensPerSecond;
    return s;
}

void RolloutLoop::stop()
{
    m_stopping = true;
    m_timer.stop();
    cancel(); // the batch in progress stops; its work item is in the bundle, finished batches in the outbox
}

void RolloutLoop::kick()
{
    if (m_busy || m_stopping || waiting() || !m_started || !m_host.rolloutsMayRun())
        return;
    // Throttled (temperature or power limit): rest between batches so compute takes only the duty cycle's share.
    if (m_throttleUntil.isValid()) {
        const qint64 wait = QDateTime::currentDateTimeUtc().msecsTo(m_throttleUntil);
        if (wait > 0 && m_host.dutyCycle() < 1.0) {
            m_timer.start(int(std::min<qint64>(wait, 60'000)));
            return;
        }
        m_throttleUntil = {};
    }
    const TaskInfo *task = m_host.joinedTask();
    // Unacknowledged batches go first: they are finished work waiting to be credited (another loop's too).
    if (std::optional<OutboxEntry> waiting = m_commons.claimWaiting(task->id)) {
        submit(*waiting);
        return;
    }
    if (m_host.policyVersion() <= 0 || m_host.policyPath().isEmpty())
        return; // the download (or the hub's warm-up) comes first; its end kicks us again
    // A work item already in hand (cancelled by a pause, or restored from the engine bundle after a crash) is
    // finished before asking for another: the hub issued it to us, so it would otherwise only expire.
    if (!m_workInHand || m_workInHand->taskId != task->id) {
        // One the node holds but no loop does (from the engine bundle, or a GPU taken out of the choice) comes next.
        if (std::optional<WorkItem> spare = m_commons.takeWork(task->id)) {
            m_workInHand = spare;
            Q_EMIT workInHandChanged("work taken over");
        }
    }
    if (m_workInHand && m_workInHand->taskId == task->id) {
        m_busy = true;
        startWork(*m_workInHand);
        return;
    }
    m_workInHand.reset();
    m_busy = true;
    // "seeded": this node samples with the work item's sampling seed (the hub checks every token against it);
    // "held-out-v1": it draws no held-out problem (rl/WorkSampling.h), as the hub does when it regenerates them.
    m_host.hub()->post(QStringLiteral("/v1/tasks/%1/work").arg(task->id),
                       QJsonObject{{QStringLiteral("sampling"), QStringLiteral("seeded")},
                                   {QStringLiteral("problems"), QStringLiteral("held-out-v1")}},
                       [self = QPointer<RolloutLoop>(this), fleet = QPointer<QObject>(parent()), commons = &m_commons,
                        taskId = task->id](const HubReply &reply) {
                           if (self) {
                               self->onWork(reply);
                               return;
                           }
                           // The fleet removed this loop (its GPU left the choice) while the hub answered: the work
                           // item the hub issued is the node's, and another loop of the fleet (which owns `commons`)
                           // finishes it.
                           QString ignored;
                           if (fleet && reply.ok() && reply.body.value(QStringLiteral("task")).toString() == taskId)
                               if (const std::optional<WorkItem> work = workItemFrom(reply, taskId, &ignored))
                                   commons->adoptWork(*work);
                       });
}

void RolloutLoop::retryLater(int seconds)
{
    m_busy = false;
    m_timer.start(seconds * 1000);
}

void RolloutLoop::onWork(const HubReply &reply)
{
    if (m_stopping)
        return;
    if (!reply.ok()) {
        m_busy = false;
        if (reply.errorCode == QLatin1String("busy")) {
            m_throttled = true; // back-pressure from the trainer: still at work, ask again in a moment
            retryLater(1);
            return;
        }
        if (reply.errorCode == QLatin1String("warming_up")) {
            Q_EMIT noteChanged(
                QCoreApplication::translate("cohort::Engine", "The hub is training the task's first policy"));
            retryLater(5);
            return;
        }
        if (reply.errorCode == QLatin1String("node_flagged")) {
            // Failed TOPLOC proofs (a broken GPU, modified weights or client): only the hub's operator can clear it,
            // so say so plainly and ask again rarely.
            const QString note =
                QCoreApplication::translate("cohort::Engine", "The hub stopped giving this node work: %1")
                    .arg(reply.error);
            Q_EMIT noteChanged(note);
            Q_EMIT eventOccurred(EngineEvent::error(EventCategory::Rollouts, note));
            retryLater(600);
            return;
        }
        Q_EMIT eventOccurred(
            EngineEvent::warning(EventCategory::Rollouts, QStringLiteral("The hub gave no work: %1").arg(reply.error)));
        retryLater(reply.networkFailure() ? 10 : 30);
        return;
    }
    const TaskInfo *task = m_host.joinedTask();
    if (!task || !task->rl || reply.body.value(QStringLiteral("task")).toString() != task->id) {
        m_busy = false; // the task changed while we asked
        QTimer::singleShot(0, this, &RolloutLoop::kick);
        return;
    }
    m_throttled = false;
    QString malformed;
    const std::optional<WorkItem> parsed = workItemFrom(reply, task->id, &malformed);
    if (!parsed) {
        Q_EMIT eventOccurred(EngineEvent::warning(
            EventCategory::Rollouts, QStringLiteral("The hub's work item is malformed: %1").arg(malformed)));
        retryLater(30);
        return;
    }
    const WorkItem work = *parsed;
    m_workInHand = work;
    Q_EMIT workInHandChanged("work received"); // from here on a crash resumes this work item instead of losing it
    testingHaltPoint("work-received");
    startWork(work);
}

std::optional<RolloutLoop::WorkItem> RolloutLoop::workItemFrom(const HubReply &reply, const QString &taskId,
                                                               QString *error)
{
    JsonReader r(reply.body, QStringLiteral("work"));
    const QString workId = r.string(QStringLiteral("work_id"), 64);
    const int step = int(r.integer(QStringLiteral("step"), 1, 1 << 30));
    const int minVersion = int(r.integer(QStringLiteral("min_version"), 1, 1 << 30));
    const QString seedText = r.string(QStringLiteral("seed"), 24);
    // The hub fixes the sampling randomness (verifiable sampling): it checks every token against this stream.
    const QString samplingText = r.optionalString(QStringLiteral("sampling_seed"), QString(), 24);
    bool seedOk = false, samplingOk = true;
    const quint64 seed = seedText.toULongLong(&seedOk);
    const quint64 samplingSeed = samplingText.isEmpty() ? 0 : samplingText.toULongLong(&samplingOk);
    if (!r.ok() || !seedOk || !samplingOk) {
        *error = r.ok() ? QStringLiteral("bad seed") : r.error();
        return std::nullopt;
    }
    WorkItem work;
    work.taskId = taskId;
    work.workId = workId;
    work.step = step;
    work.minVersion = minVersion;
    work.seed = seed;
    // A hub that names no sampling seed (older versions) does not check sampling: any stream will do.
    work.samplingSeed = samplingText.isEmpty() ? QRandomGenerator::system()->generate64() : samplingSeed;
    return work;
}

void RolloutLoop::startWork(const WorkItem &work)
{
    const TaskInfo *task = m_host.joinedTask();
    if (waiting() || !task || !task->rl || task->id != work.taskId) { // paused while asking: the item stays in hand
        m_busy = false;
        return;
    }
    const int version = m_host.policyVersion();
    m_stats.hubStep = work.step;
    if (version < work.minVersion) {
        // Too stale to be accepted: fetch the newer version first (async_level, as PRIME-RL workers do).
        Q_EMIT eventOccurred(EngineEvent::info(
            EventCategory::Rollouts,
            QStringLiteral("Policy v%1 is too old for step %2; fetching v%2 first").arg(version).arg(work.step)));
        m_busy = false;
        Q_EMIT policyNeeded(work.step);
        return;
    }
    // Still inside the staleness window but behind: fetch the newest version in the background, so the next
    // batches are made with it before this one's version falls out of the window.
    if (version < work.step)
        Q_EMIT policyNeeded(work.step);
    const RlTaskConfig &cfg = *task->rl;
    RolloutJob job;
    job.taskId = task->id;
    job.workId = work.workId;
    job.version = m_host.policyVersion();
    job.modelPath = m_host.policyPath();
    job.device = m_runDevice;
    job.problems = rl::problemsForWork(cfg.environmentIds(), work.seed, cfg.promptsPerBatch);
    job.samplesPerPrompt = cfg.samplesPerPrompt;
    job.maxNewTokens = cfg.maxNewTokens;
    job.temperature = cfg.temperature;
    job.topP = cfg.topP;
    job.samplingSeed = work.samplingSeed; // a resumed work item is generated again exactly as before
    job.toploc = cfg.toploc;
    if (const qint64 budget = m_memoryBudget; budget > 0) {
        // On a GPU: as many rows at once as the user's share of its memory holds; several passes if needed.
        const GenerationFootprint footprint = generationFootprint(cfg.model);
        const int rows = cfg.promptsPerBatch * cfg.samplesPerPrompt;
        job.maxRows = rowsWithin(footprint, budget, rows);
        if (job.maxRows == 0) {
            Q_EMIT eventOccurred(
                EngineEvent::error(EventCategory::Rollouts,
                                   QStringLiteral("This task's policy %1").arg(whyItDoesNotFit(footprint, budget))));
            retryLater(300);
            return;
        }
    }
    if (int(job.problems.size()) != cfg.promptsPerBatch) {
        Q_EMIT eventOccurred(EngineEvent::error(
            EventCategory::Rollouts, QStringLiteral("This version does not know the task's environments (%1)")
                                         .arg(cfg.environments.join(QStringLiteral(", ")))));
        retryLater(300);
        return;
    }
    qCInfo(lcEngine).nospace() << "rollouts: generating work " << work.workId << " (step " << work.step << ", v"
                               << job.version << ")";
    m_generating = true;
    m_generationClock.start();
    Q_EMIT changed();
    m_worker->rearm(); // a pause from here on stops this batch, even before the compute thread has picked it up
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, job] { worker->run(job); }, Qt::QueuedConnection);
}

void RolloutLoop::onGenerated(const RolloutJobResult &result)
{
    m_generating = false;
    Q_EMIT generationEnded();
    if (m_stopping)
        return;
    if (!result.error.isEmpty()) {
        m_busy = false;
        if (result.error != QLatin1String("cancelled")) { // cancelled (pause): the work item stays in hand
            Q_EMIT eventOccurred(EngineEvent::error(EventCategory::Rollouts, result.error));
            m_workInHand.reset();
            Q_EMIT workInHandChanged("work failed");
            retryLater(30);
        } else if (!waiting()) {
            // Resumed before the cancelled batch came back (its kick found the loop still busy): go on now. A node
            // that is still paused makes this kick do nothing.
            QTimer::singleShot(0, this, &RolloutLoop::kick);
        }
        Q_EMIT changed();
        return;
    }
    // Throttled: the next batch waits so that compute / (compute + rest) is the duty cycle.
    if (const double duty = m_host.dutyCycle(); duty > 0 && duty < 1.0 && result.seconds > 0)
        m_throttleUntil = QDateTime::currentDateTimeUtc().addMSecs(qint64(1000 * result.seconds * (1.0 / duty - 1.0)));
    m_lastBatchAtMs = QDateTime::currentMSecsSinceEpoch();
    m_stats.tokensGenerated += result.tokens;
    m_stats.tokensPerSecond = result.seconds > 0 ? double(result.tokens) / result.seconds : 0;
    m_stats.lastMeanReward = result.meanReward;
    m_stats.policyVersion = result.job.version;

    QJsonArray groups;
    for (size_t i = 0; i < result.groups.size(); ++i) {
        QJsonArray samples;
        for (const RolloutSampleResult &s : result.groups[i]) {
            QJsonArray tokens;
            for (int32_t t : s.tokens)
                tokens.append(t);
            QJsonObject sample{{QStringLiteral("tokens"), tokens}, {QStringLiteral("reward"), s.reward}};
            if (!s.proof.isEmpty())
                sample.insert(QStringLiteral("proof"), QString::fromLatin1(s.proof.toBase64()));
            samples.append(sample);
        }
        groups.append(QJsonObject{{QStringLiteral("prompt"), QString::fromStdString(result.job.problems[i].prompt)},
                                  {QStringLiteral("samples"), samples}});
    }
    OutboxEntry entry;
    entry.submissionId = Outbox::newSubmissionId();
    entry.taskId = result.job.taskId;
    entry.body = QJsonDocument(QJsonObject{{QStringLiteral("submission_id"), entry.submissionId},
                                           {QStringLiteral("work_id"), result.job.workId},
                                           {QStringLiteral("version"), result.job.version},
                                           {QStringLiteral("groups"), groups}})
                     .toJson(QJsonDocument::Compact);
    if (Status saved = m_commons.putClaimed(entry); !saved) {
        // Without a durable copy we still submit: losing the batch on a crash is better than not trying.
        Q_EMIT eventOccurred(EngineEvent::warning(EventCategory::Rollouts, saved.error()));
    }
    m_stats.outboxBatches = m_commons.outboxCount();
    m_workInHand.reset(); // the batch is in the outbox now: that is its durable copy
    Q_EMIT workInHandChanged("batch saved");
    testingHaltPoint("batch-saved");
    qCInfo(lcEngine).nospace() << "rollouts: " << result.tokens << " tokens in " << result.seconds << " s ("
                               << m_stats.tokensPerSecond << " tok/s, TOPLOC proofs "
                               << (result.seconds > 0 ? 100 * result.proofSeconds / result.seconds : 0)
                               << "% of it), mean reward " << result.meanReward << " with v" << result.job.version
                               << "; submitting " << entry.submissionId;
    Q_EMIT changed();
    submit(entry);
    Q_EMIT batchSaved();
}

void RolloutLoop::submit(const OutboxEntry &entry)
{
    m_busy = true;
    auto body = parseJsonObject(entry.body, 64 << 20);
    if (!body) {
        // Written by us and fsynced, so unreadable JSON here is disk damage: drop it rather than retry forever.
        Q_EMIT eventOccurred(EngineEvent::warning(
            EventCategory::Rollouts,
            QStringLiteral("Dropped an unreadable outbox batch %1: %2").arg(entry.submissionId, body.error())));
        if (Status removed = m_commons.removeAnswered(entry.submissionId); !removed)
            qCWarning(lcEngine) << "cannot remove outbox batch" << entry.submissionId << ":" << removed.error();
        m_busy = false;
        return;
    }
    qCInfo(lcEngine) << "rollouts: submitted" << entry.submissionId << ", awaiting the hub's answer";
    m_host.hub()->post(QStringLiteral("/v1/tasks/%1/rollouts").arg(entry.taskId), *body,
                       [self = QPointer<RolloutLoop>(this), id = entry.submissionId](const HubReply &reply) {
                           if (self)
                               self->onSubmitted(id, reply);
                       });
    m_submitting = entry.submissionId;
}

void RolloutLoop::onSubmitted(const QString &submissionId, const HubReply &reply)
{
    if (m_stopping)
        return;                       // the claim dies with the fleet: the next start submits the batch again
    testingHaltPoint("ack-received"); // the hub has answered (and credited); the outbox still holds the batch
    m_busy = false;
    m_submitting.clear();
    const QString status = reply.body.value(QStringLiteral("status")).toString();
    const bool answered = reply.ok() || status == QLatin1String("rejected") || reply.httpStatus == 409 ||
                          (reply.httpStatus >= 400 && reply.httpStatus < 500 && reply.httpStatus != 401 &&
                           reply.httpStatus != 403 && reply.httpStatus != 408 && reply.httpStatus != 429);
    if (!answered)
        m_commons.release(submissionId); // still in the outbox: whichever loop asks next submits it
    if (!answered && reply.errorCode == QLatin1String("busy")) {
        // Our earlier batches await verification: this one waits in the outbox and goes as soon as they are done.
        // Back-pressure, not idleness: the node is still at work.
        m_throttled = true;
        retryLater(1);
        return;
    }
    if (!answered) {
        // The hub is down or refused us for now: the batch stays in the outbox and goes first next time.
        Q_EMIT eventOccurred(EngineEvent::warning(
            EventCategory::Rollouts, QStringLiteral("Batch %1 kept in the outbox: %2").arg(submissionId, reply.error)));
        retryLater(reply.networkFailure() ? 15 : 30);
        if (reply.networkFailure())
            Q_EMIT hubUnreachable(reply.error);
        return;
    }
    if (Status removed = m_commons.removeAnswered(submissionId); !removed)
        Q_EMIT eventOccurred(EngineEvent::warning(EventCategory::Rollouts, removed.error()));
    m_stats.outboxBatches = m_commons.outboxCount();
    const bool duplicate = reply.body.value(QStringLiteral("duplicate")).toBool();
    if (reply.ok() && status == QLatin1String("accepted")) {
        ++m_stats.batchesAccepted;
        const qint64 tokens = reply.body.value(QStringLiteral("tokens")).toInteger();
        const double reward = reply.body.value(QStringLiteral("mean_reward")).toDouble();
        const double credit = reply.body.value(QStringLiteral("pending_credit")).toDouble();
        Q_EMIT eventOccurred(EngineEvent::routineInfo(
            EventCategory::Rollouts,
            QStringLiteral("Batch accepted%1: %2 tokens, mean reward %3, %4 credits pending verification")
                .arg(duplicate ? QStringLiteral(" (retry of a batch the hub already had)") : QString())
                .arg(tokens)
                .arg(reward, 0, 'f', 2)
                .arg(credit, 0, 'f', 3)));
        Q_EMIT batchAccepted(tokens, reward, credit);
    } else {
        ++m_stats.batchesRejected;
        m_stats.lastRejection = reply.error;
        Q_EMIT eventOccurred(EngineEvent::warning(EventCategory::Rollouts,
                                                  QStringLiteral("Batch rejected by the hub: %1").arg(reply.error)));
        Q_EMIT batchRejected();
    }
    // The next batch follows at once: still at work, so the state does not blink to Idle between batches.
    m_kickQueued = true;
    Q_EMIT changed();
    // A stale rejection means the hub moved on: check for the newer version before the next batch.
    if (reply.errorCode == QLatin1String("stale_version"))
        Q_EMIT policyNeeded(-1);
    QTimer::singleShot(0, this, [this] {
        m_kickQueued = false;
        kick();
        Q_EMIT changed(); // Idle after all if nothing started (paused meanwhile, task left)
    });
}

QString RolloutLoop::activity(const TaskInfo &task) const
{
    const int version = m_host.policyVersion();
    if (m_generating)
        return QCoreApplication::translate("cohort::Engine", "%1: generating rollouts with policy v%2")
            .arg(task.id)
            .arg(version);
    if (m_throttled)
        return QCoreApplication::translate(
                   "cohort::Engine", "%1: waiting for the hub's trainer to take the next batch (%2 accepted so far)")
            .arg(task.id)
            .arg(m_stats.batchesAccepted);
    if (version <= 0)
        return QCoreApplication::translate("cohort::Engine", "%1: waiting for the first policy version").arg(task.id);
    QString text = QCoreApplication::translate("cohort::Engine", "%1: policy v%2, %3 batches accepted")
                       .arg(task.id)
                       .arg(version)
                       .arg(m_stats.batchesAccepted);
    if (m_stats.lastMeanReward >= 0)
        text += QCoreApplication::translate("cohort::Engine", ", last mean reward %1%")
                    .arg(m_stats.lastMeanReward * 100, 0, 'f', 0); // of the most a sample can earn
    if (m_stats.outboxBatches > 0)
        text += QCoreApplication::translate("cohort::Engine", ", %1 waiting in the outbox").arg(m_stats.outboxBatches);
    return text;
}

} // namespace cohort
