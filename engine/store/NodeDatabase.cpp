#include "store/NodeDatabase.h"

#include "store/SqliteFile.h"

#include <QDir>
#include <QFileInfo>

#include <iterator>

namespace cohort {

namespace {
// The node's schema, one step per user_version (SqliteStep says how steps are kept).
const SqliteStep kMigrations[] = {
    {1,
     {// The latest report per hub and node, without its history (that lives in earnings_history).
      "CREATE TABLE earnings_reports(hub TEXT NOT NULL, node_id TEXT NOT NULL, report TEXT NOT NULL,"
      " saved_at INTEGER NOT NULL, PRIMARY KEY(hub, node_id))",
      // One row per hour (unix seconds, UTC), upserted, so hours the hub has stopped reporting are kept.
      "CREATE TABLE earnings_history(hub TEXT NOT NULL, node_id TEXT NOT NULL, hour INTEGER NOT NULL,"
      " pending REAL NOT NULL, confirmed REAL NOT NULL, refused REAL NOT NULL, tokens INTEGER NOT NULL,"
      " PRIMARY KEY(hub, node_id, hour)) WITHOUT ROWID"}},
    {2,
     {// GPU telemetry (GpuHistoryStore): one row per GPU per minute, averages; NULL where a value was unknown.
      "CREATE TABLE gpu_history(minute INTEGER NOT NULL, gpu TEXT NOT NULL, name TEXT NOT NULL, samples INTEGER NOT "
      "NULL,"
      " utilization REAL, memory_used REAL, memory_total REAL, temperature REAL, power REAL,"
      " PRIMARY KEY(minute, gpu)) WITHOUT ROWID"}},
};
static_assert(std::size(kMigrations) == NodeDatabase::kSchemaVersion, "one migration step per schema version");
} // namespace

NodeDatabase::NodeDatabase(std::unique_ptr<SqliteFile> file)
    : m_file(std::move(file))
{}

NodeDatabase::~NodeDatabase() = default;

QSqlDatabase NodeDatabase::connection() const
{
    return m_file->connection();
}

const QString &NodeDatabase::path() const
{
    return m_file->path();
}

Expected<std::unique_ptr<NodeDatabase>> NodeDatabase::open(const QString &path)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    auto file = SqliteFile::open(path, QStringLiteral("node database"), kMigrations);
    if (!file)
        return fail(file.error());
    return std::unique_ptr<NodeDatabase>(new NodeDatabase(std::move(file).value()));
}

} // namespace cohort
