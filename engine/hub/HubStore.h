#pragma once
// The hub's durable state in SQLite (QtSql, WAL mode), opened and migrated by store/SqliteFile. Used from one thread
// only: the hub's.
#include "core/Expected.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <memory>
#include <optional>

namespace cohort {

class SqliteFile;

struct NodeRecord {
    QString nodeId;
    QByteArray publicKey;
    QString name;
    QString clientVersion;
    qint64 registeredAtMs = 0;
    qint64 lastSeenMs = 0;
    QString state;
    QString reason;
    QString why;
    QString joinedTask;
    QJsonObject hardware;
    QJsonObject metrics;
    qint64 heartbeats = 0;
    QString payoutAddress; // where the node's earnings go; empty: none given. Private: not in toJson()

    // online: seen within onlineWindowMs of nowMs. The whole record, for the node itself and the operator.
    QJsonObject toJson(qint64 nowMs, qint64 onlineWindowMs) const;
    // What anyone may see: id, state, task and whether it is online. Not the hardware (GPU UUIDs, kernel), the
    // reason and why (they tell whether a person is at the keyboard), name, metrics or key.
    QJsonObject toPublicJson(qint64 nowMs, qint64 onlineWindowMs) const;
};

struct HeartbeatRecord {
    QString state;
    QString reason;
    QString why;
    QString joinedTask;
    QJsonObject hardware; // empty: keep the stored inventory
    QJsonObject metrics;
    std::optional<QString> payoutAddress; // absent: keep the stored one (a client that does not send it)
};

class HubStore {
public:
    static Expected<std::unique_ptr<HubStore>> open(const QString &path);
    ~HubStore();
    HubStore(const HubStore &) = delete;
    HubStore &operator=(const HubStore &) = delete;

    // Creates the node or refreshes its name/version/hardware (and payout address, when given); registration time
    // is kept.
    Expected<NodeRecord> registerNode(const QByteArray &publicKey, const QString &name, const QString &clientVersion,
                                      const QJsonObject &hardware, qint64 nowMs,
                                      const std::optional<QString> &payoutAddress = std::nullopt);
    // Returns false (no error) if the key is not registered.
    Expected<bool> recordHeartbeat(const QByteArray &publicKey, const HeartbeatRecord &heartbeat, qint64 nowMs);
    std::optional<NodeRecord> node(const QString &nodeId) const;
    std::optional<NodeRecord> nodeByKey(const QByteArray &publicKey) const;
    bool isRegistered(const QByteArray &publicKey) const; // cheap: no columns read
    // Registered nodes, and those seen within onlineWindowMs of nowMs: one pass over the table (GET /metrics,
    // which computes it at most every few seconds).
    struct NodeCounts {
        qint64 registered = 0;
        qint64 online = 0;
    };
    NodeCounts nodeCounts(qint64 nowMs, qint64 onlineWindowMs) const;
    QList<NodeRecord> nodes() const;
    // One page of nodes ordered by id, after `afterNodeId` (empty: from the start). publicOnly reads only the
    // columns of the public view (no hardware or metrics blobs).
    QList<NodeRecord> nodesPage(const QString &afterNodeId, int limit, bool publicOnly) const;
    QString path() const;
    QString connectionName() const; // for the ledger, which shares the database

private:
    explicit HubStore(std::unique_ptr<SqliteFile> file);
    std::unique_ptr<SqliteFile> m_file;
};

} // namespace cohort
