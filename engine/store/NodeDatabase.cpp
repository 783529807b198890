#include "store/NodeDatabase.h"

#include <QDir>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>
#include <QVariant>

#include <initializer_list>
#include <iterator>

namespace cohort {

namespace {
// Migration hook: step N takes a file from user_version N-1 to N. Steps are only ever appended; a shipped step
// never changes, because files in the field have already run it.
struct Migration {
    int toVersion;
    std::initializer_list<const char *> statements;
};

const Migration kMigrations[] = {
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

NodeDatabase::NodeDatabase(QString connectionName, QString path)
    : m_connection(std::move(connectionName)),
      m_path(std::move(path))
{}

NodeDatabase::~NodeDatabase()
{
    {
        QSqlDatabase db = QSqlDatabase::database(m_connection, false);
        if (db.isOpen())
            db.close();
    }
    QSqlDatabase::removeDatabase(m_connection);
}

QSqlDatabase NodeDatabase::connection() const
{
    return QSqlDatabase::database(m_connection, false);
}

Expected<std::unique_ptr<NodeDatabase>> NodeDatabase::open(const QString &path)
{
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
        return fail(QStringLiteral("cannot open %1: Qt's SQLite driver (QSQLITE) is not installed").arg(path));
    QDir().mkpath(QFileInfo(path).absolutePath());
    // Unique per instance: two stores on the same file (or the hub's store in the same process) never share one.
    const QString name = QStringLiteral("cohort-node-db-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
    std::unique_ptr<NodeDatabase> database(new NodeDatabase(name, path));
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    db.setDatabaseName(path);
    if (!db.open())
        return fail(QStringLiteral("cannot open the node database %1: %2").arg(path, db.lastError().text()));
    // busy_timeout first: it is what lets the WAL switch wait for another instance's lock.
    // journal_mode is the first statement that reads the file, so a file that is not SQLite fails here, unchanged.
    QSqlQuery q(db);
    for (const char *pragma : {"PRAGMA busy_timeout=5000", "PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL"}) {
        if (!q.exec(QLatin1String(pragma)))
            return fail(QStringLiteral("the node database %1 is not usable (%2). It was left untouched; move it away "
                                       "to start afresh.")
                            .arg(path, q.lastError().text()));
    }
    if (Status migrated = database->migrate(); !migrated)
        return fail(migrated.error());
    return database;
}

Status NodeDatabase::migrate()
{
    QSqlDatabase db = connection();
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next())
        return fail(QStringLiteral("the node database %1 is damaged: %2").arg(m_path, q.lastError().text()));
    const int version = q.value(0).toInt();
    if (version > kSchemaVersion)
        return fail(QStringLiteral("the node database %1 was written by a newer Cohort (schema %2, this one knows %3)")
                        .arg(m_path)
                        .arg(version)
                        .arg(kSchemaVersion));
    for (const Migration &step : kMigrations) {
        if (step.toVersion <= version)
            continue;
        // One transaction per step, user_version included, so a crash leaves the file at a whole version.
        if (!db.transaction())
            return fail(QStringLiteral("cannot update the node database %1: %2").arg(m_path, db.lastError().text()));
        bool ok = true;
        for (const char *statement : step.statements)
            ok = ok && q.exec(QLatin1String(statement));
        ok = ok && q.exec(QStringLiteral("PRAGMA user_version=%1").arg(step.toVersion));
        if (!ok) {
            const QString error = q.lastError().text();
            db.rollback();
            return fail(QStringLiteral("cannot update the node database %1 to schema %2: %3")
                            .arg(m_path)
                            .arg(step.toVersion)
                            .arg(error));
        }
        if (!db.commit())
            return fail(QStringLiteral("cannot update the node database %1: %2").arg(m_path, db.lastError().text()));
    }
    return {};
}

} // namespace cohort
