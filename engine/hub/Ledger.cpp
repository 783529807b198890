#include "hub/Ledger.h"

#include "core/Logging.h"
#include "rl/WorkSampling.h"

#include <QDateTime>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>
#include <QVariant>

namespace cohort {

namespace {
constexpr qint64 kHourMs = 3600 * 1000;
constexpr qint64 kDayMs = 24 * kHourMs;

WorkRecord readWork(const QSqlQuery &q)
{
    WorkRecord w;
    w.workId = q.value(0).toString();
    w.nodeId = q.value(1).toString();
    w.taskId = q.value(2).toString();
    w.step = q.value(3).toLongLong();
    w.batch = q.value(4).toLongLong();
    w.seed = q.value(5).toString().toULongLong();
    w.issuedAtMs = q.value(6).toLongLong();
    w.status = q.value(7).toString();
    return w;
}

// Adds a submission's credit to the bucket of its status.
void addTo(EarningsAmounts &amounts, const QString &status, double credit)
{
    if (status == QLatin1String("accepted"))
        amounts.pending += credit;
    else if (status == QLatin1String("confirmed"))
        amounts.confirmed += credit;
    else if (status == QLatin1String("refused"))
        amounts.refused += credit;
}
} // namespace

Expected<WorkRecord> Ledger::issueWork(const QString &nodeId, const QString &taskId, qint64 step, qint64 nowMs)
{
    ++m_writes; // a reader's cache of what it derived is stale from here on (writes())
    QSqlDatabase db = QSqlDatabase::database(m_connection);
    db.transaction();
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO batch_counters(node_id, task, next_batch) VALUES(:node, :task, 1)"
                             " ON CONFLICT(node_id, task) DO UPDATE SET next_batch = next_batch + 1"));
    q.bindValue(QStringLiteral(":node"), nodeId);
    q.bindValue(QStringLiteral(":task"), taskId);
    bool ok = q.exec();
    q.prepare(QStringLiteral("SELECT next_batch FROM batch_counters WHERE node_id=:node AND task=:task"));
    q.bindValue(QStringLiteral(":node"), nodeId);
    q.bindValue(QStringLiteral(":task"), taskId);
    ok = ok && q.exec() && q.next();
    WorkRecord w;
    if (ok) {
        w.workId = QStringLiteral("w-") + QUuid::createUuid().toString(QUuid::Id128);
        w.nodeId = nodeId;
        w.taskId = taskId;
        w.step = step;
        w.batch = q.value(0).toLongLong();
        w.seed = rl::workSeed(nodeId.toStdString(), step, w.batch);
        w.issuedAtMs = nowMs;
        w.status = QStringLiteral("open");
        q.prepare(QStringLiteral("INSERT INTO work(work_id, node_id, task, step, batch, seed, issued_at, status)"
                                 " VALUES(:id, :node, :task, :step, :batch, :seed, :at, 'open')"));
        q.bindValue(QStringLiteral(":id"), w.workId);
        q.bindValue(QStringLiteral(":node"), nodeId);
        q.bindValue(QStringLiteral(":task"), taskId);
        q.bindValue(QStringLiteral(":step"), step);
        q.bindValue(QStringLiteral(":batch"), w.batch);
        q.bindValue(QStringLiteral(":seed"), QString::number(w.seed));
        q.bindValue(QStringLiteral(":at"), nowMs);
        ok = q.exec();
    }
    if (!ok) {
        const QString error = q.lastError().text();
        db.rollback();
        return fail(QStringLiteral("cannot issue work: %1").arg(error));
    }
    db.commit();
    return w;
}

std::optional<WorkRecord> Ledger::work(const QString &workId) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral(
        "SELECT work_id, node_id, task, step, batch, seed, issued_at, status FROM work WHERE work_id=:id"));
    q.bindValue(QStringLiteral(":id"), workId);
    if (q.exec() && q.next())
        return readWork(q);
    return std::nullopt;
}

Ledger::ChangeStamp Ledger::changeStamp() const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    const qint64 version = q.exec(QStringLiteral("PRAGMA data_version")) && q.next() ? q.value(0).toLongLong() : -1;
    return {m_writes, version};
}

int Ledger::openWorkCount(const QString &nodeId, const QString &taskId) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("SELECT COUNT(*) FROM work WHERE node_id=:node AND task=:task AND status='open'"));
    q.bindValue(QStringLiteral(":node"), nodeId);
    q.bindValue(QStringLiteral(":task"), taskId);
    return q.exec() && q.next() ? q.value(0).toInt() : 0;
}

void Ledger::trimNodeHistory(const QString &nodeId, int keepExpired, int keepRejected)
{
    ++m_writes; // a reader's cache of what it derived is stale from here on (writes())
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral(
        "DELETE FROM work WHERE node_id=:node AND status='expired' AND work_id NOT IN"
        " (SELECT work_id FROM work WHERE node_id=:node AND status='expired' ORDER BY issued_at DESC LIMIT :keep)"));
    q.bindValue(QStringLiteral(":node"), nodeId);
    q.bindValue(QStringLiteral(":keep"), std::max(0, keepExpired));
    q.exec();
    q.prepare(
        QStringLiteral("DELETE FROM submissions WHERE node_id=:node AND status='rejected' AND submission_id NOT IN"
                       " (SELECT submission_id FROM submissions WHERE node_id=:node AND status='rejected'"
                       " ORDER BY created_at DESC LIMIT :keep)"));
    q.bindValue(QStringLiteral(":node"), nodeId);
    q.bindValue(QStringLiteral(":keep"), std::max(0, keepRejected));
    q.exec();
}

int Ledger::pruneOlderThan(qint64 cutoffMs)
{
    ++m_writes; // a reader's cache of what it derived is stale from here on (writes())
    QSqlDatabase db = QSqlDatabase::database(m_connection);
    QSqlQuery q(db);
    int deleted = 0;
    db.transaction();
    // Work a rejected submission consumed goes with it; work no submission names, once expired, too.
    q.prepare(QStringLiteral("DELETE FROM work WHERE issued_at < :cutoff AND work_id IN"
                             " (SELECT work_id FROM submissions WHERE status='rejected' AND created_at < :cutoff)"));
    q.bindValue(QStringLiteral(":cutoff"), cutoffMs);
    if (q.exec())
        deleted += q.numRowsAffected();
    q.prepare(QStringLiteral("DELETE FROM submissions WHERE status='rejected' AND created_at < :cutoff"));
    q.bindValue(QStringLiteral(":cutoff"), cutoffMs);
    if (q.exec())
        deleted += q.numRowsAffected();
    q.prepare(QStringLiteral("DELETE FROM work WHERE status='expired' AND issued_at < :cutoff"));
    q.bindValue(QStringLiteral(":cutoff"), cutoffMs);
    if (q.exec())
        deleted += q.numRowsAffected();
    db.commit();
    return deleted;
}

void Ledger::expireOpenWork(const QString &nodeId, const QString &taskId, int keep)
{
    ++m_writes; // a reader's cache of what it derived is stale from here on (writes())
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("UPDATE work SET status='expired' WHERE node_id=:node AND task=:task AND status='open'"
                             " AND work_id NOT IN (SELECT work_id FROM work WHERE node_id=:node AND task=:task"
                             " AND status='open' ORDER BY issued_at DESC, batch DESC LIMIT :keep)"));
    q.bindValue(QStringLiteral(":node"), nodeId);
    q.bindValue(QStringLiteral(":task"), taskId);
    q.bindValue(QStringLiteral(":keep"), std::max(0, keep));
    q.exec();
}

std::optional<SubmissionRecord> Ledger::submission(const QString &submissionId) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("SELECT submission_id, node_id, task, work_id, version, status, reason, tokens, credit,"
                             " mean_reward, created_at, response FROM submissions WHERE submission_id=:id"));
    q.bindValue(QStringLiteral(":id"), submissionId);
    if (!q.exec() || !q.next())
        return std::nullopt;
    SubmissionRecord s;
    s.submissionId = q.value(0).toString();
    s.nodeId = q.value(1).toString();
    s.taskId = q.value(2).toString();
    s.workId = q.value(3).toString();
    s.version = q.value(4).toInt();
    s.status = q.value(5).toString();
    s.reason = q.value(6).toString();
    s.tokens = q.value(7).toLongLong();
    s.credit = q.value(8).toDouble();
    s.meanReward = q.value(9).toDouble();
    s.createdAtMs = q.value(10).toLongLong();
    s.response = q.value(11).toByteArray();
    return s;
}

Status Ledger::recordSubmission(const SubmissionRecord &s)
{
    ++m_writes; // a reader's cache of what it derived is stale from here on (writes())
    QSqlDatabase db = QSqlDatabase::database(m_connection);
    db.transaction();
    QSqlQuery q(db);
    q.prepare(QStringLiteral(
        "INSERT INTO submissions(submission_id, node_id, task, work_id, version, status, reason,"
        " tokens, credit, mean_reward, created_at, response, pending_body)"
        " VALUES(:id, :node, :task, :work, :version, :status, :reason, :tokens, :credit, :reward, :at, :response,"
        " :body)"));
    q.bindValue(QStringLiteral(":body"), s.pendingBody.isEmpty() ? QByteArray("") : qCompress(s.pendingBody, 6));
    q.bindValue(QStringLiteral(":id"), s.submissionId);
    q.bindValue(QStringLiteral(":node"), s.nodeId);
    q.bindValue(QStringLiteral(":task"), s.taskId);
    q.bindValue(QStringLiteral(":work"), s.workId.isNull() ? QStringLiteral("") : s.workId);
    q.bindValue(QStringLiteral(":version"), s.version);
    q.bindValue(QStringLiteral(":status"), s.status);
    q.bindValue(QStringLiteral(":reason"), s.reason.isNull() ? QStringLiteral("") : s.reason);
    q.bindValue(QStringLiteral(":tokens"), s.tokens);
    q.bindValue(QStringLiteral(":credit"), s.credit);
    q.bindValue(QStringLiteral(":reward"), s.meanReward);
    q.bindValue(QStringLiteral(":at"), s.createdAtMs);
    q.bindValue(QStringLiteral(":response"),
                s.response.isEmpty() ? QStringLiteral("{}") : QString::fromUtf8(s.response));
    bool ok = q.exec();
    if (ok && !s.workId.isEmpty()) {
        q.prepare(QStringLiteral("UPDATE work SET status='submitted' WHERE work_id=:work"));
        q.bindValue(QStringLiteral(":work"), s.workId);
        ok = q.exec();
    }
    if (!ok) {
        const QString error = q.lastError().text();
        db.rollback();
        return fail(QStringLiteral("cannot record the submission: %1").arg(error));
    }
    db.commit();
    return {};
}

Expected<Ledger::VerdictOutcome> Ledger::setVerdict(const QString &submissionId, bool confirmed, const QString &reason,
                                                    const VerificationStats &stats, int flagAfterFailures, qint64 nowMs)
{
    ++m_writes; // a reader's cache of what it derived is stale from here on (writes())
    QSqlDatabase db = QSqlDatabase::database(m_connection);
    QSqlQuery q(db);
    VerdictOutcome outcome;
    db.transaction();
    q.prepare(
        QStringLiteral("UPDATE submissions SET status=:status, reason=:reason, verified_at=:at,"
                       " rollouts_checked=:checked, proof_chunks=:chunks, proof_worst_exp=:exp,"
                       " proof_worst_points=:points, proof_worst_mean=:mean, proof_worst_median=:median,"
                       " proof_failed=:failed, mean_log_prob=:logp, sampling_worst_gap=:gap, off_sample_tokens=:off,"
                       " pending_body=NULL"
                       " WHERE submission_id=:id AND status='accepted'"));
    q.bindValue(QStringLiteral(":gap"), stats.worstSamplingGap);
    q.bindValue(QStringLiteral(":off"), stats.offSampleTokens);
    q.bindValue(QStringLiteral(":status"), confirmed ? QStringLiteral("confirmed") : QStringLiteral("refused"));
    q.bindValue(QStringLiteral(":reason"), reason.isNull() ? QStringLiteral("") : reason);
    q.bindValue(QStringLiteral(":at"), nowMs);
    q.bindValue(QStringLiteral(":checked"), stats.rolloutsChecked);
    q.bindValue(QStringLiteral(":chunks"), stats.chunks);
    q.bindValue(QStringLiteral(":exp"), stats.worstExpMatches);
    q.bindValue(QStringLiteral(":points"), stats.worstPoints);
    q.bindValue(QStringLiteral(":mean"), stats.worstMantissaMean);
    q.bindValue(QStringLiteral(":median"), stats.worstMantissaMedian);
    q.bindValue(QStringLiteral(":failed"), stats.failedVerification ? 1 : 0);
    q.bindValue(QStringLiteral(":logp"), stats.meanLogProb);
    q.bindValue(QStringLiteral(":id"), submissionId);
    if (!q.exec()) {
        const QString error = q.lastError().text();
        db.rollback();
        return fail(QStringLiteral("cannot record the verdict: %1").arg(error));
    }
    outcome.updated = q.numRowsAffected() > 0;
    if (outcome.updated && stats.failedVerification) {
        const auto record = submission(submissionId);
        QSqlQuery f(db);
        f.prepare(QStringLiteral("INSERT INTO node_flags(node_id, task, proof_failures, last_failure_at, reason)"
                                 " VALUES(:node, :task, 1, :at, :reason)"
                                 " ON CONFLICT(node_id, task) DO UPDATE SET proof_failures=proof_failures+1,"
                                 " last_failure_at=excluded.last_failure_at, reason=excluded.reason"));
        f.bindValue(QStringLiteral(":node"), record ? record->nodeId : QString());
        f.bindValue(QStringLiteral(":task"), record ? record->taskId : QString());
        f.bindValue(QStringLiteral(":at"), nowMs);
        f.bindValue(QStringLiteral(":reason"), reason.isNull() ? QStringLiteral("") : reason);
        QSqlQuery flag(db);
        flag.prepare(QStringLiteral("UPDATE node_flags SET flagged_at=:at"
                                    " WHERE node_id=:node AND task=:task AND flagged_at=0 AND proof_failures>=:limit"));
        flag.bindValue(QStringLiteral(":at"), nowMs);
        flag.bindValue(QStringLiteral(":node"), record ? record->nodeId : QString());
        flag.bindValue(QStringLiteral(":task"), record ? record->taskId : QString());
        flag.bindValue(QStringLiteral(":limit"), std::max(1, flagAfterFailures));
        if (!record || !f.exec() || !flag.exec()) {
            const QString error = record ? QString(f.lastError().text() + flag.lastError().text())
                                         : QStringLiteral("submission vanished");
            db.rollback();
            return fail(QStringLiteral("cannot record the proof failure: %1").arg(error));
        }
        const NodeFlag now = nodeFlag(record->nodeId, record->taskId);
        outcome.verificationFailures = now.verificationFailures;
        outcome.flagged = now.flaggedAtMs > 0;
    }
    if (!db.commit())
        return fail(QStringLiteral("cannot record the verdict: %1").arg(db.lastError().text()));
    return outcome;
}

std::optional<VerificationStats> Ledger::verificationStats(const QString &submissionId) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(
        QStringLiteral("SELECT rollouts_checked, proof_chunks, proof_worst_exp, proof_worst_points, proof_worst_mean,"
                       " proof_worst_median, proof_failed, mean_log_prob, sampling_worst_gap, off_sample_tokens"
                       " FROM submissions WHERE submission_id=:id"));
    q.bindValue(QStringLiteral(":id"), submissionId);
    if (!q.exec() || !q.next())
        return std::nullopt;
    VerificationStats s;
    s.rolloutsChecked = q.value(0).toInt();
    s.chunks = q.value(1).toInt();
    s.worstExpMatches = q.value(2).toInt();
    s.worstPoints = q.value(3).toInt();
    s.worstMantissaMean = q.value(4).toDouble();
    s.worstMantissaMedian = q.value(5).toDouble();
    s.failedVerification = q.value(6).toInt() != 0;
    s.meanLogProb = q.value(7).toDouble();
    s.worstSamplingGap = q.value(8).toDouble();
    s.offSampleTokens = q.value(9).toInt();
    return s;
}

QList<PendingSubmission> Ledger::pendingSubmissions(const QString &taskId) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("SELECT submission_id, node_id, work_id, pending_body FROM submissions"
                             " WHERE task=:task AND status='accepted' ORDER BY created_at, submission_id"));
    q.bindValue(QStringLiteral(":task"), taskId);
    QList<PendingSubmission> out;
    if (!q.exec())
        return out;
    while (q.next()) {
        PendingSubmission p;
        p.submissionId = q.value(0).toString();
        p.nodeId = q.value(1).toString();
        p.workId = q.value(2).toString();
        const QByteArray stored = q.value(3).toByteArray();
        p.body = stored.isEmpty() ? QByteArray() : qUncompress(stored); // damaged: empty, verified as unreadable
        out.append(p);
    }
    return out;
}

Ledger::NodeFlag Ledger::nodeFlag(const QString &nodeId, const QString &taskId) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(
        QStringLiteral("SELECT proof_failures, flagged_at, reason FROM node_flags WHERE node_id=:node AND task=:task"));
    q.bindValue(QStringLiteral(":node"), nodeId);
    q.bindValue(QStringLiteral(":task"), taskId);
    NodeFlag flag;
    if (q.exec() && q.next()) {
        flag.verificationFailures = q.value(0).toInt();
        flag.flaggedAtMs = q.value(1).toLongLong();
        flag.reason = q.value(2).toString();
    }
    return flag;
}

int Ledger::flaggedNodeCount(const QString &taskId) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("SELECT COUNT(*) FROM node_flags WHERE task=:task AND flagged_at>0"));
    q.bindValue(QStringLiteral(":task"), taskId);
    return q.exec() && q.next() ? q.value(0).toInt() : 0;
}

Status Ledger::clearNodeFlag(const QString &nodeId, const QString &taskId)
{
    ++m_writes; // a reader's cache of what it derived is stale from here on (writes())
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("DELETE FROM node_flags WHERE node_id=:node AND (task=:task OR :any=1)"));
    q.bindValue(QStringLiteral(":node"), nodeId);
    q.bindValue(QStringLiteral(":task"), taskId);
    q.bindValue(QStringLiteral(":any"), taskId.isEmpty() ? 1 : 0);
    if (!q.exec())
        return fail(QStringLiteral("cannot clear the flag: %1").arg(q.lastError().text()));
    if (q.numRowsAffected() == 0)
        return fail(QStringLiteral("node %1 has no proof failures recorded%2")
                        .arg(nodeId, taskId.isEmpty() ? QString() : QStringLiteral(" for ") + taskId));
    return {};
}

EarningsReport Ledger::earnings(const QString &nodeId, qint64 nowMs) const
{
    EarningsReport report;
    report.nodeId = nodeId;
    report.generatedAt = QDateTime::fromMSecsSinceEpoch(nowMs, Qt::UTC);
    const qint64 todayStart = (nowMs / kDayMs) * kDayMs;
    const qint64 weekStart = nowMs - 7 * kDayMs;
    const qint64 historyStart = (weekStart / kHourMs) * kHourMs;

    QSqlQuery q(QSqlDatabase::database(m_connection));
    // One pass over the node's credited submissions, bucketed in C++: a node has at most a few thousand a week.
    q.prepare(
        QStringLiteral("SELECT task, status, credit, tokens, created_at FROM submissions"
                       " WHERE node_id=:node AND status IN ('accepted','confirmed','refused') ORDER BY created_at"));
    q.bindValue(QStringLiteral(":node"), nodeId);
    if (!q.exec())
        return report;
    QMap<QString, TaskEarnings> perTask;
    QMap<qint64, EarningsBucket> perHour;
    while (q.next()) {
        const QString task = q.value(0).toString();
        const QString status = q.value(1).toString();
        const double credit = q.value(2).toDouble();
        const qint64 tokens = q.value(3).toLongLong();
        const qint64 at = q.value(4).toLongLong();
        addTo(report.total, status, credit);
        if (at >= todayStart)
            addTo(report.today, status, credit);
        if (at >= weekStart)
            addTo(report.last7Days, status, credit);
        TaskEarnings &t = perTask[task];
        t.taskId = task;
        addTo(t.amounts, status, credit);
        if (status != QLatin1String("refused")) {
            t.tokens += tokens;
            ++t.batches;
        }
        if (at >= historyStart) {
            const qint64 hour = (at / kHourMs) * kHourMs;
            EarningsBucket &b = perHour[hour];
            b.hourStart = QDateTime::fromMSecsSinceEpoch(hour, Qt::UTC);
            addTo(b.amounts, status, credit);
            if (status != QLatin1String("refused"))
                b.tokens += tokens;
        }
    }
    report.tasks = perTask.values();
    report.history = perHour.values();
    return report;
}

QList<Ledger::VersionReward> Ledger::meanRewardByVersion(const QString &taskId) const
{
    QList<VersionReward> curve;
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("SELECT version, AVG(mean_reward), COUNT(*) FROM submissions WHERE task=:task"
                             " AND status IN ('accepted','confirmed') GROUP BY version ORDER BY version"));
    q.bindValue(QStringLiteral(":task"), taskId);
    if (q.exec())
        while (q.next())
            curve.append({q.value(0).toInt(), q.value(1).toDouble(), q.value(2).toLongLong()});
    return curve;
}

qint64 Ledger::acceptedCount(const QString &taskId) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(
        QStringLiteral("SELECT COUNT(*) FROM submissions WHERE task=:task AND status IN ('accepted','confirmed')"));
    q.bindValue(QStringLiteral(":task"), taskId);
    return q.exec() && q.next() ? q.value(0).toLongLong() : 0;
}

bool Ledger::recordEvaluation(const QString &taskId, const Evaluation &e, qint64 nowMs)
{
    ++m_writes; // a reader's cache of what it derived is stale from here on (writes())
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral(
        "INSERT OR REPLACE INTO evaluations(task, version, mode, problems, reward, correctness, format,"
        " evaluated_at) VALUES(:task, :version, :mode, :problems, :reward, :correctness, :format, :now)"));
    q.bindValue(QStringLiteral(":task"), taskId);
    q.bindValue(QStringLiteral(":version"), e.version);
    q.bindValue(QStringLiteral(":mode"), e.mode);
    q.bindValue(QStringLiteral(":problems"), e.problems);
    q.bindValue(QStringLiteral(":reward"), e.reward);
    q.bindValue(QStringLiteral(":correctness"), e.correctness);
    q.bindValue(QStringLiteral(":format"), e.format);
    q.bindValue(QStringLiteral(":now"), nowMs);
    if (!q.exec()) {
        qCWarning(lcHub) << "cannot record the evaluation of" << taskId << "version" << e.version << ":"
                         << q.lastError().text();
        return false;
    }
    return true;
}

QHash<QString, qint64> Ledger::acceptedByNode(const QString &taskId) const
{
    QHash<QString, qint64> counts;
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral(
        "SELECT node_id, COUNT(*) FROM submissions WHERE task=:task AND status IN ('accepted','confirmed')"
        " GROUP BY node_id"));
    q.bindValue(QStringLiteral(":task"), taskId);
    if (q.exec())
        while (q.next())
            counts.insert(q.value(0).toString(), q.value(1).toLongLong());
    return counts;
}

QList<Ledger::Evaluation> Ledger::evaluations(const QString &taskId) const
{
    QList<Evaluation> out;
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(
        QStringLiteral("SELECT version, mode, problems, reward, correctness, format FROM evaluations WHERE task=:task"
                       " ORDER BY version, mode"));
    q.bindValue(QStringLiteral(":task"), taskId);
    if (q.exec())
        while (q.next())
            out.append({q.value(0).toInt(), q.value(1).toString(), q.value(2).toInt(), q.value(3).toDouble(),
                        q.value(4).toDouble(), q.value(5).toDouble()});
    return out;
}

} // namespace cohort
