// The engine's PRIME-RL work loop (engine thread; the model runs on the compute thread):
//   outbox first (batches from before a crash or an outage) -> ask the hub for work (step + seed) ->
//   make sure the local policy is at most async_level versions behind (else download first) ->
//   generate G samples per problem on the compute thread -> write the batch to the outbox (fsync) ->
//   submit, signed -> delete from the outbox only once the hub has answered -> again.
// Pause cancels generation within a token; the half-made batch is dropped (the work item simply expires).
#include "core/MemoryBudget.h"
#include "core/JsonReader.h"
#include "core/Logging.h"
#include "net/HubClient.h"
#include "node/Engine.h"
#include "node/Outbox.h"
#include "node/RolloutWorker.h"
#include "rl/WorkSampling.h"
#include "store/EarningsStore.h"
#include "shardcast/Downloader.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>

namespace cohort {

namespace {
constexpr int kEarningsRefreshMs = 60'000;

} // namespace

void Engine::startRolloutMachinery()
{
    m_outbox = std::make_unique<Outbox>(QDir(m_options.dataDir).filePath(QStringLiteral("outbox")));
    m_snapshot.rollouts.outboxBatches = m_outbox->count();
    m_computeThread.setObjectName(QStringLiteral("cohort-compute"));
    m_worker = new RolloutWorker;
    m_worker->moveToThread(&m_computeThread);
    connect(&m_computeThread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &RolloutWorker::finished, this, &Engine::onRolloutsGenerated);
    m_computeThread.start(QThread::LowPriority);
    openEarningsCache();
    m_rlTimer.setSingleShot(true);
    connect(&m_rlTimer, &QTimer::timeout, this, &Engine::rlKick);
    m_earningsTimer.setInterval(kEarningsRefreshMs);
    connect(&m_earningsTimer, &QTimer::timeout, this, &Engine::fetchEarnings);
}

void Engine::stopRolloutMachinery()
{
    if (m_worker)
        m_worker->cancel();
    m_computeThread.quit();
    m_computeThread.wait();
    m_worker = nullptr;
}

const TaskInfo *Engine::joinedTask() const
{
    for (const TaskInfo &t : m_snapshot.tasks)
        if (t.id == m_snapshot.joinedTaskId)
            return &t;
    return nullptr;
}

bool Engine::rlMayRun() const
{
    const TaskInfo *task = joinedTask();
    return !m_stopping && task && task->rl && m_hub && m_inputs.hubLink == HubLink::Online && m_inputs.pauseReasons.isEmpty();
}

void Engine::rlKick()
{
    if (m_rlBusy || !rlMayRun())
        return;
    // Throttled (temperature or power limit): rest between batches so compute takes only the duty cycle's share.
    if (m_throttleUntil.isValid()) {
        const qint64 wait = QDateTime::currentDateTimeUtc().msecsTo(m_throttleUntil);
        if (wait > 0 && m_snapshot.schedule.dutyCycle < 1.0) {
            m_rlTimer.start(int(std::min<qint64>(wait, 60'000)));
            return;
        }
        m_throttleUntil = {};
    }
    const TaskInfo *task = joinedTask();
    // Unacknowledged batches go first: they are finished work waiting to be credited.
    const QList<OutboxEntry> waiting = m_outbox->entries(task->id);
    if (!waiting.isEmpty()) {
        submitFromOutbox(waiting.first());
        return;
    }
    if (m_snapshot.checkpointVersion <= 0 || m_checkpointModelPath.isEmpty())
        return; // the download (or the hub's warm-up) comes first; its end kicks us again
    // A work item already in hand (cancelled by a pause, or restored from the engine bundle after a crash) is
    // finished before asking for another: the hub issued it to us, so it would otherwise only expire.
    if (m_workInHand && m_workInHand->taskId == task->id) {
        m_rlBusy = true;
        startWork(*m_workInHand);
        return;
    }
    m_workInHand.reset();
    m_rlBusy = true;
    // "seeded": this node samples with the work item's sampling seed (the hub checks every token against it);
    // "held-out-v1": it draws no held-out problem (rl/WorkSampling.h), as the hub does when it regenerates them.
    m_hub->post(QStringLiteral("/v1/tasks/%1/work").arg(task->id),
                QJsonObject{{QStringLiteral("sampling"), QStringLiteral("seeded")},
                            {QStringLiteral("problems"), QStringLiteral("held-out-v1")}},
                [this](const HubReply &reply) { onWork(reply); });
}

void Engine::rlRetryLater(int seconds)
{
    m_rlBusy = false;
    m_rlTimer.start(seconds * 1000);
}

void Engine::onWork(const HubReply &reply)
{
    if (m_stopping)
        return;
    if (!reply.ok()) {
        m_rlBusy = false;
        if (reply.errorCode == QLatin1String("busy")) {
            m_rlThrottled = true; // back-pressure from the trainer: still at work, ask again in a moment
            rlRetryLater(1);
            return;
        }
        if (reply.errorCode == QLatin1String("warming_up")) {
            m_inputs.activityDetail = tr("The hub is training the task's first policy");
            markDirty();
            rlRetryLater(5);
            return;
        }
        if (reply.errorCode == QLatin1String("node_flagged")) {
            // Failed TOPLOC proofs (a broken GPU, modified weights or client): only the hub's operator can clear it,
            // so say so plainly and ask again rarely.
            m_inputs.activityDetail = tr("The hub stopped giving this node work: %1").arg(reply.error);
            markDirty();
            emitEvent(EngineEvent::error(QStringLiteral("rollouts"), m_inputs.activityDetail));
            rlRetryLater(600);
            return;
        }
        emitEvent(EngineEvent::warning(QStringLiteral("rollouts"), QStringLiteral("The hub gave no work: %1").arg(reply.error)));
        rlRetryLater(reply.networkFailure() ? 10 : 30);
        return;
    }
    const TaskInfo *task = joinedTask();
    if (!task || !task->rl || reply.body.value(QStringLiteral("task")).toString() != task->id) {
        m_rlBusy = false; // the task changed while we asked
        QTimer::singleShot(0, this, &Engine::rlKick);
        return;
    }
    m_rlThrottled = false;
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
        emitEvent(EngineEvent::warning(QStringLiteral("rollouts"), QStringLiteral("The hub's work item is malformed: %1").arg(r.ok() ? QStringLiteral("bad seed") : r.error())));
        rlRetryLater(30);
        return;
    }
    WorkInHand work;
    work.taskId = task->id;
    work.workId = workId;
    work.step = step;
    work.minVersion = minVersion;
    work.seed = seed;
    // A hub that names no sampling seed (older versions) does not check sampling: any stream will do.
    work.samplingSeed = samplingText.isEmpty() ? QRandomGenerator::system()->generate64() : samplingSeed;
    m_workInHand = work;
    writeBundle("work received"); // from here on a crash resumes this work item instead of losing it
    testingHaltPoint("work-received");
    startWork(work);
}

void Engine::startWork(const WorkInHand &work)
{
    const TaskInfo *task = joinedTask();
    if (!task || !task->rl || task->id != work.taskId) {
        m_rlBusy = false;
        return;
    }
    const QString workId = work.workId;
    const int step = work.step;
    m_snapshot.rollouts.hubStep = step;
    if (m_snapshot.checkpointVersion < work.minVersion) {
        // Too stale to be accepted: fetch the newer version first (async_level, as PRIME-RL workers do).
        emitEvent(EngineEvent::info(QStringLiteral("rollouts"), QStringLiteral("Policy v%1 is too old for step %2; fetching v%2 first")
                                                                  .arg(m_snapshot.checkpointVersion).arg(step)));
        m_rlBusy = false;
        checkForCheckpoint(step);
        return;
    }
    // Still inside the staleness window but behind: fetch the newest version in the background, so the next
    // batches are made with it before this one's version falls out of the window.
    if (m_snapshot.checkpointVersion < step)
        checkForCheckpoint(step);
    const RlTaskConfig &cfg = *task->rl;
    RolloutJob job;
    job.taskId = task->id;
    job.workId = workId;
    job.version = m_snapshot.checkpointVersion;
    job.modelPath = m_checkpointModelPath;
    job.device = m_compute.device;
    job.problems = rl::problemsForWork(cfg.environmentIds(), work.seed, cfg.promptsPerBatch);
    job.samplesPerPrompt = cfg.samplesPerPrompt;
    job.maxNewTokens = cfg.maxNewTokens;
    job.temperature = cfg.temperature;
    job.topP = cfg.topP;
    job.samplingSeed = work.samplingSeed; // a resumed work item is generated again exactly as before
    job.toploc = cfg.toploc;
    if (m_snapshot.gpuMemoryBudgetBytes > 0) {
        // On a GPU: as many rows at once as the user's share of its memory holds; several passes if needed.
        const GenerationFootprint footprint = generationFootprint(cfg.model);
        const int rows = cfg.promptsPerBatch * cfg.samplesPerPrompt;
        job.maxRows = rowsWithin(footprint, m_snapshot.gpuMemoryBudgetBytes, rows);
        if (job.maxRows == 0) {
            emitEvent(EngineEvent::error(QStringLiteral("rollouts"), QStringLiteral("This task's policy %1")
                                                                       .arg(whyItDoesNotFit(footprint, m_snapshot.gpuMemoryBudgetBytes))));
            rlRetryLater(300);
            return;
        }
    }
    if (int(job.problems.size()) != cfg.promptsPerBatch) {
        emitEvent(EngineEvent::error(QStringLiteral("rollouts"), QStringLiteral("This version does not know the task's environments (%1)")
                                                                   .arg(cfg.environments.join(QStringLiteral(", ")))));
        rlRetryLater(300);
        return;
    }
    qCInfo(lcEngine).nospace() << "rollouts: generating work " << workId << " (step " << step << ", v" << job.version << ")";
    m_generating = true;
    m_generationClock.start();
    refreshActivityDetail();
    updateState();
    QMetaObject::invokeMethod(m_worker, [worker = m_worker, job] { worker->run(job); }, Qt::QueuedConnection);
}

void Engine::onRolloutsGenerated(const RolloutJobResult &result)
{
    m_generating = false;
    if (m_pauseClock.isValid()) {
        m_snapshot.schedule.lastPauseLatencyMs = int(m_pauseClock.elapsed());
        m_pauseClock.invalidate();
        qCInfo(lcEngine) << "compute stopped" << m_snapshot.schedule.lastPauseLatencyMs << "ms after the pause";
    }
    if (m_stopping)
        return;
    if (!result.error.isEmpty()) {
        m_rlBusy = false;
        if (result.error != QLatin1String("cancelled")) { // cancelled (pause): the work item stays in hand
            emitEvent(EngineEvent::error(QStringLiteral("rollouts"), result.error));
            m_workInHand.reset();
            writeBundle("work failed");
            rlRetryLater(30);
        }
        refreshActivityDetail();
        updateState();
        return;
    }
    // Throttled: the next batch waits so that compute / (compute + rest) is the duty cycle.
    if (const double duty = m_snapshot.schedule.dutyCycle; duty > 0 && duty < 1.0 && result.seconds > 0)
        m_throttleUntil = QDateTime::currentDateTimeUtc().addMSecs(qint64(1000 * result.seconds * (1.0 / duty - 1.0)));
    RolloutStats &stats = m_snapshot.rollouts;
    stats.tokensGenerated += result.tokens;
    stats.tokensPerSecond = result.seconds > 0 ? double(result.tokens) / result.seconds : 0;
    stats.lastMeanReward = result.meanReward;
    stats.policyVersion = result.job.version;

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
    if (Status saved = m_outbox->put(entry); !saved) {
        // Without a durable copy we still submit: losing the batch on a crash is better than not trying.
        emitEvent(EngineEvent::warning(QStringLiteral("rollouts"), saved.error()));
    }
    stats.outboxBatches = m_outbox->count();
    m_workInHand.reset(); // the batch is in the outbox now: that is its durable copy
    writeBundle("batch saved");
    testingHaltPoint("batch-saved");
    qCInfo(lcEngine).nospace() << "rollouts: " << result.tokens << " tokens in " << result.seconds << " s ("
                               << stats.tokensPerSecond << " tok/s, TOPLOC proofs "
                               << (result.seconds > 0 ? 100 * result.proofSeconds / result.seconds : 0)
                               << "% of it), mean reward " << result.meanReward << " with v"
                               << result.job.version << "; submitting " << entry.submissionId;
    refreshActivityDetail();
    updateState();
    submitFromOutbox(entry);
    if (m_pauseAfterStepPending) { // the batch is safe in the outbox: this is the safe point the user asked for
        m_pauseAfterStepPending = false;
        pause();
    }
}

void Engine::submitFromOutbox(const OutboxEntry &entry)
{
    m_rlBusy = true;
    auto body = parseJsonObject(entry.body, 64 << 20);
    if (!body) {
        // Written by us and fsynced, so unreadable JSON here is disk damage: drop it rather than retry forever.
        emitEvent(EngineEvent::warning(QStringLiteral("rollouts"),
                                       QStringLiteral("Dropped an unreadable outbox batch %1: %2").arg(entry.submissionId, body.error())));
        if (Status removed = m_outbox->remove(entry.submissionId); !removed)
            qCWarning(lcEngine) << "cannot remove outbox batch" << entry.submissionId << ":" << removed.error();
        m_rlBusy = false;
        return;
    }
    qCInfo(lcEngine) << "rollouts: submitted" << entry.submissionId << ", awaiting the hub's answer";
    m_hub->post(QStringLiteral("/v1/tasks/%1/rollouts").arg(entry.taskId), *body,
                [this, id = entry.submissionId](const HubReply &reply) { onSubmitted(id, reply); });
}

void Engine::onSubmitted(const QString &submissionId, const HubReply &reply)
{
    if (m_stopping)
        return;
    testingHaltPoint("ack-received"); // the hub has answered (and credited); the outbox still holds the batch
    m_rlBusy = false;
    RolloutStats &stats = m_snapshot.rollouts;
    const QString status = reply.body.value(QStringLiteral("status")).toString();
    const bool answered = reply.ok() || status == QLatin1String("rejected") || reply.httpStatus == 409 ||
                          (reply.httpStatus >= 400 && reply.httpStatus < 500 && reply.httpStatus != 401 &&
                           reply.httpStatus != 403 && reply.httpStatus != 408 && reply.httpStatus != 429);
    if (!answered && reply.errorCode == QLatin1String("busy")) {
        // Our earlier batches await verification: this one waits in the outbox and goes as soon as they are done.
        // Back-pressure, not idleness: the node is still at work.
        m_rlThrottled = true;
        rlRetryLater(1);
        return;
    }
    if (!answered) {
        // The hub is down or refused us for now: the batch stays in the outbox and goes first next time.
        emitEvent(EngineEvent::warning(QStringLiteral("rollouts"), QStringLiteral("Batch %1 kept in the outbox: %2").arg(submissionId, reply.error)));
        rlRetryLater(reply.networkFailure() ? 15 : 30);
        if (reply.networkFailure())
            connectionLost(reply.error);
        return;
    }
    if (Status removed = m_outbox->remove(submissionId); !removed)
        emitEvent(EngineEvent::warning(QStringLiteral("rollouts"), removed.error()));
    stats.outboxBatches = m_outbox->count();
    const bool duplicate = reply.body.value(QStringLiteral("duplicate")).toBool();
    if (reply.ok() && status == QLatin1String("accepted")) {
        ++stats.batchesAccepted;
        const qint64 tokens = reply.body.value(QStringLiteral("tokens")).toInteger();
        const double reward = reply.body.value(QStringLiteral("mean_reward")).toDouble();
        const double credit = reply.body.value(QStringLiteral("pending_credit")).toDouble();
        emitEvent(EngineEvent::routineInfo(QStringLiteral("rollouts"),
                                           QStringLiteral("Batch accepted%1: %2 tokens, mean reward %3, %4 credits pending verification")
                                               .arg(duplicate ? QStringLiteral(" (retry of a batch the hub already had)") : QString())
                                               .arg(tokens)
                                               .arg(reward, 0, 'f', 2)
                                               .arg(credit, 0, 'f', 3)));
        m_activitySummary.batchAccepted(tokens, reward, credit);
        fetchEarnings();
    } else {
        ++stats.batchesRejected;
        stats.lastRejection = reply.error;
        emitEvent(EngineEvent::warning(QStringLiteral("rollouts"), QStringLiteral("Batch rejected by the hub: %1").arg(reply.error)));
        m_activitySummary.batchRejected();
    }
    // The next batch follows at once: still at work, so the state does not blink to Idle between batches.
    m_rlKickQueued = true;
    refreshActivityDetail();
    updateState();
    // A stale rejection means the hub moved on: check for the newer version before the next batch.
    if (reply.errorCode == QLatin1String("stale_version"))
        checkForCheckpoint(-1);
    QTimer::singleShot(0, this, [this] {
        m_rlKickQueued = false;
        rlKick();
        updateState(); // Idle after all if nothing started (paused meanwhile, task left)
    });
}

void Engine::fetchEarnings()
{
    if (m_stopping || !m_hub || m_inputs.hubLink != HubLink::Online || m_snapshot.nodeId.isEmpty())
        return;
    if (!m_earningsTimer.isActive())
        m_earningsTimer.start();
    m_hub->get(QStringLiteral("/v1/nodes/%1/earnings").arg(m_snapshot.nodeId), [this](const HubReply &reply) {
        if (m_stopping || !reply.ok())
            return;
        auto report = EarningsReport::fromJson(reply.body);
        if (!report) {
            qCWarning(lcEngine) << "earnings: the hub's report is malformed:" << report.error();
            return;
        }
        onEarnings(*report, false);
    });
}

void Engine::openEarningsCache()
{
    // Earnings of different hubs never mix: the embedded network is one ledger, a remote hub is keyed by its URL.
    m_earningsHub = m_hubEmbedded ? QStringLiteral("embedded") : m_hubUrl;
    auto store = EarningsStore::open(EarningsStore::defaultPath(m_options.dataDir));
    if (!store) {
        emitEvent(EngineEvent::warning(QStringLiteral("earnings"), QStringLiteral("Earnings history is not kept: %1").arg(store.error())));
        return;
    }
    m_earningsStore = std::move(store).value();
    auto cached = m_earningsStore->load(m_earningsHub, m_snapshot.nodeId);
    if (!cached)
        emitEvent(EngineEvent::warning(QStringLiteral("earnings"), cached.error()));
    else if (cached->has_value())
        Q_EMIT earningsReady(**cached, true);
}

void Engine::onEarnings(const EarningsReport &report, bool fromCache)
{
    if (!fromCache && m_earningsStore) {
        if (Status saved = m_earningsStore->save(m_earningsHub, report); !saved)
            qCWarning(lcEngine) << "earnings: not cached:" << saved.error();
    }
    Q_EMIT earningsReady(report, fromCache);
}

QString Engine::rolloutActivity(const TaskInfo &task) const
{
    const RolloutStats &s = m_snapshot.rollouts;
    if (m_generating)
        return tr("%1: generating rollouts with policy v%2").arg(task.id).arg(m_snapshot.checkpointVersion);
    if (m_rlThrottled)
        return tr("%1: waiting for the hub's trainer to take the next batch (%2 accepted so far)")
            .arg(task.id).arg(s.batchesAccepted);
    if (m_snapshot.checkpointVersion <= 0)
        return tr("%1: waiting for the first policy version").arg(task.id);
    QString text = tr("%1: policy v%2, %3 batches accepted").arg(task.id).arg(m_snapshot.checkpointVersion).arg(s.batchesAccepted);
    if (s.lastMeanReward >= 0)
        text += tr(", last mean reward %1%").arg(s.lastMeanReward * 100, 0, 'f', 0); // of the most a sample can earn
    if (s.outboxBatches > 0)
        text += tr(", %1 waiting in the outbox").arg(s.outboxBatches);
    return text;
}

} // namespace cohort
