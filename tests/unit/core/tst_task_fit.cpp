// Can this machine run a task, and what would it earn: every requirement that can fail, named in the reason, and
// estimates only from a measured speed, scaled by compute per token.
#include "core/MemoryBudget.h"
#include "core/TaskFit.h"

#include <QTest>

using namespace cohort;

namespace {
TaskInfo rlTask(const QString &id, int dModel, int layers, double rate)
{
    TaskInfo t;
    t.id = id;
    t.kind = QStringLiteral("rl");
    t.rewardRate = rate;
    t.rl = RlTaskConfig{};
    t.rl->environments = {QStringLiteral("add-sub")};
    t.rl->model.dModel = dModel;
    t.rl->model.nLayers = layers;
    t.rl->model.dFF = 4 * dModel;
    return t;
}

EngineSnapshot machine(int cores, qint64 memGb)
{
    EngineSnapshot s;
    s.system.cpuCores = cores;
    s.system.memTotalBytes = memGb << 30;
    return s;
}
} // namespace

class TestTaskFit : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void requirementsSayWhy()
    {
        TaskInfo t = rlTask(QStringLiteral("a"), 128, 3, 1.0);
        t.requirements.minCpuCores = 4;
        t.requirements.minRamMb = 8192;
        TaskFit fit = assessTask(t, machine(2, 4));
        QVERIFY(!fit.canRun);
        QCOMPARE(fit.reasons.size(), 2);
        QVERIFY(fit.summary().contains(QStringLiteral("needs 4 CPU cores, this computer has 2")));
        QVERIFY(fit.summary().contains(QStringLiteral("needs 8 GB of memory, this computer has 4")));
        QVERIFY(assessTask(t, machine(8, 16)).canRun);

        t.requirements = {};
        t.requirements.gpuRequired = true;
        t.requirements.minVramMb = 16384;
        QVERIFY(assessTask(t, machine(8, 16)).summary().contains(QStringLiteral("needs an NVIDIA GPU")));
        EngineSnapshot withGpu = machine(8, 16);
        GpuSample g;
        g.memoryTotalBytes = qint64(8) << 30;
        withGpu.gpus = {g};
        QVERIFY(assessTask(t, withGpu)
                    .summary()
                    .contains(QStringLiteral("needs 16 GB of GPU memory, the largest GPU here has 8")));
        withGpu.gpus[0].memoryTotalBytes = qint64(24) << 30;
        QVERIFY(assessTask(t, withGpu).canRun);

        TaskInfo diloco = t;
        diloco.kind = QStringLiteral("diloco");
        QVERIFY(assessTask(diloco, withGpu).canRun); // this version trains DiLoCo tasks
        TaskInfo newer = t;
        newer.kind = QStringLiteral("inference"); // a kind from a newer hub
        QVERIFY(assessTask(newer, withGpu).summary().contains(QStringLiteral("cannot run inference tasks yet")));
        // Unknown machine figures (0) never refuse: only what is known can.
        t.requirements = {};
        t.requirements.minCpuCores = 64;
        QVERIFY(assessTask(t, EngineSnapshot{}).canRun);
    }

    void gpuMemoryFootprintAndBudget()
    {
        RlModelShape small; // 128 x 3 layers, 64 tokens
        const GenerationFootprint f = generationFootprint(small);
        // 3 x (4·128² + 2·128·512 + 9·128 + 512) + 2·259·128 + 64·128 + 2·128 + 259 parameters, 4 bytes each
        QCOMPARE(f.weightBytes,
                 4LL * (3 * (4 * 128 * 128 + 2 * 128 * 512 + 9 * 128 + 512) + 2 * 259 * 128 + 64 * 128 + 256 + 259));
        QVERIFY(f.perRowBytes > 2LL * 4 * 3 * 64 * 128); // at least the KV cache
        QCOMPARE(f.bytesFor(2) - f.bytesFor(1), f.perRowBytes);
        // Rows: what the budget leaves after weights and workspace, at most what is wanted, 0 when none fits.
        const qint64 budget = f.weightBytes + f.fixedBytes + 10 * f.perRowBytes + f.perRowBytes / 2;
        QCOMPARE(rowsWithin(f, budget, 64), 10);
        QCOMPARE(rowsWithin(f, budget, 4), 4);
        QCOMPARE(rowsWithin(f, f.weightBytes, 64), 0);
        QVERIFY(whyItDoesNotFit(f, budget).isEmpty());
        QVERIFY(whyItDoesNotFit(f, f.weightBytes).contains(QStringLiteral("GPU memory")));
        // The budget: a percent of the GPU, never the memory CUDA's own context needs.
        QCOMPARE(gpuBudgetBytes(8LL << 30, 50), (8LL << 30) / 100 * 50);
        QCOMPARE(gpuBudgetBytes(8LL << 30, 100), (8LL << 30) - (320LL << 20));
        QCOMPARE(gpuBudgetBytes(100LL << 20, 90), 0);
        // A larger policy needs more of everything.
        RlModelShape large{1024, 12, 16, 4096, 512};
        QVERIFY(generationFootprint(large).weightBytes > 100 * f.weightBytes);
    }

    void aTaskThatDoesNotFitTheGpuBudgetIsGreyed()
    {
        TaskInfo big = rlTask(QStringLiteral("big"), 2048, 24, 1.0);
        big.rl->model.maxSeqLen = 512;
        EngineSnapshot s = machine(8, 32);
        s.gpuMemoryBudgetBytes = 512LL << 20;
        const TaskFit fit = assessTask(big, s);
        QVERIFY(!fit.canRun);
        QVERIFY2(fit.summary().contains(QStringLiteral("GPU memory")), qPrintable(fit.summary()));
        QVERIFY(assessTask(rlTask(QStringLiteral("small"), 128, 3, 1.0), s).canRun);
        s.gpuMemoryBudgetBytes = 0; // computing on the CPU: no GPU budget applies
        QVERIFY(assessTask(big, s).canRun);
    }

    void estimatesScaleTheMeasuredSpeed()
    {
        const TaskInfo small = rlTask(QStringLiteral("small"), 128, 3, 1.5);
        const TaskInfo big = rlTask(QStringLiteral("big"), 256, 4, 3.0);
        EngineSnapshot s = machine(8, 16);
        s.tasks = {small, big};
        QVERIFY(!assessTask(big, s).tokensPerSecond); // nothing measured: no number
        QCOMPARE(assessTask(big, s).summary(), QStringLiteral("Fits (speed not measured yet)"));
        s.joinedTaskId = QStringLiteral("small");
        s.rollouts.tokensPerSecond = 4000;
        const TaskFit same = assessTask(small, s);
        QCOMPARE(*same.tokensPerSecond, 4000.0);
        QCOMPARE(*same.creditsPerHour, 4000.0 * 3.6 * 1.5);
        const TaskFit scaled = assessTask(big, s);
        const double ratio = flopsPerToken(small.rl->model) / flopsPerToken(big.rl->model);
        QVERIFY(ratio > 0.1 && ratio < 0.5); // the bigger policy costs 2-10x per token
        QCOMPARE(*scaled.tokensPerSecond, 4000.0 * ratio);
        QCOMPARE(*scaled.creditsPerHour, 4000.0 * ratio * 3.6 * 3.0);
    }

    // What a node asked to choose joins: the first task of the catalogue this machine can run, in the operator's
    // order; none (with every task's reasons) when nothing fits.
    void automaticChoiceTakesTheFirstTaskThatFits()
    {
        TaskInfo heavy = rlTask(QStringLiteral("heavy"), 128, 3, 5.0);
        heavy.requirements.minRamMb = 64 * 1024;
        TaskInfo newer = rlTask(QStringLiteral("newer"), 128, 3, 9.0);
        newer.kind = QStringLiteral("inference");
        newer.rl.reset();
        TaskInfo light = rlTask(QStringLiteral("light"), 128, 3, 0.5);
        TaskInfo diloco = rlTask(QStringLiteral("together"), 128, 3, 1.0);
        diloco.kind = QStringLiteral("diloco");
        diloco.rl.reset();

        QString why;
        QCOMPARE(automaticTaskChoice({heavy, newer, light, diloco}, machine(4, 8), &why), QStringLiteral("light"));
        QCOMPARE(automaticTaskChoice({heavy, diloco, light}, machine(4, 8)), QStringLiteral("together"));
        QCOMPARE(automaticTaskChoice({heavy, newer, light}, machine(4, 128)), QStringLiteral("heavy"));

        QCOMPARE(automaticTaskChoice({heavy, newer}, machine(4, 8), &why), QString());
        QVERIFY2(why.contains(QStringLiteral("heavy: needs 64 GB of memory")) &&
                     why.contains(QStringLiteral("newer: this version")),
                 qPrintable(why));
        QCOMPARE(automaticTaskChoice({}, machine(4, 8), &why), QString());
        QVERIFY(!why.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTaskFit)
#include "tst_task_fit.moc"
