#include "core/EarningsReport.h"

#include "core/JsonReader.h"

#include <QLocale>
#include <algorithm>

namespace cohort {

namespace {
// Far above anything a ledger pays; the bound only keeps absurd values (1e308) out of sums and charts.
constexpr double kMaxAmount = 1e15;
// Token and batch counts: exactly representable in a JSON number (a double).
constexpr qint64 kMaxCount = qint64(1) << 53;

QString isoUtc(const QDateTime &t)
{
    return t.toUTC().toString(Qt::ISODate);
}

QJsonObject amountsJson(const EarningsAmounts &a)
{
    return QJsonObject{{QStringLiteral("pending"), a.pending},
                       {QStringLiteral("confirmed"), a.confirmed},
                       {QStringLiteral("refused"), a.refused}};
}

// Reads the three amounts from an object (a totals object, or a task / history entry that carries them inline).
EarningsAmounts readAmounts(JsonReader &r)
{
    EarningsAmounts a;
    a.pending = r.number(QStringLiteral("pending"), 0, kMaxAmount);
    a.confirmed = r.number(QStringLiteral("confirmed"), 0, kMaxAmount);
    a.refused = r.number(QStringLiteral("refused"), 0, kMaxAmount);
    return a;
}

// A required object field; JsonReader only has the optional kind.
QJsonObject requiredObject(JsonReader &r, const QJsonObject &parent, const QString &key)
{
    if (!parent.contains(key)) {
        r.setError(QStringLiteral("missing field '%1'").arg(key));
        return {};
    }
    return r.optionalObject(key);
}

// An ISO 8601 time with an explicit zone ("Z" or "+01:00"): a bare local time would mean different hours on
// different machines.
QDateTime readTime(JsonReader &r, const QString &key)
{
    const QString text = r.string(key, 40);
    if (!r.ok())
        return {};
    const QDateTime t = QDateTime::fromString(text, Qt::ISODate);
    if (!t.isValid() || t.timeSpec() == Qt::LocalTime) {
        r.setError(QStringLiteral("field '%1': '%2' is not an ISO 8601 time with a zone").arg(key, text));
        return {};
    }
    return t.toUTC();
}

Expected<TaskEarnings> readTask(const QJsonValue &v, qsizetype index)
{
    if (!v.isObject())
        return fail(QStringLiteral("earnings: tasks[%1] is not an object").arg(index));
    JsonReader r(v.toObject(), QStringLiteral("earnings: tasks[%1]").arg(index));
    TaskEarnings t;
    t.taskId = r.string(QStringLiteral("task"), 64);
    t.amounts = readAmounts(r);
    t.tokens = r.integer(QStringLiteral("tokens"), 0, kMaxCount);
    t.batches = r.integer(QStringLiteral("batches"), 0, kMaxCount);
    if (r.ok() && t.taskId.isEmpty())
        r.setError(QStringLiteral("field 'task' is empty"));
    if (!r.ok())
        return fail(r.error());
    return t;
}

Expected<EarningsBucket> readBucket(const QJsonValue &v, qsizetype index)
{
    if (!v.isObject())
        return fail(QStringLiteral("earnings: history[%1] is not an object").arg(index));
    JsonReader r(v.toObject(), QStringLiteral("earnings: history[%1]").arg(index));
    EarningsBucket b;
    b.hourStart = readTime(r, QStringLiteral("hour"));
    b.amounts = readAmounts(r);
    b.tokens = r.integer(QStringLiteral("tokens"), 0, kMaxCount);
    if (!r.ok())
        return fail(r.error());
    // The store keys history by hour; a bucket that starts mid-hour would be a second row for the same hour.
    if (b.hourStart.time().minute() != 0 || b.hourStart.time().second() != 0 || b.hourStart.time().msec() != 0)
        return fail(QStringLiteral("earnings: history[%1]: %2 is not the start of an hour")
                        .arg(index)
                        .arg(isoUtc(b.hourStart)));
    return b;
}

// QString::number, unlike QLocale, never uses the user's decimal comma; 'f' with the shortest round-trip
// precision avoids exponents ("1e-05"), which some spreadsheets read as text.
QString csvNumber(double d)
{
    return QString::number(d, 'f', QLocale::FloatingPointShortest);
}
} // namespace

QJsonObject EarningsReport::toJson() const
{
    QJsonArray taskArray;
    for (const TaskEarnings &t : tasks) {
        QJsonObject o = amountsJson(t.amounts);
        o.insert(QStringLiteral("task"), t.taskId);
        o.insert(QStringLiteral("tokens"), t.tokens);
        o.insert(QStringLiteral("batches"), t.batches);
        taskArray.append(o);
    }
    QJsonArray historyArray;
    for (const EarningsBucket &b : history) {
        QJsonObject o = amountsJson(b.amounts);
        o.insert(QStringLiteral("hour"), isoUtc(b.hourStart));
        o.insert(QStringLiteral("tokens"), b.tokens);
        historyArray.append(o);
    }
    QJsonObject json{
        {QStringLiteral("node"), nodeId},
        {QStringLiteral("unit"), unit},
        {QStringLiteral("total"), amountsJson(total)},
        {QStringLiteral("today"), amountsJson(today)},
        {QStringLiteral("last_7_days"), amountsJson(last7Days)},
        {QStringLiteral("tasks"), taskArray},
        {QStringLiteral("history"), historyArray},
        {QStringLiteral("generated_at"), isoUtc(generatedAt)},
    };
    if (payoutAddress)
        json.insert(QStringLiteral("payout_address"), *payoutAddress);
    return json;
}

Expected<EarningsReport> EarningsReport::fromJson(const QJsonObject &json)
{
    JsonReader r(json, QStringLiteral("earnings"));
    EarningsReport report;
    report.nodeId = r.string(QStringLiteral("node"), 64);
    report.unit = r.optionalString(QStringLiteral("unit"), QStringLiteral("credits"), 32);
    report.generatedAt = readTime(r, QStringLiteral("generated_at"));
    if (json.contains(QStringLiteral("payout_address"))) {
        // Shown as is, never acted on: any string up to an address's length (the hub validated it when it was set).
        const QJsonValue address = json.value(QStringLiteral("payout_address"));
        if (!address.isString() || address.toString().size() > 64)
            return fail(QStringLiteral("earnings: field 'payout_address' must be a string of at most 64 characters"));
        report.payoutAddress = address.toString();
    }

    const struct {
        const char *key;
        EarningsAmounts *into;
    } sums[] = {{"total", &report.total}, {"today", &report.today}, {"last_7_days", &report.last7Days}};
    for (const auto &sum : sums) {
        const QString key = QLatin1String(sum.key);
        JsonReader amounts(requiredObject(r, json, key), QStringLiteral("earnings: %1").arg(key));
        if (!r.ok())
            return fail(r.error());
        *sum.into = readAmounts(amounts);
        if (!amounts.ok())
            return fail(amounts.error());
    }

    const QJsonArray taskArray = r.optionalArray(QStringLiteral("tasks"), kMaxItems);
    const QJsonArray historyArray = r.optionalArray(QStringLiteral("history"), kMaxItems);
    if (r.ok() && report.nodeId.isEmpty())
        r.setError(QStringLiteral("field 'node' is empty"));
    if (r.ok() && report.unit.isEmpty())
        r.setError(QStringLiteral("field 'unit' is empty"));
    if (!r.ok())
        return fail(r.error());

    for (qsizetype i = 0; i < taskArray.size(); ++i) {
        auto task = readTask(taskArray.at(i), i);
        if (!task)
            return fail(task.error());
        report.tasks.append(std::move(task).value());
    }
    for (qsizetype i = 0; i < historyArray.size(); ++i) {
        auto bucket = readBucket(historyArray.at(i), i);
        if (!bucket)
            return fail(bucket.error());
        report.history.append(std::move(bucket).value());
    }
    // Charts and the store rely on one ascending row per hour, whatever order the hub sent.
    std::stable_sort(report.history.begin(), report.history.end(),
                     [](const EarningsBucket &a, const EarningsBucket &b) { return a.hourStart < b.hourStart; });
    for (qsizetype i = 1; i < report.history.size(); ++i) {
        if (report.history.at(i).hourStart == report.history.at(i - 1).hourStart)
            return fail(QStringLiteral("earnings: history lists the hour %1 twice")
                            .arg(isoUtc(report.history.at(i).hourStart)));
    }
    return report;
}

QString toCsv(const EarningsReport &report)
{
    QString csv = QStringLiteral("hour_utc,pending,confirmed,refused,tokens\n");
    for (const EarningsBucket &b : report.history) {
        csv += isoUtc(b.hourStart) + QLatin1Char(',') + csvNumber(b.amounts.pending) + QLatin1Char(',') +
               csvNumber(b.amounts.confirmed) + QLatin1Char(',') + csvNumber(b.amounts.refused) + QLatin1Char(',') +
               QString::number(b.tokens) + QLatin1Char('\n');
    }
    return csv;
}

} // namespace cohort
