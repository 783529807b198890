// A malicious ring member among honest ones (issue 26), all real processes on 127.0.0.1 (cohort-collective-peer):
// three honest peers and one hostile peer that speaks the whole protocol but, in every all-reduce, sends NaN, inf,
// 1e38, a contribution ten times the norm bound, or (uint8) quantization headers spanning +-1.7e38 or NaN — or
// accuses its honest predecessor of doing so. Each case asserts that the honest peers
//   * finish every operation, in a ring of the honest peers only, with results bit-identical to each other and
//     finite (f32: exactly the sum of the honest inputs);
//   * name the bad peer (their error lines, the master's exclusion), and the master excludes it and nobody else
//     (the liar: its first victim, then itself on its second accusation).
// And a staller in each phase, joining a group that trains (the `state` mode: vote, sync, all-reduce, each step):
// it answers Ready without linking, goes quiet, only votes, never begins, moves nothing in an operation, or passes
// nothing on while it claims to starve (framing its predecessor). The
// master's deadlines (3 s here) or the ring's own reports find it; the honest peers take every step, the last ones
// in a ring of their own, with one shared-state hash.
#include "CollectiveInputs.h"
#include "CollectivePeerProcess.h"
#include "net/Ed25519.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>
#include <map>

using cohort::test::ChildProcess;

namespace {

struct Peer {
    std::unique_ptr<ChildProcess> process;
    uint64_t seed = 0;
    QString out;
};

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The ids the master excluded ("master excluded peer N: ...").
QList<uint32_t> excludedIds(const QString &masterOutput)
{
    static const QRegularExpression re(QStringLiteral("^master excluded peer (\\d+):"),
                                       QRegularExpression::MultilineOption);
    QList<uint32_t> ids;
    auto it = re.globalMatch(masterOutput);
    while (it.hasNext())
        ids << it.next().captured(1).toUInt();
    return ids;
}

constexpr size_t kCount = 30'011;
constexpr int kOps = 3;
constexpr double kBound = 1e6; // honest --ints inputs have norms near 1e5

} // namespace

class TestCollectivesHostile : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    Peer startPeer(uint16_t port, uint64_t seed, const QString &quant, const QString &attack,
                   const QStringList &extra = {})
    {
        Peer peer;
        peer.seed = seed;
        peer.out = m_dir.filePath(QStringLiteral("out-%1-%2").arg(port).arg(seed));
        QStringList args{QStringLiteral("peer"),
                         QStringLiteral("--master-port"),
                         QString::number(port),
                         QStringLiteral("--seed"),
                         QString::number(seed),
                         QStringLiteral("--out"),
                         peer.out,
                         QStringLiteral("--world"),
                         QStringLiteral("4"),
                         QStringLiteral("--count"),
                         QString::number(kCount),
                         QStringLiteral("--ops"),
                         QString::number(kOps),
                         QStringLiteral("--ints"),
                         QStringLiteral("--quant"),
                         quant,
                         QStringLiteral("--bound"),
                         QString::number(kBound),
                         QStringLiteral("--block"),
                         QStringLiteral("4096"),
                         QStringLiteral("--io-timeout"),
                         QStringLiteral("5000")};
        if (!attack.isEmpty())
            args << QStringLiteral("--attack") << attack;
        args << extra;
        peer.process = std::make_unique<ChildProcess>(cohort::test::collectivePeerProgram(), args);
        peer.process->start();
        return peer;
    }

    // Writes a fresh node key to `name` in the test's folder; returns its public key (empty on failure).
    QByteArray writeKey(const QString &name)
    {
        const cohort::ed25519::KeyPair pair = cohort::ed25519::generate();
        QFile f(m_dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(pair.secretKey.toBase64());
        return pair.publicKey;
    }

    // The master's --audited-work file: these keys carry `work` each, every other key none.
    QString writeAuditedWork(const QList<QByteArray> &keys, int work)
    {
        const QString path = m_dir.filePath(QStringLiteral("audited-work-%1").arg(++m_files));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        for (const QByteArray &key : keys)
            f.write(key.toBase64() + ' ' + QByteArray::number(work) + '\n');
        return path;
    }
    int m_files = 0;

    // Every one of `peers` took every operation in a ring of their own (the bad peer gone), bit-identical.
    void verifyEveryOneFinishedAlone(std::vector<Peer> &peers)
    {
        QByteArray reference;
        for (Peer &peer : peers) {
            QProcess &p = peer.process->process();
            QVERIFY2(p.waitForFinished(60'000) && p.exitCode() == 0,
                     qPrintable(peer.process->output() + peer.process->errors()));
            const auto last = cohort::test::lastOk(peer.process->output());
            QVERIFY(last);
            QCOMPARE(last->op, kOps - 1);
            QCOMPARE(last->world, int(peers.size()));
            const QByteArray bytes = readAll(peer.out);
            if (reference.isEmpty())
                reference = bytes;
            QVERIFY(bytes == reference);
        }
    }

    // A `state`-mode member (vote, sync, average each step) of the group at `port`.
    static std::unique_ptr<ChildProcess> startState(uint16_t port, uint64_t seed, const QStringList &extra)
    {
        auto p = std::make_unique<ChildProcess>(cohort::test::collectivePeerProgram(),
                                                QStringList{QStringLiteral("state"), QStringLiteral("--master-port"),
                                                            QString::number(port), QStringLiteral("--seed"),
                                                            QString::number(seed)} +
                                                    extra);
        p->start();
        return p;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(QFile::exists(cohort::test::collectivePeerProgram()),
                 qPrintable(cohort::test::collectivePeerProgram()));
    }

    void honestPeersExcludeTheBadOne_data()
    {
        QTest::addColumn<QString>("quant");
        QTest::addColumn<QString>("attack");
        QTest::newRow("f32 NaN") << QStringLiteral("none") << QStringLiteral("nan");
        QTest::newRow("f32 inf") << QStringLiteral("none") << QStringLiteral("inf");
        QTest::newRow("f32 1e38") << QStringLiteral("none") << QStringLiteral("huge");
        QTest::newRow("f32 10x the norm bound") << QStringLiteral("none") << QStringLiteral("overbound");
        QTest::newRow("uint8 1e38") << QStringLiteral("u8") << QStringLiteral("huge");
        QTest::newRow("uint8 10x the norm bound") << QStringLiteral("u8") << QStringLiteral("overbound");
        QTest::newRow("uint8 header spanning 1.7e38") << QStringLiteral("u8") << QStringLiteral("params");
        QTest::newRow("uint8 NaN header") << QStringLiteral("u8") << QStringLiteral("nan-params");
    }

    void honestPeersExcludeTheBadOne()
    {
        QFETCH(QString, quant);
        QFETCH(QString, attack);
        uint16_t port = 0;
        auto master =
            cohort::test::startCollectiveMaster(&port, {QStringLiteral("--exclusion-ms"), QStringLiteral("60000")});
        QVERIFY(master);
        std::vector<Peer> honest;
        for (uint64_t seed = 1; seed <= 3; ++seed)
            honest.push_back(startPeer(port, seed, quant, QString()));
        Peer hostile = startPeer(port, 4, quant, attack);

        QVERIFY2(hostile.process->process().waitForFinished(60'000), qPrintable(hostile.process->output()));
        const uint32_t hostileId = cohort::test::admittedId(hostile.process->output());
        QVERIFY2(hostileId != 0, qPrintable(hostile.process->output()));
        QVERIFY2(hostile.process->process().exitCode() != 0, qPrintable(hostile.process->output()));

        QByteArray reference;
        bool someoneNamedIt = false;
        for (Peer &peer : honest) {
            QProcess &p = peer.process->process();
            QVERIFY2(p.waitForFinished(60'000) && p.exitCode() == 0,
                     qPrintable(peer.process->output() + peer.process->errors()));
            const QString output = peer.process->output();
            const auto last = cohort::test::lastOk(output);
            QVERIFY2(last, qPrintable(output));
            QCOMPARE(last->op, kOps - 1);
            QCOMPARE(last->world, 3);
            QVERIFY(!last->ring.contains(hostileId));
            // The master's verdict names it, or (when another member's abort came first) the accuser's own error.
            if (output.contains(QStringLiteral("peer %1 sent values").arg(hostileId)) ||
                output.contains(QStringLiteral("(peer %1) sent").arg(hostileId)))
                someoneNamedIt = true;
            const QByteArray bytes = readAll(peer.out);
            QCOMPARE(bytes.size(), qsizetype(kCount * 4));
            if (reference.isEmpty())
                reference = bytes;
            QVERIFY(bytes == reference); // bit-identical
        }
        QVERIFY2(someoneNamedIt, "no honest peer named the hostile one");
        const auto *values = reinterpret_cast<const float *>(reference.constData());
        double worst = 0;
        for (size_t i = 0; i < kCount; ++i) {
            QVERIFY(std::isfinite(values[i]));
            double exact = 0;
            for (uint64_t seed = 1; seed <= 3; ++seed)
                exact += cohort::test::collectiveInput(seed, kOps - 1, kCount, true)[i];
            worst = std::max(worst, std::fabs(double(values[i]) - exact));
            if (i > 200) // the exact sums of a few hundred values say enough; the rest is checked finite
                break;
        }
        // f32: the sum of the honest inputs exactly; uint8: within its quantization error (3 peers, |x| <= 1000).
        QVERIFY2(quant == QLatin1String("none") ? worst == 0 : worst <= 3 * 6000.0 / 510 + 1,
                 qPrintable(QString::number(worst)));
        QVERIFY(master->waitForOutput(QStringLiteral("master excluded peer"), 10'000)); // reads its pipe
        QCOMPARE(excludedIds(master->output()), QList<uint32_t>{hostileId});
    }

    void aForgedHelloIsDropped()
    {
        // The hostile member opens links to the member two places on, claiming to be that member's predecessor.
        // Before, a hello was the ring token in clear plus a claimed id, so the forged links took the honest
        // predecessor's place and the ring stalled; now a hello is signed by the sender's node key.
        uint16_t port = 0;
        auto master = cohort::test::startCollectiveMaster(&port);
        QVERIFY(master);
        // The honest peers link 300 ms late (a slower path than the forger's), so the forged hellos always come
        // first: before, they took the honest predecessor's place every time.
        std::vector<Peer> honest;
        for (uint64_t seed = 1; seed <= 3; ++seed)
            honest.push_back(startPeer(port, seed, QStringLiteral("none"), QString(),
                                       {QStringLiteral("--link-delay-ms"), QStringLiteral("300")}));
        Peer forger = startPeer(port, 4, QStringLiteral("none"), QStringLiteral("forge-hello"));
        bool dropped = false;
        QByteArray reference;
        for (Peer *peer : {&honest[0], &honest[1], &honest[2], &forger}) {
            QProcess &p = peer->process->process();
            QVERIFY2(p.waitForFinished(60'000), qPrintable(peer->process->output()));
            const QString output = peer->process->output() + peer->process->errors();
            if (peer != &forger)
                QVERIFY2(p.exitCode() == 0, qPrintable(output));
            dropped = dropped || output.contains(QStringLiteral("whose hello is not signed by its key"));
            if (peer == &forger)
                continue;
            const auto last = cohort::test::lastOk(output);
            QVERIFY(last && last->op == kOps - 1 && last->world == 4); // the forger only forged: it stays a member
            const QByteArray bytes = readAll(peer->out);
            if (reference.isEmpty())
                reference = bytes;
            QVERIFY(bytes == reference);
        }
        QVERIFY2(dropped, "no peer saw the forged hello: the test proved nothing");
        // Exactly the sum of all four inputs (the forger's are honest values).
        const auto *values = reinterpret_cast<const float *>(reference.constData());
        for (size_t i = 0; i < 200; ++i) {
            double exact = 0;
            for (uint64_t seed = 1; seed <= 4; ++seed)
                exact += cohort::test::collectiveInput(seed, kOps - 1, kCount, true)[i];
            QCOMPARE(double(values[i]), exact);
        }
    }

    void aLiarIsExcludedOnItsSecondAccusation()
    {
        uint16_t port = 0;
        auto master =
            cohort::test::startCollectiveMaster(&port, {QStringLiteral("--exclusion-ms"), QStringLiteral("60000")});
        QVERIFY(master);
        std::vector<Peer> honest;
        for (uint64_t seed = 1; seed <= 3; ++seed)
            honest.push_back(startPeer(port, seed, QStringLiteral("none"), QString()));
        Peer liar = startPeer(port, 4, QStringLiteral("none"), QStringLiteral("liar"));
        QVERIFY2(liar.process->process().waitForFinished(60'000), qPrintable(liar.process->output()));
        const uint32_t liarId = cohort::test::admittedId(liar.process->output());
        int finished = 0;
        for (Peer &peer : honest) {
            QProcess &p = peer.process->process();
            QVERIFY(p.waitForFinished(60'000));
            if (p.exitCode() != 0)
                continue; // the liar's first victim, excluded for the cool-down
            ++finished;
            const auto last = cohort::test::lastOk(peer.process->output());
            QVERIFY(last);
            QCOMPARE(last->op, kOps - 1);
            QCOMPARE(last->world, 2);
        }
        QCOMPARE(finished, 2);
        QVERIFY(master->waitForOutput(QStringLiteral("excluded as the liar"), 10'000));
        const QList<uint32_t> excluded = excludedIds(master->output());
        QCOMPARE(excluded.size(), 2);
        QVERIFY(excluded[0] != liarId);
        QCOMPARE(excluded[1], liarId);
        QVERIFY(master->output().contains(QStringLiteral("excluded as the liar")));
    }

    void anAccusationWeighsTheAuditedWork_data()
    {
        QTest::addColumn<QString>("attack");
        QTest::addColumn<bool>("honestCarryWork"); // the honest peers' keys carry audited work, else the hostile's
        QTest::addColumn<QString>("reason");       // in the master's exclusion of the hostile peer
        // Before: the liar's first accusation excluded its honest predecessor (one free victim per identity). Now
        // the accused carries audited work and the accuser none: the link is disputed, the ring re-forms around it,
        // and the liar's accusation of a second peer excludes it. No member that trained is ever excluded.
        QTest::newRow("a fresh liar cannot push out members with audited work")
            << QStringLiteral("liar") << true << QStringLiteral("excluded as the liar");
        // The other side of the rule: work buys no licence. The member with audited work sends NaN; its fresh
        // successors' words each only dispute the link, but the second one names it too and it is excluded.
        QTest::newRow("a member with audited work sending NaN goes once two peers name it")
            << QStringLiteral("nan") << false << QStringLiteral("named by peers");
    }

    void anAccusationWeighsTheAuditedWork()
    {
        QFETCH(QString, attack);
        QFETCH(bool, honestCarryWork);
        QFETCH(QString, reason);
        QList<QByteArray> keys;
        for (int i = 1; i <= 4; ++i)
            keys << writeKey(QStringLiteral("%1-%2.key").arg(attack).arg(i));
        QVERIFY(!keys.contains(QByteArray()));
        const QString work = writeAuditedWork(honestCarryWork ? keys.mid(0, 3) : keys.mid(3), 5);
        QVERIFY(!work.isEmpty());
        uint16_t port = 0;
        auto master = cohort::test::startCollectiveMaster(
            &port, {QStringLiteral("--exclusion-ms"), QStringLiteral("60000"), QStringLiteral("--audited-work"), work});
        QVERIFY(master);
        const auto keyOf = [&](int i) {
            return QStringList{QStringLiteral("--key"), m_dir.filePath(QStringLiteral("%1-%2.key").arg(attack).arg(i))};
        };
        std::vector<Peer> honest;
        for (uint64_t seed = 1; seed <= 3; ++seed)
            honest.push_back(startPeer(port, seed, QStringLiteral("none"), QString(), keyOf(int(seed))));
        Peer hostile = startPeer(port, 4, QStringLiteral("none"), attack, keyOf(4));
        QVERIFY2(hostile.process->process().waitForFinished(60'000), qPrintable(hostile.process->output()));
        const uint32_t hostileId = cohort::test::admittedId(hostile.process->output());
        QVERIFY(hostileId != 0);
        verifyEveryOneFinishedAlone(honest);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(master->waitForOutput(QStringLiteral("master excluded peer"), 10'000));
        QCOMPARE(excludedIds(master->output()), QList<uint32_t>{hostileId});
        QVERIFY2(master->output().contains(reason), qPrintable(master->output()));
    }

    void stallersAreExcludedAndTheOthersGoOn_data()
    {
        QTest::addColumn<QString>("attack");
        QTest::addColumn<QString>("reason"); // in the master's exclusion
        QTest::newRow("formation: Ready without links")
            << QStringLiteral("stall-ready") << QStringLiteral("would not link");
        QTest::newRow("quiet once admitted") << QStringLiteral("silent") << QStringLiteral("did not");
        QTest::newRow("votes, never syncs")
            << QStringLiteral("vote-only") << QStringLiteral("did not declare its shared state");
        QTest::newRow("syncs, never begins") << QStringLiteral("no-begin") << QStringLiteral("did not begin");
        QTest::newRow("operation: moves nothing") << QStringLiteral("stall-op") << QStringLiteral("stalled");
        // Passes nothing on and says it starved, framing its honest predecessor (before: every member reported
        // starving, no root was found, and every operation stalled for ever).
        QTest::newRow("operation: frames its predecessor")
            << QStringLiteral("stall-op-frame") << QStringLiteral("stalled");
    }

    void stallersAreExcludedAndTheOthersGoOn()
    {
        QFETCH(QString, attack);
        QFETCH(QString, reason);
        uint16_t port = 0;
        auto master = cohort::test::startCollectiveMaster(
            &port, {QStringLiteral("--exclusion-ms"), QStringLiteral("60000"), QStringLiteral("--vote-timeout-ms"),
                    QStringLiteral("3000"), QStringLiteral("--begin-timeout-ms"), QStringLiteral("3000"),
                    QStringLiteral("--sync-timeout-ms"), QStringLiteral("3000")});
        QVERIFY(master);
        const auto state = [&](uint64_t seed, const QStringList &extra) {
            return startState(port, seed,
                              QStringList{QStringLiteral("--world"), QStringLiteral("3"),
                                          QStringLiteral("--io-timeout"), QStringLiteral("4000")} +
                                  extra);
        };
        const int steps = 14;
        std::vector<std::unique_ptr<ChildProcess>> honest;
        for (uint64_t seed = 1; seed <= 3; ++seed)
            honest.push_back(state(seed, {QStringLiteral("--steps"), QString::number(steps),
                                          QStringLiteral("--step-ms"), QStringLiteral("250")}));
        QVERIFY(honest[0]->waitForOutput(QStringLiteral("step 1 "), 60'000));
        auto staller =
            state(9, {QStringLiteral("--steps"), QString::number(steps), QStringLiteral("--attack"), attack});
        QString lastHash;
        QList<uint32_t> honestIds;
        for (auto &p : honest) {
            honestIds << cohort::test::admittedId(p->output());
            const bool finished = p->process().waitForFinished(120'000) && p->process().exitCode() == 0;
            if (!finished) // QVERIFY2 cuts its message at about 1,000 characters: the whole story goes to the log first
                qWarning().noquote() << "peer:\n"
                                     << p->output().right(6000) << p->errors().right(2000) << "\nmaster:\n"
                                     << master->output().right(8000) << master->errors().right(8000);
            QVERIFY2(finished, qPrintable(p->output() + p->errors() + QStringLiteral("\nmaster:\n") + master->output() +
                                          master->errors()));
            static const QRegularExpression re(
                QStringLiteral("^step (\\d+) revision \\d+ world (\\d+) .* hash ([0-9a-f]+)$"),
                QRegularExpression::MultilineOption);
            QRegularExpressionMatch last;
            for (auto it = re.globalMatch(p->output()); it.hasNext();)
                last = it.next();
            QVERIFY2(last.hasMatch(), qPrintable(p->output()));
            QCOMPARE(last.captured(1).toInt(), steps - 1);
            QCOMPARE(last.captured(2).toInt(), 3);
            if (lastHash.isEmpty())
                lastHash = last.captured(3);
            QCOMPARE(last.captured(3), lastHash); // one shared state
        }
        // The staller (it may never have been admitted into a ring: stall-ready) is the one excluded, nobody else.
        QVERIFY(master->waitForOutput(QStringLiteral("master excluded peer"), 10'000));
        const QList<uint32_t> excluded = excludedIds(master->output());
        QCOMPARE(excluded.size(), 1);
        QVERIFY2(!honestIds.contains(excluded.front()) && excluded.front() != 0, qPrintable(master->output()));
        QVERIFY2(master->output().contains(reason), qPrintable(master->output()));
    }

    void aSybilMajorityCannotReplaceTheMembersState()
    {
        // Before: the largest group of identical digests was elected for everyone, so three identities declaring
        // forged weights made the two members that trained fetch them.
        uint16_t port = 0;
        auto master = cohort::test::startCollectiveMaster(&port);
        QVERIFY(master);
        const auto state = [&](uint64_t seed, const QStringList &extra) {
            return startState(port, seed,
                              QStringList{QStringLiteral("--world"), QStringLiteral("2"), QStringLiteral("--steps"),
                                          QStringLiteral("12"), QStringLiteral("--step-ms"), QStringLiteral("300")} +
                                  extra);
        };
        auto a = state(1, {}), b = state(2, {});
        QVERIFY(a->waitForOutput(QStringLiteral("step 1 "), 60'000));
        std::vector<std::unique_ptr<ChildProcess>> sybils;
        for (uint64_t seed = 7; seed <= 9; ++seed)
            sybils.push_back(state(seed, {QStringLiteral("--attack"), QStringLiteral("forge-state")}));
        for (auto &s : sybils)
            QVERIFY(s->waitForOutput(QStringLiteral("admitted"), 30'000));
        static const QRegularExpression re(
            QStringLiteral(
                "^step (\\d+) revision \\d+ world (\\d+) rx (\\d+) tx \\d+ fetched (\\d+) hash ([0-9a-f]+)$"),
            QRegularExpression::MultilineOption);
        std::map<int, QString> hashA;
        int withSybils = 0;
        for (ChildProcess *p : {a.get(), b.get()}) {
            QVERIFY2(p->process().waitForFinished(120'000) && p->process().exitCode() == 0, qPrintable(p->output()));
            int lines = 0;
            for (auto it = re.globalMatch(p->output()); it.hasNext();) {
                const auto m = it.next();
                ++lines;
                QVERIFY2(m.captured(4).toInt() == 0, qPrintable(p->output())); // never fetched the sybils' state
                const int step = m.captured(1).toInt();
                if (p == a.get())
                    hashA[step] = m.captured(5);
                else if (hashA.count(step))
                    QCOMPARE(m.captured(5), hashA[step]); // the two members stay identical
                if (p == a.get() && m.captured(2).toInt() == 5)
                    ++withSybils;
            }
            QCOMPARE(lines, 12);
        }
        QVERIFY2(withSybils >= 3, "the sybils never were in the ring: the test proved nothing");
    }

    void newcomersTakeTheStateOfTheVotersWithTheMostAuditedWork()
    {
        // Three sybils that were in the ring for a sync declare forged weights; a newcomer then joins. By headcount
        // (before) it fetched the forgery from the three; weighted by the work the hub's audits confirmed
        // (--audited-work: the two members' keys weigh 5, the sybils' nothing), it fetches the members' state.
        const QByteArray keyA = writeKey(QStringLiteral("member-a.key")),
                         keyB = writeKey(QStringLiteral("member-b.key"));
        QVERIFY(!keyA.isEmpty() && !keyB.isEmpty());
        const QString weightsFile = writeAuditedWork({keyA, keyB}, 5);
        QVERIFY(!weightsFile.isEmpty());
        uint16_t port = 0;
        auto master = cohort::test::startCollectiveMaster(&port, {QStringLiteral("--audited-work"), weightsFile});
        QVERIFY(master);
        const auto state = [&](uint64_t seed, const QStringList &extra) {
            return startState(port, seed,
                              QStringList{QStringLiteral("--world"), QStringLiteral("2"), QStringLiteral("--steps"),
                                          QStringLiteral("16"), QStringLiteral("--step-ms"), QStringLiteral("300")} +
                                  extra);
        };
        auto a = state(1, {QStringLiteral("--key"), m_dir.filePath(QStringLiteral("member-a.key"))});
        auto b = state(2, {QStringLiteral("--key"), m_dir.filePath(QStringLiteral("member-b.key"))});
        QVERIFY(a->waitForOutput(QStringLiteral("step 1 "), 60'000));
        std::vector<std::unique_ptr<ChildProcess>> sybils;
        for (uint64_t seed = 7; seed <= 9; ++seed)
            sybils.push_back(state(seed, {QStringLiteral("--attack"), QStringLiteral("forge-state")}));
        // The sybils hold the record once they declared their forgery at a sync (the master saw the split).
        QVERIFY2(master->waitForOutput(QStringLiteral("master split revision"), 60'000), qPrintable(master->output()));
        auto newcomer = state(3, {QStringLiteral("--join")});
        static const QRegularExpression re(
            QStringLiteral("^step (\\d+) revision \\d+ world \\d+ rx \\d+ tx \\d+ fetched (\\d+) hash ([0-9a-f]+)$"),
            QRegularExpression::MultilineOption);
        const auto hashes = [&](ChildProcess &p) {
            std::map<int, std::pair<int, QString>> byStep; // step -> (fetched, hash)
            for (auto it = re.globalMatch(p.output()); it.hasNext();) {
                const auto m = it.next();
                byStep[m.captured(1).toInt()] = {m.captured(2).toInt(), m.captured(3)};
            }
            return byStep;
        };
        for (ChildProcess *p : {a.get(), b.get(), newcomer.get()})
            QVERIFY2(p->process().waitForFinished(120'000) && p->process().exitCode() == 0,
                     qPrintable(p->output() + p->errors()));
        const auto members = hashes(*a), joined = hashes(*newcomer);
        QVERIFY2(!joined.empty(), qPrintable(newcomer->output()));
        QVERIFY2(joined.begin()->second.first > 0, qPrintable(newcomer->output())); // it fetched its first state
        for (const auto &[step, fetchedAndHash] : joined) {
            QVERIFY2(members.count(step), qPrintable(a->output()));
            QCOMPARE(fetchedAndHash.second, members.at(step).second); // the members' state, never the sybils'
        }
        QCOMPARE(hashes(*b).rbegin()->second.second, members.rbegin()->second.second);
    }

    void aDistributorServingForgedStateIsNamedAndAvoided()
    {
        // A member computes honestly but serves other bytes under the elected digest (here: crude ones; a crafted
        // forgery matched the 64-bit hash before SHA-256, stateDigestsAreSha256). Every fetch from it fails its digest
        // check, the master names it (a strike: two in a row without a good serve exclude it) and sends the next
        // attempt elsewhere; members and joiners end on one state.
        uint16_t port = 0;
        auto master = cohort::test::startCollectiveMaster(&port);
        QVERIFY(master);
        const auto state = [&](uint64_t seed, const QStringList &extra) {
            return startState(port, seed,
                              QStringList{QStringLiteral("--world"), QStringLiteral("3"), QStringLiteral("--steps"),
                                          QStringLiteral("12"), QStringLiteral("--step-ms"), QStringLiteral("200")} +
                                  extra);
        };
        std::vector<std::unique_ptr<ChildProcess>> members;
        members.push_back(state(1, {}));
        members.push_back(state(2, {}));
        auto forger = state(3, {QStringLiteral("--attack"), QStringLiteral("serve-forged")});
        QVERIFY(members[0]->waitForOutput(QStringLiteral("step 1 "), 60'000));
        for (uint64_t seed = 4; seed <= 6; ++seed)
            members.push_back(state(seed, {QStringLiteral("--join")}));
        QString finalHash;
        bool mismatchSeen = false;
        for (auto &p : members) {
            QVERIFY2(p->process().waitForFinished(120'000) && p->process().exitCode() == 0,
                     qPrintable(p->output() + p->errors()));
            static const QRegularExpression re(QStringLiteral("^step 11 revision \\d+ world \\d+ .* hash ([0-9a-f]+)$"),
                                               QRegularExpression::MultilineOption);
            const auto m = re.match(p->output());
            QVERIFY2(m.hasMatch(), qPrintable(p->output()));
            if (finalHash.isEmpty())
                finalHash = m.captured(1);
            QCOMPARE(m.captured(1), finalHash); // members and joiners on one state
            mismatchSeen = mismatchSeen || p->errors().contains(QStringLiteral("does not match its elected digest"));
        }
        QVERIFY2(mismatchSeen, "no joiner fetched from the forger: the test proved nothing");
        QVERIFY(forger->waitForOutput(QStringLiteral("admitted"), 5000)); // reads its pipe
        const uint32_t forgerId = cohort::test::admittedId(forger->output());
        master->waitForError(QStringLiteral("from peer %1").arg(forgerId), 3000);
        QVERIFY2(master->errors().contains(QStringLiteral("from peer %1").arg(forgerId)),
                 qPrintable(master->errors().right(1500)));
        QVERIFY(excludedIds(master->output()).isEmpty() ||
                excludedIds(master->output()) == QList<uint32_t>{forgerId}); // nobody else, ever
    }

    void anExcludedKeyIsRefusedUntilTheCoolDownEnds()
    {
        // The exclusion is of the key: the same hostile key reconnecting is refused with the reason.
        uint16_t port = 0;
        auto master =
            cohort::test::startCollectiveMaster(&port, {QStringLiteral("--exclusion-ms"), QStringLiteral("60000")});
        QVERIFY(master);
        const QString keyFile = m_dir.filePath(QStringLiteral("hostile.key"));
        {
            QFile f(keyFile);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(cohort::ed25519::generate().secretKey.toBase64());
        }
        std::vector<Peer> honest;
        for (uint64_t seed = 1; seed <= 3; ++seed)
            honest.push_back(startPeer(port, seed, QStringLiteral("none"), QString()));
        const QStringList withKey{QStringLiteral("--key"), keyFile};
        Peer first = startPeer(port, 4, QStringLiteral("none"), QStringLiteral("nan"), withKey);
        QVERIFY(first.process->process().waitForFinished(60'000));
        for (Peer &peer : honest)
            QVERIFY(peer.process->process().waitForFinished(60'000) && peer.process->process().exitCode() == 0);
        Peer again = startPeer(port, 5, QStringLiteral("none"), QStringLiteral("nan"), withKey);
        QVERIFY(again.process->process().waitForFinished(30'000));
        ChildProcess &secondTry = *again.process;
        QCOMPARE(secondTry.process().exitCode(), 3); // refused
        QVERIFY2(secondTry.output().contains(QStringLiteral("excluded for another")), qPrintable(secondTry.output()));
    }
};

QTEST_GUILESS_MAIN(TestCollectivesHostile)
#include "tst_collectives_hostile.moc"
