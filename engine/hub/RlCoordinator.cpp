#include "hub/RlCoordinator.h"

#include "core/JsonReader.h"
#include "core/Logging.h"
#include "hub/HubStore.h"
#include "hub/RlTrainer.h"
#include "hub/TaskCatalogue.h"
#include "net/ApiServer.h"
#include "net/RequestSigning.h"
#include "rl/VerifiableSampling.h"
#include "rl/WorkSampling.h"
#include "shardcast/Publisher.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>

namespace cohort {

namespace {
ApiResponse unknownTask(const QString &id)
{
    return ApiResponse::error(404, QStringLiteral("unknown_task"), QStringLiteral("no task with id '%1'").arg(id));
}

// The stored form of an answer, so a retried submission gets exactly the same one.
QByteArray storeResponse(const ApiResponse &r)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("status_code"), r.status}, {QStringLiteral("body"), r.body}})
        .toJson(QJsonDocument::Compact);
}

ApiResponse replayResponse(const QByteArray &stored)
{
    const QJsonObject o = QJsonDocument::fromJson(stored).object();
    ApiResponse r = ApiResponse::json(o.value(QStringLiteral("body")).toObject(),
                                      o.value(QStringLiteral("status_code")).toInt(200));
    r.body.insert(QStringLiteral("duplicate"), true);
    return r;
}
} // namespace

RlCoordinator::RlCoordinator(RlCoordinatorConfig config, HubStore &store, const TaskCatalogue &catalogue,
                             shardcast::Publisher &publisher, Authenticate authenticate, QObject *parent)
    : QObject(parent),
      m_config(std::move(config)),
      m_store(store),
      m_catalogue(catalogue),
      m_publisher(publisher),
      m_authenticate(std::move(authenticate)),
      m_ledger(store.connectionName()),
      m_workRequests(m_config.workRequestsPerSecond, 2 * m_config.workRequestsPerSecond),
      m_submissions(m_config.submissionsPerSecond, 2 * m_config.submissionsPerSecond),
      m_rejections(m_config.rejectionsPerSecond, m_config.rejectionBurst)
{
    qRegisterMetaType<cohort::ValidatedBatch>();
    qRegisterMetaType<cohort::VerificationStats>();
    // Retention: at start (from the event loop, after the hub is up) and every hour.
    m_pruneTimer.setInterval(3600 * 1000);
    connect(&m_pruneTimer, &QTimer::timeout, this, &RlCoordinator::pruneHistory);
    m_pruneTimer.start();
    QTimer::singleShot(0, this, &RlCoordinator::pruneHistory);
    m_holdVerification = qEnvironmentVariableIsSet("COHORT_TESTING_HOLD_VERIFICATION");
    if (m_holdVerification)
        qCWarning(lcHub) << "COHORT_TESTING_HOLD_VERIFICATION: accepted batches are not verified (testing only)";
}

void RlCoordinator::enqueue(TaskRuntime &runtime, ValidatedBatch batch)
{
    const QString nodeId = batch.nodeId;
    if (!runtime.waiting.contains(nodeId))
        runtime.turns.append(nodeId);
    runtime.waiting[nodeId].push_back(std::move(batch));
    ++runtime.inFlight[nodeId];
    ++runtime.queued;
    dispatch(runtime);
}

void RlCoordinator::resumePending(const QString &taskId, TaskRuntime &runtime)
{
    runtime.resumed = true;
    const TaskInfo *task = m_catalogue.find(taskId);
    if (!task || !task->rl)
        return;
    const QList<PendingSubmission> pending = m_ledger.pendingSubmissions(taskId);
    int queued = 0, unreadable = 0;
    for (const PendingSubmission &p : pending) {
        if (runtime.atTrainer == p.submissionId)
            continue;
        if (const auto queued = runtime.waiting.constFind(p.nodeId);
            queued != runtime.waiting.cend() &&
            std::any_of(queued->cbegin(), queued->cend(),
                        [&](const ValidatedBatch &b) { return b.submissionId == p.submissionId; }))
            continue;
        auto body = parseJsonObject(p.body, 64 << 20);
        IntakeResult again;
        if (body)
            again = checkSubmission(*body, p.nodeId, *task, m_ledger.work(p.workId), latestVersion(taskId), true);
        if (!again.batch) {
            // Not the node's doing (the hub lost or cannot read what it stored): refused, and not held against it.
            ++unreadable;
            const QString why = body ? again.code + QStringLiteral(": ") + again.message : body.error();
            const auto written = m_ledger.setVerdict(
                p.submissionId, false, QStringLiteral("cannot be verified after a hub restart (%1)").arg(why),
                VerificationStats{}, 0, QDateTime::currentMSecsSinceEpoch());
            if (!written) // it stays pending: the next restart tries again
                qCWarning(lcHub) << "could not record the verdict of" << p.submissionId << ":" << written.error();
            continue;
        }
        enqueue(runtime, std::move(*again.batch));
        ++queued;
    }
    if (queued > 0 || unreadable > 0)
        qCInfo(lcHub) << "trainer for" << taskId << ": verifying again" << queued << "batches accepted before a restart"
                      << (unreadable > 0 ? QStringLiteral("(%1 could not be read back)").arg(unreadable) : QString());
}

void RlCoordinator::pruneHistory()
{
    const int deleted = m_ledger.pruneOlderThan(QDateTime::currentMSecsSinceEpoch() - m_config.retentionMs);
    if (deleted > 0)
        qCInfo(lcHub) << "retention: deleted" << deleted << "rows of expired work and rejected submissions older than"
                      << m_config.retentionMs / (3600 * 1000) << "hours";
}

std::optional<ApiResponse> RlCoordinator::overQuota(KeyedRateLimit &limit, const QString &nodeId, const char *what)
{
    qint64 retryMs = 0;
    if (limit.take(nodeId.toUtf8(), QDateTime::currentMSecsSinceEpoch(), &retryMs))
        return std::nullopt;
    const qint64 seconds = std::max<qint64>(1, (retryMs + 999) / 1000);
    ApiResponse r = ApiResponse::error(
        429, QStringLiteral("rate_limited"),
        QStringLiteral("too many %1 from this node; try again in %2 s").arg(QLatin1String(what)).arg(seconds));
    r.headers.append({"Retry-After", QByteArray::number(seconds)});
    return r;
}

RlCoordinator::~RlCoordinator()
{
    // A trainer looks at its cancel flag at every optimiser step, seconds of CPU for the hub's models: the bound
    // (new: the wait had none) is the audit thread's for the same kind of work (DilocoAuditor). All are asked
    // first and share one deadline, so many tasks take no longer than one.
    constexpr std::chrono::seconds kStopBound{30};
    for (TaskRuntime *t : std::as_const(m_tasks)) {
        t->trainer->cancel();
        t->thread.requestStop();
    }
    const QDeadlineTimer deadline(kStopBound);
    for (TaskRuntime *t : std::as_const(m_tasks)) {
        t->thread.stop(std::chrono::milliseconds(deadline.remainingTime()));
        delete t;
    }
}

void RlCoordinator::nodeWantsTask(const QString &taskId)
{
    if (m_config.trainersOnDemand)
        ensureTrainer(taskId);
}

void RlCoordinator::ensureTrainer(const QString &taskId)
{
    if (m_tasks.contains(taskId))
        return;
    const TaskInfo *task = m_catalogue.find(taskId);
    if (!task || !task->rl)
        return;
    auto *runtime = new TaskRuntime;
    m_tasks.insert(taskId, runtime);
    runtime->trainer = new RlTrainer(taskId, *task->rl, QDir(m_config.stateDir).filePath(taskId));
    runtime->thread.host(runtime->trainer);
    connect(runtime->trainer, &RlTrainer::versionReady, this, &RlCoordinator::onVersionReady);
    connect(runtime->trainer, &RlTrainer::verdict, this, &RlCoordinator::onVerdict);
    connect(runtime->trainer, &RlTrainer::stepDone, this,
            [runtime](const QString &, int step, double loss, double, int) {
                runtime->steps = step;
                runtime->lastLoss = loss;
            });
    connect(runtime->trainer, &RlTrainer::evaluated, this,
            [this](const QString &id, int version, const QString &mode, int problems, double reward, double correctness,
                   double format) {
                m_ledger.recordEvaluation(id, Ledger::Evaluation{version, mode, problems, reward, correctness, format},
                                          QDateTime::currentMSecsSinceEpoch());
            });
    connect(runtime->trainer, &RlTrainer::failed, this, [runtime](const QString &id, const QString &error) {
        runtime->error = error;
        qCWarning(lcHub) << "trainer" << id << "failed:" << error;
    });
    runtime->thread.startEventLoop(QThread::LowPriority);
    const int latest = latestVersion(taskId);
    QMetaObject::invokeMethod(
        runtime->trainer, [trainer = runtime->trainer, latest] { trainer->bootstrap(latest); }, Qt::QueuedConnection);
    qCInfo(lcHub) << "trainer for" << taskId << "starting (latest published version" << latest << ")";
}

int RlCoordinator::latestVersion(const QString &taskId) const
{
    const QList<int> versions = m_publisher.versions(taskId);
    return versions.isEmpty() ? 0 : versions.last();
}

void RlCoordinator::onVersionReady(const QString &taskId, const QString &path, int resumedVersion,
                                   const QString &summary)
{
    TaskRuntime *runtime = m_tasks.value(taskId);
    if (!runtime)
        return;
    int version = resumedVersion;
    if (version == 0) {
        auto published = m_publisher.publish(taskId, path);
        if (!published) {
            runtime->error = published.error();
            qCWarning(lcHub) << "cannot publish the trainer's new version of" << taskId << ":" << published.error();
            return;
        }
        version = published->manifest.version;
        qCInfo(lcHub) << "published" << taskId << "version" << version << "(" << summary << ")";
        runtime->trainer->notifyPublished(path, version);
    }
    runtime->ready = true;
    if (!runtime->resumed)
        resumePending(taskId, *runtime);
    Q_EMIT versionPublished(taskId, version);
}

std::optional<ApiResponse> RlCoordinator::verificationBusy(const TaskRuntime &runtime, const QString &nodeId) const
{
    const int mine = runtime.inFlight.value(nodeId);
    const bool full =
        mine > 0 ? runtime.queued >= m_config.maxQueuedBatches : runtime.queued >= 2 * m_config.maxQueuedBatches;
    if (mine < m_config.maxInFlightPerNode && !full)
        return std::nullopt;
    ApiResponse r = ApiResponse::error(
        503, QStringLiteral("busy"),
        mine >= m_config.maxInFlightPerNode
            ? QStringLiteral("%1 of this node's batches await verification; try again after their verdicts").arg(mine)
            : QStringLiteral("the trainer has %1 batches to verify; try again shortly").arg(runtime.queued));
    r.headers.append(qMakePair(QByteArray("Retry-After"), QByteArray("1")));
    return r;
}

void RlCoordinator::dispatch(TaskRuntime &runtime)
{
    if (!runtime.atTrainer.isEmpty() || runtime.turns.isEmpty() || !runtime.trainer || m_holdVerification)
        return;
    const QString nodeId = runtime.turns.takeFirst();
    std::deque<ValidatedBatch> &mine = runtime.waiting[nodeId];
    ValidatedBatch batch = std::move(mine.front());
    mine.pop_front();
    if (mine.empty())
        runtime.waiting.remove(nodeId);
    else
        runtime.turns.append(nodeId); // back of the line: every other node with a batch goes first
    runtime.atTrainer = batch.submissionId;
    runtime.atTrainerNode = nodeId;
    QMetaObject::invokeMethod(
        runtime.trainer, [trainer = runtime.trainer, batch = std::move(batch)] { trainer->submit(batch); },
        Qt::QueuedConnection);
}

void RlCoordinator::onVerdict(const QString &submissionId, bool confirmed, const QString &reason,
                              const VerificationStats &stats)
{
    QString taskId;
    for (auto it = m_tasks.cbegin(); it != m_tasks.cend(); ++it)
        if (it.value()->trainer == sender()) {
            TaskRuntime &runtime = *it.value();
            taskId = it.key();
            if (runtime.atTrainer == submissionId) {
                if (int &n = runtime.inFlight[runtime.atTrainerNode]; --n <= 0)
                    runtime.inFlight.remove(runtime.atTrainerNode);
                runtime.queued = std::max(0, runtime.queued - 1);
                runtime.atTrainer.clear();
                runtime.atTrainerNode.clear();
            }
            dispatch(runtime);
        }
    const TaskInfo *task = m_catalogue.find(taskId);
    const int flagAfter = task && task->rl ? task->rl->toplocPolicy.flagAfterFailures : 3;
    auto outcome =
        m_ledger.setVerdict(submissionId, confirmed, reason, stats, flagAfter, QDateTime::currentMSecsSinceEpoch());
    if (!taskId.isEmpty())
        ++(confirmed ? m_counts[taskId].verificationsConfirmed : m_counts[taskId].verificationsRefused);
    if (!outcome)
        qCWarning(lcHub) << "verdict for" << submissionId << "not stored:" << outcome.error();
    qCInfo(lcHub).nospace() << "submission " << submissionId << (confirmed ? " confirmed" : " refused") << " ("
                            << reason << ", log p + entropy " << stats.meanLogProb << " nats/token)";
    if (outcome && outcome->updated && stats.failedVerification) {
        const auto record = m_ledger.submission(submissionId);
        qCWarning(lcHub).nospace() << "node " << (record ? record->nodeId : QString()) << " failed verification for "
                                   << taskId << " (" << outcome->verificationFailures << " so far"
                                   << (outcome->flagged ? QStringLiteral("; flagged: no more work") : QString()) << ")";
    }
}

QHash<QString, RlCoordinator::TaskMetrics> RlCoordinator::metrics() const
{
    QHash<QString, TaskMetrics> all = m_counts;
    for (auto it = m_tasks.cbegin(); it != m_tasks.cend(); ++it) {
        TaskMetrics &m = all[it.key()];
        m.hasTrainer = true;
        m.trainerReady = it.value()->ready && it.value()->error.isEmpty();
        m.trainerStep = it.value()->steps;
        m.queuedBatches = it.value()->queued;
    }
    return all;
}

void RlCoordinator::registerRoutes(ApiServer &server)
{
    server.addRoute("POST", QStringLiteral("/v1/tasks/{id}/work"), [this](const ApiRequest &r) { return work(r); });
    server.addRoute("POST", QStringLiteral("/v1/tasks/{id}/rollouts"),
                    [this](const ApiRequest &r) { return rollouts(r); });
    server.addRoute("GET", QStringLiteral("/v1/tasks/{id}/progress"),
                    [this](const ApiRequest &r) { return progress(r); });
    server.addRoute("GET", QStringLiteral("/v1/nodes/{id}/earnings"),
                    [this](const ApiRequest &r) { return earnings(r); });
}

std::optional<ApiResponse> RlCoordinator::rlRequest(const ApiRequest &request, const TaskInfo **task,
                                                    std::optional<NodeRecord> *node)
{
    VerifiedRequest signer;
    if (auto refused = m_authenticate(request, &signer))
        return refused;
    const QString taskId = request.params.value(QStringLiteral("id"));
    *task = m_catalogue.find(taskId);
    if (!*task)
        return unknownTask(taskId);
    if (!(*task)->rl)
        return ApiResponse::error(409, QStringLiteral("not_rl"),
                                  QStringLiteral("task %1 is not an RL task").arg(taskId));
    *node = m_store.nodeByKey(signer.publicKey);
    if (!*node)
        return ApiResponse::error(403, QStringLiteral("not_registered"), QStringLiteral("register this node first"));
    return std::nullopt;
}

ApiResponse RlCoordinator::work(const ApiRequest &request)
{
    const TaskInfo *task = nullptr;
    std::optional<NodeRecord> node;
    if (auto refused = rlRequest(request, &task, &node))
        return *refused;
    if (auto refused = overQuota(m_workRequests, node->nodeId, "work requests"))
        return *refused;
    // A client that samples with its own randomness would have every batch refused and be flagged for it: tell it
    // to update instead (older cohortd sends no body here).
    const auto body = parseJsonObject(request.body, 4096);
    if (!body || body->value(QStringLiteral("sampling")).toString() != QLatin1String("seeded"))
        return ApiResponse::error(
            426, QStringLiteral("upgrade_required"),
            QStringLiteral("this hub checks every sampled token against the work item's sampling seed, "
                           "and this client does not sample with it: update Cohort"));
    // Work never contains a held-out problem (rl/WorkSampling.h); a client that draws them would submit other
    // problems than the hub regenerates now and then, and be refused for it.
    if (body->value(QStringLiteral("problems")).toString() != QLatin1String("held-out-v1"))
        return ApiResponse::error(
            426, QStringLiteral("upgrade_required"),
            QStringLiteral("this hub keeps held-out problems out of work, and this client does not "
                           "skip them: update Cohort"));
    const QString taskId = task->id;
    nodeWantsTask(taskId);
    TaskRuntime *runtime = m_tasks.value(taskId);
    if (!runtime) {
        ApiResponse r =
            ApiResponse::error(503, QStringLiteral("no_trainer"),
                               QStringLiteral("this hub trains no policy for %1 now; try again later").arg(taskId));
        r.headers.append(qMakePair(QByteArray("Retry-After"), QByteArray("60")));
        return r;
    }
    const int latest = latestVersion(taskId);
    if (!runtime->error.isEmpty())
        return ApiResponse::error(503, QStringLiteral("trainer_failed"), runtime->error);
    if (!runtime->ready || latest == 0) {
        ApiResponse r =
            ApiResponse::error(503, QStringLiteral("warming_up"),
                               QStringLiteral("the task's first policy is being trained; try again shortly"));
        r.headers.append(qMakePair(QByteArray("Retry-After"), QByteArray("5")));
        return r;
    }
    // Back-pressure, per node: work is handed out no faster than the trainer verifies this node's batches, so a
    // fast node cannot bury the hub in a backlog, and nodes that hoard work do not make the others wait.
    if (auto busy = verificationBusy(*runtime, node->nodeId))
        return *busy;
    if (const Ledger::NodeFlag flag = m_ledger.nodeFlag(node->nodeId, taskId); flag.flaggedAtMs > 0)
        return ApiResponse::error(
            403, QStringLiteral("node_flagged"),
            QStringLiteral("this node's work failed verification %1 times for %2, and it gets no more work "
                           "until the hub's operator clears it (last: %3)")
                .arg(flag.verificationFailures)
                .arg(taskId, flag.reason));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_ledger.expireOpenWork(node->nodeId, taskId, m_config.maxOpenWorkPerNode - 1);
    m_ledger.trimNodeHistory(node->nodeId, m_config.keepExpiredWorkPerNode, m_config.keepRejectedPerNode);
    auto item = m_ledger.issueWork(node->nodeId, taskId, latest, now);
    if (!item)
        return ApiResponse::error(500, QStringLiteral("storage"), item.error());
    const RlTaskConfig &cfg = *task->rl;
    return ApiResponse::json({{QStringLiteral("work_id"), item->workId},
                              {QStringLiteral("task"), taskId},
                              {QStringLiteral("step"), latest},
                              {QStringLiteral("min_version"), std::max(1, latest - cfg.asyncLevel)},
                              {QStringLiteral("batch"), item->batch},
                              {QStringLiteral("seed"), QString::number(item->seed)},
                              // Verifiable sampling: the node samples with this stream and the hub checks each token.
                              {QStringLiteral("sampling_seed"), QString::number(rl::samplingSeedForWork(item->seed))},
                              {QStringLiteral("rl"), cfg.toJson()}});
}

ApiResponse RlCoordinator::rollouts(const ApiRequest &request)
{
    const TaskInfo *task = nullptr;
    std::optional<NodeRecord> node;
    if (auto refused = rlRequest(request, &task, &node))
        return *refused;
    if (auto refused = overQuota(m_submissions, node->nodeId, "submissions"))
        return *refused;
    // A node whose submissions keep failing the intake checks pays for none of them; past a burst it waits.
    if (qint64 retryMs = 0;
        !m_rejections.wouldTake(node->nodeId.toUtf8(), QDateTime::currentMSecsSinceEpoch(), &retryMs)) {
        const qint64 seconds = std::max<qint64>(1, (retryMs + 999) / 1000);
        ApiResponse r = ApiResponse::error(
            429, QStringLiteral("rate_limited"),
            QStringLiteral("too many rejected submissions from this node; try again in %1 s").arg(seconds));
        r.headers.append({"Retry-After", QByteArray::number(seconds)});
        return r;
    }
    const QString taskId = task->id;
    auto body = parseJsonObject(request.body, 8 << 20);
    if (!body)
        return ApiResponse::error(400, QStringLiteral("bad_request"), body.error());
    const QString submissionId = submissionIdOf(*body);
    if (submissionId.isEmpty())
        return ApiResponse::error(400, QStringLiteral("bad_request"),
                                  QStringLiteral("field 'submission_id': expected \"s-\" and 32 hex digits"));
    // A retry (the node crashed or lost the connection before our answer): same answer, credited once.
    if (const auto seen = m_ledger.submission(submissionId)) {
        if (seen->nodeId != node->nodeId)
            return ApiResponse::error(409, QStringLiteral("submission_id_taken"),
                                      QStringLiteral("this submission id is already used"));
        qCInfo(lcHub) << "submission" << submissionId << "from" << node->nodeId << "is a retry; answering as before";
        ApiResponse again = replayResponse(seen->response);
        again.delayMs = m_config.ackDelayMs;
        return again;
    }
    // A node with its share of batches awaiting verification waits (the batch stays with it, nothing is used up).
    if (TaskRuntime *runtime = m_tasks.value(taskId))
        if (auto busy = verificationBusy(*runtime, node->nodeId))
            return *busy;
    const QString workId = body->value(QStringLiteral("work_id")).toString();
    IntakeResult result = checkSubmission(*body, node->nodeId, *task, m_ledger.work(workId), latestVersion(taskId));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    SubmissionRecord record;
    record.submissionId = submissionId;
    record.nodeId = node->nodeId;
    record.taskId = taskId;
    record.createdAtMs = now;
    ApiResponse response;
    if (!result.batch) {
        // Rejected: recorded with its reason (a retry gets the same answer), nothing credited. The work item is
        // consumed only if it was really this node's, so a stranger cannot burn someone else's work.
        const auto item = m_ledger.work(workId);
        record.workId =
            item && item->nodeId == node->nodeId && item->status == QLatin1String("open") ? workId : QString();
        record.version = int(body->value(QStringLiteral("version")).toInt());
        record.status = QStringLiteral("rejected");
        record.reason = result.code + QStringLiteral(": ") + result.message;
        response = ApiResponse::error(422, result.code, result.message);
        response.body.insert(QStringLiteral("status"), QStringLiteral("rejected"));
        response.body.insert(QStringLiteral("submission_id"), submissionId);
        qCInfo(lcHub) << "submission" << submissionId << "from" << node->nodeId << "rejected:" << result.code
                      << result.message;
        m_rejections.take(node->nodeId.toUtf8(), now);
        m_ledger.trimNodeHistory(node->nodeId, m_config.keepExpiredWorkPerNode, m_config.keepRejectedPerNode);
    } else {
        const ValidatedBatch &batch = *result.batch;
        record.workId = batch.workId;
        record.version = batch.version;
        record.status = QStringLiteral("accepted");
        record.tokens = batch.tokens;
        record.meanReward = batch.meanReward;
        record.credit = double(batch.creditedTokens) * task->rewardRate / 1000.0;
        record.pendingBody = request.body; // until the verdict: a restarted hub verifies it again
        response = ApiResponse::json({{QStringLiteral("status"), QStringLiteral("accepted")},
                                      {QStringLiteral("submission_id"), submissionId},
                                      {QStringLiteral("tokens"), batch.tokens},
                                      // docs/CREDIT.md: distinct completions in groups with a learning signal
                                      {QStringLiteral("credited_tokens"), batch.creditedTokens},
                                      {QStringLiteral("groups_with_signal"), batch.signalGroups},
                                      {QStringLiteral("duplicate_samples"), batch.duplicateSamples},
                                      {QStringLiteral("mean_reward"), batch.meanReward},
                                      {QStringLiteral("pending_credit"), record.credit},
                                      {QStringLiteral("unit"), QStringLiteral("credits")},
                                      {QStringLiteral("version"), batch.version}});
    }
    record.response = storeResponse(response);
    if (Status stored = m_ledger.recordSubmission(record); !stored)
        return ApiResponse::error(500, QStringLiteral("storage"), stored.error());
    ++(result.batch ? m_counts[taskId].submissionsAccepted : m_counts[taskId].submissionsRefused);
    if (result.batch) {
        qCInfo(lcHub).nospace() << "submission " << submissionId << " from " << node->nodeId
                                << " accepted: " << result.batch->tokens << " tokens, mean reward "
                                << result.batch->meanReward << ", version " << result.batch->version;
        if (TaskRuntime *runtime = m_tasks.value(taskId))
            enqueue(*runtime, std::move(*result.batch));
    }
    response.delayMs = m_config.ackDelayMs;
    return response;
}

ApiResponse RlCoordinator::earnings(const ApiRequest &request)
{
    VerifiedRequest signer;
    if (auto refused = m_authenticate(request, &signer))
        return *refused;
    const QString nodeId = request.params.value(QStringLiteral("id"));
    const auto node = m_store.nodeByKey(signer.publicKey);
    if (!node)
        return ApiResponse::error(403, QStringLiteral("not_registered"), QStringLiteral("register this node first"));
    if (node->nodeId != nodeId)
        return ApiResponse::error(403, QStringLiteral("not_yours"),
                                  QStringLiteral("a node may only read its own earnings"));
    QJsonObject report = m_ledger.earnings(nodeId, QDateTime::currentMSecsSinceEpoch()).toJson();
    // Where the hub will pay these earnings, as the node last sent it: the node's own, signed view, so the person can
    // check it (the public node list never shows it).
    report.insert(QStringLiteral("payout_address"), node->payoutAddress);
    return ApiResponse::json(report);
}

QJsonObject RlCoordinator::contributionOf(const QString &taskId, const QString &nodeId)
{
    const TaskInfo *task = m_catalogue.find(taskId);
    if (!task || !task->rl)
        return {};
    Contributions &c = m_contributions[taskId];
    if (!c.counted.isValid() || c.counted.hasExpired(30'000)) {
        c.accepted = m_ledger.acceptedByNode(taskId);
        c.descending.clear();
        c.total = 0;
        for (const qint64 n : std::as_const(c.accepted)) {
            c.total += n;
            c.descending.push_back(n);
        }
        std::sort(c.descending.begin(), c.descending.end(), std::greater<>());
        c.counted.start();
    }
    // Every heartbeat asks: a binary search (how many have more), not a pass over every contributor.
    const qint64 mine = c.accepted.value(nodeId);
    const auto ahead =
        std::lower_bound(c.descending.begin(), c.descending.end(), mine, std::greater<>()) - c.descending.begin();
    return QJsonObject{{QStringLiteral("task"), taskId},
                       {QStringLiteral("accepted_batches"), mine},
                       {QStringLiteral("share"), c.total > 0 ? double(mine) / double(c.total) : 0.0},
                       {QStringLiteral("rank"), mine > 0 ? int(ahead) + 1 : 0},
                       {QStringLiteral("contributors"), int(c.accepted.size())}};
}

ApiResponse RlCoordinator::progress(const ApiRequest &request)
{
    const QString taskId = request.params.value(QStringLiteral("id"));
    const TaskInfo *task = m_catalogue.find(taskId);
    if (!task)
        return unknownTask(taskId);
    CachedProgress &cached = m_progressCache[task->id];
    const Ledger::ChangeStamp stamp = m_ledger.changeStamp();
    if (!cached.valid || !(cached.ledger == stamp) || stamp.dataVersion < 0) {
        cached.reply = computeProgress(*task);
        cached.ledger = stamp;
        cached.valid = true;
    }
    // The trainer's state lives in memory and changes without a ledger write: always as it is now.
    QJsonObject reply = cached.reply;
    const TaskRuntime *runtime = m_tasks.value(taskId);
    QString state = QStringLiteral("idle");
    if (runtime)
        state = !runtime->error.isEmpty() ? QStringLiteral("failed")
                : runtime->ready          ? QStringLiteral("training")
                                          : QStringLiteral("warming_up");
    reply.insert(QStringLiteral("version"), latestVersion(taskId));
    reply.insert(QStringLiteral("trainer"), state);
    reply.insert(QStringLiteral("trainer_error"), runtime ? runtime->error : QString());
    reply.insert(QStringLiteral("steps"), runtime ? runtime->steps : 0);
    reply.insert(QStringLiteral("last_loss"), runtime ? runtime->lastLoss : 0.0);
    if (m_progressExtension) {
        const QJsonObject extra = m_progressExtension(taskId);
        for (auto it = extra.begin(); it != extra.end(); ++it)
            reply.insert(it.key(), it.value());
    }
    return ApiResponse::json(reply);
}

QJsonObject RlCoordinator::computeProgress(const TaskInfo &taskInfo)
{
    ++m_progressComputations;
    const QString taskId = taskInfo.id;
    const TaskInfo *task = &taskInfo;
    QJsonArray curve;
    for (const Ledger::VersionReward &v : m_ledger.meanRewardByVersion(taskId))
        curve.append(QJsonObject{{QStringLiteral("version"), v.version},
                                 {QStringLiteral("mean_reward"), v.meanReward},
                                 {QStringLiteral("batches"), v.batches}});
    // The held-out curve (rl/WorkSampling.h: problems no work item contains), one entry per evaluated version.
    // Only versions scored both ways; at most kHeldOutCurvePoints of them, evenly spread, the first and the newest
    // always (a long-running task has tens of thousands).
    QList<QJsonObject> points;
    QJsonObject point;
    const auto keep = [&] {
        if (point.contains(QStringLiteral("greedy")) && point.contains(QStringLiteral("sampled")))
            points.append(point);
        point = {};
    };
    for (const Ledger::Evaluation &e : m_ledger.evaluations(taskId)) {
        if (!point.isEmpty() && point.value(QStringLiteral("version")).toInt() != e.version)
            keep();
        point.insert(QStringLiteral("version"), e.version);
        point.insert(e.mode, QJsonObject{{QStringLiteral("reward"), e.reward},
                                         {QStringLiteral("correctness"), e.correctness},
                                         {QStringLiteral("format"), e.format}});
    }
    keep();
    constexpr qsizetype kHeldOutCurvePoints = 512;
    QJsonArray heldOutCurve;
    if (points.size() <= kHeldOutCurvePoints) {
        for (const QJsonObject &p : points)
            heldOutCurve.append(p);
    } else {
        for (qsizetype i = 0; i < kHeldOutCurvePoints; ++i)
            heldOutCurve.append(points[i * (points.size() - 1) / (kHeldOutCurvePoints - 1)]);
    }
    const std::vector<std::string> environments = task->rl ? task->rl->environmentIds() : std::vector<std::string>{};
    const QJsonObject heldOut{
        {QStringLiteral("problems"), int(rl::heldOutProblems(environments).size())},
        {QStringLiteral("seed"), QString::number(rl::heldOutSeed(environments))},
        {QStringLiteral("better"),
         QStringLiteral("A higher share of %1 problems no contributor ever trained on answered correctly with the "
                        "model's most likely answer (greedy correctness); format is counted apart.")
             .arg(rl::heldOutProblems(environments).size())},
        {QStringLiteral("curve"), heldOutCurve}};
    QJsonObject reply{{QStringLiteral("task"), taskId},
                      {QStringLiteral("accepted_batches"), m_ledger.acceptedCount(taskId)},
                      {QStringLiteral("flagged_nodes"), m_ledger.flaggedNodeCount(taskId)},
                      {QStringLiteral("curve"), curve}};
    if (task->rl) // a DiLoCo task has no held-out problems (its held-out loss is not measured yet)
        reply.insert(QStringLiteral("held_out"), heldOut);
    return reply;
}

} // namespace cohort
