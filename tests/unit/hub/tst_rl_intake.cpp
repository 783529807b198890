// Rollout intake and the ledger: the hub never trusts a node's numbers, refuses every malformed or dishonest
// batch with a reason, credits accepted work once, and reports earnings per node.
#include "core/TaskInfo.h"
#include "hub/HubStore.h"
#include "hub/Ledger.h"
#include "hub/RolloutIntake.h"
#include "rl/Tokenizer.h"
#include "rl/WorkSampling.h"
#include "toploc/Proof.h"

#include <QJsonArray>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace cohort;

namespace {
const QString kNode = QStringLiteral("n-0123456789abcdef0123");

TaskInfo rlTask()
{
    TaskInfo t;
    t.id = QStringLiteral("arith-rl");
    t.kind = QStringLiteral("rl");
    t.title = QStringLiteral("Arithmetic");
    t.rewardRate = 1.0;
    RlTaskConfig c;
    c.environments = {QStringLiteral("add-sub"), QStringLiteral("linear-eq")};
    c.promptsPerBatch = 3;
    c.samplesPerPrompt = 4;
    c.maxNewTokens = 6;
    c.asyncLevel = 2;
    c.toploc = false; // proofs have their own test below
    t.rl = c;
    return t;
}

WorkRecord workFor(quint64 seed = 99)
{
    WorkRecord w;
    w.workId = QStringLiteral("w-1");
    w.nodeId = kNode;
    w.taskId = QStringLiteral("arith-rl");
    w.step = 5;
    w.seed = seed;
    w.status = QStringLiteral("open");
    return w;
}

std::vector<std::string> envs()
{
    return {"add-sub", "linear-eq"};
}

// An honest submission: sample 0 of each group is the right answer, the others are wrong in various ways.
QJsonObject honestSubmission(const WorkRecord &w, int version = 5)
{
    const auto problems = rl::problemsForWork(envs(), w.seed, 3);
    QJsonArray groups;
    for (const rl::Problem &p : problems) {
        QJsonArray samples;
        const std::vector<std::string> texts{p.answer, "9", "12", "7"};
        for (size_t i = 0; i < texts.size(); ++i) {
            QJsonArray tokens;
            for (unsigned char c : texts[i])
                tokens.append(int(c));
            const bool finished = i != 3; // the last sample ran out of tokens without EOS
            if (finished)
                tokens.append(rl::ByteTokenizer::kEos);
            const double reward = rl::findEnvironment(p.environment)->score(p, texts[i], finished).total;
            samples.append(QJsonObject{{QStringLiteral("tokens"), tokens}, {QStringLiteral("reward"), reward}});
        }
        groups.append(QJsonObject{{QStringLiteral("prompt"), QString::fromStdString(p.prompt)},
                                  {QStringLiteral("samples"), samples}});
    }
    return {{QStringLiteral("submission_id"), QStringLiteral("s-0123456789abcdef0123456789abcdef")},
            {QStringLiteral("work_id"), w.workId},
            {QStringLiteral("version"), version},
            {QStringLiteral("groups"), groups}};
}

// Replaces groups[g].samples[s] field `key` with `value`.
QJsonObject withSample(QJsonObject body, int g, int s, const QString &key, const QJsonValue &value)
{
    QJsonArray groups = body.value(QStringLiteral("groups")).toArray();
    QJsonObject group = groups[g].toObject();
    QJsonArray samples = group.value(QStringLiteral("samples")).toArray();
    QJsonObject sample = samples[s].toObject();
    sample.insert(key, value);
    samples[s] = sample;
    group.insert(QStringLiteral("samples"), samples);
    groups[g] = group;
    body.insert(QStringLiteral("groups"), groups);
    return body;
}
} // namespace

class TestRlIntake : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void honestBatchIsAcceptedWithHubRewards()
    {
        const WorkRecord w = workFor();
        const IntakeResult r = checkSubmission(honestSubmission(w), kNode, rlTask(), w, 5);
        QVERIFY2(r.batch.has_value(), qPrintable(r.code + QStringLiteral(": ") + r.message));
        QCOMPARE(r.batch->groups.size(), size_t(3));
        QCOMPARE(r.batch->version, 5);
        qint64 tokens = 0;
        for (const RolloutGroupData &g : r.batch->groups) {
            QCOMPARE(g.samples.size(), size_t(4));
            QCOMPARE(g.samples[0].reward, 1.0);  // the right answer
            QVERIFY(g.samples[0].advantage > 0); // beats its group
            QCOMPARE(g.samples[3].reward, 0.0);  // no EOS
            QVERIFY(!g.samples[3].finished);
            QCOMPARE(g.promptTokens, rl::promptTokens(g.problem));
            for (const auto &s : g.samples)
                tokens += qint64(s.tokens.size());
        }
        QCOMPARE(r.batch->tokens, tokens);
    }

    // The credit rule (docs/CREDIT.md): only distinct completions of groups whose rewards differ earn. A batch of
    // copies (every sample of a group the same unfinished text, reward 0) earns nothing; copies beside distinct
    // completions earn for the distinct ones only.
    void creditCountsDistinctCompletionsOfGroupsWithSignal()
    {
        const WorkRecord w = workFor();
        const IntakeResult honest = checkSubmission(honestSubmission(w), kNode, rlTask(), w, 5);
        QVERIFY(honest.batch);
        QCOMPARE(honest.batch->signalGroups, 3);
        QCOMPARE(honest.batch->duplicateSamples, 0);
        QCOMPARE(honest.batch->creditedTokens, honest.batch->tokens);

        // Every sample of every group is a copy of one unfinished completion: no signal, nothing credited.
        QJsonObject copies = honestSubmission(w);
        QJsonArray groups = copies.value(QStringLiteral("groups")).toArray();
        for (qsizetype g = 0; g < groups.size(); ++g) {
            QJsonObject group = groups[g].toObject();
            QJsonArray samples;
            for (int i = 0; i < 4; ++i)
                samples.append(QJsonObject{
                    {QStringLiteral("tokens"), QJsonArray{int('x'), int('x'), int('x'), int('x'), int('x'), int('x')}},
                    {QStringLiteral("reward"), 0.0}});
            group.insert(QStringLiteral("samples"), samples);
            groups[g] = group;
        }
        copies.insert(QStringLiteral("groups"), groups);
        const IntakeResult copied = checkSubmission(copies, kNode, rlTask(), w, 5);
        QVERIFY2(copied.batch, qPrintable(copied.message));
        QCOMPARE(copied.batch->tokens, qint64(3 * 4 * 6));
        QCOMPARE(copied.batch->creditedTokens, qint64(0));
        QCOMPARE(copied.batch->signalGroups, 0);
        QCOMPARE(copied.batch->duplicateSamples, 3 * 3);

        // Group 0: sample 2 becomes a copy of sample 1 (both wrong, reward 0): the group still has a signal (the
        // right answer), and the copy earns nothing.
        QJsonObject oneCopy = honestSubmission(w);
        const QJsonObject g0 = oneCopy.value(QStringLiteral("groups")).toArray()[0].toObject();
        const QJsonObject s1 = g0.value(QStringLiteral("samples")).toArray()[1].toObject();
        oneCopy = withSample(oneCopy, 0, 2, QStringLiteral("tokens"), s1.value(QStringLiteral("tokens")));
        oneCopy = withSample(oneCopy, 0, 2, QStringLiteral("reward"), s1.value(QStringLiteral("reward")));
        const IntakeResult partly = checkSubmission(oneCopy, kNode, rlTask(), w, 5);
        QVERIFY2(partly.batch, qPrintable(partly.message));
        QCOMPARE(partly.batch->duplicateSamples, 1);
        QCOMPARE(partly.batch->creditedTokens,
                 partly.batch->tokens - s1.value(QStringLiteral("tokens")).toArray().size());
    }

    void dishonestOrMalformedBatchesAreRejected_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<int>("latest");
        QTest::addColumn<QString>("code");
        const WorkRecord w = workFor();
        const QJsonObject ok = honestSubmission(w);
        QTest::newRow("reward claimed too high")
            << withSample(ok, 1, 2, QStringLiteral("reward"), 1.0) << 5 << "reward_mismatch";
        QTest::newRow("token id out of range")
            << withSample(ok, 0, 1, QStringLiteral("tokens"), QJsonArray{300, 257}) << 5 << "bad_token";
        QTest::newRow("negative token id")
            << withSample(ok, 0, 1, QStringLiteral("tokens"), QJsonArray{-1, 257}) << 5 << "bad_token";
        QTest::newRow("fractional token id")
            << withSample(ok, 0, 1, QStringLiteral("tokens"), QJsonArray{49.5, 257}) << 5 << "bad_token";
        QTest::newRow("BOS in a completion")
            << withSample(ok, 0, 1, QStringLiteral("tokens"), QJsonArray{256, 257}) << 5 << "bad_token";
        QTest::newRow("EOS in the middle")
            << withSample(ok, 0, 1, QStringLiteral("tokens"), QJsonArray{49, 257, 49}) << 5 << "bad_token";
        QTest::newRow("string token") << withSample(ok, 0, 1, QStringLiteral("tokens"), QJsonArray{QStringLiteral("1")})
                                      << 5 << "bad_token";
        QTest::newRow("over the length limit")
            << withSample(ok, 0, 1, QStringLiteral("tokens"), QJsonArray{49, 49, 49, 49, 49, 49, 49, 257}) << 5
            << "too_long";
        QTest::newRow("no tokens") << withSample(ok, 0, 1, QStringLiteral("tokens"), QJsonArray{}) << 5 << "malformed";
        QTest::newRow("reward not a number")
            << withSample(ok, 0, 1, QStringLiteral("reward"), QStringLiteral("1")) << 5 << "malformed";
        QTest::newRow("stale version") << ok << 8 << "stale_version";
        QTest::newRow("unpublished version") << ok << 4 << "unknown_version";
        QJsonObject wrongPrompt = ok;
        QJsonArray groups = ok.value(QStringLiteral("groups")).toArray();
        QJsonObject g0 = groups[0].toObject();
        g0.insert(QStringLiteral("prompt"), QStringLiteral("1+1="));
        groups[0] = g0;
        wrongPrompt.insert(QStringLiteral("groups"), groups);
        QTest::newRow("cherry-picked prompt") << wrongPrompt << 5 << "wrong_prompt";
        QJsonObject fewerGroups = ok;
        QJsonArray two = ok.value(QStringLiteral("groups")).toArray();
        two.removeLast();
        fewerGroups.insert(QStringLiteral("groups"), two);
        QTest::newRow("missing group") << fewerGroups << 5 << "wrong_shape";
        QJsonObject fewerSamples = ok;
        QJsonArray gs = ok.value(QStringLiteral("groups")).toArray();
        QJsonObject first = gs[0].toObject();
        QJsonArray s = first.value(QStringLiteral("samples")).toArray();
        s.removeLast();
        first.insert(QStringLiteral("samples"), s);
        gs[0] = first;
        fewerSamples.insert(QStringLiteral("groups"), gs);
        QTest::newRow("missing sample") << fewerSamples << 5 << "wrong_shape";
        QJsonObject noWork = ok;
        noWork.insert(QStringLiteral("work_id"), QStringLiteral("w-other"));
        QTest::newRow("unknown work") << noWork << 5 << "unknown_work";
        QJsonObject badId = ok;
        badId.insert(QStringLiteral("submission_id"), QStringLiteral("../etc/passwd"));
        QTest::newRow("malformed submission id") << badId << 5 << "malformed";
        QJsonObject groupsNotArray = ok;
        groupsNotArray.insert(QStringLiteral("groups"), QStringLiteral("lots"));
        QTest::newRow("groups not an array") << groupsNotArray << 5 << "malformed";
        QJsonObject noVersion = ok;
        noVersion.remove(QStringLiteral("version"));
        QTest::newRow("no version") << noVersion << 5 << "malformed";
    }

    void dishonestOrMalformedBatchesAreRejected()
    {
        QFETCH(QJsonObject, body);
        QFETCH(int, latest);
        QFETCH(QString, code);
        const IntakeResult r = checkSubmission(body, kNode, rlTask(), workFor(), latest);
        QVERIFY(!r.batch.has_value());
        QCOMPARE(r.code, code);
        QVERIFY(!r.message.isEmpty());
    }

    void toplocProofsAreRequiredAndShapeChecked()
    {
        TaskInfo task = rlTask();
        task.rl->toploc = true;
        const WorkRecord w = workFor();
        QJsonObject body = honestSubmission(w);
        QCOMPARE(checkSubmission(body, kNode, task, w, 5).code, QStringLiteral("bad_proof")); // no proofs at all
        // Give every sample a well-formed proof for its token count (one chunk each).
        QJsonArray groups = body.value(QStringLiteral("groups")).toArray();
        for (qsizetype g = 0; g < groups.size(); ++g) {
            QJsonObject group = groups[g].toObject();
            QJsonArray samples = group.value(QStringLiteral("samples")).toArray();
            for (qsizetype s = 0; s < samples.size(); ++s) {
                QJsonObject sample = samples[s].toObject();
                const size_t tokens = size_t(sample.value(QStringLiteral("tokens")).toArray().size());
                std::vector<float> hidden(tokens * 16);
                for (size_t i = 0; i < hidden.size(); ++i)
                    hidden[i] = float(i % 7) - 3.0f + float(i) * 0.01f;
                const std::string proof = toploc::serialize(toploc::buildProofs(hidden.data(), tokens, 16));
                sample.insert(QStringLiteral("proof"),
                              QString::fromLatin1(QByteArray(proof.data(), qsizetype(proof.size())).toBase64()));
                samples[s] = sample;
            }
            group.insert(QStringLiteral("samples"), samples);
            groups[g] = group;
        }
        body.insert(QStringLiteral("groups"), groups);
        const IntakeResult ok = checkSubmission(body, kNode, task, w, 5);
        QVERIFY2(ok.batch.has_value(), qPrintable(ok.message));
        QCOMPARE(ok.batch->groups[0].samples[0].proofs.size(), size_t(1));
        // Not base64, truncated, an extra chunk: each refused with a reason.
        QCOMPARE(
            checkSubmission(withSample(body, 0, 0, QStringLiteral("proof"), QStringLiteral("%%%")), kNode, task, w, 5)
                .code,
            QStringLiteral("bad_proof"));
        QCOMPARE(checkSubmission(withSample(body, 0, 0, QStringLiteral("proof"),
                                            QString::fromLatin1(QByteArray(100, 'x').toBase64())),
                                 kNode, task, w, 5)
                     .code,
                 QStringLiteral("bad_proof"));
        QCOMPARE(checkSubmission(withSample(body, 0, 0, QStringLiteral("proof"), 42), kNode, task, w, 5).code,
                 QStringLiteral("bad_proof"));
        const QByteArray one = QByteArray::fromBase64(body.value(QStringLiteral("groups"))
                                                          .toArray()[0]
                                                          .toObject()
                                                          .value(QStringLiteral("samples"))
                                                          .toArray()[0]
                                                          .toObject()
                                                          .value(QStringLiteral("proof"))
                                                          .toString()
                                                          .toLatin1());
        const IntakeResult twoChunks = checkSubmission(
            withSample(body, 0, 0, QStringLiteral("proof"), QString::fromLatin1(QByteArray(one + one).toBase64())),
            kNode, task, w, 5);
        QCOMPARE(twoChunks.code, QStringLiteral("bad_proof"));
        QVERIFY(!twoChunks.message.isEmpty());
    }

    void workOfAnotherNodeOrAlreadySubmitted()
    {
        WorkRecord w = workFor();
        w.nodeId = QStringLiteral("n-ffffffffffffffffffff");
        QCOMPARE(checkSubmission(honestSubmission(w), kNode, rlTask(), w, 5).code, QStringLiteral("not_your_work"));
        w = workFor();
        w.status = QStringLiteral("submitted");
        QCOMPARE(checkSubmission(honestSubmission(w), kNode, rlTask(), w, 5).code,
                 QStringLiteral("work_already_submitted"));
        QCOMPARE(checkSubmission(honestSubmission(workFor()), kNode, rlTask(), std::nullopt, 5).code,
                 QStringLiteral("unknown_work"));
    }

    void ledgerIssuesSeededWorkAndCreditsOnce()
    {
        QTemporaryDir dir;
        auto store = HubStore::open(dir.filePath(QStringLiteral("hub.sqlite")));
        QVERIFY2(store.ok(), qPrintable(store.error()));
        Ledger ledger((*store)->connectionName());
        const qint64 now = 1764428400000; // 2025-11-29 15:00 UTC
        auto w1 = ledger.issueWork(kNode, QStringLiteral("arith-rl"), 3, now);
        auto w2 = ledger.issueWork(kNode, QStringLiteral("arith-rl"), 3, now);
        QVERIFY(w1.ok() && w2.ok());
        QCOMPARE(w1->batch, 1);
        QCOMPARE(w2->batch, 2);
        QCOMPARE(w1->seed, rl::workSeed(kNode.toStdString(), 3, 1));
        QCOMPARE(w2->seed, rl::workSeed(kNode.toStdString(), 3, 2));
        QCOMPARE(ledger.work(w1->workId)->seed, w1->seed);
        QCOMPARE(ledger.openWorkCount(kNode, QStringLiteral("arith-rl")), 2);

        SubmissionRecord s;
        s.submissionId = QStringLiteral("s-00000000000000000000000000000001");
        s.nodeId = kNode;
        s.taskId = QStringLiteral("arith-rl");
        s.workId = w1->workId;
        s.version = 3;
        s.status = QStringLiteral("accepted");
        s.tokens = 1500;
        s.credit = 1.5;
        s.meanReward = 0.4;
        s.createdAtMs = now;
        QVERIFY(ledger.recordSubmission(s).ok());
        QVERIFY(!ledger.recordSubmission(s).ok()); // the same id twice: never two credits
        QCOMPARE(ledger.work(w1->workId)->status, QStringLiteral("submitted"));
        QCOMPARE(ledger.openWorkCount(kNode, QStringLiteral("arith-rl")), 1);

        SubmissionRecord other = s;
        other.submissionId = QStringLiteral("s-00000000000000000000000000000002");
        other.workId = w2->workId;
        other.credit = 0.5;
        other.tokens = 500;
        other.createdAtMs = now - 3 * 24 * 3600 * 1000LL; // three days ago
        QVERIFY(ledger.recordSubmission(other).ok());

        EarningsReport r = ledger.earnings(kNode, now + 60000);
        QCOMPARE(r.total.pending, 2.0);
        QCOMPARE(r.total.confirmed, 0.0);
        QCOMPARE(r.today.pending, 1.5);
        QCOMPARE(r.last7Days.pending, 2.0);
        QCOMPARE(r.history.size(), 2);
        QCOMPARE(r.tasks.size(), 1);
        QCOMPARE(r.tasks[0].tokens, 2000);
        QCOMPARE(r.tasks[0].batches, 2);

        VerificationStats verified;
        verified.rollouts = 64;
        verified.rolloutsChecked = 32;
        verified.chunks = 40;
        verified.worstExpMatches = 127;
        verified.worstPoints = 128;
        verified.worstMantissaMean = 0.01;
        verified.worstMantissaMedian = 0;
        verified.meanLogProb = -0.05;
        QCOMPARE(ledger.setVerdict(s.submissionId, true, QStringLiteral("verified"), verified, 3, now)->updated, true);
        QCOMPARE(ledger.setVerdict(s.submissionId, false, QStringLiteral("again"), {}, 3, now)->updated,
                 false); // only once
        QCOMPARE(ledger.setVerdict(other.submissionId, false, QStringLiteral("implausible"), {}, 3, now)->updated,
                 true);
        const auto stored = ledger.verificationStats(s.submissionId);
        QVERIFY(stored);
        QCOMPARE(stored->rolloutsChecked, 32);
        QCOMPARE(stored->chunks, 40);
        QCOMPARE(stored->worstExpMatches, 127);
        QCOMPARE(stored->worstMantissaMean, 0.01);
        QCOMPARE(stored->meanLogProb, -0.05);
        QVERIFY(!stored->failedVerification);
        QCOMPARE(ledger.nodeFlag(kNode, QStringLiteral("arith-rl")).verificationFailures,
                 0); // implausible is not a proof failure
        r = ledger.earnings(kNode, now + 60000);
        QCOMPARE(r.total.confirmed, 1.5);
        QCOMPARE(r.total.refused, 0.5);
        QCOMPARE(r.total.pending, 0.0);
        QCOMPARE(r.tasks[0].batches, 1); // the refused batch no longer counts
        QCOMPARE(ledger.submission(other.submissionId)->status, QStringLiteral("refused"));
        QCOMPARE(ledger.earnings(QStringLiteral("n-nobody"), now).total, EarningsAmounts{});

        // A crashed node's stale work items expire instead of piling up.
        for (int i = 0; i < 5; ++i)
            QVERIFY(ledger.issueWork(kNode, QStringLiteral("arith-rl"), 3, now + i).ok());
        ledger.expireOpenWork(kNode, QStringLiteral("arith-rl"), 2);
        QCOMPARE(ledger.openWorkCount(kNode, QStringLiteral("arith-rl")), 2);
    }

    // Failed TOPLOC proofs cancel the batch's credit and count against the node; at the task's limit it is flagged,
    // and only an operator clears the flag.
    // What earns nothing is bounded per node and pruned after the retention; credited submissions stay.
    void ledgerTrimsAndPrunesWhatEarnsNothing()
    {
        QTemporaryDir dir;
        auto store = HubStore::open(dir.filePath(QStringLiteral("hub.sqlite")));
        QVERIFY2(store.ok(), qPrintable(store.error()));
        Ledger ledger((*store)->connectionName());
        const QString task = QStringLiteral("arith-rl");
        const qint64 day = 24LL * 3600 * 1000, old = 1764428400000, now = old + 10 * day;
        const auto count = [&store](const QString &sql) {
            QSqlQuery q(QSqlDatabase::database((*store)->connectionName()));
            return q.exec(sql) && q.next() ? q.value(0).toLongLong() : -1;
        };
        // 50 work items, all but 2 expired; 30 rejected submissions and one accepted, all 10 days old.
        QString creditedWork;
        for (int i = 0; i < 50; ++i) {
            auto w = ledger.issueWork(kNode, task, 1, old + i);
            QVERIFY(w.ok());
            if (i == 0)
                creditedWork = w->workId;
            ledger.expireOpenWork(kNode, task, 2);
        }
        for (int i = 0; i < 31; ++i) {
            SubmissionRecord s;
            s.submissionId = QStringLiteral("s-%1").arg(i, 32, 10, QLatin1Char('0'));
            s.nodeId = kNode;
            s.taskId = task;
            s.workId = i == 30 ? creditedWork : QString();
            s.version = 1;
            s.status = i == 30 ? QStringLiteral("accepted") : QStringLiteral("rejected");
            s.createdAtMs = old + i;
            s.response = "{}";
            QVERIFY(ledger.recordSubmission(s));
        }
        ledger.trimNodeHistory(kNode, 10, 5);
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM work WHERE status='expired'")), 10LL);
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM submissions WHERE status='rejected'")), 5LL);
        // The five kept are the newest.
        QCOMPARE(count(QStringLiteral("SELECT MIN(created_at) FROM submissions WHERE status='rejected'")), old + 25);
        QVERIFY(ledger.pruneOlderThan(now - 7 * day) >= 15);
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM work WHERE status='expired'")), 0LL);
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM submissions WHERE status='rejected'")), 0LL);
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM submissions WHERE status='accepted'")), 1LL);
        QVERIFY(ledger.work(creditedWork));             // the credited submission's work stays
        QCOMPARE(ledger.openWorkCount(kNode, task), 2); // open work is never pruned
    }

    void ledgerFlagsRepeatedProofFailures()
    {
        QTemporaryDir dir;
        auto store = HubStore::open(dir.filePath(QStringLiteral("hub.sqlite")));
        QVERIFY2(store.ok(), qPrintable(store.error()));
        Ledger ledger((*store)->connectionName());
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const QString task = QStringLiteral("arith-rl");
        VerificationStats failed;
        failed.failedVerification = true;
        failed.chunks = 3;
        failed.worstExpMatches = 40;
        failed.worstPoints = 128;
        for (int i = 1; i <= 4; ++i) {
            auto w = ledger.issueWork(kNode, task, 1, now);
            QVERIFY(w.ok());
            SubmissionRecord s;
            s.submissionId = QStringLiteral("s-%1").arg(i, 32, 10, QLatin1Char('0'));
            s.nodeId = kNode;
            s.taskId = task;
            s.workId = w->workId;
            s.version = 1;
            s.status = QStringLiteral("accepted");
            s.credit = 1;
            s.createdAtMs = now;
            QVERIFY(ledger.recordSubmission(s).ok());
            const auto outcome =
                ledger.setVerdict(s.submissionId, false, QStringLiteral("TOPLOC proof failed"), failed, 3, now + i);
            QVERIFY2(outcome.ok(), qPrintable(outcome.error()));
            QCOMPARE(outcome->verificationFailures, i);
            QCOMPARE(outcome->flagged, i >= 3);
            QVERIFY(ledger.verificationStats(s.submissionId)->failedVerification);
        }
        const Ledger::NodeFlag flag = ledger.nodeFlag(kNode, task);
        QCOMPARE(flag.verificationFailures, 4);
        QCOMPARE(flag.flaggedAtMs, now + 3); // flagged once, at the third failure
        QCOMPARE(flag.reason, QStringLiteral("TOPLOC proof failed"));
        QCOMPARE(ledger.flaggedNodeCount(task), 1);
        QCOMPARE(ledger.flaggedNodeCount(QStringLiteral("sort-rl")), 0);
        QCOMPARE(ledger.earnings(kNode, now + 10).total.refused, 4.0);
        QCOMPARE(ledger.earnings(kNode, now + 10).total.pending, 0.0);
        QVERIFY(ledger.clearNodeFlag(kNode, task).ok());
        QCOMPARE(ledger.nodeFlag(kNode, task).flaggedAtMs, 0);
        QVERIFY(!ledger.clearNodeFlag(kNode, task).ok()); // nothing left to clear: said, not silently ignored
    }
};

QTEST_GUILESS_MAIN(TestRlIntake)
#include "tst_rl_intake.moc"
