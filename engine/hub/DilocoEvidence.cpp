#include "hub/DilocoEvidence.h"

#include "collectives/Wire.h"

#include <QDateTime>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace cohort {

namespace {

// The credits of one task's outer steps (DilocoCoordinator::credit names them so).
QString creditPrefix(const QString &task)
{
    return QStringLiteral("diloco:%1:").arg(task);
}

// The task and its credit prefix (:task, :len, :prefix) for the queries over one task's outer-step credits.
void bindCredits(QSqlQuery &q, const QString &task)
{
    q.bindValue(QStringLiteral(":task"), task);
    q.bindValue(QStringLiteral(":len"), creditPrefix(task).size());
    q.bindValue(QStringLiteral(":prefix"), creditPrefix(task));
}

// A null QString binds NULL, which NOT NULL columns refuse.
QString text(const QString &s)
{
    return s.isNull() ? QStringLiteral("") : s;
}

} // namespace

Status DilocoEvidence::recordHeldOut(const QString &task, quint64 revision, double loss, qint64 nowMs)
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("INSERT OR IGNORE INTO diloco_held_out(task, revision, loss, evaluated_at)"
                             " VALUES(:task, :revision, :loss, :now)"));
    q.bindValue(QStringLiteral(":task"), task);
    q.bindValue(QStringLiteral(":revision"), qint64(revision));
    q.bindValue(QStringLiteral(":loss"), loss);
    q.bindValue(QStringLiteral(":now"), nowMs);
    if (!q.exec())
        return fail(QStringLiteral("cannot record the held-out loss of revision %1 of %2: %3")
                        .arg(revision)
                        .arg(task, q.lastError().text()));
    return {};
}

bool DilocoEvidence::hasHeldOut(const QString &task, quint64 revision) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("SELECT 1 FROM diloco_held_out WHERE task=:task AND revision=:revision"));
    q.bindValue(QStringLiteral(":task"), task);
    q.bindValue(QStringLiteral(":revision"), qint64(revision));
    return q.exec() && q.next();
}

QList<DilocoEvidence::HeldOutLoss> DilocoEvidence::heldOutLosses(const QString &task) const
{
    QList<HeldOutLoss> points;
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("SELECT revision, loss FROM diloco_held_out WHERE task=:task ORDER BY revision"));
    q.bindValue(QStringLiteral(":task"), task);
    if (q.exec())
        while (q.next())
            points.append({quint64(q.value(0).toLongLong()), q.value(1).toDouble()});
    return points;
}

Status DilocoEvidence::recordRevision(const QString &task, quint64 revision, const QByteArray &digest,
                                      const QList<QByteArray> &holders)
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("INSERT OR REPLACE INTO diloco_records(task, revision, digest, holders, recorded_at)"
                             " VALUES(:task, :revision, :digest, :holders, :now)"));
    q.bindValue(QStringLiteral(":task"), task);
    q.bindValue(QStringLiteral(":revision"), qint64(revision));
    q.bindValue(QStringLiteral(":digest"), digest);
    QByteArray keys;
    for (const QByteArray &key : holders)
        if (key.size() == collectives::kPublicKeyBytes)
            keys += key;
    q.bindValue(QStringLiteral(":holders"), keys);
    q.bindValue(QStringLiteral(":now"), QDateTime::currentMSecsSinceEpoch());
    if (!q.exec())
        return fail(
            QStringLiteral("cannot record revision %1 of %2: %3").arg(revision).arg(task, q.lastError().text()));
    // Audits look back a few steps at most: keep the last thousand revisions.
    QSqlQuery prune(QSqlDatabase::database(m_connection));
    prune.prepare(QStringLiteral("DELETE FROM diloco_records WHERE task=:task AND revision<:oldest"));
    prune.bindValue(QStringLiteral(":task"), task);
    prune.bindValue(QStringLiteral(":oldest"), qint64(revision) - 1000);
    prune.exec();
    return {};
}

QByteArray DilocoEvidence::recordedDigest(const QString &task, quint64 revision) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("SELECT digest FROM diloco_records WHERE task=:task AND revision=:revision"));
    q.bindValue(QStringLiteral(":task"), task);
    q.bindValue(QStringLiteral(":revision"), qint64(revision));
    return q.exec() && q.next() ? q.value(0).toByteArray() : QByteArray();
}

std::optional<collectives::RecordedState> DilocoEvidence::latestRecord(const QString &task) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral(
        "SELECT revision, digest, holders FROM diloco_records WHERE task=:task ORDER BY revision DESC LIMIT 1"));
    q.bindValue(QStringLiteral(":task"), task);
    if (!q.exec() || !q.next())
        return std::nullopt;
    collectives::RecordedState record;
    record.revision = quint64(q.value(0).toLongLong());
    record.stateDigest = q.value(1).toByteArray();
    const QByteArray keys = q.value(2).toByteArray();
    for (qsizetype at = 0; at + qsizetype(collectives::kPublicKeyBytes) <= keys.size();
         at += collectives::kPublicKeyBytes)
        record.holders.push_back(keys.mid(at, collectives::kPublicKeyBytes));
    if (record.stateDigest.size() != qsizetype(collectives::kDigestBytes) || record.holders.empty())
        return std::nullopt; // a record nobody holds would only refuse everyone
    return record;
}

Expected<DilocoEvidence::CommitKind> DilocoEvidence::commit(const QString &task, const QString &nodeId,
                                                            const diloco::Commitment &c, qint64 nowMs)
{
    if (const auto existing = commitment(task, nodeId, c.step))
        return existing->commitment == c ? CommitKind::Same : CommitKind::Conflict;
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(
        QStringLiteral("INSERT INTO diloco_commitments(task, node_id, step, start_digest, adam_digest, delta_digest,"
                       " delta_norm, created_at) VALUES(:task, :node, :step, :start, :adam, :delta, :norm, :now)"));
    q.bindValue(QStringLiteral(":task"), task);
    q.bindValue(QStringLiteral(":node"), nodeId);
    q.bindValue(QStringLiteral(":step"), qint64(c.step));
    q.bindValue(QStringLiteral(":start"), c.startDigest);
    q.bindValue(QStringLiteral(":adam"), c.adamDigest);
    q.bindValue(QStringLiteral(":delta"), c.deltaDigest);
    q.bindValue(QStringLiteral(":norm"), c.deltaNorm);
    q.bindValue(QStringLiteral(":now"), nowMs);
    if (!q.exec())
        return fail(QStringLiteral("cannot store the commitment: %1").arg(q.lastError().text()));
    return CommitKind::New;
}

std::optional<StoredCommitment> DilocoEvidence::commitment(const QString &task, const QString &nodeId,
                                                           quint64 step) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("SELECT start_digest, adam_digest, delta_digest, delta_norm, audit, audit_reason"
                             " FROM diloco_commitments WHERE task=:task AND node_id=:node AND step=:step"));
    q.bindValue(QStringLiteral(":task"), task);
    q.bindValue(QStringLiteral(":node"), nodeId);
    q.bindValue(QStringLiteral(":step"), qint64(step));
    if (!q.exec() || !q.next())
        return std::nullopt;
    StoredCommitment s;
    s.commitment.step = step;
    s.commitment.startDigest = q.value(0).toByteArray();
    s.commitment.adamDigest = q.value(1).toByteArray();
    s.commitment.deltaDigest = q.value(2).toByteArray();
    s.commitment.deltaNorm = q.value(3).toDouble();
    s.audit = q.value(4).toString();
    s.auditReason = q.value(5).toString();
    return s;
}

bool DilocoEvidence::everAudited(const QString &task, const QString &nodeId) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("SELECT 1 FROM diloco_commitments WHERE task=:task AND node_id=:node"
                             " AND audit IN ('requested', 'passed', 'failed', 'missed') LIMIT 1"));
    q.bindValue(QStringLiteral(":task"), task);
    q.bindValue(QStringLiteral(":node"), nodeId);
    return q.exec() && q.next();
}

Status DilocoEvidence::setAudit(const QString &task, const QString &nodeId, quint64 step, const QString &audit,
                                const QString &reason, double relativeError, double seconds)
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("UPDATE diloco_commitments SET audit=:audit, audit_reason=:reason, relative_error=:error,"
                             " audit_seconds=:seconds WHERE task=:task AND node_id=:node AND step=:step"));
    q.bindValue(QStringLiteral(":audit"), audit);
    q.bindValue(QStringLiteral(":reason"), text(reason));
    q.bindValue(QStringLiteral(":error"), relativeError);
    q.bindValue(QStringLiteral(":seconds"), seconds);
    q.bindValue(QStringLiteral(":task"), task);
    q.bindValue(QStringLiteral(":node"), nodeId);
    q.bindValue(QStringLiteral(":step"), qint64(step));
    if (!q.exec())
        return fail(QStringLiteral("cannot record the audit: %1").arg(q.lastError().text()));
    return {};
}

int DilocoEvidence::missedAuditsInARow(const QString &task, const QString &nodeId) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("SELECT audit FROM diloco_commitments WHERE task=:task AND node_id=:node"
                             " AND audit IN ('passed', 'failed', 'missed') ORDER BY step DESC LIMIT 16"));
    q.bindValue(QStringLiteral(":task"), task);
    q.bindValue(QStringLiteral(":node"), nodeId);
    int missed = 0;
    if (q.exec())
        while (q.next() && q.value(0).toString() == QLatin1String("missed"))
            ++missed;
    return missed;
}

int DilocoEvidence::refuseUncommitted(const QString &task, quint64 uptoStep, qint64 nowMs)
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral(
        "UPDATE submissions SET status='refused', verified_at=:now,"
        " reason='no commitment for this outer step: nothing to audit, no credit'"
        " WHERE task=:task AND status='accepted' AND substr(submission_id, 1, :len)=:prefix"
        " AND version<=:upto AND NOT EXISTS(SELECT 1 FROM diloco_commitments c"
        "  WHERE c.task=submissions.task AND c.node_id=submissions.node_id AND c.step=submissions.version)"));
    q.bindValue(QStringLiteral(":now"), nowMs);
    bindCredits(q, task);
    q.bindValue(QStringLiteral(":upto"), qint64(uptoStep));
    return q.exec() ? q.numRowsAffected() : 0;
}

int DilocoEvidence::confirmAudited(const QString &task, quint64 currentStep, int confirmAfter, qint64 nowMs)
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral(
        "UPDATE submissions SET status='confirmed', verified_at=:now"
        " WHERE task=:task AND status='accepted' AND substr(submission_id, 1, :len)=:prefix"
        " AND version<=:ripe AND EXISTS(SELECT 1 FROM diloco_commitments c"
        "  WHERE c.task=submissions.task AND c.node_id=submissions.node_id AND c.step=submissions.version)"
        " AND version<=(SELECT COALESCE(MAX(p.step), 0) FROM diloco_commitments p"
        "  WHERE p.task=submissions.task AND p.node_id=submissions.node_id AND p.audit='passed')"));
    q.bindValue(QStringLiteral(":now"), nowMs);
    bindCredits(q, task);
    q.bindValue(QStringLiteral(":ripe"), qint64(currentStep) - confirmAfter);
    return q.exec() ? q.numRowsAffected() : 0;
}

qint64 DilocoEvidence::confirmedSteps(const QString &task, const QString &nodeId) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(
        QStringLiteral("SELECT COUNT(*) FROM submissions WHERE node_id=:node AND task=:task AND status='confirmed'"
                       " AND substr(submission_id, 1, :len)=:prefix"));
    bindCredits(q, task);
    q.bindValue(QStringLiteral(":node"), nodeId);
    return q.exec() && q.next() ? q.value(0).toLongLong() : 0;
}

int DilocoEvidence::refuseStep(const QString &task, const QString &nodeId, quint64 step, const QString &reason,
                               qint64 nowMs)
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("UPDATE submissions SET status='refused', verified_at=:now, reason=:reason"
                             " WHERE submission_id=:id AND status='accepted'"));
    q.bindValue(QStringLiteral(":now"), nowMs);
    q.bindValue(QStringLiteral(":reason"), text(reason));
    q.bindValue(QStringLiteral(":id"), QString(creditPrefix(task) + QStringLiteral("%1:%2").arg(step).arg(nodeId)));
    return q.exec() ? q.numRowsAffected() : 0;
}

int DilocoEvidence::forfeit(const QString &task, const QString &nodeId, const QString &reason, qint64 nowMs)
{
    QSqlDatabase db = QSqlDatabase::database(m_connection);
    db.transaction();
    QSqlQuery q(db);
    q.prepare(QStringLiteral("UPDATE submissions SET status='refused', verified_at=:now, reason=:reason"
                             " WHERE task=:task AND node_id=:node AND status IN ('accepted', 'confirmed')"
                             " AND substr(submission_id, 1, :len)=:prefix"));
    q.bindValue(QStringLiteral(":now"), nowMs);
    q.bindValue(QStringLiteral(":reason"), QStringLiteral("forfeited: %1").arg(reason));
    bindCredits(q, task);
    q.bindValue(QStringLiteral(":node"), nodeId);
    const bool forfeited = q.exec();
    const int changed = forfeited ? q.numRowsAffected() : 0;
    QSqlQuery flag(db);
    flag.prepare(
        QStringLiteral("INSERT INTO node_flags(node_id, task, proof_failures, last_failure_at, flagged_at, reason)"
                       " VALUES(:node, :task, 1, :now, :now, :reason)"
                       " ON CONFLICT(node_id, task) DO UPDATE SET proof_failures=proof_failures+1,"
                       " last_failure_at=excluded.last_failure_at, reason=excluded.reason,"
                       " flagged_at=CASE WHEN flagged_at=0 THEN excluded.flagged_at ELSE flagged_at END"));
    flag.bindValue(QStringLiteral(":node"), nodeId);
    flag.bindValue(QStringLiteral(":task"), task);
    flag.bindValue(QStringLiteral(":now"), nowMs);
    flag.bindValue(QStringLiteral(":reason"), text(reason));
    if (!forfeited || !flag.exec()) {
        db.rollback();
        return 0;
    }
    db.commit();
    return changed;
}

} // namespace cohort
