#pragma once
// Read-only queries on a running hub's ledger (hub.sqlite in WAL mode) for integration tests: rows with their columns
// joined by '|'. Header-only, for the tests that link Qt6::Sql.
#include <QDir>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QStringList>
#include <QVariantMap>

namespace cohort::test {

inline QStringList ledgerRows(const QString &hubDir, const QString &sql, const QVariantMap &bindings = {})
{
    QStringList rows;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("ledger-reader"));
        db.setDatabaseName(QDir(hubDir).filePath(QStringLiteral("hub.sqlite")));
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=5000"));
        if (db.open()) {
            QSqlQuery q(db);
            q.prepare(sql);
            for (auto it = bindings.cbegin(); it != bindings.cend(); ++it)
                q.bindValue(it.key(), it.value());
            if (q.exec())
                while (q.next()) {
                    QStringList columns;
                    for (int c = 0; c < q.record().count(); ++c)
                        columns.append(q.value(c).toString());
                    rows.append(columns.join(QLatin1Char('|')));
                }
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("ledger-reader"));
    return rows;
}

} // namespace cohort::test
