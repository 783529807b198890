#include "store/GpuHistoryStore.h"

#include "store/NodeDatabase.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <cmath>

namespace cohort {

namespace {
QVariant orNull(double v)
{
    return std::isfinite(v) ? QVariant(v) : QVariant();
}

double orNaN(const QVariant &v)
{
    return v.isNull() ? qQNaN() : v.toDouble();
}
} // namespace

GpuHistoryStore::GpuHistoryStore(std::unique_ptr<NodeDatabase> database)
    : m_db(std::move(database))
{}

GpuHistoryStore::~GpuHistoryStore() = default;

Expected<std::unique_ptr<GpuHistoryStore>> GpuHistoryStore::open(const QString &path)
{
    auto database = NodeDatabase::open(path);
    if (!database)
        return fail(database.error());
    return std::unique_ptr<GpuHistoryStore>(new GpuHistoryStore(std::move(database).value()));
}

QString GpuHistoryStore::path() const
{
    return m_db->path();
}

Status GpuHistoryStore::save(const QList<GpuHistoryRecord> &minutes)
{
    if (minutes.isEmpty())
        return {};
    QSqlDatabase db = m_db->connection();
    if (!db.transaction())
        return fail(QStringLiteral("GPU history %1: %2").arg(path(), db.lastError().text()));
    QSqlQuery q(db);
    bool ok = q.prepare(
        QStringLiteral("INSERT OR REPLACE INTO gpu_history(minute, gpu, name, samples, utilization, memory_used,"
                       " memory_total, temperature, power) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const GpuHistoryRecord &r : minutes) {
        if (!ok)
            break;
        q.addBindValue(r.point.time);
        q.addBindValue(r.gpu);
        q.addBindValue(r.name);
        q.addBindValue(r.point.samples);
        q.addBindValue(orNull(r.point.utilizationPercent));
        q.addBindValue(orNull(r.point.memoryUsedBytes));
        q.addBindValue(orNull(r.point.memoryTotalBytes));
        q.addBindValue(orNull(r.point.temperatureC));
        q.addBindValue(orNull(r.point.powerW));
        ok = q.exec();
    }
    if (!ok) {
        const QString error = q.lastError().text();
        db.rollback();
        return fail(QStringLiteral("GPU history %1: cannot save: %2").arg(path(), error));
    }
    if (!db.commit())
        return fail(QStringLiteral("GPU history %1: cannot save: %2").arg(path(), db.lastError().text()));
    return {};
}

Expected<QList<GpuHistoryRecord>> GpuHistoryStore::load(qint64 since) const
{
    QSqlQuery q(m_db->connection());
    q.prepare(
        QStringLiteral("SELECT minute, gpu, name, samples, utilization, memory_used, memory_total, temperature, power"
                       " FROM gpu_history WHERE minute >= ? ORDER BY minute, gpu"));
    q.addBindValue(since);
    if (!q.exec())
        return fail(QStringLiteral("GPU history %1: cannot read: %2").arg(path(), q.lastError().text()));
    QList<GpuHistoryRecord> out;
    while (q.next()) {
        GpuHistoryRecord r;
        r.point.time = q.value(0).toLongLong();
        r.gpu = q.value(1).toString();
        r.name = q.value(2).toString();
        r.point.samples = qMax(1, q.value(3).toInt());
        r.point.utilizationPercent = orNaN(q.value(4));
        r.point.memoryUsedBytes = orNaN(q.value(5));
        r.point.memoryTotalBytes = orNaN(q.value(6));
        r.point.temperatureC = orNaN(q.value(7));
        r.point.powerW = orNaN(q.value(8));
        out.append(r);
    }
    return out;
}

Expected<double> GpuHistoryStore::energyWattHours(qint64 since, qint64 until) const
{
    QSqlQuery q(m_db->connection());
    q.prepare(QStringLiteral("SELECT TOTAL(power * samples) FROM gpu_history WHERE minute >= ? AND minute < ?"));
    q.addBindValue(since);
    q.addBindValue(until);
    if (!q.exec() || !q.next())
        return fail(QStringLiteral("GPU history %1: cannot read: %2").arg(path(), q.lastError().text()));
    return q.value(0).toDouble() / 3600.0;
}

Expected<int> GpuHistoryStore::prune(qint64 now)
{
    QSqlQuery q(m_db->connection());
    q.prepare(QStringLiteral("DELETE FROM gpu_history WHERE minute < ?"));
    q.addBindValue(now - qint64(kKeepDays) * 24 * 60 * 60);
    if (!q.exec())
        return fail(QStringLiteral("GPU history %1: cannot prune: %2").arg(path(), q.lastError().text()));
    return q.numRowsAffected();
}

} // namespace cohort
