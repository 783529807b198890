// The RL recipe learns: a short supervised warm-up, then GRPO steps on the policy's own samples scored by the
// environments. With fixed seeds the run is deterministic, and the mean reward on a fixed evaluation set after K
// trainer steps is clearly above the warm-up policy's.
#include "rl/OnPolicy.h"
#include "rl/WorkSampling.h"

#include <ATen/Parallel.h>
#include <QTest>

using namespace cohort::rl;

namespace {
struct Run {
    double before = 0;
    double after = 0;
};

Run learn(int grpoSteps)
{
    const std::vector<std::string> envs{"sort-digits", "reverse"};
    PolicyConfig config;
    config.dModel = 32;
    config.nLayers = 1;
    config.nHeads = 4;
    config.dFF = 128;
    config.maxSeqLen = 48;
    auto created = Policy::create(config, 7);
    if (!created)
        qFatal("%s", created.error.c_str());
    Policy policy = std::move(*created);
    SeedStream stream(11);
    {
        GrpoConfig warm;
        warm.learningRate = 2e-3f;
        Trainer warmup(policy, warm);
        for (int i = 0; i < 60; ++i)
            if (!warmup.supervisedStep(supervisedSamples(problemsForWork(envs, stream.next(), 32))))
                qFatal("warm-up step failed");
    }
    const auto evalProblems = problemsForWork(envs, 0xE7A1ull, 64);
    SamplingConfig sampling;
    sampling.maxNewTokens = 10;
    const auto evaluate = [&] {
        SamplingConfig s = sampling;
        s.seed = 777;
        auto r = sampleAndScore(policy, evalProblems, 4, s);
        return r ? r->meanReward() : -1.0;
    };
    Run run;
    run.before = evaluate();
    GrpoConfig grpo;
    grpo.learningRate = 2e-3f;
    Trainer trainer(policy, grpo);
    for (int step = 0; step < grpoSteps; ++step) {
        SamplingConfig s = sampling;
        s.seed = stream.next();
        auto rollouts = sampleAndScore(policy, problemsForWork(envs, stream.next(), 16), 8, s);
        if (!rollouts || !trainer.grpoStep(toRolloutSamples(*rollouts)))
            qFatal("GRPO step failed");
    }
    run.after = evaluate();
    return run;
}
} // namespace

class TestRlLearning : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { at::set_num_threads(1); } // one thread: bit-identical reductions run to run

    void grpoRaisesTheMeanRewardDeterministically()
    {
        const Run first = learn(40);
        qInfo("mean reward on the evaluation set: %.3f after warm-up, %.3f after 40 GRPO steps", first.before,
              first.after);
        QVERIFY2(first.after > first.before + 0.05,
                 qPrintable(QStringLiteral("%1 -> %2").arg(first.before).arg(first.after)));
        const Run second = learn(40);
        QCOMPARE(second.before, first.before);
        QCOMPARE(second.after, first.after);
    }
};

QTEST_GUILESS_MAIN(TestRlLearning)
#include "tst_rl_learning.moc"
