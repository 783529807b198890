// Engine checkpoint bundles: size and write time (zip + fsync + rename) for what the engine holds at a safe point.
// RL node: the state only (task, work item in hand, pause); the batches themselves are in the outbox. A task that
// trains locally (DiLoCo): inner model + AdamW moments (3 x the weights) + outer momentum, for the RL policy sizes
// as stand-ins until the DiLoCo task exists. Prints best and median of 10 writes; reads one back to check it.
//   bench_engine_bundle [dir=/tmp]
#include "node/EngineBundle.h"

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
EngineBundle bundleWith(qint64 weights)
{
    EngineBundle b;
    b.state = QJsonObject{{QStringLiteral("task"), QStringLiteral("arith-rl")}, {QStringLiteral("policy_version"), 42},
                          {QStringLiteral("work"), QJsonObject{{QStringLiteral("work_id"), QStringLiteral("w-0123456789abcdef")},
                                                               {QStringLiteral("seed"), QStringLiteral("1234567890123")}}}};
    if (weights > 0) {
        QByteArray tensor(weights * 4, Qt::Uninitialized);
        for (qsizetype i = 0; i < tensor.size(); ++i)
            tensor[i] = char((i * 2654435761u) >> 24);
        b.blobs = {{QStringLiteral("tensors/inner.f32"), tensor},
                   {QStringLiteral("tensors/adam_m.f32"), tensor},
                   {QStringLiteral("tensors/adam_v.f32"), tensor},
                   {QStringLiteral("tensors/outer_momentum.f32"), tensor}};
    }
    return b;
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir tmp(argc > 1 ? QString::fromLocal8Bit(argv[1]) + QStringLiteral("/bundle-bench-XXXXXX") : QDir::tempPath() + QStringLiteral("/bundle-bench-XXXXXX"));
    std::printf("%-40s %12s %10s %10s %10s\n", "bundle", "bytes", "best ms", "median ms", "read ms");
    struct Case {
        const char *name;
        qint64 weights;
    };
    // Parameter counts of the policy shapes used by the default tasks (RlModelShape) and the reference config.
    for (const Case &c : {Case{"RL node state (no tensors)", 0}, Case{"d128 x 3 layers (0.63 M params) + AdamW", 633'000},
                          Case{"d256 x 4 layers (3.2 M params) + AdamW", 3'230'000}}) {
        BundleStore store(tmp.filePath(QString::fromLatin1(c.name).left(3)));
        const EngineBundle bundle = bundleWith(c.weights);
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
        std::sort(ms.begin(), ms.end());
        std::printf("%-40s %12lld %10.2f %10.2f %10.2f\n", c.name, bytes, ms.front(), ms[ms.size() / 2], readMs);
    }
    return 0;
}
