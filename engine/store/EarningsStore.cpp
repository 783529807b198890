#include "store/EarningsStore.h"

#include "core/JsonReader.h"
#include "store/NodeDatabase.h"

#include <QDir>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <cmath>

namespace cohort {

namespace {
bool validAmount(double d)
{
    return std::isfinite(d) && d >= 0;
}
} // namespace

EarningsStore::EarningsStore(std::unique_ptr<NodeDatabase> database)
    : m_db(std::move(database))
{}

EarningsStore::~EarningsStore() = default;

QString EarningsStore::defaultPath(const QString &dataDir)
{
    return QDir(dataDir).filePath(QStringLiteral("cohort.sqlite"));
}

Expected<std::unique_ptr<EarningsStore>> EarningsStore::open(const QString &path)
{
    auto database = NodeDatabase::open(path);
    if (!database)
        return fail(database.error());
    return std::unique_ptr<EarningsStore>(new EarningsStore(std::move(database).value()));
}

QString EarningsStore::path() const
{
    return m_db->path();
}

Status EarningsStore::save(const QString &hub, const EarningsReport &report)
{
    if (hub.isEmpty() || report.nodeId.isEmpty())
        return fail(QStringLiteral("earnings cache: a report needs a hub and a node id to be saved"));
    QSqlDatabase db = m_db->connection();
    if (!db.transaction())
        return fail(QStringLiteral("earnings cache %1: %2").arg(path(), db.lastError().text()));

    // The history is stored once, in rows; the cached JSON carries only the sums and tasks.
    EarningsReport head = report;
    head.history.clear();
    QSqlQuery q(db);
    q.prepare(
        QStringLiteral("INSERT OR REPLACE INTO earnings_reports(hub, node_id, report, saved_at) VALUES(?, ?, ?, ?)"));
    q.addBindValue(hub);
    q.addBindValue(report.nodeId);
    q.addBindValue(QString::fromUtf8(QJsonDocument(head.toJson()).toJson(QJsonDocument::Compact)));
    q.addBindValue(QDateTime::currentSecsSinceEpoch());
    bool ok = q.exec();

    if (ok && !report.history.isEmpty()) {
        ok = q.prepare(QStringLiteral(
            "INSERT OR REPLACE INTO earnings_history(hub, node_id, hour, pending, confirmed, refused, tokens)"
            " VALUES(?, ?, ?, ?, ?, ?, ?)"));
        for (const EarningsBucket &b : report.history) {
            if (!ok)
                break;
            q.addBindValue(hub);
            q.addBindValue(report.nodeId);
            q.addBindValue(b.hourStart.toSecsSinceEpoch());
            q.addBindValue(b.amounts.pending);
            q.addBindValue(b.amounts.confirmed);
            q.addBindValue(b.amounts.refused);
            q.addBindValue(b.tokens);
            ok = q.exec();
        }
    }
    if (!ok) {
        const QString error = q.lastError().text();
        db.rollback();
        return fail(QStringLiteral("earnings cache %1: cannot save: %2").arg(path(), error));
    }
    if (!db.commit())
        return fail(QStringLiteral("earnings cache %1: cannot save: %2").arg(path(), db.lastError().text()));
    return {};
}

Expected<std::optional<EarningsReport>> EarningsStore::load(const QString &hub, const QString &nodeId) const
{
    QSqlQuery q(m_db->connection());
    q.prepare(QStringLiteral("SELECT report FROM earnings_reports WHERE hub = ? AND node_id = ?"));
    q.addBindValue(hub);
    q.addBindValue(nodeId);
    if (!q.exec())
        return fail(QStringLiteral("earnings cache %1: cannot read: %2").arg(path(), q.lastError().text()));
    if (!q.next())
        return std::optional<EarningsReport>();

    // Read back as strictly as from the hub: the file may have been edited or damaged on disk.
    auto json = parseJsonObject(q.value(0).toString().toUtf8());
    if (!json)
        return fail(QStringLiteral("earnings cache %1: damaged report: %2").arg(path(), json.error()));
    auto parsed = EarningsReport::fromJson(*json);
    if (!parsed)
        return fail(QStringLiteral("earnings cache %1: damaged report: %2").arg(path(), parsed.error()));
    EarningsReport report = std::move(parsed).value();

    // Newest first with a limit, so a node that has run for years still loads a bounded history.
    q.prepare(QStringLiteral("SELECT hour, pending, confirmed, refused, tokens FROM earnings_history"
                             " WHERE hub = ? AND node_id = ? ORDER BY hour DESC LIMIT ?"));
    q.addBindValue(hub);
    q.addBindValue(nodeId);
    q.addBindValue(EarningsReport::kMaxItems);
    if (!q.exec())
        return fail(QStringLiteral("earnings cache %1: cannot read the history: %2").arg(path(), q.lastError().text()));
    while (q.next()) {
        EarningsBucket b;
        b.hourStart = QDateTime::fromSecsSinceEpoch(q.value(0).toLongLong(), Qt::UTC);
        b.amounts = {q.value(1).toDouble(), q.value(2).toDouble(), q.value(3).toDouble()};
        b.tokens = q.value(4).toLongLong();
        if (!validAmount(b.amounts.pending) || !validAmount(b.amounts.confirmed) || !validAmount(b.amounts.refused) ||
            b.tokens < 0)
            return fail(QStringLiteral("earnings cache %1: damaged history row for %2")
                            .arg(path(), b.hourStart.toString(Qt::ISODate)));
        report.history.append(b);
    }
    std::reverse(report.history.begin(), report.history.end());
    return std::optional<EarningsReport>(std::move(report));
}

} // namespace cohort
