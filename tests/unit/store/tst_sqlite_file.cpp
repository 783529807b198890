// SqliteFile, how the node's and the hub's SQLite files are opened and migrated: the pragmas, steps run in order and
// once, a newer or a foreign file refused and left byte for byte, a failing step rolled back, and the hub's version
// record (a meta table instead of PRAGMA user_version).
#include "store/SqliteFile.h"

#include <QFile>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

#include <functional>

using namespace cohort;

namespace {

// Each step logs its number, so the order and the count of the steps that ran can be read back.
const SqliteStep kThreeSteps[] = {
    {1, {"CREATE TABLE log(step INTEGER NOT NULL)", "INSERT INTO log VALUES(1)"}},
    {2, {"INSERT INTO log VALUES(2)"}},
    {3, {"INSERT INTO log VALUES(3)"}},
};

// Step 2 writes, then fails: its write must not survive.
const SqliteStep kFailingSecondStep[] = {
    {1, {"CREATE TABLE log(step INTEGER NOT NULL)", "INSERT INTO log VALUES(1)"}},
    {2, {"INSERT INTO log VALUES(2)", "INSERT INTO no_such_table VALUES(2)"}},
};

const QString kWhat = QStringLiteral("test database");

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes), bytes.size());
}

// A connection of the test's own, outside the helper, so what is read is what the file holds.
void withConnection(const QString &path, const std::function<void(QSqlQuery &)> &use)
{
    const QString name = QUuid::createUuid().toString();
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        use(q);
        q.finish();
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
}

QVariant scalar(const QString &path, const QString &sql)
{
    QVariant value;
    withConnection(path, [&](QSqlQuery &q) {
        if (q.exec(sql) && q.next())
            value = q.value(0);
    });
    return value;
}

QList<int> loggedSteps(const QString &path)
{
    QList<int> steps;
    withConnection(path, [&](QSqlQuery &q) {
        if (!q.exec(QStringLiteral("SELECT step FROM log ORDER BY rowid")))
            return;
        while (q.next())
            steps.append(q.value(0).toInt());
    });
    return steps;
}

} // namespace

class TestSqliteFile : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void pragmasAreApplied()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.sqlite"));
        auto file = SqliteFile::open(path, kWhat, kThreeSteps);
        QVERIFY2(file, qPrintable(file.error()));
        QCOMPARE((*file)->path(), path);
        QSqlQuery q((*file)->connection());
        // open() turns the driver's own busy timeout off, so without the pragma this reads 0. journal_mode (default
        // "delete") and synchronous (default FULL, 2) are the ones a missing pragma would change.
        QVERIFY(q.exec(QStringLiteral("PRAGMA busy_timeout")) && q.next());
        QCOMPARE(q.value(0).toInt(), 5000);
        QVERIFY(q.exec(QStringLiteral("PRAGMA journal_mode")) && q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("wal"));
        QVERIFY(q.exec(QStringLiteral("PRAGMA synchronous")) && q.next());
        QCOMPARE(q.value(0).toInt(), 1); // NORMAL
    }

    void theConnectionGoesWithTheInstance()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.sqlite"));
        QString name;
        {
            auto file = SqliteFile::open(path, kWhat, kThreeSteps);
            QVERIFY2(file, qPrintable(file.error()));
            name = (*file)->connectionName();
            QVERIFY(QSqlDatabase::contains(name));
            QVERIFY((*file)->connection().isOpen());
            auto second = SqliteFile::open(path, kWhat, kThreeSteps); // same file: its own connection
            QVERIFY2(second, qPrintable(second.error()));
            QVERIFY((*second)->connectionName() != name);
        }
        QVERIFY(!QSqlDatabase::contains(name));
    }

    void stepsRunInOrderAndOnce()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.sqlite"));
        {
            auto file = SqliteFile::open(path, kWhat, std::span(kThreeSteps).first(2));
            QVERIFY2(file, qPrintable(file.error()));
        }
        QCOMPARE(loggedSteps(path), (QList<int>{1, 2}));
        QCOMPARE(scalar(path, QStringLiteral("PRAGMA user_version")).toInt(), 2);
        // A newer build: only the step the file lacks runs.
        {
            auto file = SqliteFile::open(path, kWhat, kThreeSteps);
            QVERIFY2(file, qPrintable(file.error()));
        }
        QCOMPARE(loggedSteps(path), (QList<int>{1, 2, 3}));
        QCOMPARE(scalar(path, QStringLiteral("PRAGMA user_version")).toInt(), 3);
        // Up to date: nothing runs.
        {
            auto file = SqliteFile::open(path, kWhat, kThreeSteps);
            QVERIFY2(file, qPrintable(file.error()));
        }
        QCOMPARE(loggedSteps(path), (QList<int>{1, 2, 3}));
    }

    void aNewerFileIsRefusedAndLeftAlone()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.sqlite"));
        {
            auto file = SqliteFile::open(path, kWhat, kThreeSteps);
            QVERIFY2(file, qPrintable(file.error()));
        }
        withConnection(path, [](QSqlQuery &q) { QVERIFY(q.exec(QStringLiteral("PRAGMA user_version=7"))); });
        const QByteArray before = readAll(path);
        QVERIFY(!before.isEmpty());
        auto file = SqliteFile::open(path, kWhat, kThreeSteps);
        QVERIFY(!file);
        QVERIFY2(file.error().contains(QStringLiteral("the test database")), qPrintable(file.error()));
        QVERIFY2(file.error().contains(QStringLiteral("newer Cohort (schema 7, this one knows 3)")),
                 qPrintable(file.error()));
        QCOMPARE(readAll(path), before);
    }

    void aFileThatIsNotSqliteIsRefusedAndLeftAlone()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.sqlite"));
        QByteArray garbage;
        for (int i = 0; i < 8192; ++i)
            garbage.append(char((i * 131 + 7) & 0xff));
        writeFile(path, garbage);
        auto file = SqliteFile::open(path, kWhat, kThreeSteps);
        QVERIFY(!file);
        QVERIFY2(file.error().contains(QStringLiteral("is not usable")), qPrintable(file.error()));
        QVERIFY2(file.error().contains(QStringLiteral("left untouched")), qPrintable(file.error()));
        QCOMPARE(readAll(path), garbage);
        QVERIFY(!QFile::exists(path + QStringLiteral("-wal")));
    }

    void aFailingStepIsRolledBack()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.sqlite"));
        auto file = SqliteFile::open(path, kWhat, kFailingSecondStep);
        QVERIFY(!file);
        QVERIFY2(file.error().contains(QStringLiteral("to schema 2")), qPrintable(file.error()));
        QCOMPARE(scalar(path, QStringLiteral("PRAGMA user_version")).toInt(), 1);
        QCOMPARE(loggedSteps(path), (QList<int>{1})); // step 2's first insert is gone with it
    }

    // The hub's files keep their version in meta(key='schema_version') and must go on being read there.
    void theMetaTableRecordsTheVersion()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("hub.sqlite"));
        {
            auto file = SqliteFile::open(path, kWhat, std::span(kThreeSteps).first(2), SqliteVersionRecord::MetaTable);
            QVERIFY2(file, qPrintable(file.error()));
        }
        const QString metaVersion = QStringLiteral("SELECT value FROM meta WHERE key='schema_version'");
        QCOMPARE(scalar(path, metaVersion).toString(), QStringLiteral("2"));
        QCOMPARE(scalar(path, QStringLiteral("PRAGMA user_version")).toInt(), 0);
        {
            auto file = SqliteFile::open(path, kWhat, kThreeSteps, SqliteVersionRecord::MetaTable);
            QVERIFY2(file, qPrintable(file.error()));
        }
        QCOMPARE(loggedSteps(path), (QList<int>{1, 2, 3}));
        QCOMPARE(scalar(path, metaVersion).toString(), QStringLiteral("3"));

        withConnection(path, [](QSqlQuery &q) {
            QVERIFY(q.exec(QStringLiteral("UPDATE meta SET value='9' WHERE key='schema_version'")));
        });
        const QByteArray before = readAll(path);
        auto file = SqliteFile::open(path, kWhat, kThreeSteps, SqliteVersionRecord::MetaTable);
        QVERIFY(!file);
        QVERIFY2(file.error().contains(QStringLiteral("newer Cohort (schema 9")), qPrintable(file.error()));
        QCOMPARE(readAll(path), before);
    }
};

QTEST_GUILESS_MAIN(TestSqliteFile)
#include "tst_sqlite_file.moc"
