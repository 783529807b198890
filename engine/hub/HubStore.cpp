#include "hub/HubStore.h"

#include "core/Logging.h"
#include "net/Identity.h"
#include "store/SqliteFile.h"

#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <iterator>

namespace cohort {

namespace {
constexpr int kSchemaVersion = 8;

QJsonObject parseStoredJson(const QVariant &v)
{
    return QJsonDocument::fromJson(v.toByteArray()).object();
}

// SQLite's NOT NULL columns refuse a null QString, which is what an absent optional JSON field becomes.
QString text(const QString &s)
{
    return s.isNull() ? QStringLiteral("") : s;
}

QString compact(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

NodeRecord readNode(const QSqlQuery &q)
{
    NodeRecord n;
    n.nodeId = q.value(0).toString();
    n.publicKey = q.value(1).toByteArray();
    n.name = q.value(2).toString();
    n.clientVersion = q.value(3).toString();
    n.registeredAtMs = q.value(4).toLongLong();
    n.lastSeenMs = q.value(5).toLongLong();
    n.state = q.value(6).toString();
    n.reason = q.value(7).toString();
    n.why = q.value(8).toString();
    n.joinedTask = q.value(9).toString();
    n.hardware = parseStoredJson(q.value(10));
    n.metrics = parseStoredJson(q.value(11));
    n.heartbeats = q.value(12).toLongLong();
    n.payoutAddress = q.value(13).toString();
    return n;
}

const char kNodeColumns[] = "node_id, public_key, name, client_version, registered_at, last_seen, state, reason, why, "
                            "joined_task, hardware, metrics, heartbeats, payout_address";
} // namespace

QJsonObject NodeRecord::toJson(qint64 nowMs, qint64 onlineWindowMs) const
{
    return QJsonObject{
        {QStringLiteral("node_id"), nodeId},
        {QStringLiteral("public_key"), QString::fromLatin1(publicKey.toBase64())},
        {QStringLiteral("name"), name},
        {QStringLiteral("client_version"), clientVersion},
        {QStringLiteral("registered_at_ms"), registeredAtMs},
        {QStringLiteral("last_seen_ms"), lastSeenMs},
        {QStringLiteral("online"), nowMs - lastSeenMs <= onlineWindowMs},
        {QStringLiteral("state"), state},
        {QStringLiteral("reason"), reason},
        {QStringLiteral("why"), why},
        {QStringLiteral("joined_task"), joinedTask},
        {QStringLiteral("hardware"), hardware},
        {QStringLiteral("metrics"), metrics},
        {QStringLiteral("heartbeats"), heartbeats},
    };
}

QJsonObject NodeRecord::toPublicJson(qint64 nowMs, qint64 onlineWindowMs) const
{
    return QJsonObject{
        {QStringLiteral("node_id"), nodeId},
        {QStringLiteral("online"), nowMs - lastSeenMs <= onlineWindowMs},
        {QStringLiteral("state"), state},
        {QStringLiteral("joined_task"), joinedTask},
    };
}

namespace {
// The schema, one step per version: a database at version v runs the steps above v, each in a transaction that
// also records its version, so a crash leaves it at the last whole step. The version is kept in the table meta
// (key 'schema_version'), not in PRAGMA user_version: hub databases in the field were written that way.
const SqliteStep kSchemaSteps[] = {
    // v1: the nodes.
    {1,
     {
         "CREATE TABLE IF NOT EXISTS nodes("
         " node_id TEXT PRIMARY KEY, public_key BLOB NOT NULL UNIQUE, name TEXT NOT NULL,"
         " client_version TEXT NOT NULL DEFAULT '', registered_at INTEGER NOT NULL,"
         " last_seen INTEGER NOT NULL, state TEXT NOT NULL DEFAULT '', reason TEXT NOT NULL DEFAULT '',"
         " why TEXT NOT NULL DEFAULT '', joined_task TEXT NOT NULL DEFAULT '',"
         " hardware TEXT NOT NULL DEFAULT '{}', metrics TEXT NOT NULL DEFAULT '{}',"
         " heartbeats INTEGER NOT NULL DEFAULT 0)",
     }},
    // v2: the RL ledger — work handed out, rollout submissions and what they earned (hub/Ledger).
    {2,
     {
         "CREATE TABLE IF NOT EXISTS work("
         " work_id TEXT PRIMARY KEY, node_id TEXT NOT NULL, task TEXT NOT NULL,"
         " step INTEGER NOT NULL, batch INTEGER NOT NULL, seed TEXT NOT NULL,"
         " issued_at INTEGER NOT NULL, status TEXT NOT NULL DEFAULT 'open')",
         "CREATE INDEX IF NOT EXISTS work_by_node ON work(node_id, task, status)",
         "CREATE TABLE IF NOT EXISTS batch_counters("
         " node_id TEXT NOT NULL, task TEXT NOT NULL, next_batch INTEGER NOT NULL,"
         " PRIMARY KEY(node_id, task))",
         "CREATE TABLE IF NOT EXISTS submissions("
         " submission_id TEXT PRIMARY KEY, node_id TEXT NOT NULL, task TEXT NOT NULL,"
         " work_id TEXT NOT NULL, version INTEGER NOT NULL, status TEXT NOT NULL,"
         " reason TEXT NOT NULL DEFAULT '', tokens INTEGER NOT NULL DEFAULT 0,"
         " credit REAL NOT NULL DEFAULT 0, mean_reward REAL NOT NULL DEFAULT 0,"
         " created_at INTEGER NOT NULL, verified_at INTEGER NOT NULL DEFAULT 0,"
         " response TEXT NOT NULL DEFAULT '{}')",
         "CREATE INDEX IF NOT EXISTS submissions_by_node ON submissions(node_id, created_at)",
         "CREATE INDEX IF NOT EXISTS submissions_by_task ON submissions(task, version)",
     }},
    // v3: TOPLOC verification statistics with each submission, and per-node proof failures (flags).
    {3,
     {
         "ALTER TABLE submissions ADD COLUMN rollouts_checked INTEGER NOT NULL DEFAULT 0",
         "ALTER TABLE submissions ADD COLUMN proof_chunks INTEGER NOT NULL DEFAULT 0",
         "ALTER TABLE submissions ADD COLUMN proof_worst_exp INTEGER NOT NULL DEFAULT -1",
         "ALTER TABLE submissions ADD COLUMN proof_worst_points INTEGER NOT NULL DEFAULT 0",
         "ALTER TABLE submissions ADD COLUMN proof_worst_mean REAL NOT NULL DEFAULT -1",
         "ALTER TABLE submissions ADD COLUMN proof_worst_median REAL NOT NULL DEFAULT -1",
         "ALTER TABLE submissions ADD COLUMN proof_failed INTEGER NOT NULL DEFAULT 0",
         "ALTER TABLE submissions ADD COLUMN mean_log_prob REAL NOT NULL DEFAULT 0",
         "CREATE TABLE IF NOT EXISTS node_flags("
         " node_id TEXT NOT NULL, task TEXT NOT NULL, proof_failures INTEGER NOT NULL DEFAULT 0,"
         " last_failure_at INTEGER NOT NULL DEFAULT 0, flagged_at INTEGER NOT NULL DEFAULT 0,"
         " reason TEXT NOT NULL DEFAULT '', PRIMARY KEY(node_id, task))",
     }},
    // v4: the payout address each node last sent (empty: none), for the ledger's payouts.
    {4,
     {
         "ALTER TABLE nodes ADD COLUMN payout_address TEXT NOT NULL DEFAULT ''",
     }},
    // v5: an accepted submission's body (compressed) until its verdict, so a restarted hub verifies it again
    // instead of leaving it pending for ever; the verifiable-sampling figures of each verdict.
    {5,
     {
         "ALTER TABLE submissions ADD COLUMN pending_body BLOB",
         "ALTER TABLE submissions ADD COLUMN sampling_worst_gap REAL NOT NULL DEFAULT -1",
         "ALTER TABLE submissions ADD COLUMN off_sample_tokens INTEGER NOT NULL DEFAULT 0",
     }},
    // v6: the evidence behind DiLoCo credit (hub/DilocoEvidence): each node's commitment per outer step with its
    // audit, and the shared state's record per revision (what an audited step must have started from, and what a
    // restarted master continues from: digest and holders' keys).
    {6,
     {
         "CREATE TABLE IF NOT EXISTS diloco_commitments("
         " task TEXT NOT NULL, node_id TEXT NOT NULL, step INTEGER NOT NULL,"
         " start_digest BLOB NOT NULL, adam_digest BLOB NOT NULL, delta_digest BLOB NOT NULL,"
         " delta_norm REAL NOT NULL, audit TEXT NOT NULL DEFAULT '', audit_reason TEXT NOT NULL DEFAULT '',"
         " relative_error REAL NOT NULL DEFAULT -1, audit_seconds REAL NOT NULL DEFAULT 0,"
         " created_at INTEGER NOT NULL, PRIMARY KEY(task, node_id, step))",
         "CREATE TABLE IF NOT EXISTS diloco_records("
         " task TEXT NOT NULL, revision INTEGER NOT NULL, digest BLOB NOT NULL, holders BLOB NOT NULL DEFAULT '',"
         " recorded_at INTEGER NOT NULL DEFAULT 0, PRIMARY KEY(task, revision))",
     }},
    // v7: each published version's score on the task's held-out problems (issue 24), greedy and sampled.
    {7,
     {
         "CREATE TABLE IF NOT EXISTS evaluations("
         " task TEXT NOT NULL, version INTEGER NOT NULL, mode TEXT NOT NULL,"
         " problems INTEGER NOT NULL, reward REAL NOT NULL, correctness REAL NOT NULL,"
         " format REAL NOT NULL, evaluated_at INTEGER NOT NULL, PRIMARY KEY(task, version, mode))",
     }},
    // v8: a DiLoCo task's held-out loss per recorded revision, measured by the hub on the state an audit brought
    // (its digest checked against the record first): the shared model's quality, in no node's word (issue 24).
    {8,
     {
         "CREATE TABLE IF NOT EXISTS diloco_held_out("
         " task TEXT NOT NULL, revision INTEGER NOT NULL, loss REAL NOT NULL,"
         " evaluated_at INTEGER NOT NULL, PRIMARY KEY(task, revision))",
     }},
};
static_assert(std::size(kSchemaSteps) == size_t(kSchemaVersion), "one step per schema version");
} // namespace

HubStore::HubStore(std::unique_ptr<SqliteFile> file)
    : m_file(std::move(file))
{}

HubStore::~HubStore() = default;

Expected<std::unique_ptr<HubStore>> HubStore::open(const QString &path)
{
    auto file = SqliteFile::open(path, QStringLiteral("hub database"), kSchemaSteps, SqliteVersionRecord::MetaTable);
    if (!file)
        return fail(file.error());
    return std::unique_ptr<HubStore>(new HubStore(std::move(file).value()));
}

QString HubStore::path() const
{
    return m_file->path();
}

QString HubStore::connectionName() const
{
    return m_file->connectionName();
}

Expected<NodeRecord> HubStore::registerNode(const QByteArray &publicKey, const QString &name,
                                            const QString &clientVersion, const QJsonObject &hardware, qint64 nowMs,
                                            const std::optional<QString> &payoutAddress)
{
    QSqlQuery q(m_file->connection());
    q.prepare(
        QStringLiteral("INSERT INTO nodes(node_id, public_key, name, client_version, registered_at, last_seen, "
                       "hardware, payout_address)"
                       " VALUES(:id, :key, :name, :version, :now, :now, :hardware, :payout)"
                       " ON CONFLICT(node_id) DO UPDATE SET name=excluded.name, client_version=excluded.client_version,"
                       " last_seen=excluded.last_seen, hardware=excluded.hardware,"
                       " payout_address=CASE WHEN :hasPayout THEN excluded.payout_address ELSE payout_address END"));
    q.bindValue(QStringLiteral(":payout"), text(payoutAddress.value_or(QString())));
    q.bindValue(QStringLiteral(":hasPayout"), payoutAddress.has_value());
    q.bindValue(QStringLiteral(":id"), Identity::nodeIdFor(publicKey));
    q.bindValue(QStringLiteral(":key"), publicKey);
    q.bindValue(QStringLiteral(":name"), text(name));
    q.bindValue(QStringLiteral(":version"), text(clientVersion));
    q.bindValue(QStringLiteral(":now"), nowMs);
    q.bindValue(QStringLiteral(":hardware"), compact(hardware));
    if (!q.exec())
        return fail(QStringLiteral("cannot store the node: %1").arg(q.lastError().text()));
    auto record = nodeByKey(publicKey);
    if (!record)
        return fail(QStringLiteral("the node vanished right after it was stored"));
    return *record;
}

Expected<bool> HubStore::recordHeartbeat(const QByteArray &publicKey, const HeartbeatRecord &hb, qint64 nowMs)
{
    QSqlQuery q(m_file->connection());
    q.prepare(QStringLiteral(
        "UPDATE nodes SET last_seen=:now, state=:state, reason=:reason, why=:why, joined_task=:task, metrics=:metrics,"
        " hardware=CASE WHEN :hasHardware THEN :hardware ELSE hardware END, heartbeats=heartbeats+1,"
        " payout_address=CASE WHEN :hasPayout THEN :payout ELSE payout_address END"
        " WHERE public_key=:key"));
    q.bindValue(QStringLiteral(":hasPayout"), hb.payoutAddress.has_value());
    q.bindValue(QStringLiteral(":payout"), text(hb.payoutAddress.value_or(QString())));
    q.bindValue(QStringLiteral(":now"), nowMs);
    q.bindValue(QStringLiteral(":state"), text(hb.state));
    q.bindValue(QStringLiteral(":reason"), text(hb.reason));
    q.bindValue(QStringLiteral(":why"), text(hb.why));
    q.bindValue(QStringLiteral(":task"), text(hb.joinedTask));
    q.bindValue(QStringLiteral(":metrics"), compact(hb.metrics));
    q.bindValue(QStringLiteral(":hasHardware"), !hb.hardware.isEmpty());
    q.bindValue(QStringLiteral(":hardware"), compact(hb.hardware));
    q.bindValue(QStringLiteral(":key"), publicKey);
    if (!q.exec())
        return fail(QStringLiteral("cannot record the heartbeat: %1").arg(q.lastError().text()));
    return q.numRowsAffected() > 0;
}

std::optional<NodeRecord> HubStore::node(const QString &nodeId) const
{
    QSqlQuery q(m_file->connection());
    q.prepare(QStringLiteral("SELECT %1 FROM nodes WHERE node_id=:id").arg(QLatin1String(kNodeColumns)));
    q.bindValue(QStringLiteral(":id"), nodeId);
    if (q.exec() && q.next())
        return readNode(q);
    return std::nullopt;
}

bool HubStore::isRegistered(const QByteArray &publicKey) const
{
    QSqlQuery q(m_file->connection());
    q.prepare(QStringLiteral("SELECT 1 FROM nodes WHERE public_key=:key"));
    q.bindValue(QStringLiteral(":key"), publicKey);
    return q.exec() && q.next();
}

HubStore::NodeCounts HubStore::nodeCounts(qint64 nowMs, qint64 onlineWindowMs) const
{
    QSqlQuery q(m_file->connection());
    q.prepare(QStringLiteral("SELECT COUNT(*), COALESCE(SUM(last_seen >= :since), 0) FROM nodes"));
    q.bindValue(QStringLiteral(":since"), nowMs - onlineWindowMs);
    NodeCounts counts;
    if (q.exec() && q.next()) {
        counts.registered = q.value(0).toLongLong();
        counts.online = q.value(1).toLongLong();
    }
    return counts;
}

std::optional<NodeRecord> HubStore::nodeByKey(const QByteArray &publicKey) const
{
    QSqlQuery q(m_file->connection());
    q.prepare(QStringLiteral("SELECT %1 FROM nodes WHERE public_key=:key").arg(QLatin1String(kNodeColumns)));
    q.bindValue(QStringLiteral(":key"), publicKey);
    if (q.exec() && q.next())
        return readNode(q);
    return std::nullopt;
}

QList<NodeRecord> HubStore::nodes() const
{
    QList<NodeRecord> out;
    QSqlQuery q(m_file->connection());
    if (!q.exec(QStringLiteral("SELECT %1 FROM nodes ORDER BY registered_at").arg(QLatin1String(kNodeColumns))))
        return out;
    while (q.next())
        out.append(readNode(q));
    return out;
}

QList<NodeRecord> HubStore::nodesPage(const QString &afterNodeId, int limit, bool publicOnly) const
{
    QList<NodeRecord> out;
    QSqlQuery q(m_file->connection());
    const QString columns =
        publicOnly ? QStringLiteral("node_id, last_seen, state, joined_task") : QLatin1String(kNodeColumns);
    q.prepare(QStringLiteral("SELECT %1 FROM nodes WHERE node_id > :after ORDER BY node_id LIMIT :limit").arg(columns));
    q.bindValue(QStringLiteral(":after"),
                afterNodeId.isNull() ? QStringLiteral("") : afterNodeId); // a null QString binds NULL
    q.bindValue(QStringLiteral(":limit"), limit);
    if (!q.exec())
        return out;
    while (q.next()) {
        if (!publicOnly) {
            out.append(readNode(q));
            continue;
        }
        NodeRecord n;
        n.nodeId = q.value(0).toString();
        n.lastSeenMs = q.value(1).toLongLong();
        n.state = q.value(2).toString();
        n.joinedTask = q.value(3).toString();
        out.append(n);
    }
    return out;
}

} // namespace cohort
