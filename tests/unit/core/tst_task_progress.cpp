// The node's reading of a hub's progress reply (core/TaskProgress.h): what a hub may send, and what a hostile or
// broken one sends instead — each refused with its reason, nothing half-read.
#include "core/TaskProgress.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <limits>

using namespace cohort;

namespace {

QJsonObject score(double correctness, double format, double reward)
{
    return {{QStringLiteral("correctness"), correctness},
            {QStringLiteral("format"), format},
            {QStringLiteral("reward"), reward}};
}

QJsonObject point(int version, double greedy = 0.5)
{
    return {{QStringLiteral("version"), version},
            {QStringLiteral("greedy"), score(greedy, 1, 0.2 + 0.8 * greedy)},
            {QStringLiteral("sampled"), score(0.25, 0.9, 0.38)}};
}

QJsonObject reply(const QJsonArray &curve, const QJsonValue &problems = 128,
                  const QJsonValue &better = QStringLiteral("higher is better"))
{
    return {{QStringLiteral("version"), 7},
            {QStringLiteral("held_out"), QJsonObject{{QStringLiteral("problems"), problems},
                                                     {QStringLiteral("better"), better},
                                                     {QStringLiteral("curve"), curve}}}};
}

QJsonObject lossPoint(const QJsonValue &revision, const QJsonValue &loss)
{
    return {{QStringLiteral("revision"), revision}, {QStringLiteral("loss"), loss}};
}

// A DiLoCo task's reply: the RL part empty, the hub's held-out loss per revision.
QJsonObject lossReply(const QJsonArray &points, const QJsonValue &sequences = 32,
                      const QJsonValue &better = QStringLiteral("lower is better"))
{
    return {{QStringLiteral("held_out"),
             QJsonObject{{QStringLiteral("problems"), 0}, {QStringLiteral("curve"), QJsonArray()}}},
            {QStringLiteral("held_out_loss"), QJsonObject{{QStringLiteral("sequences"), sequences},
                                                          {QStringLiteral("better"), better},
                                                          {QStringLiteral("points"), points}}}};
}

} // namespace

class TestTaskProgress : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aHubsReplyIsRead()
    {
        const auto p = parseTaskProgress(reply({point(1, 0.16), point(4, 0.31)}), QStringLiteral("arith-rl"));
        QVERIFY2(p, qPrintable(p.error()));
        QCOMPARE(p->taskId, QStringLiteral("arith-rl"));
        QCOMPARE(p->problems, 128);
        QCOMPARE(p->better, QStringLiteral("higher is better"));
        QCOMPARE(p->heldOut.size(), 2);
        QCOMPARE(p->heldOut[1].version, 4);
        QCOMPARE(p->heldOut[1].greedyCorrectness, 0.31);
        QCOMPARE(p->heldOut[1].sampledReward, 0.38);
        // What cohortd prints and the control API serves.
        const QJsonObject json = p->toJson();
        QCOMPARE(json.value(QStringLiteral("held_out")).toArray().size(), 2);
        QCOMPARE(json.value(QStringLiteral("held_out"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("greedy_correctness"))
                     .toDouble(),
                 0.16);
    }

    void aContributionIsReadAndBounded()
    {
        const QJsonObject good{{QStringLiteral("task"), QStringLiteral("arith-rl")},
                               {QStringLiteral("accepted_batches"), 12},
                               {QStringLiteral("share"), 0.25},
                               {QStringLiteral("rank"), 2},
                               {QStringLiteral("contributors"), 5}};
        const auto c = parseTaskContribution(good, QStringLiteral("arith-rl"));
        QVERIFY2(c, qPrintable(c.error()));
        QCOMPARE(c->acceptedBatches, qint64(12));
        QCOMPARE(c->share, 0.25);
        QCOMPARE(c->rank, 2);
        QCOMPARE(c->contributors, 5);
        QVERIFY(parseTaskContribution({}, QStringLiteral("arith-rl"))); // none (DiLoCo, an older hub)
        const auto with = [&](const char *key, const QJsonValue &value) {
            QJsonObject o = good;
            o.insert(QLatin1String(key), value);
            return o;
        };
        const QList<QPair<QJsonObject, QString>> bad{
            {with("task", QStringLiteral("other")), QStringLiteral("another task")},
            {with("share", 1.5), QStringLiteral("outside")},
            {with("share", -0.1), QStringLiteral("outside")},
            {with("share", QStringLiteral("0.2")), QStringLiteral("outside")},
            {with("rank", 6), QStringLiteral("does not fit")},
            {with("rank", 0), QStringLiteral("does not fit")}, // batches but no rank
            {with("accepted_batches", -1), QStringLiteral("negative")},
            {with("accepted_batches", 1.5), QStringLiteral("not whole")},
            {with("contributors", QJsonValue()), QStringLiteral("missing")},
        };
        for (const auto &[body, why] : bad) {
            const auto refused = parseTaskContribution(body, QStringLiteral("arith-rl"));
            QVERIFY2(!refused && refused.error().contains(why),
                     QJsonDocument(body).toJson(QJsonDocument::Compact).constData());
        }
    }

    void noHeldOutIsAnEmptyProgress()
    {
        // A DiLoCo task, or a hub from before the held-out evaluation.
        const auto p = parseTaskProgress(QJsonObject{{QStringLiteral("version"), 3}}, QStringLiteral("tiny-lm-diloco"));
        QVERIFY(p);
        QVERIFY(p->heldOut.isEmpty());
        QCOMPARE(p->taskId, QStringLiteral("tiny-lm-diloco"));
    }

    void aDilocoTasksHeldOutLossIsRead()
    {
        const auto p = parseTaskProgress(lossReply({lossPoint(0, 5.55), lossPoint(7, 3.25), lossPoint(40, 2.5)}),
                                         QStringLiteral("d"));
        QVERIFY2(p, qPrintable(p.error()));
        QCOMPARE(p->lossSequences, 32);
        QCOMPARE(p->lossBetter, QStringLiteral("lower is better"));
        QCOMPARE(p->heldOutLoss.size(), 3);
        QCOMPARE(p->heldOutLoss[0], (HeldOutLossPoint{0, 5.55}));
        QCOMPARE(p->heldOutLoss[2], (HeldOutLossPoint{40, 2.5}));
        QVERIFY(p->heldOut.isEmpty());
        // Round trip through the status JSON (cohortd --json, the control API).
        const QJsonArray back = p->toJson().value(QStringLiteral("held_out_loss")).toArray();
        QCOMPARE(back.size(), 3);
        QCOMPARE(back[1].toObject().value(QStringLiteral("revision")).toInteger(), 7);
        QCOMPARE(back[1].toObject().value(QStringLiteral("loss")).toDouble(), 3.25);
    }

    void hostileLossRepliesAreRefused_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("why");
        QJsonArray tooMany;
        for (int r = 0; r <= kMaxHeldOutPoints; ++r)
            tooMany.append(lossPoint(r, 3));
        QTest::newRow("not an object") << QJsonObject{{QStringLiteral("held_out_loss"), 3}} << "not an object";
        QTest::newRow("points not a list")
            << QJsonObject{{QStringLiteral("held_out_loss"),
                            QJsonObject{{QStringLiteral("sequences"), 32}, {QStringLiteral("points"), 3}}}}
            << "not a list";
        QTest::newRow("sequences negative") << lossReply({lossPoint(0, 3)}, -1) << "not a count";
        QTest::newRow("sequences text") << lossReply({lossPoint(0, 3)}, QStringLiteral("32")) << "not a count";
        QTest::newRow("better not text") << lossReply({lossPoint(0, 3)}, 32, 1) << "not text";
        QTest::newRow("better too long") << lossReply({lossPoint(0, 3)}, 32, QString(401, QLatin1Char('x')))
                                         << "400 characters";
        QTest::newRow("loss negative") << lossReply({lossPoint(0, -0.5)}) << "outside [0, 100]";
        QTest::newRow("loss huge") << lossReply({lossPoint(0, 1e300)}) << "outside [0, 100]";
        QTest::newRow("loss not finite") << lossReply({lossPoint(0, std::numeric_limits<double>::infinity())})
                                         << "outside [0, 100]";
        QTest::newRow("loss as text") << lossReply({lossPoint(0, QStringLiteral("3"))}) << "outside [0, 100]";
        QTest::newRow("loss missing") << lossReply({QJsonObject{{QStringLiteral("revision"), 1}}})
                                      << "outside [0, 100]";
        QTest::newRow("revisions repeated") << lossReply({lossPoint(3, 3), lossPoint(3, 2)}) << "above the one before";
        QTest::newRow("revisions going back")
            << lossReply({lossPoint(3, 3), lossPoint(2, 2)}) << "above the one before";
        QTest::newRow("revision negative") << lossReply({lossPoint(-1, 3)}) << "above the one before";
        QTest::newRow("revision fractional") << lossReply({lossPoint(1.5, 3)}) << "above the one before";
        QTest::newRow("revision beyond 2^53") << lossReply({lossPoint(1e17, 3)}) << "above the one before";
        QTest::newRow("too many points") << lossReply(tooMany) << "at most";
    }

    void hostileLossRepliesAreRefused()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, why);
        const auto p = parseTaskProgress(body, QStringLiteral("d"));
        QVERIFY(!p);
        QVERIFY2(p.error().contains(why), qPrintable(p.error()));
    }

    void hostileRepliesAreRefused_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("why");
        const double nan = std::numeric_limits<double>::quiet_NaN();
        QJsonObject badScore = point(2);
        badScore.insert(QStringLiteral("greedy"), score(1.5, 1, 1));
        QJsonObject negative = point(2);
        negative.insert(QStringLiteral("sampled"), score(0.2, 0.2, -0.01));
        QJsonObject nonFinite = point(2);
        nonFinite.insert(QStringLiteral("greedy"), score(nan, 1, 1)); // QJson writes NaN as null
        QJsonObject textScore = point(2);
        textScore.insert(QStringLiteral("greedy"), QJsonObject{{QStringLiteral("correctness"), QStringLiteral("0.5")},
                                                               {QStringLiteral("format"), 1},
                                                               {QStringLiteral("reward"), 1}});
        QJsonObject noSampled = point(2);
        noSampled.remove(QStringLiteral("sampled"));
        QJsonObject fractional = point(2);
        fractional.insert(QStringLiteral("version"), 2.5);
        QJsonArray tooMany;
        for (int v = 1; v <= kMaxHeldOutPoints + 1; ++v)
            tooMany.append(point(v));
        QTest::newRow("held_out not an object")
            << QJsonObject{{QStringLiteral("held_out"), QStringLiteral("x")}} << "not an object";
        QTest::newRow("curve not a list")
            << QJsonObject{{QStringLiteral("held_out"),
                            QJsonObject{{QStringLiteral("problems"), 1}, {QStringLiteral("curve"), 3}}}}
            << "not a list";
        QTest::newRow("problems negative") << reply({point(1)}, -1) << "not a count";
        QTest::newRow("problems fractional") << reply({point(1)}, 1.5) << "not a count";
        QTest::newRow("problems text") << reply({point(1)}, QStringLiteral("128")) << "not a count";
        QTest::newRow("better not text") << reply({point(1)}, 128, 5) << "not text";
        QTest::newRow("better too long") << reply({point(1)}, 128, QString(401, QLatin1Char('x'))) << "400 characters";
        QTest::newRow("score above 1") << reply({badScore}) << "outside [0, 1]";
        QTest::newRow("score below 0") << reply({negative}) << "outside [0, 1]";
        QTest::newRow("score not finite") << reply({nonFinite}) << "outside [0, 1]";
        QTest::newRow("score as text") << reply({textScore}) << "outside [0, 1]";
        QTest::newRow("a mode missing") << reply({noSampled}) << "missing";
        QTest::newRow("versions not ascending") << reply({point(3), point(3)}) << "above the one before";
        QTest::newRow("versions going back") << reply({point(3), point(2)}) << "above the one before";
        QTest::newRow("version zero") << reply({point(0)}) << "above the one before";
        QTest::newRow("version fractional") << reply({fractional}) << "above the one before";
        QTest::newRow("version huge") << reply({point(1), QJsonObject{{QStringLiteral("version"), 1e12}}})
                                      << "above the one before";
        QTest::newRow("too many points") << reply(tooMany) << "at most";
    }

    void hostileRepliesAreRefused()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, why);
        const auto p = parseTaskProgress(body, QStringLiteral("t"));
        QVERIFY(!p);
        QVERIFY2(p.error().contains(why), qPrintable(p.error()));
    }
};

QTEST_GUILESS_MAIN(TestTaskProgress)
#include "tst_task_progress.moc"
