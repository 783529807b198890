#include "store/SqliteFile.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>
#include <QVariant>

namespace cohort {

SqliteFile::SqliteFile(QString connectionName, QString path, QString what)
    : m_connection(std::move(connectionName)),
      m_path(std::move(path)),
      m_what(std::move(what))
{}

SqliteFile::~SqliteFile()
{
    {
        QSqlDatabase db = QSqlDatabase::database(m_connection, false);
        if (db.isOpen())
            db.close();
    }
    QSqlDatabase::removeDatabase(m_connection);
}

QSqlDatabase SqliteFile::connection() const
{
    return QSqlDatabase::database(m_connection, false);
}

Expected<std::unique_ptr<SqliteFile>> SqliteFile::open(const QString &path, const QString &what,
                                                       std::span<const SqliteStep> steps, SqliteVersionRecord record)
{
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
        return fail(QStringLiteral("cannot open %1: Qt's SQLite driver (QSQLITE) is not installed").arg(path));
    // Unique per instance: two stores on the same file (or the hub's and the node's in one process) never share one.
    QString name = QStringLiteral("cohort-%1-").arg(QString(what).replace(QLatin1Char(' '), QLatin1Char('-'))) +
                   QUuid::createUuid().toString(QUuid::WithoutBraces);
    std::unique_ptr<SqliteFile> file(new SqliteFile(name, path, what));
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    db.setDatabaseName(path);
    // The wait for another instance's lock is the pragma below, one number in one place; Qt's driver would otherwise
    // set its own default (also 5 s) on open.
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=0"));
    if (!db.open())
        return fail(QStringLiteral("cannot open the %1 %2: %3").arg(what, path, db.lastError().text()));
    // busy_timeout first: it is what lets the WAL switch wait for another instance's lock.
    // journal_mode is the first statement that reads the file, so a file that is not SQLite fails here, unchanged.
    QSqlQuery q(db);
    for (const char *pragma : {"PRAGMA busy_timeout=5000", "PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL"}) {
        if (!q.exec(QLatin1String(pragma)))
            return fail(QStringLiteral("the %1 %2 is not usable (%3). It was left untouched; move it away to start "
                                       "afresh.")
                            .arg(what, path, q.lastError().text()));
    }
    if (Status migrated = file->migrate(steps, record); !migrated)
        return fail(migrated.error());
    return file;
}

Expected<int> SqliteFile::readVersion(SqliteVersionRecord record)
{
    QSqlQuery q(connection());
    if (record == SqliteVersionRecord::UserVersion) {
        if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next())
            return fail(QStringLiteral("the %1 %2 is damaged: %3").arg(m_what, m_path, q.lastError().text()));
        return q.value(0).toInt();
    }
    // A file without the table gets it before its first step, as the hub always did (outside the steps' transactions);
    // a file that has it is only read here.
    if (!q.exec(QStringLiteral("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)")) ||
        !q.exec(QStringLiteral("SELECT value FROM meta WHERE key='schema_version'")))
        return fail(QStringLiteral("the %1 %2 is damaged: %3").arg(m_what, m_path, q.lastError().text()));
    return q.next() ? q.value(0).toInt() : 0;
}

Status SqliteFile::migrate(std::span<const SqliteStep> steps, SqliteVersionRecord record)
{
    const auto version = readVersion(record);
    if (!version)
        return fail(version.error());
    const int known = steps.empty() ? 0 : steps.back().version;
    if (*version > known)
        return fail(QStringLiteral("the %1 %2 was written by a newer Cohort (schema %3, this one knows %4)")
                        .arg(m_what, m_path, QString::number(*version), QString::number(known)));
    QSqlDatabase db = connection();
    QSqlQuery q(db);
    for (const SqliteStep &step : steps) {
        if (step.version <= *version)
            continue;
        // One transaction per step, the version record included, so a crash leaves the file at a whole version.
        if (!db.transaction())
            return fail(QStringLiteral("cannot update the %1 %2: %3").arg(m_what, m_path, db.lastError().text()));
        bool ok = true;
        for (const char *statement : step.statements)
            ok = ok && q.exec(QLatin1String(statement));
        ok = ok && q.exec(record == SqliteVersionRecord::UserVersion
                              ? QStringLiteral("PRAGMA user_version=%1").arg(step.version)
                              : QStringLiteral("INSERT OR REPLACE INTO meta(key, value) VALUES('schema_version', '%1')")
                                    .arg(step.version));
        if (!ok) {
            const QString error = q.lastError().text();
            db.rollback();
            return fail(QStringLiteral("cannot update the %1 %2 to schema %3: %4")
                            .arg(m_what, m_path, QString::number(step.version), error));
        }
        if (!db.commit())
            return fail(QStringLiteral("cannot update the %1 %2: %3").arg(m_what, m_path, db.lastError().text()));
    }
    return {};
}

} // namespace cohort
