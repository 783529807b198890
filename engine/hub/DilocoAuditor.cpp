#include "hub/DilocoAuditor.h"

#include "diloco/DilocoReplay.h"

#include <QLoggingCategory>
#include <QPointer>
#include <QThread>

Q_LOGGING_CATEGORY(lcHubAudit, "cohort.hub.audit")

namespace cohort {

DilocoAuditor::DilocoAuditor(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<cohort::AuditJob>();
    qRegisterMetaType<cohort::AuditResult>();
    m_thread = new QThread(this);
    m_thread->setObjectName(QStringLiteral("cohort-diloco-audit"));
    m_worker = new QObject;
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread->start(QThread::LowPriority);
}

DilocoAuditor::~DilocoAuditor()
{
    m_cancel->store(true); // the replay in progress stops at its next inner step
    m_thread->quit();
    if (!m_thread->wait(30'000))
        qCWarning(lcHubAudit) << "the audit thread did not stop within 30 s";
}

void DilocoAuditor::submit(const AuditJob &job)
{
    ++m_queued;
    QPointer<DilocoAuditor> self(this);
    QMetaObject::invokeMethod(m_worker, [self, job, cancel = m_cancel] {
        AuditResult result;
        auto replayed = diloco::replayOuterStep(job.config, job.dataSeed, *job.material, *cancel);
        if (!replayed) {
            result.inconclusive = true;
            result.reason = replayed.error();
        } else {
            result.passed = replayed->passed;
            result.reason = replayed->reason;
            result.relativeError = replayed->relativeError;
            result.seconds = replayed->seconds;
        }
        QMetaObject::invokeMethod(self, [self, job, result] {
            if (!self)
                return;
            --self->m_queued;
            Q_EMIT self->finished(job, result);
        }, Qt::QueuedConnection);
    }, Qt::QueuedConnection);
}

} // namespace cohort
