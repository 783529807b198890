// Environments with verifiable rewards and work sampling: pure C++ shared by node and hub, so every rule here is
// what the hub enforces when it re-scores a submission.
#include "rl/Environment.h"
#include "rl/Tokenizer.h"
#include "rl/WorkSampling.h"

#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace cohort::rl;

class TestRlEnv : public QObject {
    Q_OBJECT

    static const Environment &env(const char *id)
    {
        const Environment *e = findEnvironment(id);
        if (!e)
            qFatal("no environment %s", id);
        return *e;
    }

private Q_SLOTS:
    void registryKnowsFourEnvironments()
    {
        QCOMPARE(environmentIds().size(), size_t(4));
        for (const std::string &id : environmentIds())
            QVERIFY(findEnvironment(id) != nullptr);
        QVERIFY(findEnvironment("nope") == nullptr);
    }

    void generationIsDeterministicAndVaried()
    {
        for (const std::string &id : environmentIds()) {
            const Environment &e = *findEnvironment(id);
            QSet<QString> prompts;
            for (uint64_t seed = 0; seed < 200; ++seed) {
                const Problem a = e.generate(seed), b = e.generate(seed);
                QCOMPARE(a.prompt, b.prompt);
                QCOMPARE(a.answer, b.answer);
                QCOMPARE(a.environment, id);
                QVERIFY(!a.answer.empty());
                QVERIFY(a.answer.size() <= e.maxAnswerLength());
                prompts.insert(QString::fromStdString(a.prompt));
            }
            QVERIFY2(prompts.size() > 100, id.c_str()); // 200 seeds, mostly different problems
        }
    }

    void addSubAnswersAreRight()
    {
        static const QRegularExpression re(QStringLiteral("^(\\d{1,3})([+-])(\\d{1,3})=$"));
        for (uint64_t seed = 0; seed < 1000; ++seed) {
            const Problem p = env("add-sub").generate(seed);
            const auto m = re.match(QString::fromStdString(p.prompt));
            QVERIFY2(m.hasMatch(), p.prompt.c_str());
            const long a = m.captured(1).toLong(), b = m.captured(3).toLong();
            QCOMPARE(std::stol(p.answer), m.captured(2) == QLatin1String("+") ? a + b : a - b);
        }
    }

    void linearEquationAnswersSolveIt()
    {
        static const QRegularExpression re(QStringLiteral("^(\\d)x([+-]\\d)=(-?\\d+);x=$"));
        for (uint64_t seed = 0; seed < 1000; ++seed) {
            const Problem p = env("linear-eq").generate(seed);
            const auto m = re.match(QString::fromStdString(p.prompt));
            QVERIFY2(m.hasMatch(), p.prompt.c_str());
            const long x = std::stol(p.answer);
            QCOMPARE(m.captured(1).toLong() * x + m.captured(2).toLong(), m.captured(3).toLong());
        }
    }

    void sortAndReverseAnswersAreRight()
    {
        for (uint64_t seed = 0; seed < 300; ++seed) {
            const Problem s = env("sort-digits").generate(seed);
            std::string digits = s.prompt.substr(5, s.prompt.size() - 6);
            std::sort(digits.begin(), digits.end());
            QCOMPARE(s.answer, digits);
            const Problem r = env("reverse").generate(seed);
            const std::string word = r.prompt.substr(4, r.prompt.size() - 5);
            QCOMPARE(r.answer, std::string(word.rbegin(), word.rend()));
        }
    }

    void rewardsForRightWrongAndMalformed()
    {
        const Problem add{"add-sub", "47+285=", "332"};
        const Environment &a = env("add-sub");
        QCOMPARE(a.score(add, "332", true).total, 1.0);
        QCOMPARE(a.score(add, "332", true).note, std::string("correct"));
        // Place value: units and hundreds right, tens wrong -> 2/3 correctness.
        QCOMPARE(a.score(add, "342", true).correctness, 2.0 / 3.0);
        QCOMPARE(a.score(add, "342", true).total, kFormatWeight + (1 - kFormatWeight) * 2.0 / 3.0);
        QCOMPARE(a.score(add, "999", true).total, kFormatWeight); // well-formed, wrong
        QCOMPARE(a.score(add, "332", false).total, 0.0);          // no EOS
        QCOMPARE(a.score(add, "33a", true).total, 0.0);           // bad characters
        QCOMPARE(a.score(add, "", true).total, 0.0);              // empty
        QCOMPARE(a.score(add, "123456", true).total, 0.0);        // longer than any answer

        const Problem eq{"linear-eq", "3x+4=19;x=", "5"};
        QCOMPARE(env("linear-eq").score(eq, "5", true).total, 1.0);
        QCOMPARE(env("linear-eq").score(eq, "-5", true).total, kFormatWeight);

        const Problem sort{"sort-digits", "sort:52817=", "12578"};
        QCOMPARE(env("sort-digits").score(sort, "12578", true).total, 1.0);
        QCOMPARE(env("sort-digits").score(sort, "12587", true).correctness, 3.0 / 5.0);
        QCOMPARE(env("sort-digits").score(sort, "1257", true).correctness, 4.0 / 5.0);
        QCOMPARE(env("sort-digits").score(sort, "1-578", true).total, 0.0);

        const Problem rev{"reverse", "rev:abcde=", "edcba"};
        QCOMPARE(env("reverse").score(rev, "edcba", true).total, 1.0);
        QCOMPARE(env("reverse").score(rev, "abcde", true).correctness, 1.0 / 5.0); // only the middle letter
        QCOMPARE(env("reverse").score(rev, "EDCBA", true).total, 0.0);
    }

    void workSeedsDependOnNodeStepAndBatch()
    {
        const uint64_t base = workSeed("n-0123456789abcdef0123", 3, 7);
        QCOMPARE(workSeed("n-0123456789abcdef0123", 3, 7), base);
        QVERIFY(workSeed("n-0123456789abcdef0124", 3, 7) != base);
        QVERIFY(workSeed("n-0123456789abcdef0123", 4, 7) != base);
        QVERIFY(workSeed("n-0123456789abcdef0123", 3, 8) != base);
        // The seed is part of the protocol: node and hub of different builds and platforms must agree forever.
        QCOMPARE(workSeed("", 0, 0), uint64_t(2448385507222971125ull));
        QCOMPARE(base, uint64_t(4496880578735116647ull));
        SeedStream s(42);
        QCOMPARE(s.next(), uint64_t(0xbdd732262feb6e95ull)); // SplitMix64 reference value for seed 42
    }

    // A task with a finite set of worked examples warms up on those alone, however many steps it takes; without one,
    // every step has fresh problems. Neither holds a held-out problem.
    void theWarmUpKeepsToItsWorkedExamples()
    {
        const std::vector<std::string> envs{"linear-eq"};
        SeedStream setStream(7);
        const std::vector<Problem> examples = problemsForWork(envs, setStream.next(), 16);
        QSet<QString> allowed;
        for (const Problem &p : examples)
            allowed.insert(QString::fromStdString(p.prompt));
        SeedStream stream(11);
        QSet<QString> used;
        for (int step = 0; step < 200; ++step) {
            const std::vector<Problem> batch = warmupProblems(envs, stream, 32, examples);
            QCOMPARE(batch.size(), size_t(32));
            for (const Problem &p : batch) {
                QVERIFY2(allowed.contains(QString::fromStdString(p.prompt)), p.prompt.c_str());
                used.insert(QString::fromStdString(p.prompt));
            }
        }
        QCOMPARE(used.size(), allowed.size()); // 6,400 picks reach every example
        SeedStream fresh(11);
        QSet<QString> drawn;
        for (int step = 0; step < 20; ++step)
            for (const Problem &p : warmupProblems(envs, fresh, 32, {})) {
                QVERIFY(!isHeldOut(envs, p.prompt));
                drawn.insert(QString::fromStdString(p.prompt));
            }
        QVERIFY2(drawn.size() > 400, qPrintable(QString::number(drawn.size()))); // 640 draws from 2,888 problems
        QVERIFY(warmupProblems(envs, fresh, 0, examples).empty());
    }

    void heldOutProblemsAreNeverWorkedOn()
    {
        // linear-eq has 8 x 19 x 19 = 2,888 problems: work drawn without the exclusion hits the held-out set often.
        const std::vector<std::string> envs{"linear-eq"};
        const auto &heldOut = heldOutProblems(envs);
        QCOMPARE(heldOut.size(), size_t(kHeldOutProblems));
        QSet<QString> prompts;
        for (const Problem &p : heldOut)
            prompts.insert(QString::fromStdString(p.prompt));
        QCOMPARE(prompts.size(), kHeldOutProblems); // distinct
        QCOMPARE(&heldOutProblems(envs), &heldOut); // built once
        int drawnHeldOut = 0, naiveHeldOut = 0;
        for (uint64_t seed = 1; seed <= 2000; ++seed) {
            for (const Problem &p : problemsForWork(envs, seed, 16))
                drawnHeldOut += isHeldOut(envs, p.prompt);
            // The same stream without the exclusion (as problemsForWork drew before): the held-out problems come up.
            SeedStream s(seed);
            for (int i = 0; i < 16; ++i) {
                s.range(0, 0);
                naiveHeldOut += isHeldOut(envs, findEnvironment("linear-eq")->generate(s.next()).prompt);
            }
        }
        QCOMPARE(drawnHeldOut, 0);
        QVERIFY2(naiveHeldOut > 100, qPrintable(QString::number(naiveHeldOut))); // ~ 32,000 x 128 / 2,888
        // Golden: the set is the task's for good (a changed seed would make every earlier figure incomparable). The
        // seed was computed apart (FNV-1a 64 of "cohort held-out\nadd-sub\nlinear-eq", then SplitMix64, in Python).
        QCOMPARE(heldOutSeed({"add-sub", "linear-eq"}), uint64_t(16439149871821651198ull));
        const auto &mixed = heldOutProblems({"add-sub", "linear-eq"});
        QCOMPARE(QString::fromStdString(mixed[0].prompt + " " + mixed[1].prompt + " " + mixed[2].prompt),
                 QStringLiteral("298-424= 4x+8=24;x= 5x+9=-31;x="));
        QVERIFY(heldOutSeed({"add-sub"}) != heldOutSeed({"add-sub", "linear-eq"}));
        QVERIFY(heldOutProblems({"unknown"}).empty());
    }

    void problemsForWorkAreReproducible()
    {
        const std::vector<std::string> envs{"add-sub", "linear-eq"};
        const auto a = problemsForWork(envs, 1234, 16), b = problemsForWork(envs, 1234, 16);
        QCOMPARE(a.size(), size_t(16));
        QSet<QString> kinds;
        for (size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].prompt, b[i].prompt);
            kinds.insert(QString::fromStdString(a[i].environment));
        }
        QCOMPARE(kinds.size(), 2); // both environments drawn
        QVERIFY(problemsForWork(envs, 1235, 16)[0].prompt != a[0].prompt ||
                problemsForWork(envs, 1235, 16)[1].prompt != a[1].prompt);
        QVERIFY(problemsForWork({"unknown"}, 1, 4).empty());
        QVERIFY(problemsForWork(envs, 1, 0).empty());
    }

    void promptTokensAreBosThenBytes()
    {
        const auto ids = promptTokens(Problem{"add-sub", "1+2=", "3"});
        QCOMPARE(ids, (std::vector<int32_t>{ByteTokenizer::kBos, '1', '+', '2', '='}));
    }

    void groupAdvantagesHandComputed()
    {
        // mean 0.5, sample std sqrt(4 * 0.25 / 3) = 0.57735 -> +-0.866
        const auto adv = groupAdvantages({1, 0, 0, 1});
        QCOMPARE(adv.size(), size_t(4));
        QVERIFY(std::abs(adv[0] - 0.5 / (0.5773502691896258 + 1e-6)) < 1e-9);
        QVERIFY(std::abs(adv[1] + 0.5 / (0.5773502691896258 + 1e-6)) < 1e-9);
        for (double a : groupAdvantages({0.2, 0.2, 0.2}))
            QCOMPARE(a, 0.0); // no signal: the trainer drops the group
        QCOMPARE(groupAdvantages({1.0}), std::vector<double>{0.0});
        QVERIFY(groupAdvantages({}).empty());
    }
};

QTEST_GUILESS_MAIN(TestRlEnv)
#include "tst_rl_env.moc"
