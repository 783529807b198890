#pragma once
// <dataDir>/cohort.sqlite: what the node keeps about itself between runs (the earnings cache, GPU telemetry history).
// One QtSql connection per instance, in WAL mode with a busy timeout, so a second instance (a test, cohortd
// next to the desktop app) waits for a writer instead of failing. Use an instance only from the thread that
// opened it: QtSql connections are bound to their thread.
// The schema version of the whole file is PRAGMA user_version; open() brings an older file up to date step by step
// and refuses a newer one. A damaged or foreign file is reported as an error and left exactly as it was.
#include "core/Expected.h"

#include <QSqlDatabase>
#include <QString>
#include <memory>

namespace cohort {

class NodeDatabase {
public:
    static constexpr int kSchemaVersion = 2;

    static Expected<std::unique_ptr<NodeDatabase>> open(const QString &path);
    ~NodeDatabase();
    NodeDatabase(const NodeDatabase &) = delete;
    NodeDatabase &operator=(const NodeDatabase &) = delete;

    QSqlDatabase connection() const;
    const QString &path() const { return m_path; }

private:
    NodeDatabase(QString connectionName, QString path);
    Status migrate();

    QString m_connection;
    QString m_path;
};

} // namespace cohort
