#pragma once
// The hub's side of DiLoCo tasks (prime-stack.md §1.9): one collectives master per "diloco" task, listening next to
// the API; it admits only nodes registered with this hub that have joined that task (their ed25519 node key proves
// itself in the master's signed challenge), and every all-reduce that all participants completed credits each of
// them in the ledger, once per outer step (the reduce's tag), at the task's reward rate x inner steps. The master
// carries no tensor data; the hub never sees the model. Lives in the hub's thread.
#include "core/Expected.h"
#include "net/ConnectionGate.h"

#include <QHostAddress>
#include <QJsonObject>
#include <QObject>

#include <functional>
#include <map>
#include <memory>

namespace cohort {

class HubStore;
class TaskCatalogue;
namespace collectives {
class Master;
}

struct DilocoTaskStats {
    quint16 masterPort = 0;
    int ringSize = 0;
    qint64 outerSteps = 0;      // all-reduces completed by every participant
    quint64 lastTag = 0;        // the last completed outer step (the nodes' tag)
    int lastWorldSize = 0;
    qint64 creditedSteps = 0;   // node x outer step credits written
    qint64 uncreditedSteps = 0; // outer steps of a ring below the task's min_ring_size: nobody earned
    qint64 refusedPeers = 0;
    qint64 abortedOperations = 0;
    qint64 excludedPeers = 0;   // excluded by the master: out-of-bound values, a lie, a stall (docs/ROBUSTNESS.md)
    quint64 recordedRevision = 0; // the shared state the master last recorded (and signed)
    QByteArray recordedDigest;
    QString lastExclusion;      // the last one's reason, naming the node
    QJsonObject toJson() const;
};

class DilocoCoordinator : public QObject {
    Q_OBJECT
public:
    // limits: each master's caps, and its handshake deadline (headerTimeoutMs; the hub passes its API listener's).
    DilocoCoordinator(HubStore &store, TaskCatalogue &catalogue, const ListenerLimits &limits = {}, QObject *parent = nullptr);
    ~DilocoCoordinator() override;

    // Starts a master per diloco task on `address`; port 0: any free port, otherwise port, port + 1, ... in catalogue
    // order. Writes each master's port into the catalogue (nodes read it from GET /v1/tasks).
    Status start(const QHostAddress &address, quint16 firstPort);
    // Before start: signs each master's shared-state record (MasterOptions::signRecord; the context is the task id).
    void setRecordSigner(std::function<QByteArray(const QByteArray &message)> signer) { m_signer = std::move(signer); }
    const DilocoTaskStats *stats(const QString &taskId) const;

private:
    void credit(const QString &taskId, quint64 tag, const QList<QByteArray> &publicKeys);

    HubStore &m_store;
    TaskCatalogue &m_catalogue;
    ListenerLimits m_limits;
    std::function<QByteArray(const QByteArray &)> m_signer;
    std::map<QString, std::unique_ptr<collectives::Master>> m_masters;
    std::map<QString, DilocoTaskStats> m_stats;
};

} // namespace cohort
