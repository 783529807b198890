#pragma once
// One SQLite file on one QtSql connection, opened the same way by every store (the node's database, the hub's):
// WAL mode with a busy timeout, so a second instance (a test, cohortd next to the desktop app, a hub's operator
// command) waits for a writer instead of failing. Use an instance only from the thread that opened it: QtSql
// connections are bound to their thread.
// open() brings an older file up to date step by step and refuses a newer one. A file that is not SQLite is reported
// as an error and left exactly as it was. Before the version is read the file is switched to WAL (a header change
// only, as the stores always did), and a hub file without its meta table gets one; a SQLite file with no version
// record counts as version 0 and is brought up to date.
#include "core/Expected.h"

#include <QSqlDatabase>
#include <QString>
#include <initializer_list>
#include <memory>
#include <span>

namespace cohort {

// Migration step: takes a file from schema version-1 to version. Steps are only ever appended; a shipped step never
// changes, because files in the field have already run it.
struct SqliteStep {
    int version;
    std::initializer_list<const char *> statements;
};

// Where a file records its schema version. The hub's database kept it in a table before this helper existed, and
// the hubs in the field must go on reading it there.
enum class SqliteVersionRecord {
    UserVersion, // PRAGMA user_version
    MetaTable,   // the value under key 'schema_version' in meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)
};

class SqliteFile {
public:
    // what names the file in messages ("node database"). steps: in increasing version order; the last one's version
    // is the newest schema this build knows. The folder of path must exist.
    static Expected<std::unique_ptr<SqliteFile>> open(const QString &path, const QString &what,
                                                      std::span<const SqliteStep> steps,
                                                      SqliteVersionRecord record = SqliteVersionRecord::UserVersion);
    ~SqliteFile();
    SqliteFile(const SqliteFile &) = delete;
    SqliteFile &operator=(const SqliteFile &) = delete;

    QSqlDatabase connection() const;
    // For classes that share the file's connection and look it up by name (QSqlDatabase::database()).
    const QString &connectionName() const { return m_connection; }
    const QString &path() const { return m_path; }

private:
    SqliteFile(QString connectionName, QString path, QString what);
    Status migrate(std::span<const SqliteStep> steps, SqliteVersionRecord record);
    Expected<int> readVersion(SqliteVersionRecord record);

    QString m_connection;
    QString m_path;
    QString m_what;
};

} // namespace cohort
