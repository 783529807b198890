#pragma once
// The hub's replays of audited DiLoCo outer steps (docs/CREDIT.md), on a compute thread of their own
// ("cohort-diloco-audit"): a replay is H inner steps of the task's model, seconds of CPU the hub's thread must never
// wait for. Jobs run one at a time in the order given; results come back queued, in the thread that owns the auditor.
// The fuzz build (no LibTorch) has an auditor that replays nothing (tests/fuzz/HubWithoutTrainer.cpp).
#include "core/DilocoTaskConfig.h"
#include "core/OwnedThread.h"
#include "diloco/DilocoAudit.h"

#include <QMetaType>
#include <QObject>

#include <memory>

namespace cohort {

struct AuditJob {
    QString taskId;
    QString nodeId;
    QByteArray publicKey;
    DilocoTaskConfig config;
    uint64_t dataSeed = 0; // the node's (diloco::dataSeedFor its id): never the node's word
    std::shared_ptr<const diloco::AuditMaterial> material;
    // Also score the material's start state (the recorded revision step - 1, digest checked before the job) on the
    // held-out text: the hub's own measure of the shared model, once per revision.
    bool evaluateHeldOut = false;
};

struct AuditResult {
    bool passed = false;
    bool inconclusive = false; // the replay could not run (cancelled, no trainer in this build): neither verdict
    QString reason;
    double relativeError = -1;
    double seconds = 0;
    double heldOutLoss = -1; // of revision step - 1; -1: not asked for, or it could not be computed
};

class DilocoAuditor : public QObject {
    Q_OBJECT
public:
    explicit DilocoAuditor(QObject *parent = nullptr);
    ~DilocoAuditor() override; // cancels the replay in progress and waits for the thread (bounded)

    void submit(const AuditJob &job);
    int queued() const { return m_queued; }

Q_SIGNALS:
    void finished(const cohort::AuditJob &job, const cohort::AuditResult &result);

private:
    // Its link's stop flag cancels the replay in progress; results come back through it (ThreadLink::post).
    OwnedThread m_thread{QStringLiteral("cohort-diloco-audit"), this};
    QObject *m_worker = nullptr; // lives in m_thread, which deletes it: the jobs' context
    int m_queued = 0;
};

} // namespace cohort

Q_DECLARE_METATYPE(cohort::AuditJob)
Q_DECLARE_METATYPE(cohort::AuditResult)
