// The hub's RL trainer for the fuzz build, which leaves LibTorch out (engine/hub/CMakeLists.txt says why): it
// declines to train, so RL tasks never leave their warm-up, and every route and parser in front of it runs as usual.
// Only fuzz targets link this file; nothing else may (the real trainer is RlTrainer.cpp).
#include "hub/RlTrainer.h"

namespace cohort {

// The trainer's members name these types; in this program they are never created.
namespace rl {
class Policy {};
class Trainer {};
} // namespace rl

RlTrainer::RlTrainer(QString taskId, RlTaskConfig config, QString stateDir, QObject *parent)
    : QObject(parent),
      m_taskId(std::move(taskId)),
      m_config(std::move(config)),
      m_stateDir(std::move(stateDir))
{}

RlTrainer::~RlTrainer() = default;

void RlTrainer::notifyPublished(const QString &, int)
{}

void RlTrainer::bootstrap(int)
{
    Q_EMIT failed(m_taskId, QStringLiteral("this fuzz build has no trainer"));
}

void RlTrainer::submit(const ValidatedBatch &batch)
{
    Q_EMIT verdict(batch.submissionId, false, QStringLiteral("this fuzz build has no trainer"), VerificationStats{});
}

void RlTrainer::applyPublished()
{}

} // namespace cohort

// The DiLoCo auditor likewise: every audit is inconclusive (no replay without LibTorch), the routes and parsers in
// front of it run as usual.
#include "hub/DilocoAuditor.h"

namespace cohort {

DilocoAuditor::DilocoAuditor(QObject *parent)
    : QObject(parent)
{}
DilocoAuditor::~DilocoAuditor() = default;

void DilocoAuditor::submit(const AuditJob &job)
{
    AuditResult result;
    result.inconclusive = true;
    result.reason = QStringLiteral("this fuzz build replays nothing");
    QMetaObject::invokeMethod(
        this, [this, job, result] { Q_EMIT finished(job, result); }, Qt::QueuedConnection);
}

} // namespace cohort
