#pragma once
// <dataDir>/cohort.sqlite: what the node keeps about itself between runs (the earnings cache, GPU telemetry history).
// The file is opened and migrated by SqliteFile (WAL, busy timeout, one instance per thread); this class holds the
// node's schema. Its version is PRAGMA user_version.
#include "core/Expected.h"

#include <QSqlDatabase>
#include <QString>
#include <memory>

namespace cohort {

class SqliteFile;

class NodeDatabase {
public:
    static constexpr int kSchemaVersion = 2;

    // Creates the folder of path when it is missing: the node's data folder may not exist yet.
    static Expected<std::unique_ptr<NodeDatabase>> open(const QString &path);
    ~NodeDatabase();
    NodeDatabase(const NodeDatabase &) = delete;
    NodeDatabase &operator=(const NodeDatabase &) = delete;

    QSqlDatabase connection() const;
    const QString &path() const;

private:
    explicit NodeDatabase(std::unique_ptr<SqliteFile> file);

    std::unique_ptr<SqliteFile> m_file;
};

} // namespace cohort
