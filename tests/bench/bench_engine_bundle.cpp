// Engine checkpoint bundles: size and write time (zip + fsync + rename) for what the engine holds at a safe point.
// RL node: the state only (task, work item in hand, pause); the batches themselves are in the outbox. DiLoCo: the
// real checkpoint (engine/diloco/DilocoCheckpoint: global weights, outer momentum, inner model, AdamW m and v = 5 x
// the weights) for the default tiny-lm-diloco model and two larger shapes. Prints the median and min-max of 10
// writes; reads one back to check it (and times that read once).
//   bench_engine_bundle [dir=/tmp]
#include "BenchSpread.h"
#include "core/DilocoTaskConfig.h"
#include "diloco/DilocoCheckpoint.h"
#include "rl/PolicyConfig.h"
#include "store/EngineBundle.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <vector>

using namespace cohort;

namespace {
EngineBundle rlNodeState()
{
    EngineBundle b;
    b.state = QJsonObject{
        {QStringLiteral("task"), QStringLiteral("arith-rl")},
        {QStringLiteral("policy_version"), 42},
        {QStringLiteral("work"), QJsonObject{{QStringLiteral("work_id"), QStringLiteral("w-0123456789abcdef")},
                                             {QStringLiteral("seed"), QStringLiteral("1234567890123")}}}};
    return b;
}

EngineBundle dilocoState(const RlModelShape &shape)
{
    rl::PolicyConfig config;
    config.dModel = shape.dModel;
    config.nLayers = shape.nLayers;
    config.nHeads = shape.nHeads;
    config.dFF = shape.dFF;
    config.maxSeqLen = shape.maxSeqLen;
    const size_t n = size_t(config.parameterCount());
    std::vector<float> values(n);
    for (size_t i = 0; i < n; ++i) // not all zero: the zip stores entries, but keep it honest
        values[i] = float(int((i * 2654435761u) >> 20) - 2048) * 1e-4f;
    diloco::DilocoCheckpoint c;
    c.taskId = QStringLiteral("tiny-lm-diloco");
    c.outerStep = 1234;
    c.innerStep = 7;
    c.global = c.momentum = c.local = c.adam.m = c.adam.v = values;
    c.adam.step = 24687;
    return c.toBundle();
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir tmp(argc > 1 ? QString::fromLocal8Bit(argv[1]) + QStringLiteral("/bundle-bench-XXXXXX")
                               : QDir::tempPath() + QStringLiteral("/bundle-bench-XXXXXX"));
    std::printf("%-40s %12s %24s %10s\n", "bundle", "bytes", "write ms, median (min-max)", "read ms");
    struct Case {
        QString name;
        EngineBundle bundle;
    };
    const DilocoTaskConfig defaults; // the default tiny-lm-diloco task's model
    const QList<Case> cases{
        {QStringLiteral("RL node state (no tensors)"), rlNodeState()},
        {QStringLiteral("DiLoCo default (d%1 x %2 layers)").arg(defaults.model.dModel).arg(defaults.model.nLayers),
         dilocoState(defaults.model)},
        {QStringLiteral("DiLoCo d128 x 3 layers"), dilocoState({128, 3, 4, 512, 64})},
        {QStringLiteral("DiLoCo d256 x 4 layers"), dilocoState({256, 4, 4, 1024, 256})},
    };
    int index = 0;
    for (const Case &c : cases) {
        BundleStore store(tmp.filePath(QString::number(index++)));
        const EngineBundle &bundle = c.bundle;
        std::vector<double> ms;
        qint64 bytes = 0;
        for (int i = 0; i < 10; ++i) {
            QElapsedTimer t;
            t.start();
            auto path = store.write(bundle);
            ms.push_back(double(t.nsecsElapsed()) / 1e6);
            if (!path) {
                std::fprintf(stderr, "%s\n", qPrintable(path.error()));
                return 1;
            }
            bytes = QFileInfo(*path).size();
        }
        QElapsedTimer t;
        t.start();
        auto back = store.readNewest();
        const double readMs = double(t.nsecsElapsed()) / 1e6;
        if (!back || back->blobs.size() != bundle.blobs.size()) {
            std::fprintf(stderr, "read back failed\n");
            return 1;
        }
        const bench::Spread write = bench::spreadOf(ms);
        std::printf("%-40s %12lld %8.2f (%6.2f-%6.2f) %10.2f\n", qPrintable(c.name), bytes, write.median, write.min,
                    write.max, readMs);
    }
    return 0;
}
