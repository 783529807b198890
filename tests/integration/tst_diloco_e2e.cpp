// DiLoCo as real processes on 127.0.0.1: a collectives master (cohort-collective-peer master) and nodes running the
// engine's training loop (cohort-diloco-peer = engine/diloco's DilocoRunner with a tiny model).
//   * three nodes train: the loss falls, and after every outer step every node reports the same shared-state hash
//     (the outer step is applied bit-identically), with 0 bytes of shared state received after a node's first sync;
//   * a node joining mid-run fetches the state once (exactly global + momentum bytes), then receives 0 bytes and
//     agrees with the others;
//   * kill -9 of a node at five random inner steps: each time, restarted on the same checkpoint folder, it resumes
//     from the bundle of the inner step it was killed in (the last time that bundle is torn: it is set aside and the
//     previous one used); the survivors complete outer steps without it; it catches up by shared-state sync and
//     agrees again.
//   * a hostile member (cohort-collective-peer diloco-attacker) sends NaN, inf, 1e38 or an out-of-bound
//     pseudo-gradient in the average: it is named and excluded, and the honest nodes keep taking outer steps with
//     finite losses, all on one shared-state hash.
#include "TestSupport.h"

#include <QDeadlineTimer>

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>
#include <memory>

using cohort::test::ChildProcess;

namespace {

QString program(const char *name)
{
    return QDir(qEnvironmentVariable("COHORT_BUILD_DIR"))
        .filePath(QStringLiteral("tests/integration/") + QLatin1String(name));
}

QList<QJsonObject> events(const QString &output, const QString &kind)
{
    QList<QJsonObject> list;
    for (const QString &line : output.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QJsonObject o = QJsonDocument::fromJson(line.toUtf8()).object();
        if (o.value(QStringLiteral("event")).toString() == kind)
            list << o;
    }
    return list;
}

// outer step -> hash, from one node's "outer" lines.
std::map<int, QString> hashesByStep(const QString &output)
{
    std::map<int, QString> hashes;
    for (const QJsonObject &o : events(output, QStringLiteral("outer")))
        hashes[o.value(QStringLiteral("outer")).toInt()] = o.value(QStringLiteral("hash")).toString();
    return hashes;
}

} // namespace

class TestDilocoE2E : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<ChildProcess> m_master;
    uint16_t m_port = 0;

    std::unique_ptr<ChildProcess> node(int seed, int outerSteps, const QString &checkpointDir = {},
                                       const QStringList &extra = {})
    {
        QStringList args{QStringLiteral("--master-port"), QString::number(m_port),
                         QStringLiteral("--data-seed"),   QString::number(seed),
                         QStringLiteral("--outer-steps"), QString::number(outerSteps)};
        args << extra;
        if (!checkpointDir.isEmpty())
            args << QStringLiteral("--checkpoint-dir") << checkpointDir;
        auto p = std::make_unique<ChildProcess>(program("cohort-diloco-peer"), args);
        if (!p->start())
            return {};
        return p;
    }

    static bool finished(ChildProcess &p, int timeoutMs)
    {
        QProcess &q = p.process();
        if (!q.waitForFinished(timeoutMs))
            return false;
        p.output(); // drain
        return q.exitStatus() == QProcess::NormalExit && q.exitCode() == 0;
    }

    // Stops a node that would train on (after its output has been read: what it printed stays readable).
    static void stop(ChildProcess &p)
    {
        p.output();
        int code = 0;
        p.terminateAndWait(10'000, &code);
        p.output();
    }

    // Every step reported by more than one node has one hash; returns how many steps all `nodes` reported.
    static int checkAgreement(const QList<ChildProcess *> &nodes)
    {
        std::map<int, std::map<QString, int>> seen;
        for (ChildProcess *n : nodes)
            for (const auto &[step, hash] : hashesByStep(n->output()))
                ++seen[step][hash];
        int all = 0;
        for (const auto &[step, hashes] : seen) {
            if (hashes.size() != 1) {
                qWarning() << "outer step" << step << "has" << hashes.size() << "different shared-state hashes";
                return -1;
            }
            if (hashes.begin()->second == nodes.size())
                ++all;
        }
        return all;
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_master = std::make_unique<ChildProcess>(
            program("cohort-collective-peer"),
            QStringList{QStringLiteral("master"), QStringLiteral("--port"), QStringLiteral("0")});
        QVERIFY(m_master->start());
        QVERIFY(m_master->waitForOutput(QStringLiteral("master listening"), 10'000));
        static const QRegularExpression re(QStringLiteral("master listening (\\d+)"));
        m_port = uint16_t(re.match(m_master->output()).captured(1).toUInt());
        QVERIFY(m_port != 0);
    }

    void cleanup() { m_master.reset(); }

    void threeNodesTrainAndAgree()
    {
        // The nodes train until each has taken 8 outer steps in a ring of three (under load they start seconds
        // apart: a fixed number of steps per node could end before the last one joined), then are stopped.
        std::unique_ptr<ChildProcess> a = node(1, 1000), b = node(2, 1000), c = node(3, 1000);
        QVERIFY(a && b && c);
        auto inRingOfThree = [](ChildProcess &n) {
            int count = 0;
            for (const QJsonObject &o : events(n.output(), QStringLiteral("outer")))
                count += o.value(QStringLiteral("world")).toInt() == 3;
            return count;
        };
        QTRY_VERIFY_WITH_TIMEOUT(inRingOfThree(*a) >= 8 && inRingOfThree(*b) >= 8 && inRingOfThree(*c) >= 8, 120'000);
        for (ChildProcess *n : {a.get(), b.get(), c.get()})
            stop(*n);
        const int together = checkAgreement({a.get(), b.get(), c.get()});
        QVERIFY2(together >= 6,
                 qPrintable(QStringLiteral("outer steps all three nodes took together: %1").arg(together)));
        // Loss falls: from the first outer step any node took (uniform bytes would be 5.56 nats) to the last.
        double first = 0, last = 0;
        int firstStep = 1 << 30, lastStep = -1;
        for (ChildProcess *n : {a.get(), b.get(), c.get()}) {
            const QList<QJsonObject> outer = events(n->output(), QStringLiteral("outer"));
            QVERIFY(outer.size() >= 8);
            for (const QJsonObject &o : outer) {
                const int step = o.value(QStringLiteral("outer")).toInt();
                if (step < firstStep)
                    firstStep = step, first = o.value(QStringLiteral("loss")).toDouble();
                if (step > lastStep)
                    lastStep = step, last = o.value(QStringLiteral("loss")).toDouble();
            }
            // Bit-identical outer steps: after a node's first outer step it never needs shared state again.
            for (qsizetype i = 1; i < outer.size(); ++i)
                QCOMPARE(outer[i].value(QStringLiteral("sync_rx")).toInteger(), qint64(0));
        }
        QVERIFY2(last < 0.6 * first && last < 2.5,
                 qPrintable(QStringLiteral("loss %1 (outer step %2) -> %3 (outer step %4)")
                                .arg(first)
                                .arg(firstStep)
                                .arg(last)
                                .arg(lastStep)));
        qInfo("three nodes: %d outer steps together; loss %.3f at outer step %d -> %.3f at outer step %d", together,
              first, firstStep, last, lastStep);
    }

    void hostileMemberIsExcludedAndTrainingGoesOn_data()
    {
        QTest::addColumn<QString>("attack");
        QTest::addColumn<QString>("quant");
        // NaN and inf go out as f32 (a uint8 header cannot carry them; tst_collectives_hostile sends NaN headers).
        QTest::newRow("f32 NaN") << QStringLiteral("nan") << QStringLiteral("none");
        QTest::newRow("f32 inf") << QStringLiteral("inf") << QStringLiteral("none");
        QTest::newRow("1e38") << QStringLiteral("huge") << QStringLiteral("u8");
        QTest::newRow("beyond the norm bound") << QStringLiteral("overbound") << QStringLiteral("u8");
    }

    void hostileMemberIsExcludedAndTrainingGoesOn()
    {
        // Before: NaN made every honest model non-finite within one outer step, and they went on "working".
        QFETCH(QString, attack);
        QFETCH(QString, quant);
        const QStringList quantArgs{QStringLiteral("--quant"),
                                    quant == QLatin1String("u8") ? QStringLiteral("uint8") : QStringLiteral("none")};
        std::unique_ptr<ChildProcess> a = node(1, 1000, {}, quantArgs), b = node(2, 1000, {}, quantArgs),
                                      c = node(3, 1000, {}, quantArgs);
        QVERIFY(a && b && c);
        QTRY_VERIFY_WITH_TIMEOUT(!events(a->output(), QStringLiteral("model")).isEmpty(), 30'000);
        const QJsonObject model = events(a->output(), QStringLiteral("model")).first();
        auto outerSteps = [](ChildProcess &n) { return int(events(n.output(), QStringLiteral("outer")).size()); };
        QTRY_VERIFY_WITH_TIMEOUT(outerSteps(*a) >= 2 && outerSteps(*b) >= 2 && outerSteps(*c) >= 2, 120'000);
        // The attacker's quantization is the nodes' (a different one would only abort at Begin).
        ChildProcess attacker(
            program("cohort-collective-peer"),
            {QStringLiteral("diloco-attacker"), QStringLiteral("--master-port"), QString::number(m_port),
             QStringLiteral("--count"), QString::number(model.value(QStringLiteral("parameters")).toInteger()),
             QStringLiteral("--bound"), QString::number(model.value(QStringLiteral("bound")).toDouble(), 'g', 17),
             QStringLiteral("--attack"), attack, QStringLiteral("--quant"), quant});
        QVERIFY(attacker.start());
        QVERIFY(attacker.waitForOutput(QStringLiteral("attacker peer"), 30'000));
        QVERIFY2(attacker.process().waitForFinished(120'000), qPrintable(attacker.output()));
        QCOMPARE(attacker.process().exitCode(), 0); // excluded
        const uint32_t attackerId =
            QRegularExpression(QStringLiteral("attacker peer (\\d+)")).match(attacker.output()).captured(1).toUInt();
        QVERIFY(m_master->waitForOutput(QStringLiteral("master excluded peer %1:").arg(attackerId), 10'000));
        QVERIFY2(!m_master->output().contains(
                     QRegularExpression(QStringLiteral("master excluded peer (?!%1:)").arg(attackerId))),
                 qPrintable(m_master->output()));
        // Training goes on: three more outer steps on every node after the exclusion, all finite and agreed.
        const int before = std::min({outerSteps(*a), outerSteps(*b), outerSteps(*c)});
        QTRY_VERIFY_WITH_TIMEOUT(
            outerSteps(*a) >= before + 3 && outerSteps(*b) >= before + 3 && outerSteps(*c) >= before + 3, 120'000);
        for (ChildProcess *n : {a.get(), b.get(), c.get()})
            stop(*n);
        QVERIFY(checkAgreement({a.get(), b.get(), c.get()}) >= 3);
        bool named = false;
        for (ChildProcess *n : {a.get(), b.get(), c.get()}) {
            for (const QJsonObject &o : events(n->output(), QStringLiteral("outer")))
                QVERIFY2(std::isfinite(o.value(QStringLiteral("loss")).toDouble()) &&
                             !o.value(QStringLiteral("loss")).isNull(),
                         qPrintable(n->output()));
            for (const QJsonObject &o : events(n->output(), QStringLiteral("note")))
                named =
                    named ||
                    o.value(QStringLiteral("message")).toString().contains(QStringLiteral("peer %1").arg(attackerId));
        }
        QVERIFY2(named, "no honest node named the attacker");
    }

    void joinerFetchesOnceThenAgrees()
    {
        // The founders train on until the joiner is done (outer steps take ~0.2 s here: a fixed count could end
        // before the joiner has even loaded LibTorch); they are stopped afterwards.
        std::unique_ptr<ChildProcess> a = node(11, 1000), b = node(12, 1000);
        QVERIFY(a && b);
        // Join once the pair has trained for a while: the joiner's fresh model differs from theirs.
        // Three outer steps of its own, whatever their numbers: a node that starts second joins the other's ring
        // at that one's outer step (it may never print step 3).
        QDeadlineTimer trained(60'000);
        while (events(a->output(), QStringLiteral("outer")).size() < 3 && !trained.hasExpired())
            a->process().waitForReadyRead(200);
        QVERIFY2(events(a->output(), QStringLiteral("outer")).size() >= 3,
                 qPrintable(QStringLiteral("node a:\n") + a->output().left(1500) + a->errors().right(1500) +
                            QStringLiteral("\nnode b:\n") + b->output().left(1500) + b->errors().right(1500)));
        std::unique_ptr<ChildProcess> joiner = node(13, 4);
        QVERIFY(joiner);
        QVERIFY2(finished(*joiner, 120'000), qPrintable(joiner->output().right(2000) + joiner->errors().right(2000)));
        stop(*a);
        stop(*b);
        const QList<QJsonObject> syncs = events(joiner->output(), QStringLiteral("sync"));
        QVERIFY2(!syncs.isEmpty(), qPrintable(joiner->output().left(3000)));
        // Exactly the shared state: global weights + outer momentum in f32 for cohort-diloco-peer's model (d 32,
        // 1 layer, d_ff 128, 64 positions, 259 ids): embeddings 8288 + positions 2048 + layer 12704 + final norm 64 +
        // head 8288 = 31392 weights, twice, 4 bytes each.
        const qint64 fetched = syncs.first().value(QStringLiteral("rx")).toInteger();
        QCOMPARE(fetched, qint64(2 * 31392 * 4));
        const QList<QJsonObject> outer = events(joiner->output(), QStringLiteral("outer"));
        QCOMPARE(outer.size(), 4);
        QVERIFY(outer.first().value(QStringLiteral("outer")).toInt() > 3);
        for (qsizetype i = 1; i < outer.size(); ++i)
            QCOMPARE(outer[i].value(QStringLiteral("sync_rx")).toInteger(), qint64(0));
        QVERIFY(checkAgreement({a.get(), b.get(), joiner.get()}) >= 3);
        qInfo("joiner fetched %lld bytes once, then 0 for %lld outer steps", fetched, qint64(outer.size() - 1));
    }

    // Five kills of node c at random inner steps; after each, c restarts on the same checkpoint folder and resumes
    // from its newest bundle (before the last restart the newest bundle is torn: the previous one must be used).
    void killedNodeResumesFromItsCheckpoint()
    {
        const QString ckA = m_dir.filePath(QStringLiteral("kill-a")), ckB = m_dir.filePath(QStringLiteral("kill-b")),
                      ckC = m_dir.filePath(QStringLiteral("kill-c"));
        std::unique_ptr<ChildProcess> a = node(21, 1000, ckA), b = node(22, 1000, ckB), c = node(23, 1000, ckC);
        QVERIFY(a && b && c);
        QDir dir(ckC);
        static const QRegularExpression resumedRe(
            QStringLiteral("resumed from checkpoint: outer step (\\d+) inner step (\\d+)"));
        constexpr int kKills = 5;
        for (int round = 0; round < kKills; ++round) {
            // A moment inside the inner steps (1..9 of 10): every inner step is checkpointed in this tool.
            const int killAt = 1 + int(QRandomGenerator::global()->bounded(9));
            QVERIFY2(c->waitForOutput(QStringLiteral("\"inner\":%1,").arg(killAt), 60'000),
                     qPrintable(c->output().right(1000)));
            const QJsonObject last = events(c->output(), QStringLiteral("training")).last();
            c->process().kill(); // SIGKILL: no chance to save anything
            QVERIFY(c->process().waitForFinished(10'000));
            const int killedOuter = last.value(QStringLiteral("outer")).toInt();
            const int killedInner = last.value(QStringLiteral("inner")).toInt();
            if (round == kKills - 1) {
                // The survivors go on without it: an outer step with a ring of two.
                QVERIFY2(a->waitForOutput(QStringLiteral("\"world\":2}"), 60'000), qPrintable(a->output().right(2000)));
                // Tear c's newest bundle: the restart must set it aside and use the previous one.
                const QStringList bundles =
                    dir.entryList({QStringLiteral("bundle-*.zip")}, QDir::Files, QDir::Name | QDir::Reversed);
                QVERIFY2(bundles.size() >= 2, qPrintable(bundles.join(u',')));
                QFile newest(dir.filePath(bundles.first()));
                QVERIFY(newest.open(QIODevice::ReadWrite));
                QVERIFY(newest.resize(newest.size() / 2));
            }
            c = node(23, round == kKills - 1 ? 3 : 1000, ckC);
            QVERIFY(c);
            QVERIFY2(c->waitForOutput(QStringLiteral("\"event\":\"training\""), 60'000),
                     qPrintable(c->errors().right(2000)));
            const QJsonObject first = events(c->output(), QStringLiteral("training")).first();
            QVERIFY2(first.value(QStringLiteral("resumed")).toBool(), "the restarted node must resume from its bundle");
            const auto m = resumedRe.match(c->errors());
            QVERIFY2(m.hasMatch(), qPrintable(c->errors().right(2000)));
            const int bundleOuter = m.captured(1).toInt(), bundleInner = m.captured(2).toInt();
            // The bundle holds at least the inner step the node reported last before the kill (the runner writes
            // it before reporting; the node may have gone a step further before the signal landed). After the torn
            // newest bundle, the one before it: at least the step before.
            const int lost = round == kKills - 1 ? 1 : 0;
            QVERIFY2(bundleOuter * 1000 + bundleInner >= killedOuter * 1000 + killedInner - lost,
                     qPrintable(QStringLiteral("killed at %1/%2, bundle %3/%4")
                                    .arg(killedOuter)
                                    .arg(killedInner)
                                    .arg(bundleOuter)
                                    .arg(bundleInner)));
            QVERIFY(bundleOuter * 1000 + bundleInner <= killedOuter * 1000 + killedInner + 3);
            qInfo("kill %d: at inner step %d of outer step %d; bundle restored at inner step %d; training went on "
                  "at outer step %d inner step %d%s",
                  round + 1, killedInner, killedOuter, bundleInner, first.value(QStringLiteral("outer")).toInt(),
                  first.value(QStringLiteral("inner")).toInt() - 1,
                  first.value(QStringLiteral("outer")).toInt() > killedOuter
                      ? " (the ring had moved on: synced, local inner steps restarted)"
                      : "");
        }
        QVERIFY2(finished(*c, 120'000), qPrintable(c->output().right(2000) + c->errors().right(2000)));
        stop(*a);
        stop(*b);
        QVERIFY2(QDir(dir.filePath(QStringLiteral("damaged"))).exists(), "the torn bundle must be set aside");
        QCOMPARE(events(c->output(), QStringLiteral("outer")).size(), 3);
        QVERIFY(checkAgreement({a.get(), b.get(), c.get()}) >= 2);
    }
};

QTEST_GUILESS_MAIN(TestDilocoE2E)
#include "tst_diloco_e2e.moc"
