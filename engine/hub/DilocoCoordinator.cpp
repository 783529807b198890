#include "hub/DilocoCoordinator.h"

#include "collectives/Master.h"
#include "hub/HubStore.h"
#include "hub/Ledger.h"
#include "hub/TaskCatalogue.h"
#include "net/Identity.h"

#include <QDateTime>
#include <climits>
#include <QJsonDocument>
#include <QLoggingCategory>

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
                       {QStringLiteral("last_exclusion"), lastExclusion}};
}

DilocoCoordinator::DilocoCoordinator(HubStore &store, TaskCatalogue &catalogue, const ListenerLimits &limits, QObject *parent)
    : QObject(parent), m_store(store), m_catalogue(catalogue), m_limits(limits)
{}

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
        // Admission: a key that proved itself in the challenge must belong to a node registered here that has
        // joined this task (its last heartbeat says so). Anyone else is refused before joining any ring.
        options.admit = [this, taskId](const QByteArray &publicKey) {
            const std::optional<NodeRecord> node = m_store.nodeByKey(publicKey);
            return node && node->joinedTask == taskId;
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
                    stats.lastExclusion = QStringLiteral("node %1: %2").arg(node ? node->nodeId : QStringLiteral("?"), reason);
                    qCWarning(lcHubDiloco) << "excluded from" << taskId << ":" << stats.lastExclusion;
                });
        connect(m, &collectives::Master::stateRecorded, this, [this, taskId](quint64 revision, const QByteArray &digest) {
            m_stats[taskId].recordedRevision = revision;
            m_stats[taskId].recordedDigest = digest;
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
        record.status = QStringLiteral("confirmed");
        record.reason = QStringLiteral("outer step %1 averaged with %2 peers").arg(tag).arg(publicKeys.size());
        record.credit = amount;
        record.createdAtMs = now;
        record.response = QJsonDocument(QJsonObject{{QStringLiteral("outer_step"), qint64(tag)}}).toJson(QJsonDocument::Compact);
        if (Status s = ledger.recordSubmission(record); !s) {
            qCWarning(lcHubDiloco) << "cannot credit" << nodeId << "for outer step" << tag << ":" << s.error();
            continue;
        }
        ++stats.creditedSteps;
    }
}

} // namespace cohort
