#include "core/JsonReader.h"
#include "core/TaskInfo.h"
#include "hub/TaskCatalogue.h"

#include <QTest>

using namespace cohort;

class TestJson : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parseRefusesBadInput_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("whitespace") << QByteArray("   \n");
        QTest::newRow("truncated") << QByteArray("{\"a\": [1, 2");
        QTest::newRow("array at top") << QByteArray("[1,2,3]");
        QTest::newRow("string at top") << QByteArray("\"hi\"");
        QTest::newRow("binary") << QByteArray("\xff\xfe\x00\x01", 4);
        QTest::newRow("too big") << QByteArray(2 << 20, ' ');
    }
    void parseRefusesBadInput()
    {
        QFETCH(QByteArray, bytes);
        auto parsed = parseJsonObject(bytes);
        QVERIFY(!parsed);
        QVERIFY(!parsed.error().isEmpty());
    }

    void readerReportsFirstProblem()
    {
        JsonReader r(QJsonObject{{QStringLiteral("n"), QStringLiteral("seven")}, {QStringLiteral("s"), 3}},
                     QStringLiteral("thing"));
        r.integer(QStringLiteral("n"), 0, 10);
        r.string(QStringLiteral("s"));
        QVERIFY(!r.ok());
        QCOMPARE(r.error(), QStringLiteral("thing: field 'n': expected a number"));

        JsonReader bounds(QJsonObject{{QStringLiteral("n"), 1e300}, {QStringLiteral("f"), 2.5}});
        bounds.integer(QStringLiteral("n"), 0, 10);
        QVERIFY(bounds.error().contains(QStringLiteral("outside")));
        JsonReader frac(QJsonObject{{QStringLiteral("f"), 2.5}});
        frac.integer(QStringLiteral("f"), 0, 10);
        QVERIFY(frac.error().contains(QStringLiteral("integer")));
        JsonReader longString(QJsonObject{{QStringLiteral("s"), QString(300, QLatin1Char('a'))}});
        longString.string(QStringLiteral("s"), 256);
        QVERIFY(longString.error().contains(QStringLiteral("longer")));
        JsonReader missing(QJsonObject{});
        QCOMPARE(missing.optionalInteger(QStringLiteral("x"), 7, 0, 10), 7);
        QVERIFY(missing.ok());
        missing.string(QStringLiteral("x"));
        QVERIFY(missing.error().contains(QStringLiteral("missing field 'x'")));
    }

    // A hub newer than this node may offer kinds it has no work loop for: the node lists them (with the common
    // fields, the kind's own section unread) instead of refusing the whole list. A hub's own catalogue refuses them.
    void nodeKeepsTasksOfKindsItCannotRun()
    {
        const QByteArray list = R"({"tasks":[{"id":"arith","kind":"rl","title":"Arithmetic","reward_rate":1},
            {"id":"chat","kind":"inference","title":"Serve a chat model","reward_rate":2,"requirements":{"gpu_required":true},
             "inference":{"anything":[1,2,3]}}]})";
        auto object = parseJsonObject(list);
        QVERIFY(object);
        auto strict = parseTaskList(*object);
        QVERIFY(!strict);
        QVERIFY2(strict.error().contains(QStringLiteral("unknown kind 'inference'")), qPrintable(strict.error()));
        auto kept = parseTaskList(*object, UnknownKinds::Keep);
        QVERIFY2(kept, qPrintable(kept.error()));
        QCOMPARE(kept->size(), 2);
        const TaskInfo &chat = kept->at(1);
        QCOMPARE(chat.kind, QStringLiteral("inference"));
        QCOMPARE(chat.title, QStringLiteral("Serve a chat model"));
        QVERIFY(chat.requirements.gpuRequired);
        QVERIFY(!chat.isRunnableKind());
        QVERIFY(kept->at(0).isRunnableKind());
        auto again = TaskInfo::fromJson(chat.toJson(), UnknownKinds::Keep);
        QVERIFY(again && *again == chat);

        // Kept, but still checked: a kind that is not a plain name, or a bad common field, refuses the entry.
        for (const QByteArray &bad :
             {QByteArray(R"({"tasks":[{"id":"x","kind":"<b>Kind</b>","title":"x","reward_rate":1}]})"),
              QByteArray(R"({"tasks":[{"id":"x","kind":"future","title":"x","reward_rate":-1}]})"),
              QByteArray(R"({"tasks":[{"id":"../x","kind":"future","title":"x","reward_rate":1}]})")}) {
            auto o = parseJsonObject(bad);
            QVERIFY(o);
            QVERIFY2(!parseTaskList(*o, UnknownKinds::Keep), bad.constData());
        }
    }

    void defaultCatalogueIsValid()
    {
        auto catalogue = TaskCatalogue::loadDefault();
        QVERIFY2(catalogue, qPrintable(catalogue.error()));
        bool hasRl = false, hasDiloco = false;
        for (const TaskInfo &t : catalogue->tasks()) {
            hasRl |= t.kind == QLatin1String("rl");
            hasDiloco |= t.kind == QLatin1String("diloco");
            QVERIFY(t.rewardRate > 0);
            auto roundTrip = TaskInfo::fromJson(t.toJson());
            QVERIFY(roundTrip);
            QCOMPARE(*roundTrip, t);
        }
        QVERIFY(hasRl);
        QVERIFY(hasDiloco);
    }

    // A finite warm-up set: absent means a fresh worked example for every slot (0), a count survives the round trip.
    void warmupDemonstrationsAreReadAndKept()
    {
        auto o = parseJsonObject(
            R"({"tasks":[{"id":"a","kind":"rl","title":"x","reward_rate":1,"rl":{"environments":["add-sub"]}},
                                              {"id":"b","kind":"rl","title":"y","reward_rate":1,"rl":{"environments":["add-sub"],"warmup_demonstrations":256}}]})");
        QVERIFY(o);
        auto tasks = parseTaskList(*o, UnknownKinds::Refuse);
        QVERIFY2(tasks, qPrintable(tasks.error()));
        QCOMPARE(tasks->at(0).rl->warmupDemonstrations, 0);
        QCOMPARE(tasks->at(1).rl->warmupDemonstrations, 256);
        auto again = TaskInfo::fromJson(tasks->at(1).toJson());
        QVERIFY(again);
        QCOMPARE(again->rl->warmupDemonstrations, 256);
    }

    void badTaskListsAreRefused_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("no tasks") << QByteArray("{}") << "tasks";
        QTest::newRow("tasks not array") << QByteArray("{\"tasks\": 5}") << "array";
        QTest::newRow("entry not object") << QByteArray("{\"tasks\": [1]}") << "object";
        QTest::newRow("bad id") << QByteArray(R"({"tasks":[{"id":"../etc","kind":"rl","title":"x","reward_rate":1}]})")
                                << "id";
        QTest::newRow("unknown kind") << QByteArray(
                                             R"({"tasks":[{"id":"a","kind":"mining","title":"x","reward_rate":1}]})")
                                      << "kind";
        QTest::newRow("negative reward") << QByteArray(
                                                R"({"tasks":[{"id":"a","kind":"rl","title":"x","reward_rate":-1}]})")
                                         << "reward_rate";
        QTest::newRow("duplicate")
            << QByteArray(
                   R"({"tasks":[{"id":"a","kind":"rl","title":"x","reward_rate":1},{"id":"a","kind":"rl","title":"y","reward_rate":1}]})")
            << "duplicate";
        QTest::newRow("negative demonstrations")
            << QByteArray(
                   R"({"tasks":[{"id":"a","kind":"rl","title":"x","reward_rate":1,"rl":{"environments":["add-sub"],"warmup_demonstrations":-1}}]})")
            << "warmup_demonstrations";
        QTest::newRow("too many demonstrations")
            << QByteArray(
                   R"({"tasks":[{"id":"a","kind":"rl","title":"x","reward_rate":1,"rl":{"environments":["add-sub"],"warmup_demonstrations":1e12}}]})")
            << "warmup_demonstrations";
        QTest::newRow("demonstrations not a number")
            << QByteArray(
                   R"({"tasks":[{"id":"a","kind":"rl","title":"x","reward_rate":1,"rl":{"environments":["add-sub"],"warmup_demonstrations":"all"}}]})")
            << "warmup_demonstrations";
        QTest::newRow("bad requirement")
            << QByteArray(
                   R"({"tasks":[{"id":"a","kind":"rl","title":"x","reward_rate":1,"requirements":{"min_cpu_cores":"many"}}]})")
            << "min_cpu_cores";
    }
    void badTaskListsAreRefused()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, fragment);
        auto catalogue = TaskCatalogue::fromJson(json);
        QVERIFY(!catalogue);
        QVERIFY2(catalogue.error().contains(fragment), qPrintable(catalogue.error()));
    }
};

QTEST_GUILESS_MAIN(TestJson)
#include "tst_json.moc"
