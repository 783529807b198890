#include "hub/DilocoCoordinator.h"

#include "collectives/Master.h"
#include "core/JsonReader.h"
#include "diloco/DilocoReplay.h"
#include "hub/HubStore.h"
#include "hub/Ledger.h"
#include "hub/TaskCatalogue.h"
#include "net/ApiServer.h"
#include "net/Identity.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QRandomGenerator>

#include <algorithm>
#include <climits>

Q_LOGGING_CATEGORY(lcHubDiloco, "cohort.hub.diloco")

namespace cohort {

QJsonObject DilocoTaskStats::toJson() const
{
    return QJsonObject{{QStringLiteral("master_port"), int(masterPort)},
                       {QStringLiteral("ring_size"), ringSize},
                       {QStringLiteral("outer_steps"), outerSteps},
                       {QStringLiteral("last_outer_step"), qint64(lastTag)},
                       {QStringLiteral("last_world_size"), lastWorldSize},
                       {QStringLiteral("credited_steps"), creditedSteps},
                       {QStringLiteral("uncredited_steps"), uncreditedSteps},
                       {QStringLiteral("refused_peers"), refusedPeers},
                       {QStringLiteral("aborted_operations"), abortedOperations},
                       {QStringLiteral("excluded_peers"), excludedPeers},
                       {QStringLiteral("recorded_revision"), qint64(recordedRevision)},
                       {QStringLiteral("recorded_state_digest"), QString::fromLatin1(recordedDigest.toHex())},
                       {QStringLiteral("last_exclusion"), lastExclusion},
                       {QStringLiteral("state_splits"), stateSplits},
                       {QStringLiteral("last_split"), lastSplit},
                       {QStringLiteral("commitments"), commitments},
                       {QStringLiteral("audits"), QJsonObject{{QStringLiteral("requested"), auditsRequested},
                                                              {QStringLiteral("passed"), auditsPassed},
                                                              {QStringLiteral("failed"), auditsFailed},
                                                              {QStringLiteral("missed"), auditsMissed},
                                                              {QStringLiteral("inconclusive"), auditsInconclusive},
                                                              {QStringLiteral("replay_seconds"), auditSeconds},
                                                              {QStringLiteral("worst_passed_error"), worstPassedError},
                                                              {QStringLiteral("last"), lastAudit}}},
                       {QStringLiteral("credits"), QJsonObject{{QStringLiteral("confirmed"), confirmedCredits},
                                                               {QStringLiteral("refused"), refusedCredits},
                                                               {QStringLiteral("forfeited"), forfeitedCredits}}},
                       {QStringLiteral("held_out"),
                        heldOutLoss < 0 ? QJsonValue(QJsonValue::Null)
                                        : QJsonValue(QJsonObject{{QStringLiteral("revision"), qint64(heldOutRevision)},
                                                                 {QStringLiteral("loss"), heldOutLoss}})}};
}

DilocoCoordinator::DilocoCoordinator(HubStore &store, TaskCatalogue &catalogue, const ListenerLimits &limits,
                                     QObject *parent)
    : QObject(parent),
      m_store(store),
      m_catalogue(catalogue),
      m_limits(limits),
      m_evidence(store.connectionName())
{
    m_auditor = new DilocoAuditor(this);
    connect(m_auditor, &DilocoAuditor::finished, this, &DilocoCoordinator::onAudited);
    m_auditClock.setInterval(5'000);
    connect(&m_auditClock, &QTimer::timeout, this, &DilocoCoordinator::expireAudits);
    m_auditClock.start();
}

DilocoCoordinator::~DilocoCoordinator() = default;

Status DilocoCoordinator::start(const QHostAddress &address, quint16 firstPort)
{
    quint16 nextPort = firstPort;
    for (const TaskInfo &task : m_catalogue.tasks()) {
        if (task.kind != QLatin1String("diloco") || !task.diloco)
            continue;
        const QString taskId = task.id;
        collectives::MasterOptions options;
        options.maxConnections = m_limits.maxConnections;
        options.maxConnectionsPerSource = m_limits.maxPerSource;
        options.handshakeTimeoutMs = m_limits.headerTimeoutMs;
        options.signRecord = m_signer;
        // Nodes wait 120 s for the slowest peer's inner steps (EngineDiloco.cpp): the master's deadline is below it,
        // so a member that never begins is excluded before the others give up on the operation.
        options.beginTimeoutMs = 100'000;
        options.recordContext = taskId.toUtf8();
        // A restarted hub continues from the record it kept: the members that held it vote, not a headcount.
        options.initialRecord = m_evidence.latestRecord(taskId);
        if (options.initialRecord) {
            DilocoTaskStats &restored = m_stats[taskId];
            restored.recordedRevision = options.initialRecord->revision;
            restored.recordedDigest = options.initialRecord->stateDigest;
            restored.lastTag = options.initialRecord->revision; // the ring's step, for the commitments' window
            qCInfo(lcHubDiloco) << "DiLoCo master for" << taskId << "continues from recorded revision"
                                << options.initialRecord->revision << "held by" << options.initialRecord->holders.size()
                                << "node(s)";
        }
        // Admission: a key that proved itself in the challenge must belong to a node registered here that has
        // joined this task (its last heartbeat says so). Anyone else is refused before joining any ring.
        options.admit = [this, taskId](const QByteArray &publicKey) {
            const std::optional<NodeRecord> node = m_store.nodeByKey(publicKey);
            return node && node->joinedTask == taskId && !flagged(node->nodeId, taskId);
        };
        // Newcomers take the state of the voters that did the most audited work, not of the most identities.
        options.auditedWork = [this, taskId](const QByteArray &publicKey) {
            return double(m_evidence.confirmedSteps(taskId, Identity::nodeIdFor(publicKey)));
        };
        auto master = std::make_unique<collectives::Master>(options);
        const quint16 port = firstPort == 0 ? 0 : nextPort++;
        if (Status s = master->listen(address, port); !s)
            return fail(QStringLiteral("DiLoCo master for %1: %2").arg(taskId, s.error()));
        DilocoTaskStats &stats = m_stats[taskId];
        stats.masterPort = master->port();
        m_catalogue.setDilocoMasterPort(taskId, master->port());
        collectives::Master *m = master.get();
        connect(m, &collectives::Master::topologyCommitted, this,
                [this, taskId](quint64, int size) { m_stats[taskId].ringSize = size; });
        connect(m, &collectives::Master::peerLeft, this,
                [this, taskId, m](quint32) { m_stats[taskId].ringSize = m->ringSize(); });
        connect(m, &collectives::Master::peerRefused, this, [this, taskId](const QString &reason) {
            ++m_stats[taskId].refusedPeers;
            qCInfo(lcHubDiloco) << "refused a peer for" << taskId << ":" << reason;
        });
        connect(m, &collectives::Master::peerExcluded, this,
                [this, taskId](quint32, const QByteArray &publicKey, const QString &reason) {
                    const std::optional<NodeRecord> node = m_store.nodeByKey(publicKey);
                    DilocoTaskStats &stats = m_stats[taskId];
                    ++stats.excludedPeers;
                    stats.lastExclusion =
                        QStringLiteral("node %1: %2").arg(node ? node->nodeId : QStringLiteral("?"), reason);
                    qCWarning(lcHubDiloco) << "excluded from" << taskId << ":" << stats.lastExclusion;
                });
        connect(m, &collectives::Master::stateRecorded, this,
                [this, taskId](quint64 revision, const QByteArray &digest, const QList<QByteArray> &holders) {
                    m_stats[taskId].recordedRevision = revision;
                    m_stats[taskId].recordedDigest = digest;
                    // What an audit of step revision + 1 must have started from, and where a restarted hub goes on.
                    if (Status s = m_evidence.recordRevision(taskId, revision, digest, holders); !s)
                        qCWarning(lcHubDiloco) << s.error();
                });
        connect(m, &collectives::Master::stateSplit, this, [this, taskId](quint64 revision, int elected, int others) {
            DilocoTaskStats &stats = m_stats[taskId];
            ++stats.stateSplits;
            stats.lastSplit = QStringLiteral("revision %1: %2 voter(s) elected, %3 declared another state")
                                  .arg(revision)
                                  .arg(elected)
                                  .arg(others);
        });
        connect(m, &collectives::Master::operationFinished, this,
                [this, taskId](quint64, quint64, bool aborted, const QString &) {
                    if (aborted)
                        ++m_stats[taskId].abortedOperations;
                });
        connect(m, &collectives::Master::operationCompleted, this,
                [this, taskId](quint64 tag, quint64, const QList<QByteArray> &keys) { credit(taskId, tag, keys); });
        qCInfo(lcHubDiloco) << "DiLoCo master for" << taskId << "listening on port" << master->port();
        m_masters[taskId] = std::move(master);
    }
    return {};
}

QJsonObject DilocoCoordinator::progress(const QString &taskId) const
{
    const TaskInfo *task = m_catalogue.find(taskId);
    if (!task || !task->diloco)
        return {};
    if (const auto cached = m_heldOutProgress.find(taskId); cached != m_heldOutProgress.end())
        return cached->second;
    ++m_heldOutReads;
    const QList<DilocoEvidence::HeldOutLoss> all = m_evidence.heldOutLosses(taskId);
    constexpr qsizetype kHeldOutCurvePoints = 512;
    QJsonArray points;
    const qsizetype n = all.size();
    const qsizetype shown = std::min(n, kHeldOutCurvePoints);
    for (qsizetype i = 0; i < shown; ++i) {
        const DilocoEvidence::HeldOutLoss &p = all[shown == n ? i : i * (n - 1) / (kHeldOutCurvePoints - 1)];
        points.append(QJsonObject{{QStringLiteral("revision"), qint64(p.revision)}, {QStringLiteral("loss"), p.loss}});
    }
    const QJsonObject curve{
        {QStringLiteral("sequences"), diloco::kHeldOutSequences},
        {QStringLiteral("better"),
         QStringLiteral("Lower is better: the shared model's loss (nats per byte) on %1 held-out sentences "
                        "no node trains on, measured by the hub on the state it recorded")
             .arg(diloco::kHeldOutSequences)},
        {QStringLiteral("points"), points}};
    return m_heldOutProgress[taskId] = QJsonObject{{QStringLiteral("held_out_loss"), curve}};
}

const DilocoTaskStats *DilocoCoordinator::stats(const QString &taskId) const
{
    const auto it = m_stats.find(taskId);
    return it == m_stats.end() ? nullptr : &it->second;
}

void DilocoCoordinator::credit(const QString &taskId, quint64 tag, const QList<QByteArray> &publicKeys)
{
    const TaskInfo *task = m_catalogue.find(taskId);
    if (!task || !task->diloco)
        return;
    DilocoTaskStats &stats = m_stats[taskId];
    ++stats.outerSteps;
    stats.lastTag = tag;
    stats.lastWorldSize = int(publicKeys.size());
    if (publicKeys.size() < task->diloco->minRingSize) {
        ++stats.uncreditedSteps;
        return;
    }
    const double amount = task->rewardRate * task->diloco->innerSteps;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    Ledger ledger(m_store.connectionName());
    for (const QByteArray &key : publicKeys) {
        const QString nodeId = Identity::nodeIdFor(key);
        SubmissionRecord record;
        // One credit per node and outer step: a retried all-reduce of the same step (after a peer left) or a
        // restarted hub seeing the step again cannot pay twice (the id is the primary key).
        record.submissionId = QStringLiteral("diloco:%1:%2:%3").arg(taskId).arg(tag).arg(nodeId);
        if (ledger.submission(record.submissionId))
            continue;
        record.nodeId = nodeId;
        record.taskId = taskId;
        record.version = int(std::min<quint64>(tag, quint64(INT_MAX)));
        record.status = QStringLiteral("accepted"); // pending until the evidence says so (docs/CREDIT.md)
        record.reason = QStringLiteral("outer step %1 averaged with %2 peers").arg(tag).arg(publicKeys.size());
        record.credit = amount;
        record.createdAtMs = now;
        record.response =
            QJsonDocument(QJsonObject{{QStringLiteral("outer_step"), qint64(tag)}}).toJson(QJsonDocument::Compact);
        if (Status s = ledger.recordSubmission(record); !s) {
            qCWarning(lcHubDiloco) << "cannot credit" << nodeId << "for outer step" << tag << ":" << s.error();
            continue;
        }
        ++stats.creditedSteps;
    }
    // The rule's clock is the outer step: commitments are due within two steps, credits ripen after confirmAfterSteps.
    if (tag > 2)
        stats.refusedCredits += m_evidence.refuseUncommitted(taskId, tag - 2, now);
    stats.confirmedCredits += m_evidence.confirmAudited(taskId, tag, task->diloco->confirmAfterSteps, now);
}

bool DilocoCoordinator::flagged(const QString &nodeId, const QString &taskId) const
{
    return Ledger(m_store.connectionName()).nodeFlag(nodeId, taskId).flaggedAtMs > 0;
}

void DilocoCoordinator::registerRoutes(ApiServer &server, Authenticate authenticate)
{
    m_authenticate = std::move(authenticate);
    server.addRoute("POST", QStringLiteral("/v1/tasks/{id}/diloco/commitments"),
                    [this](const ApiRequest &r) { return commit(r); });
    server.addRoute("POST", QStringLiteral("/v1/tasks/{id}/diloco/audits/{step}"),
                    [this](const ApiRequest &r) { return upload(r); });
}

ApiResponse DilocoCoordinator::commit(const ApiRequest &request)
{
    VerifiedRequest signer;
    if (auto refused = m_authenticate(request, &signer))
        return *refused;
    const QString taskId = request.params.value(QStringLiteral("id"));
    const TaskInfo *task = m_catalogue.find(taskId);
    if (!task || !task->diloco)
        return ApiResponse::error(404, QStringLiteral("unknown_task"),
                                  QStringLiteral("no DiLoCo task with id '%1'").arg(taskId));
    const std::optional<NodeRecord> node = m_store.nodeByKey(signer.publicKey);
    if (!node)
        return ApiResponse::error(403, QStringLiteral("not_registered"), QStringLiteral("register this node first"));
    if (node->joinedTask != taskId)
        return ApiResponse::error(409, QStringLiteral("not_joined"),
                                  QStringLiteral("this node has not joined %1").arg(taskId));
    if (flagged(node->nodeId, taskId))
        return ApiResponse::error(
            403, QStringLiteral("node_flagged"),
            QStringLiteral("this node failed an audit of %1; only the hub's operator can lift the flag").arg(taskId));
    auto json = parseJsonObject(request.body, 4096);
    if (!json)
        return ApiResponse::error(400, QStringLiteral("bad_request"), json.error());
    auto commitment = diloco::Commitment::fromJson(*json);
    if (!commitment)
        return ApiResponse::error(400, QStringLiteral("bad_request"), commitment.error());
    // Only the steps of now: a node commits right after its all-reduce (the master may not have seen the last
    // participant finish yet), and an old or future step is no evidence of anything.
    DilocoTaskStats &stats = m_stats[taskId];
    if (commitment->step + 16 < stats.lastTag || commitment->step > stats.lastTag + 2)
        return ApiResponse::error(
            409, QStringLiteral("wrong_step"),
            QStringLiteral("outer step %1 is not one the ring is at (%2)").arg(commitment->step).arg(stats.lastTag));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const bool firstAudit = !m_evidence.everAudited(taskId, node->nodeId);
    auto kind = m_evidence.commit(taskId, node->nodeId, *commitment, now);
    if (!kind)
        return ApiResponse::error(500, QStringLiteral("internal"), kind.error());
    if (*kind == DilocoEvidence::CommitKind::Conflict)
        return ApiResponse::error(
            409, QStringLiteral("conflicting_commitment"),
            QStringLiteral("this node already committed another pseudo-gradient for outer step %1")
                .arg(commitment->step));
    const auto key = std::make_tuple(taskId, node->nodeId, quint64(commitment->step));
    bool audit = m_audits.count(key) > 0;
    if (*kind == DilocoEvidence::CommitKind::New) {
        ++stats.commitments;
        // A node's first commitment is always audited (a new identity earns nothing before one replay passed); after
        // that a share of them, drawn here after the commitment is fixed, so the node cannot know which in advance.
        const bool drawn = firstAudit || QRandomGenerator::global()->generateDouble() < task->diloco->auditRate;
        const bool oneAlready = std::any_of(m_audits.cbegin(), m_audits.cend(), [&](const auto &entry) {
            return entry.second.taskId == taskId && entry.second.nodeId == node->nodeId;
        });
        if (drawn && !oneAlready && int(m_audits.size()) < kMaxAuditsInFlight) {
            PendingAudit pending;
            pending.taskId = taskId;
            pending.nodeId = node->nodeId;
            pending.publicKey = signer.publicKey;
            pending.step = commitment->step;
            pending.deadline = QDeadlineTimer(kAuditDeadlineMs);
            m_audits[key] = std::move(pending);
            if (Status s = m_evidence.setAudit(taskId, node->nodeId, commitment->step, QStringLiteral("requested"), {});
                !s)
                qCWarning(lcHubDiloco) << s.error();
            ++stats.auditsRequested;
            audit = true;
        }
    }
    QJsonObject answer{{QStringLiteral("step"), qint64(commitment->step)}, {QStringLiteral("audit"), audit}};
    if (audit) {
        answer.insert(QStringLiteral("part_bytes"), kAuditPartBytes);
        answer.insert(QStringLiteral("deadline_s"), kAuditDeadlineMs / 1000);
    }
    return ApiResponse::json(answer);
}

ApiResponse DilocoCoordinator::upload(const ApiRequest &request)
{
    VerifiedRequest signer;
    if (auto refused = m_authenticate(request, &signer))
        return *refused;
    const QString taskId = request.params.value(QStringLiteral("id"));
    bool stepOk = false, offsetOk = false;
    const quint64 step = request.params.value(QStringLiteral("step")).toULongLong(&stepOk);
    const qint64 offset = request.query.queryItemValue(QStringLiteral("offset")).toLongLong(&offsetOk);
    const std::optional<NodeRecord> node = m_store.nodeByKey(signer.publicKey);
    if (!node)
        return ApiResponse::error(403, QStringLiteral("not_registered"), QStringLiteral("register this node first"));
    if (!stepOk || !offsetOk || offset < 0)
        return ApiResponse::error(400, QStringLiteral("bad_request"),
                                  QStringLiteral("expected /audits/<step>?offset=<bytes>"));
    const auto it = m_audits.find(std::make_tuple(taskId, node->nodeId, step));
    if (it == m_audits.end())
        return ApiResponse::error(404, QStringLiteral("no_audit"),
                                  QStringLiteral("the hub audits no outer step %1 of this node").arg(step));
    PendingAudit &pending = it->second;
    if (offset != pending.material.size())
        return ApiResponse::error(409, QStringLiteral("wrong_offset"),
                                  QStringLiteral("the next part starts at byte %1").arg(pending.material.size()));
    qint64 buffered = 0;
    for (const auto &[key, audit] : m_audits)
        buffered += audit.material.size();
    if (buffered + request.body.size() > kMaxAuditBytes) {
        ApiResponse busy = ApiResponse::error(
            503, QStringLiteral("busy"),
            QStringLiteral("the hub holds as much audit material as it may; send this part again shortly"));
        busy.headers.append({QByteArrayLiteral("Retry-After"), QByteArrayLiteral("2")});
        return busy;
    }
    pending.material += request.body;
    if (pending.expected < 0 && pending.material.size() >= diloco::kAuditHeaderBytes) {
        pending.expected = diloco::auditMaterialSize(pending.material, kMaxAuditWeights);
        if (pending.expected < 0) {
            PendingAudit failed = std::move(pending);
            m_audits.erase(it);
            concludeAudit(failed.taskId, failed.nodeId, failed.publicKey, failed.step, QStringLiteral("failed"),
                          QStringLiteral("what it sent for the audit is no audit material"));
            return ApiResponse::error(400, QStringLiteral("bad_material"), QStringLiteral("no audit material"));
        }
    }
    if (pending.expected >= 0 && pending.material.size() > pending.expected) {
        PendingAudit failed = std::move(pending);
        m_audits.erase(it);
        concludeAudit(failed.taskId, failed.nodeId, failed.publicKey, failed.step, QStringLiteral("failed"),
                      QStringLiteral("it sent more for the audit than its material holds"));
        return ApiResponse::error(400, QStringLiteral("bad_material"),
                                  QStringLiteral("more bytes than the material holds"));
    }
    const bool complete = pending.expected >= 0 && pending.material.size() == pending.expected;
    if (complete) {
        PendingAudit done = std::move(pending);
        m_audits.erase(it);
        audit(std::move(done));
    }
    return ApiResponse::json(
        {{QStringLiteral("received"), qint64(offset + request.body.size())}, {QStringLiteral("complete"), complete}});
}

void DilocoCoordinator::audit(PendingAudit pending)
{
    const TaskInfo *task = m_catalogue.find(pending.taskId);
    const auto stored = m_evidence.commitment(pending.taskId, pending.nodeId, pending.step);
    if (!task || !task->diloco || !stored)
        return;
    const auto conclude = [&](const QString &verdict, const QString &reason) {
        concludeAudit(pending.taskId, pending.nodeId, pending.publicKey, pending.step, verdict, reason);
    };
    auto material = diloco::decodeAuditMaterial(pending.material, kMaxAuditWeights);
    if (!material)
        return conclude(QStringLiteral("failed"),
                        QStringLiteral("its audit material is unreadable: %1").arg(material.error()));
    if (material->step != pending.step)
        return conclude(
            QStringLiteral("failed"),
            QStringLiteral("its audit material is for outer step %1, not %2").arg(material->step).arg(pending.step));
    // The material must be what the node committed to before it knew of the audit ...
    const diloco::Commitment claimed = diloco::commitmentOf(*material);
    const diloco::Commitment &committed = stored->commitment;
    if (claimed.startDigest != committed.startDigest || claimed.adamDigest != committed.adamDigest ||
        claimed.deltaDigest != committed.deltaDigest)
        return conclude(
            QStringLiteral("failed"),
            QStringLiteral("its audit material is not what it committed for outer step %1").arg(pending.step));
    // ... and start from the shared state the hub recorded for that revision (no record: a restarted hub; neither
    // verdict).
    const QByteArray recorded = m_evidence.recordedDigest(pending.taskId, pending.step - 1);
    if (recorded.isEmpty())
        return conclude(QStringLiteral("inconclusive"),
                        QStringLiteral("the hub has no record of revision %1").arg(pending.step - 1));
    if (recorded != committed.startDigest)
        return conclude(QStringLiteral("failed"),
                        QStringLiteral("outer step %1 did not start from the recorded shared state").arg(pending.step));
    AuditJob job;
    job.taskId = pending.taskId;
    job.nodeId = pending.nodeId;
    job.publicKey = pending.publicKey;
    job.config = *task->diloco;
    job.dataSeed = diloco::dataSeedFor(pending.nodeId);
    job.material = std::make_shared<const diloco::AuditMaterial>(std::move(material).value());
    job.evaluateHeldOut = !m_evidence.hasHeldOut(pending.taskId, pending.step - 1);
    m_auditor->submit(job);
}

void DilocoCoordinator::onAudited(const AuditJob &job, const AuditResult &result)
{
    DilocoTaskStats &stats = m_stats[job.taskId];
    stats.auditSeconds += result.seconds;
    if (result.passed)
        stats.worstPassedError = std::max(stats.worstPassedError, result.relativeError);
    if (result.heldOutLoss >= 0) {
        // The start state's digest matched the hub's record before the job ran: this is the shared model's loss at
        // that revision whatever the replay's verdict on the node's own work.
        const quint64 revision = job.material->step - 1;
        if (Status s =
                m_evidence.recordHeldOut(job.taskId, revision, result.heldOutLoss, QDateTime::currentMSecsSinceEpoch());
            !s)
            qCWarning(lcHubDiloco) << s.error();
        m_heldOutProgress.erase(job.taskId); // the next progress request reads the curve with this point
        if (stats.heldOutLoss < 0 || revision >= stats.heldOutRevision) {
            stats.heldOutRevision = revision;
            stats.heldOutLoss = result.heldOutLoss;
        }
        qCInfo(lcHubDiloco) << "held-out loss of" << job.taskId << "revision" << revision << ":" << result.heldOutLoss;
    }
    const QString verdict = result.inconclusive ? QStringLiteral("inconclusive")
                            : result.passed     ? QStringLiteral("passed")
                                                : QStringLiteral("failed");
    concludeAudit(job.taskId, job.nodeId, job.publicKey, job.material->step, verdict, result.reason,
                  result.relativeError, result.seconds);
}

void DilocoCoordinator::concludeAudit(const QString &taskId, const QString &nodeId, const QByteArray &publicKey,
                                      quint64 step, const QString &verdict, const QString &reason, double relativeError,
                                      double seconds)
{
    const TaskInfo *task = m_catalogue.find(taskId);
    if (!task || !task->diloco)
        return;
    DilocoTaskStats &stats = m_stats[taskId];
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (Status s = m_evidence.setAudit(taskId, nodeId, step, verdict, reason, relativeError, seconds); !s)
        qCWarning(lcHubDiloco) << s.error();
    stats.lastAudit = QStringLiteral("node %1, outer step %2: %3%4")
                          .arg(nodeId)
                          .arg(step)
                          .arg(verdict, reason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(reason));
    if (verdict == QLatin1String("passed")) {
        ++stats.auditsPassed;
        stats.confirmedCredits +=
            m_evidence.confirmAudited(taskId, stats.lastTag, task->diloco->confirmAfterSteps, now);
        qCInfo(lcHubDiloco) << "audit" << stats.lastAudit << "relative error" << relativeError << "in" << seconds
                            << "s";
        return;
    }
    if (verdict == QLatin1String("inconclusive")) {
        ++stats.auditsInconclusive;
        qCInfo(lcHubDiloco) << "audit" << stats.lastAudit;
        return;
    }
    if (verdict == QLatin1String("missed")) {
        // A node may crash between its commitment and the upload: the step earns nothing, and only a habit flags it.
        ++stats.auditsMissed;
        stats.refusedCredits +=
            m_evidence.refuseStep(taskId, nodeId, step, QStringLiteral("audit missed: %1").arg(reason), now);
        qCWarning(lcHubDiloco) << "audit" << stats.lastAudit;
        if (m_evidence.missedAuditsInARow(taskId, nodeId) < kMissedAuditsToFlag)
            return;
    } else {
        ++stats.auditsFailed;
    }
    const QString why = QStringLiteral("audit of outer step %1 %2: %3").arg(step).arg(verdict, reason);
    stats.forfeitedCredits += m_evidence.forfeit(taskId, nodeId, why, now);
    qCWarning(lcHubDiloco) << "node" << nodeId << "forfeits its credit for" << taskId << "and is flagged:" << why;
    if (const auto master = m_masters.find(taskId); master != m_masters.end())
        master->second->excludeKey(publicKey, why);
}

void DilocoCoordinator::expireAudits()
{
    for (auto it = m_audits.begin(); it != m_audits.end();) {
        if (!it->second.deadline.hasExpired()) {
            ++it;
            continue;
        }
        PendingAudit late = std::move(it->second);
        it = m_audits.erase(it);
        concludeAudit(late.taskId, late.nodeId, late.publicKey, late.step, QStringLiteral("missed"),
                      QStringLiteral("the material did not arrive within %1 s").arg(kAuditDeadlineMs / 1000));
    }
}

} // namespace cohort
