#pragma once
// The DiLoCo side of the ledger in the hub database (docs/CREDIT.md): each node's commitment per outer step and its
// audit, the shared state's recorded digest per revision, and the credit rule's transitions on the node's outer-step
// credits (submissions "diloco:<task>:<step>:<node>"): pending at the step, refused without a commitment, confirmed
// once old enough and covered by a passed audit of that node, forfeited (all of them, for the task) when an audit
// fails. Same thread and database as HubStore.
#include "collectives/Master.h"
#include "core/Expected.h"
#include "diloco/DilocoAudit.h"

#include <QList>
#include <QString>
#include <optional>

namespace cohort {

struct StoredCommitment {
    diloco::Commitment commitment;
    QString audit; // "" not audited, requested, passed, failed, missed, inconclusive
    QString auditReason;
};

class DilocoEvidence {
public:
    explicit DilocoEvidence(QString connectionName)
        : m_connection(std::move(connectionName))
    {}

    Status recordRevision(const QString &task, quint64 revision, const QByteArray &digest,
                          const QList<QByteArray> &holders);
    QByteArray recordedDigest(const QString &task, quint64 revision) const; // empty: not recorded
    // The newest record of the task (revision, digest, the holders' keys), for a restarted master.
    std::optional<collectives::RecordedState> latestRecord(const QString &task) const;

    enum class CommitKind { New, Same, Conflict };
    // Stores the node's commitment for its step (one per node and step: the same again is Same, another is Conflict).
    Expected<CommitKind> commit(const QString &task, const QString &nodeId, const diloco::Commitment &c, qint64 nowMs);
    std::optional<StoredCommitment> commitment(const QString &task, const QString &nodeId, quint64 step) const;
    bool everAudited(const QString &task,
                     const QString &nodeId) const; // requested, passed, failed or missed (not inconclusive)
    Status setAudit(const QString &task, const QString &nodeId, quint64 step, const QString &audit,
                    const QString &reason, double relativeError = -1, double seconds = 0);
    int missedAuditsInARow(const QString &task, const QString &nodeId) const;

    // The node's outer steps in the task whose credit its audits confirmed: the weight of its vote on the shared
    // state (MasterOptions::auditedWork), work a sybil identity cannot have without training.
    qint64 confirmedSteps(const QString &task, const QString &nodeId) const;

    // The credit rule (docs/CREDIT.md). Each returns the credits it changed.
    // Pending credits of steps <= uptoStep without a commitment earn nothing.
    int refuseUncommitted(const QString &task, quint64 uptoStep, qint64 nowMs);
    // Pending credits at least confirmAfter steps old (step <= current - confirmAfter), committed, and at or before
    // a step of the same node whose audit passed.
    int confirmAudited(const QString &task, quint64 currentStep, int confirmAfter, qint64 nowMs);
    // The step whose audit the node missed earns nothing.
    int refuseStep(const QString &task, const QString &nodeId, quint64 step, const QString &reason, qint64 nowMs);
    // A failed audit: every DiLoCo credit of the node in the task (pending and confirmed) refused, and the node
    // flagged for the task (the master admits it no more, until an operator lifts the flag).
    int forfeit(const QString &task, const QString &nodeId, const QString &reason, qint64 nowMs);

    // The held-out loss of a recorded revision (DilocoAuditor on the audited material's start state), once each.
    struct HeldOutLoss {
        quint64 revision = 0;
        double loss = 0;
        bool operator==(const HeldOutLoss &) const = default;
    };
    Status recordHeldOut(const QString &task, quint64 revision, double loss, qint64 nowMs);
    bool hasHeldOut(const QString &task, quint64 revision) const;
    QList<HeldOutLoss> heldOutLosses(const QString &task) const; // by revision, ascending

private:
    QString m_connection;
};

} // namespace cohort
