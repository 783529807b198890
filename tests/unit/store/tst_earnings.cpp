// The earnings report: its wire format (strict), the SQLite cache with its merged history, and the CSV export.
#include "core/EarningsReport.h"
#include "core/JsonReader.h"
#include "store/EarningsStore.h"
#include "store/NodeDatabase.h"

#include <QFile>
#include <QLocale>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

#include <functional>
#include <limits>

using namespace cohort;

namespace {

// The wire format exactly as the hub sends it (from the ledger's documentation).
const char kHubJson[] = R"({"node":"n-0123456789abcdef0123","unit":"credits",
 "total":{"pending":1.5,"confirmed":4.25,"refused":0.0},
 "today":{"pending":0.5,"confirmed":1.0,"refused":0},
 "last_7_days":{"pending":1.5,"confirmed":4.25,"refused":0.25},
 "tasks":[{"task":"arith-rl","pending":1.5,"confirmed":4.0,"refused":0,"tokens":12345,"batches":17}],
 "history":[{"hour":"2026-11-29T17:00:00Z","pending":0.5,"confirmed":1.0,"refused":0,"tokens":2048}],
 "generated_at":"2026-11-29T17:05:00Z"})";

QDateTime utc(const char *iso)
{
    return QDateTime::fromString(QLatin1String(iso), Qt::ISODate).toUTC();
}

EarningsBucket bucket(const char *hour, double pending, double confirmed, double refused, qint64 tokens)
{
    return EarningsBucket{utc(hour), {pending, confirmed, refused}, tokens};
}

EarningsReport sampleReport()
{
    EarningsReport r;
    r.nodeId = QStringLiteral("n-0123456789abcdef0123");
    r.total = {1.5, 4.25, 0.125};
    r.today = {0.5, 1, 0};
    r.last7Days = {1.5, 4.25, 0.125};
    r.tasks = {TaskEarnings{QStringLiteral("arith-rl"), {1.5, 4, 0}, 12345, 17},
               TaskEarnings{QStringLiteral("sort-diloco"), {0, 0.25, 0.125}, 99, 2}};
    r.history = {bucket("2026-11-29T16:00:00Z", 0, 0.75, 0.125, 1024), bucket("2026-11-29T17:00:00Z", 0.5, 1, 0, 2048)};
    r.generatedAt = utc("2026-11-29T17:05:00Z");
    return r;
}

QJsonObject hubObject()
{
    return *parseJsonObject(QByteArray(kHubJson));
}

// Replaces the value at a path like "tasks/0/tokens" (numbers index arrays).
QJsonValue withValue(const QJsonValue &node, QStringList path, const QJsonValue &value)
{
    if (path.isEmpty())
        return value;
    const QString key = path.takeFirst();
    if (node.isArray()) {
        QJsonArray a = node.toArray();
        const int i = key.toInt();
        a[i] = withValue(a.at(i), path, value);
        return a;
    }
    QJsonObject o = node.toObject();
    if (path.isEmpty() && value.isUndefined())
        o.remove(key);
    else
        o[key] = withValue(o.value(key), path, value);
    return o;
}

QJsonObject mutated(const QString &path, const QJsonValue &value)
{
    return withValue(hubObject(), path.split(QLatin1Char('/')), value).toObject();
}

QJsonArray manyCopies(const QJsonValue &entry, int count)
{
    QJsonArray a;
    for (int i = 0; i < count; ++i)
        a.append(entry);
    return a;
}

QJsonArray hourlyBuckets(int count)
{
    QJsonArray a;
    const QDateTime start = utc("2020-01-01T00:00:00Z");
    for (int i = 0; i < count; ++i)
        a.append(QJsonObject{{QStringLiteral("hour"), start.addSecs(3600LL * i).toString(Qt::ISODate)},
                             {QStringLiteral("pending"), 0},
                             {QStringLiteral("confirmed"), 1},
                             {QStringLiteral("refused"), 0},
                             {QStringLiteral("tokens"), 1}});
    return a;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

} // namespace

class TestEarnings : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesTheHubFormat()
    {
        auto report = EarningsReport::fromJson(hubObject());
        QVERIFY2(report, qPrintable(report.error()));
        QCOMPARE(report->nodeId, QStringLiteral("n-0123456789abcdef0123"));
        QCOMPARE(report->unit, QStringLiteral("credits"));
        QCOMPARE(report->total, (EarningsAmounts{1.5, 4.25, 0}));
        QCOMPARE(report->today, (EarningsAmounts{0.5, 1, 0}));
        QCOMPARE(report->last7Days, (EarningsAmounts{1.5, 4.25, 0.25}));
        QCOMPARE(report->tasks.size(), 1);
        QCOMPARE(report->tasks.first(), (TaskEarnings{QStringLiteral("arith-rl"), {1.5, 4, 0}, 12345, 17}));
        QCOMPARE(report->history.size(), 1);
        QCOMPARE(report->history.first(), bucket("2026-11-29T17:00:00Z", 0.5, 1, 0, 2048));
        QCOMPARE(report->generatedAt, utc("2026-11-29T17:05:00Z"));
        QCOMPARE(report->generatedAt.timeSpec(), Qt::UTC);
        QVERIFY(!report->isEmpty());
        QVERIFY(!report->payoutAddress); // the sample is an older hub's: it does not say
    }

    // The hub says which payout address it has on record ("" none); the node keeps it in its cached copy.
    void carriesThePayoutAddressOnRecord()
    {
        QJsonObject json = hubObject();
        json[QStringLiteral("payout_address")] = QStringLiteral("0x52908400098527886E0F7030069857D2E4169EE7");
        auto report = EarningsReport::fromJson(json);
        QVERIFY2(report, qPrintable(report.error()));
        QCOMPARE(report->payoutAddress,
                 std::optional<QString>(QStringLiteral("0x52908400098527886E0F7030069857D2E4169EE7")));
        QCOMPARE(*EarningsReport::fromJson(report->toJson()), *report);
        json[QStringLiteral("payout_address")] = QString();
        report = EarningsReport::fromJson(json);
        QVERIFY(report);
        QCOMPARE(report->payoutAddress, std::optional<QString>(QString()));
        QCOMPARE(*EarningsReport::fromJson(report->toJson()), *report);
        json[QStringLiteral("payout_address")] = 12;
        QVERIFY(!EarningsReport::fromJson(json));
        json[QStringLiteral("payout_address")] = QString(65, QLatin1Char('a'));
        const auto tooLong = EarningsReport::fromJson(json);
        QVERIFY(!tooLong);
        QVERIFY(tooLong.error().contains(QStringLiteral("payout_address")));
    }

    void roundTrips()
    {
        const EarningsReport original = sampleReport();
        const QJsonObject json = original.toJson();
        QCOMPARE(json.value(QStringLiteral("generated_at")).toString(), QStringLiteral("2026-11-29T17:05:00Z"));
        QCOMPARE(
            json.value(QStringLiteral("history")).toArray().at(0).toObject().value(QStringLiteral("hour")).toString(),
            QStringLiteral("2026-11-29T16:00:00Z"));
        QCOMPARE(json.value(QStringLiteral("last_7_days")).toObject().value(QStringLiteral("refused")).toDouble(),
                 0.125);
        auto back = EarningsReport::fromJson(json);
        QVERIFY2(back, qPrintable(back.error()));
        QCOMPARE(*back, original);
        // The hub's own document survives a trip through our writer too.
        auto hub = EarningsReport::fromJson(hubObject());
        QCOMPARE(*EarningsReport::fromJson(hub->toJson()), *hub);
    }

    void acceptsOptionalPartsAndSortsHistory()
    {
        QJsonObject json = hubObject();
        json.remove(QStringLiteral("unit"));
        json.remove(QStringLiteral("tasks"));
        json[QStringLiteral("history")] =
            QJsonArray{QJsonObject{{QStringLiteral("hour"), QStringLiteral("2026-11-29T18:00:00+01:00")},
                                   {QStringLiteral("pending"), 1},
                                   {QStringLiteral("confirmed"), 0},
                                   {QStringLiteral("refused"), 0},
                                   {QStringLiteral("tokens"), 5}},
                       QJsonObject{{QStringLiteral("hour"), QStringLiteral("2026-11-29T16:00:00Z")},
                                   {QStringLiteral("pending"), 2},
                                   {QStringLiteral("confirmed"), 0},
                                   {QStringLiteral("refused"), 0},
                                   {QStringLiteral("tokens"), 6}}};
        auto report = EarningsReport::fromJson(json);
        QVERIFY2(report, qPrintable(report.error()));
        QCOMPARE(report->unit, QStringLiteral("credits"));
        QVERIFY(report->tasks.isEmpty());
        QCOMPARE(report->history.size(), 2);
        QCOMPARE(report->history.at(0).hourStart, utc("2026-11-29T16:00:00Z"));
        QCOMPARE(report->history.at(1).hourStart, utc("2026-11-29T17:00:00Z")); // 18:00+01:00, as UTC
        QCOMPARE(report->history.at(1).hourStart.timeSpec(), Qt::UTC);
    }

    void refusesMalformedReports_data()
    {
        QTest::addColumn<QJsonObject>("json");
        QTest::addColumn<QString>("error");
        const QJsonValue absent(QJsonValue::Undefined); // remove the field
        const double inf = std::numeric_limits<double>::infinity();
        const double nan = std::numeric_limits<double>::quiet_NaN();
        QTest::newRow("node missing") << mutated(QStringLiteral("node"), absent)
                                      << QStringLiteral("missing field 'node'");
        QTest::newRow("node a number") << mutated(QStringLiteral("node"), 7)
                                       << QStringLiteral("field 'node': expected a string");
        QTest::newRow("node empty") << mutated(QStringLiteral("node"), QString()) << QStringLiteral("'node' is empty");
        QTest::newRow("unit a number") << mutated(QStringLiteral("unit"), 1)
                                       << QStringLiteral("field 'unit': expected a string");
        QTest::newRow("total missing") << mutated(QStringLiteral("total"), absent)
                                       << QStringLiteral("missing field 'total'");
        QTest::newRow("today an array") << mutated(QStringLiteral("today"), QJsonArray{})
                                        << QStringLiteral("field 'today': expected an object");
        QTest::newRow("last 7 days missing")
            << mutated(QStringLiteral("last_7_days"), absent) << QStringLiteral("missing field 'last_7_days'");
        QTest::newRow("pending a string") << mutated(QStringLiteral("total/pending"), QStringLiteral("1.5"))
                                          << QStringLiteral("earnings: total: field 'pending': expected a number");
        QTest::newRow("confirmed missing")
            << mutated(QStringLiteral("today/confirmed"), absent) << QStringLiteral("missing field 'confirmed'");
        QTest::newRow("negative confirmed")
            << mutated(QStringLiteral("total/confirmed"), -0.5) << QStringLiteral("-0.5 is outside");
        QTest::newRow("infinite refused")
            << mutated(QStringLiteral("last_7_days/refused"), inf) << QStringLiteral("field 'refused'");
        QTest::newRow("NaN pending") << mutated(QStringLiteral("total/pending"), nan)
                                     << QStringLiteral("field 'pending'");
        QTest::newRow("huge amount") << mutated(QStringLiteral("total/pending"), 1e300)
                                     << QStringLiteral("field 'pending'");
        QTest::newRow("tasks an object") << mutated(QStringLiteral("tasks"), QJsonObject{})
                                         << QStringLiteral("field 'tasks': expected an array");
        QTest::newRow("task not an object")
            << mutated(QStringLiteral("tasks/0"), 3) << QStringLiteral("tasks[0] is not an object");
        QTest::newRow("task id missing") << mutated(QStringLiteral("tasks/0/task"), absent)
                                         << QStringLiteral("tasks[0]: missing field 'task'");
        QTest::newRow("task negative pending")
            << mutated(QStringLiteral("tasks/0/pending"), -1) << QStringLiteral("tasks[0]: field 'pending'");
        QTest::newRow("tokens fractional")
            << mutated(QStringLiteral("tasks/0/tokens"), 1.5) << QStringLiteral("'tokens': expected an integer");
        QTest::newRow("batches negative")
            << mutated(QStringLiteral("tasks/0/batches"), -3) << QStringLiteral("field 'batches'");
        QTest::newRow("tokens a string") << mutated(QStringLiteral("history/0/tokens"), QStringLiteral("12"))
                                         << QStringLiteral("history[0]: field 'tokens'");
        QTest::newRow("hour unparsable") << mutated(QStringLiteral("history/0/hour"), QStringLiteral("yesterday"))
                                         << QStringLiteral("'yesterday' is not an ISO 8601 time");
        QTest::newRow("hour without zone")
            << mutated(QStringLiteral("history/0/hour"), QStringLiteral("2026-11-29T17:00:00"))
            << QStringLiteral("not an ISO 8601 time with a zone");
        QTest::newRow("hour mid-hour") << mutated(QStringLiteral("history/0/hour"),
                                                  QStringLiteral("2026-11-29T17:30:00Z"))
                                       << QStringLiteral("is not the start of an hour");
        QTest::newRow("hour a number") << mutated(QStringLiteral("history/0/hour"), 1764435600)
                                       << QStringLiteral("field 'hour': expected a string");
        QTest::newRow("generated_at missing")
            << mutated(QStringLiteral("generated_at"), absent) << QStringLiteral("missing field 'generated_at'");
        QTest::newRow("generated_at invalid")
            << mutated(QStringLiteral("generated_at"), QStringLiteral("2026-13-45T99:00:00Z"))
            << QStringLiteral("field 'generated_at'");
        QTest::newRow("hour twice") << mutated(QStringLiteral("history"),
                                               manyCopies(hubObject()[QStringLiteral("history")].toArray().at(0), 2))
                                    << QStringLiteral("lists the hour 2026-11-29T17:00:00Z twice");
        QTest::newRow("too many tasks") << mutated(
                                               QStringLiteral("tasks"),
                                               manyCopies(hubObject()[QStringLiteral("tasks")].toArray().at(0), 10001))
                                        << QStringLiteral("field 'tasks': more than 10000 items");
        QTest::newRow("too many buckets") << mutated(QStringLiteral("history"), hourlyBuckets(10001))
                                          << QStringLiteral("field 'history': more than 10000 items");
    }
    void refusesMalformedReports()
    {
        QFETCH(QJsonObject, json);
        QFETCH(QString, error);
        auto report = EarningsReport::fromJson(json);
        QVERIFY(!report);
        QVERIFY2(report.error().contains(error), qPrintable(report.error()));
        QVERIFY2(report.error().startsWith(QStringLiteral("earnings")), qPrintable(report.error()));
    }

    void acceptsTheLimits()
    {
        auto report = EarningsReport::fromJson(mutated(QStringLiteral("history"), hourlyBuckets(10000)));
        QVERIFY2(report, qPrintable(report.error()));
        QCOMPARE(report->history.size(), 10000);
    }

    void csvIsLocaleIndependent()
    {
        const QLocale previous;
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        EarningsReport r = sampleReport();
        r.history.append(bucket("2026-11-29T18:00:00Z", 0.00001, 1234567.5, 0, 0));
        const QString csv = toCsv(r);
        QLocale::setDefault(previous);
        QCOMPARE(csv, QStringLiteral("hour_utc,pending,confirmed,refused,tokens\n"
                                     "2026-11-29T16:00:00Z,0,0.75,0.125,1024\n"
                                     "2026-11-29T17:00:00Z,0.5,1,0,2048\n"
                                     "2026-11-29T18:00:00Z,0.00001,1234567.5,0,0\n"));
        r.history.clear();
        QCOMPARE(toCsv(r), QStringLiteral("hour_utc,pending,confirmed,refused,tokens\n"));
    }

    void storeSavesAndLoads()
    {
        QTemporaryDir dir;
        const QString path = EarningsStore::defaultPath(dir.path());
        QCOMPARE(path, dir.filePath(QStringLiteral("cohort.sqlite")));
        const EarningsReport report = sampleReport();
        {
            auto store = EarningsStore::open(path);
            QVERIFY2(store, qPrintable(store.error()));
            auto none = (*store)->load(QStringLiteral("hub-a"), report.nodeId);
            QVERIFY2(none, qPrintable(none.error()));
            QVERIFY(!none->has_value());
            const Status saved = (*store)->save(QStringLiteral("hub-a"), report);
            QVERIFY2(saved, qPrintable(saved.error()));
            QVERIFY(!(*store)->save(QString(), report));
        }
        // A fresh instance (a restart) reads it back, history included.
        auto store = EarningsStore::open(path);
        QVERIFY2(store, qPrintable(store.error()));
        auto loaded = (*store)->load(QStringLiteral("hub-a"), report.nodeId);
        QVERIFY2(loaded, qPrintable(loaded.error()));
        QVERIFY(loaded->has_value());
        QCOMPARE(**loaded, report);
        // Another hub's or another node's earnings are not these.
        QVERIFY(!(*store)->load(QStringLiteral("hub-b"), report.nodeId)->has_value());
        QVERIFY(!(*store)->load(QStringLiteral("hub-a"), QStringLiteral("n-other"))->has_value());
    }

    void storeMergesHistoryAcrossReports()
    {
        QTemporaryDir dir;
        auto store = EarningsStore::open(EarningsStore::defaultPath(dir.path()));
        QVERIFY2(store, qPrintable(store.error()));
        EarningsReport first = sampleReport();
        first.history = {bucket("2026-11-20T10:00:00Z", 1, 0, 0, 10), bucket("2026-11-20T11:00:00Z", 2, 0, 0, 20),
                         bucket("2026-11-29T16:00:00Z", 3, 0, 0, 30)};
        QVERIFY((*store)->save(QStringLiteral("hub"), first));
        // A week later the hub no longer reports Nov 20; the 16:00 bucket was verified meanwhile.
        EarningsReport second = sampleReport();
        second.total = {0, 9, 0};
        second.tasks.removeLast();
        second.history = {bucket("2026-11-29T16:00:00Z", 0, 3, 0, 30), bucket("2026-11-29T17:00:00Z", 0.5, 0, 0, 40)};
        second.generatedAt = utc("2026-11-29T17:10:00Z");
        QVERIFY((*store)->save(QStringLiteral("hub"), second));
        // Another hub's history does not leak in.
        QVERIFY((*store)->save(QStringLiteral("other-hub"), first));

        auto loaded = (*store)->load(QStringLiteral("hub"), second.nodeId);
        QVERIFY2(loaded, qPrintable(loaded.error()));
        const EarningsReport &merged = **loaded;
        QCOMPARE(merged.total, second.total);
        QCOMPARE(merged.tasks, second.tasks);
        QCOMPARE(merged.generatedAt, second.generatedAt);
        const QList<EarningsBucket> expected{
            bucket("2026-11-20T10:00:00Z", 1, 0, 0, 10), bucket("2026-11-20T11:00:00Z", 2, 0, 0, 20),
            bucket("2026-11-29T16:00:00Z", 0, 3, 0, 30), bucket("2026-11-29T17:00:00Z", 0.5, 0, 0, 40)};
        QCOMPARE(merged.history, expected);
    }

    void storeRefusesACorruptFileAndLeavesIt()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cohort.sqlite"));
        QByteArray garbage;
        for (int i = 0; i < 8192; ++i)
            garbage.append(char((i * 131 + 7) & 0xff));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(garbage);
        }
        auto store = EarningsStore::open(path);
        QVERIFY(!store);
        QVERIFY2(store.error().contains(QStringLiteral("left untouched")), qPrintable(store.error()));
        QCOMPARE(readAll(path), garbage);
        QVERIFY(!QFile::exists(path + QStringLiteral("-wal")));

        // A directory where the file should be: an error, not a crash.
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("taken.sqlite")));
        QVERIFY(!EarningsStore::open(dir.filePath(QStringLiteral("taken.sqlite"))));
    }

    void storeRefusesANewerSchema()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cohort.sqlite"));
        {
            auto store = EarningsStore::open(path);
            QVERIFY2(store, qPrintable(store.error()));
        }
        QCOMPARE(userVersion(path), NodeDatabase::kSchemaVersion);
        setUserVersion(path, NodeDatabase::kSchemaVersion + 1);
        const QByteArray before = readAll(path);
        auto store = EarningsStore::open(path);
        QVERIFY(!store);
        QVERIFY2(store.error().contains(QStringLiteral("newer Cohort")), qPrintable(store.error()));
        QCOMPARE(userVersion(path), NodeDatabase::kSchemaVersion + 1);
        QCOMPARE(readAll(path).size(), before.size());
    }

    void storeRefusesADamagedRow()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cohort.sqlite"));
        auto store = EarningsStore::open(path);
        QVERIFY((*store)->save(QStringLiteral("hub"), sampleReport()));
        withConnection(path, [](QSqlDatabase &db) {
            QSqlQuery(db).exec(QStringLiteral("UPDATE earnings_reports SET report = '{\"node\": 3}'"));
        });
        auto loaded = (*store)->load(QStringLiteral("hub"), sampleReport().nodeId);
        QVERIFY(!loaded);
        QVERIFY2(loaded.error().contains(QStringLiteral("damaged report")), qPrintable(loaded.error()));
    }

    void twoInstancesShareTheFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cohort.sqlite"));
        auto a = EarningsStore::open(path);
        auto b = EarningsStore::open(path);
        QVERIFY(a && b);
        QVERIFY((*a)->save(QStringLiteral("hub"), sampleReport()));
        auto loaded = (*b)->load(QStringLiteral("hub"), sampleReport().nodeId);
        QVERIFY(loaded && loaded->has_value());
        QCOMPARE(**loaded, sampleReport());
    }

private:
    static void withConnection(const QString &path, const std::function<void(QSqlDatabase &)> &use)
    {
        const QString name = QUuid::createUuid().toString();
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
            db.setDatabaseName(path);
            QVERIFY(db.open());
            use(db);
            db.close();
        }
        QSqlDatabase::removeDatabase(name);
    }
    static int userVersion(const QString &path)
    {
        int version = -1;
        withConnection(path, [&version](QSqlDatabase &db) {
            QSqlQuery q(db);
            if (q.exec(QStringLiteral("PRAGMA user_version")) && q.next())
                version = q.value(0).toInt();
        });
        return version;
    }
    static void setUserVersion(const QString &path, int version)
    {
        withConnection(path, [version](QSqlDatabase &db) {
            QSqlQuery(db).exec(QStringLiteral("PRAGMA user_version=%1").arg(version));
        });
    }
};

QTEST_GUILESS_MAIN(TestEarnings)
#include "tst_earnings.moc"
