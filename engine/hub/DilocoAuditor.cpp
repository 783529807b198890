#include "hub/DilocoAuditor.h"

#include "diloco/DilocoReplay.h"

namespace cohort {

DilocoAuditor::DilocoAuditor(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<cohort::AuditJob>();
    qRegisterMetaType<cohort::AuditResult>();
    m_worker = new QObject;
    m_thread.host(m_worker);
    m_thread.startEventLoop(QThread::LowPriority);
}

DilocoAuditor::~DilocoAuditor()
{
    // The replay in progress stops at its next inner step (it polls the stop flag); the warning, if it does not
    // stop in time, comes from OwnedThread (cohort.threads).
    m_thread.stop(std::chrono::seconds(30));
}

void DilocoAuditor::submit(const AuditJob &job)
{
    ++m_queued;
    QMetaObject::invokeMethod(
        m_worker,
        [this, job, link = m_thread.link()] {
            AuditResult result;
            auto replayed = diloco::replayOuterStep(job.config, job.dataSeed, *job.material, link.stopFlag());
            if (!replayed) {
                result.inconclusive = true;
                result.reason = replayed.error();
            } else {
                result.passed = replayed->passed;
                result.reason = replayed->reason;
                result.relativeError = replayed->relativeError;
                result.seconds = replayed->seconds;
            }
            if (job.evaluateHeldOut)
                if (auto loss = diloco::heldOutLoss(job.config, job.material->global, link.stopFlag()))
                    result.heldOutLoss = *loss;
            // Runs only while the auditor lives and has not let go of this thread: `this` is safe there.
            link.post([this, job, result] {
                --m_queued;
                Q_EMIT finished(job, result);
            });
        },
        Qt::QueuedConnection);
}

} // namespace cohort
