// Several all-reduce operations in flight at once: each runs on its own link pair of the ring's pool (the master hands
// them out and holds an operation back while every link is busy), in the background between allReduceAsync and
// awaitReduce. Peers are threads of this process talking TCP over 127.0.0.1 to a master on its own thread.
#include "CollectiveInputs.h"
#include "MasterInThread.h"
#include "RingInProcess.h"
#include "collectives/Communicator.h"
#include "collectives/Master.h"
#include "core/RateLimiter.h"
#include "net/Ed25519.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QTest>

#include <cmath>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

using namespace cohort;
using namespace cohort::collectives;
using cohort::test::bitIdentical;
using cohort::test::collectiveInput;
using cohort::test::joinRing;
using cohort::test::MasterInThread;
using cohort::test::onPeers;

namespace {

CommunicatorOptions optionsFor(uint16_t masterPort)
{
    CommunicatorOptions options;
    options.masterPort = masterPort;
    options.secretKey = ed25519::generate().secretKey;
    options.bindAddress = QHostAddress(QHostAddress::LocalHost);
    options.blockElements = 4096; // many blocks even for small buffers: a real pipeline
    return options;
}

} // namespace

class TestCollectivesInFlight : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Three peers start five operations each before awaiting any, over a ring with two links per neighbour: the third
    // start can only return once an earlier exchange finished in the background (no awaitReduce yet), so five in
    // flight at once proves both the pool and the background progress. Awaited in reverse order; every result is the
    // exact sum (f32, integer inputs) or, quantized, bit-identical across peers and within the documented bound.
    void severalOperationsRunAtOnceOnTheLinkPool()
    {
        MasterOptions masterOptions;
        masterOptions.linksPerNeighbour = 2;
        MasterInThread master(masterOptions);
        QVERIFY(master.port != 0);
        constexpr int kPeers = 3, kOps = 5;
        constexpr size_t kCount = 100'003; // not divisible by the world size
        const Quant quants[kOps] = {Quant::None, Quant::U8, Quant::None, Quant::U16, Quant::None};
        struct PeerResult {
            QString error;
            int links = 0;
            int inFlightAtPeak = 0;
            std::vector<std::vector<float>> outputs = std::vector<std::vector<float>>(kOps);
            std::vector<uint64_t> opIds = std::vector<uint64_t>(kOps);
        };
        std::vector<PeerResult> results(kPeers);
        onPeers(kPeers, [&](int p) {
            PeerResult &out = results[size_t(p)];
            Communicator comm(optionsFor(master.port));
            if (cohort::Status r = joinRing(comm, kPeers); !r) {
                out.error = r.error();
                return;
            }
            out.links = comm.linksPerNeighbour();
            std::vector<std::vector<float>> inputs(kOps);
            for (int k = 0; k < kOps; ++k) {
                inputs[size_t(k)] = collectiveInput(uint64_t(p + 1), k, kCount, quants[k] == Quant::None);
                const uint64_t tag = 100 + uint64_t(k);
                cohort::Status r;
                if (k % 2 == 0) { // in place
                    out.outputs[size_t(k)] = inputs[size_t(k)];
                    r = comm.allReduceAsync(out.outputs[size_t(k)], ReduceOp::Sum, quants[k], tag);
                } else {
                    out.outputs[size_t(k)].assign(kCount, -1.0f);
                    r = comm.allReduceAsync(inputs[size_t(k)], out.outputs[size_t(k)], ReduceOp::Sum, quants[k], tag);
                }
                if (!r) {
                    out.error = QStringLiteral("start %1: %2").arg(k).arg(r.error());
                    return;
                }
            }
            out.inFlightAtPeak = comm.operationsInFlight();
            for (int k = kOps - 1; k >= 0; --k) {
                ReduceInfo info;
                if (cohort::Status r = comm.awaitReduce(100 + uint64_t(k), &info); !r) {
                    out.error = QStringLiteral("await %1: %2").arg(k).arg(r.error());
                    return;
                }
                out.opIds[size_t(k)] = info.opId;
            }
            if (comm.operationsInFlight() != 0)
                out.error = QStringLiteral("%1 operations left in flight").arg(comm.operationsInFlight());
        });
        for (int p = 0; p < kPeers; ++p) {
            QVERIFY2(results[size_t(p)].error.isEmpty(), qPrintable(results[size_t(p)].error));
            QCOMPARE(results[size_t(p)].links, 2);
            QCOMPARE(results[size_t(p)].inFlightAtPeak, kOps);
            QCOMPARE(results[size_t(p)].opIds, results[0].opIds);
        }
        for (int k = 0; k < kOps; ++k) {
            // The exact sum, in double.
            std::vector<double> exact(kCount, 0.0);
            double maxAbs = 0;
            for (int p = 0; p < kPeers; ++p) {
                const std::vector<float> in = collectiveInput(uint64_t(p + 1), k, kCount, quants[k] == Quant::None);
                for (size_t i = 0; i < kCount; ++i) {
                    exact[i] += in[i];
                    maxAbs = std::max(maxAbs, double(std::fabs(in[i])));
                }
            }
            const std::vector<float> &first = results[0].outputs[size_t(k)];
            for (int p = 1; p < kPeers; ++p)
                QVERIFY2(bitIdentical(results[size_t(p)].outputs[size_t(k)], first),
                         qPrintable(QStringLiteral("operation %1: peer %2 differs from peer 0").arg(k).arg(p)));
            // Communicator.h: |result - exact| <= n * W / (2L) + rounding, W <= 2 n max|x|.
            const double levels = quants[k] == Quant::U8 ? 255.0 : 65535.0;
            const double bound =
                quants[k] == Quant::None ? 0.0 : kPeers * (2.0 * kPeers * maxAbs) / (2 * levels) + 1e-4;
            double worst = 0;
            for (size_t i = 0; i < kCount; ++i)
                worst = std::max(worst, std::fabs(double(first[i]) - exact[i]));
            QVERIFY2(worst <= bound,
                     qPrintable(QStringLiteral("operation %1: error %2 > bound %3").arg(k).arg(worst).arg(bound)));
        }
    }

    // Misuse gets a clear error and leaves the operations in flight alone.
    void misuseIsRefusedWithoutHarm()
    {
        MasterInThread master;
        QVERIFY(master.port != 0);
        constexpr size_t kCount = 20'000;
        std::vector<QString> errors(2);
        onPeers(2, [&](int p) {
            auto check = [&](bool ok, const QString &what) {
                if (!ok && errors[size_t(p)].isEmpty())
                    errors[size_t(p)] = what;
            };
            Communicator comm(optionsFor(master.port));
            if (cohort::Status r = joinRing(comm, 2); !r)
                return check(false, r.error());
            std::vector<float> data(kCount, float(p + 1)), again(kCount, 0.0f);
            check(comm.awaitReduce(7).code() == Code::InvalidArgument, QStringLiteral("await of an unknown tag"));
            check(comm.allReduceAsync(data, ReduceOp::Sum, Quant::None, 7).ok(), QStringLiteral("start"));
            check(comm.allReduceAsync(again, ReduceOp::Sum, Quant::None, 7).code() == Code::InvalidArgument,
                  QStringLiteral("a second operation with the same tag"));
            check(comm.updateTopology().code() == Code::InvalidArgument,
                  QStringLiteral("a vote with an operation in flight"));
            check(comm.operationsInFlight() == 1, QStringLiteral("one operation in flight"));
            check(comm.awaitReduce(7).ok(), QStringLiteral("await"));
            check(data == std::vector<float>(kCount, 3.0f), QStringLiteral("the sum"));
            check(comm.awaitReduce(7).code() == Code::InvalidArgument, QStringLiteral("await twice"));
            check(comm.updateTopology().ok(), QStringLiteral("a vote afterwards"));
        });
        QVERIFY2(errors[0].isEmpty(), qPrintable(errors[0]));
        QVERIFY2(errors[1].isEmpty(), qPrintable(errors[1]));
    }

    // A peer vanishes while two operations are in flight (held back by a tiny upload cap, so neither can finish
    // before it goes): both operations end Aborted on the survivors, promptly, with their in-place inputs restored
    // bit for bit; a retry in the smaller ring gives the exact sum.
    void aPeerVanishingAbortsEveryOperationInFlight()
    {
        MasterInThread master;
        QVERIFY(master.port != 0);
        constexpr int kPeers = 3;
        constexpr size_t kCount = 200'000;
        std::atomic<int> started{0};
        std::vector<QString> errors(kPeers);
        std::vector<double> abortMs(kPeers, 0);
        onPeers(kPeers, [&](int p) {
            CommunicatorOptions options = optionsFor(master.port);
            const bool vanishing = p == kPeers - 1;
            if (vanishing)
                options.uploadLimiter = std::make_shared<RateLimiter>(64 * 1024); // ~6 s for its share: never done
            options.ioTimeoutMs = 20'000; // survivors must learn of the abort from the master, not a timeout
            Communicator comm(options);
            if (cohort::Status r = joinRing(comm, kPeers); !r) {
                errors[size_t(p)] = r.error();
                return;
            }
            std::vector<std::vector<float>> inputs, buffers;
            for (int k = 0; k < 2; ++k) {
                inputs.push_back(collectiveInput(uint64_t(p + 1), k, kCount, true));
                buffers.push_back(inputs.back());
            }
            for (int k = 0; k < 2; ++k) {
                if (cohort::Status r = comm.allReduceAsync(buffers[size_t(k)], ReduceOp::Sum, Quant::None, uint64_t(k));
                    !r) {
                    errors[size_t(p)] = QStringLiteral("start %1: %2").arg(k).arg(r.error());
                    return;
                }
            }
            ++started;
            if (vanishing) {
                comm.close(); // gone, mid-exchange
                return;
            }
            QElapsedTimer clock;
            clock.start();
            for (int k = 0; k < 2; ++k) {
                const cohort::Status r = comm.awaitReduce(uint64_t(k));
                if (r.code() != Code::Aborted) {
                    errors[size_t(p)] = QStringLiteral("operation %1 ended %2: %3")
                                            .arg(k)
                                            .arg(QString::fromLatin1(errorCodeName(r.code())))
                                            .arg(r.error());
                    return;
                }
                if (!bitIdentical(buffers[size_t(k)], inputs[size_t(k)])) {
                    errors[size_t(p)] = QStringLiteral("operation %1: input not restored").arg(k);
                    return;
                }
            }
            abortMs[size_t(p)] = double(clock.elapsed());
            // Retry with whoever is left.
            cohort::Status r;
            const QDeadlineTimer deadline(30'000);
            do {
                buffers[0] = inputs[0];
                r = comm.allReduce(buffers[0], ReduceOp::Sum, Quant::None, 10);
            } while (r.retryable() && !deadline.hasExpired());
            if (!r || comm.worldSize() != kPeers - 1) {
                errors[size_t(p)] = QStringLiteral("retry: %1, world %2").arg(r.error()).arg(comm.worldSize());
                return;
            }
            const std::vector<float> other = collectiveInput(uint64_t(2 - p), 0, kCount, true);
            for (size_t i = 0; i < kCount; ++i) {
                if (buffers[0][i] != inputs[0][i] + other[i]) {
                    errors[size_t(p)] = QStringLiteral("retry: wrong sum at %1").arg(i);
                    return;
                }
            }
        });
        QCOMPARE(started.load(), kPeers);
        for (int p = 0; p < kPeers; ++p)
            QVERIFY2(errors[size_t(p)].isEmpty(),
                     qPrintable(QStringLiteral("peer %1: %2").arg(p).arg(errors[size_t(p)])));
        qInfo("survivors learned of the abort after %.0f and %.0f ms", abortMs[0], abortMs[1]);
        QVERIFY(abortMs[0] < 10'000 && abortMs[1] < 10'000);
    }
};

QTEST_GUILESS_MAIN(TestCollectivesInFlight)
#include "tst_collectives_inflight.moc"
