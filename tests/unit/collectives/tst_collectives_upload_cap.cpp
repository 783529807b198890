// The upload cap: core/RateLimiter (a token bucket shared by senders) over a real loopback TCP connection, its
// deadline, cancellation and live rate changes, and the communicator's ring all-reduce paced by it — the bytes a
// capped peer sends take at least the time the cap requires, and cancelling a held-back send ends the operation
// (restored inputs) instead of waiting on.
//
// Timing assertions are lower bounds only: a transfer can be slower than the cap on a busy machine, never faster.
#include "MasterInThread.h"
#include "collectives/Communicator.h"
#include "collectives/Master.h"
#include "collectives/Socket.h"
#include "core/RateLimiter.h"
#include "net/Ed25519.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QTest>
#include <QThread>

#include <atomic>
#include <thread>
#include <vector>

using namespace cohort;
using namespace cohort::collectives;
using cohort::test::MasterInThread;

namespace {

// A connected loopback pair: [0] the connecting side, [1] the accepted one.
std::pair<TcpSocket, TcpSocket> loopbackPair()
{
    auto listener = TcpListener::listen(QHostAddress(QHostAddress::LocalHost), 0);
    if (!listener)
        return {};
    auto client = TcpSocket::connectTo(QHostAddress(QHostAddress::LocalHost), listener->port(), 5000);
    if (!client)
        return {};
    const QDeadlineTimer deadline(5000);
    TcpSocket server;
    while (!server.valid() && !deadline.hasExpired()) {
        PollEntry e{listener->native(), true, false};
        pollSockets({&e, 1}, 100);
        server = listener->accept();
    }
    return {std::move(client.value()), std::move(server)};
}

uint8_t patternByte(size_t i)
{
    return uint8_t((i * 131u) ^ (i >> 9));
}

} // namespace

class TestUploadCap : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // N bytes through a capped sender over real TCP take no less than (N - burst) / rate: the bucket starts full
    // and then lets through `rate` bytes a second.
    void cappedSenderTakesThePhysicallyRequiredTime()
    {
        auto [tx, rx] = loopbackPair();
        QVERIFY(tx.valid() && rx.valid());
        constexpr int64_t kRate = 2 * 1024 * 1024; // bytes/s
        constexpr size_t kTotal = 3 * 1024 * 1024;
        RateLimiter limiter(kRate);
        const int64_t burst = limiter.burstBytes();
        QCOMPARE(burst, kRate / 20);

        std::vector<uint8_t> data(kTotal);
        for (size_t i = 0; i < kTotal; ++i)
            data[i] = patternByte(i);
        std::atomic<bool> sendFailed{false};
        QElapsedTimer clock;
        clock.start();
        std::thread sender([&] {
            constexpr size_t kChunk = 64 * 1024;
            for (size_t at = 0; at < kTotal; at += kChunk) {
                const size_t n = std::min(kChunk, kTotal - at);
                if (limiter.acquire(int64_t(n), QDeadlineTimer(30'000)) != RateLimiter::Wait::Granted ||
                    !tx.sendAll(data.data() + at, n, 30'000)) {
                    sendFailed = true;
                    return;
                }
            }
        });
        std::vector<uint8_t> got(kTotal);
        size_t received = 0;
        const QDeadlineTimer deadline(60'000);
        while (received < kTotal && !deadline.hasExpired()) {
            const IoResult r = rx.recv(got.data() + received, kTotal - received);
            received += r.bytes;
            if (r.closed)
                break;
            if (r.wouldBlock) {
                PollEntry e{rx.native(), true, false};
                pollSockets({&e, 1}, 500);
            }
        }
        const double seconds = double(clock.nsecsElapsed()) / 1e9;
        sender.join();
        QVERIFY(!sendFailed);
        QCOMPARE(received, kTotal);
        QVERIFY(got == data);
        const double required = double(int64_t(kTotal) - burst) / double(kRate);
        qInfo("%zu bytes at a cap of %lld B/s: %.3f s (at least %.3f s required), %.0f B/s", kTotal,
              static_cast<long long>(kRate), seconds, required, double(kTotal) / seconds);
        QVERIFY2(seconds >= required * 0.99, qPrintable(QStringLiteral("%1 s < %2 s").arg(seconds).arg(required)));
        QCOMPARE(limiter.grantedBytes(), int64_t(kTotal));
    }

    // What the bucket holds is granted at once; an empty bucket grants nothing and says how long to wait.
    void tryAcquireGrantsWhatTheBucketHolds()
    {
        RateLimiter unlimited;
        QCOMPARE(unlimited.tryAcquire(int64_t(1) << 40), int64_t(1) << 40);
        QCOMPARE(unlimited.acquire(int64_t(1) << 40, QDeadlineTimer(0)), RateLimiter::Wait::Granted);

        RateLimiter limiter(100'000); // burst 5000 bytes
        QCOMPARE(limiter.burstBytes(), int64_t(5000));
        const int64_t first = limiter.tryAcquire(1'000'000);
        QVERIFY2(first >= 5000 && first < 1'000'000, qPrintable(QString::number(first)));
        // Drain until the bucket says no, then it must name a positive wait no longer than a refill of one piece.
        std::chrono::nanoseconds retryIn{0};
        QElapsedTimer clock;
        clock.start();
        int64_t granted = first;
        for (int i = 0; i < 1000; ++i) {
            const int64_t g = limiter.tryAcquire(1'000'000, &retryIn);
            if (g == 0)
                break;
            granted += g;
        }
        QVERIFY(retryIn.count() > 0);
        QVERIFY(retryIn <= std::chrono::milliseconds(51));
        // Never more than the bucket plus what accrued meanwhile.
        QVERIFY(granted <= 5000 + int64_t(double(clock.nsecsElapsed()) / 1e9 * 100'000) + 1);
        // Given back, it can be taken again at once.
        QCOMPARE(limiter.grantedBytes(), granted);
        limiter.release(4000);
        QCOMPARE(limiter.grantedBytes(), granted - 4000);
        QVERIFY(limiter.tryAcquire(4000) >= 4000);
    }

    void deadlineEndsAWait()
    {
        RateLimiter limiter(1000); // a megabyte would take 1000 s
        QElapsedTimer clock;
        clock.start();
        QCOMPARE(limiter.acquire(1'000'000, QDeadlineTimer(300)), RateLimiter::Wait::TimedOut);
        QVERIFY(clock.elapsed() >= 290);
        QCOMPARE(limiter.grantedBytes(), int64_t(0)); // what it had taken went back
        QCOMPARE(limiter.waiters(), 0);
    }

    void cancelEndsAWait_data()
    {
        QTest::addColumn<bool>("interrupt");
        QTest::newRow("interrupted") << true;
        QTest::newRow("flag only") << false; // seen within RateLimiter::kMaxSleep
    }
    void cancelEndsAWait()
    {
        QFETCH(bool, interrupt);
        RateLimiter limiter(1000);
        std::atomic<bool> cancel{false};
        std::atomic<int> result{-1};
        std::thread waiter(
            [&] { result = int(limiter.acquire(1'000'000, QDeadlineTimer(QDeadlineTimer::Forever), &cancel)); });
        QTRY_COMPARE_WITH_TIMEOUT(limiter.waiters(), 1, 5000);
        cancel = true;
        if (interrupt)
            limiter.interrupt();
        QTRY_VERIFY_WITH_TIMEOUT(result.load() >= 0, 5000);
        waiter.join();
        QCOMPARE(RateLimiter::Wait(result.load()), RateLimiter::Wait::Cancelled);
        QCOMPARE(limiter.grantedBytes(), int64_t(0));
    }

    // A change of the cap reaches a sender that is waiting under the old one.
    void rateChangeWakesAWaiter()
    {
        RateLimiter limiter(1000);
        std::atomic<int> result{-1};
        std::thread waiter([&] { result = int(limiter.acquire(1'000'000, QDeadlineTimer(QDeadlineTimer::Forever))); });
        QTRY_COMPARE_WITH_TIMEOUT(limiter.waiters(), 1, 5000);
        limiter.setRate(0); // unlimited
        QTRY_VERIFY_WITH_TIMEOUT(result.load() >= 0, 5000);
        waiter.join();
        QCOMPARE(RateLimiter::Wait(result.load()), RateLimiter::Wait::Granted);
        QCOMPARE(limiter.grantedBytes(), int64_t(1'000'000));
    }

    // Two peers all-reduce through an in-process master; one is capped. The capped peer's ring bytes take at least
    // the time its cap requires, and the result is still the exact sum on both.
    void cappedRingAllReduce()
    {
        MasterInThread master;
        QVERIFY(master.port != 0);
        constexpr int64_t kRate = 1024 * 1024;
        constexpr size_t kCount = 256 * 1024; // 1 MiB of f32: a 2-ring sends ~1 MiB per peer
        auto capped = std::make_shared<RateLimiter>(kRate);
        struct Outcome {
            Code code = Code::NotConnected;
            ReduceInfo info;
            std::vector<float> data;
        };
        Outcome a, b;
        auto run = [&](float value, std::shared_ptr<RateLimiter> limiter, Outcome *out) {
            CommunicatorOptions options;
            options.masterPort = master.port;
            options.secretKey = ed25519::generate().secretKey;
            options.bindAddress = QHostAddress(QHostAddress::LocalHost);
            options.uploadLimiter = std::move(limiter);
            Communicator comm(options);
            cohort::Status r = comm.connect();
            const QDeadlineTimer deadline(30'000);
            while (r && comm.worldSize() < 2 && !deadline.hasExpired())
                r = comm.updateTopology();
            if (!r || comm.worldSize() != 2)
                return;
            out->data.assign(kCount, value);
            out->code = comm.allReduce(out->data, ReduceOp::Sum, Quant::None, 1, &out->info).code();
        };
        std::thread ta(run, 1.0f, capped, &a);
        std::thread tb(run, 2.0f, nullptr, &b);
        ta.join();
        tb.join();
        QCOMPARE(a.code, Code::None);
        QCOMPARE(b.code, Code::None);
        QCOMPARE(a.data, std::vector<float>(kCount, 3.0f));
        QCOMPARE(b.data, a.data);
        QVERIFY(a.info.txBytes >= kCount * sizeof(float));         // half in the reduce-scatter, half in the all-gather
        QCOMPARE(capped->grantedBytes(), int64_t(a.info.txBytes)); // every ring byte went through the bucket
        const double requiredMs = double(int64_t(a.info.txBytes) - capped->burstBytes()) / double(kRate) * 1000;
        qInfo("capped peer: %llu ring bytes in %.0f ms (at least %.0f ms required); uncapped peer's ring %.0f ms",
              static_cast<unsigned long long>(a.info.txBytes), a.info.ringMs, requiredMs, b.info.ringMs);
        QVERIFY2(a.info.ringMs >= requiredMs * 0.99, qPrintable(QStringLiteral("%1 ms").arg(a.info.ringMs)));
    }

    // A peer held back by a tiny cap is cancelled mid-operation: the call ends (Aborted, input restored) instead of
    // sending on for a minute, and the other peer's call ends too.
    void cancellingACappedAllReduceEndsIt()
    {
        MasterInThread master;
        QVERIFY(master.port != 0);
        constexpr int64_t kRate = 16 * 1024; // ~1 MiB would take a minute
        constexpr size_t kCount = 256 * 1024;
        auto capped = std::make_shared<RateLimiter>(kRate);
        std::atomic<bool> cancel{false};
        std::atomic<int> finished{0};
        Code codeA = Code::None, codeB = Code::None;
        bool restoredA = false, restoredB = false;
        auto run = [&](float value, std::shared_ptr<RateLimiter> limiter, const std::atomic<bool> *flag, Code *code,
                       bool *restored) {
            CommunicatorOptions options;
            options.masterPort = master.port;
            options.secretKey = ed25519::generate().secretKey;
            options.bindAddress = QHostAddress(QHostAddress::LocalHost);
            options.uploadLimiter = std::move(limiter);
            options.cancel = flag;
            options.ioTimeoutMs = 120'000; // only the cancel may end this operation early
            Communicator comm(options);
            cohort::Status r = comm.connect();
            const QDeadlineTimer deadline(30'000);
            while (r && comm.worldSize() < 2 && !deadline.hasExpired())
                r = comm.updateTopology();
            if (r && comm.worldSize() == 2) {
                std::vector<float> data(kCount, value);
                *code = comm.allReduce(data, ReduceOp::Sum, Quant::None, 7).code();
                *restored = data == std::vector<float>(kCount, value);
            } else {
                *code = Code::NotConnected;
            }
            ++finished;
        };
        std::thread ta(run, 1.0f, capped, &cancel, &codeA, &restoredA);
        std::thread tb(run, 2.0f, nullptr, nullptr, &codeB, &restoredB);
        // Wait until the capped peer is sending (past its first bucketful), then cancel it.
        QTRY_VERIFY_WITH_TIMEOUT(capped->grantedBytes() > capped->burstBytes(), 30'000);
        cancel = true;
        capped->interrupt();
        QTRY_COMPARE_WITH_TIMEOUT(finished.load(), 2, 30'000);
        ta.join();
        tb.join();
        QCOMPARE(codeA, Code::Aborted);
        QCOMPARE(codeB, Code::Aborted);
        QVERIFY(restoredA);
        QVERIFY(restoredB);
        QVERIFY(capped->grantedBytes() < int64_t(kCount * sizeof(float))); // it stopped well short of its share
    }

    // A peer waiting for the others to begin an operation (one never does) is cancelled: the call ends with Aborted
    // at once instead of after the begin timeout (two minutes here, as a DiLoCo node has) — a paused or quitting
    // node used to sit out the whole wait (tst_diloco_hub saw a node take over 30 s to quit).
    void cancelEndsAWaitForTheOthers()
    {
        MasterInThread master;
        QVERIFY(master.port != 0);
        std::atomic<bool> cancel{false}, waiting{false}, finished{false};
        std::atomic<bool> leave{false};
        Code code = Code::None;
        QElapsedTimer clock; // started before the threads, only read after
        clock.start();
        std::atomic<qint64> cancelledAt{-1}, endedAt{-1};
        auto peer = [&](bool reduces) {
            CommunicatorOptions options;
            options.masterPort = master.port;
            options.secretKey = ed25519::generate().secretKey;
            options.bindAddress = QHostAddress(QHostAddress::LocalHost);
            options.beginTimeoutMs = 120'000;
            options.cancel = reduces ? &cancel : nullptr;
            Communicator comm(options);
            cohort::Status r = comm.connect();
            const QDeadlineTimer deadline(30'000);
            while (r && comm.worldSize() < 2 && !deadline.hasExpired())
                r = comm.updateTopology();
            if (!reduces) { // in the ring, but never begins an operation: stays until the test is done
                while (!leave.load() && !deadline.hasExpired())
                    (void)comm.updateTopology();
                return;
            }
            std::vector<float> data(1000, 1.0f);
            waiting = r && comm.worldSize() == 2;
            code = waiting ? comm.allReduce(data, ReduceOp::Sum, Quant::None, 3).code() : Code::NotConnected;
            endedAt = clock.elapsed();
            finished = true;
        };
        std::thread idle(peer, false);
        std::thread reducer(peer, true);
        QTRY_VERIFY_WITH_TIMEOUT(waiting.load(), 30'000);
        cancelledAt = clock.elapsed();
        cancel = true;
        QTRY_VERIFY_WITH_TIMEOUT(finished.load(), 20'000); // not the 120 s begin timeout
        leave = true;
        reducer.join();
        idle.join();
        QCOMPARE(code, Code::Aborted);
        QVERIFY(endedAt.load() >= cancelledAt.load()); // it was still waiting when cancelled
        qInfo("the cancelled call ended %lld ms after the cancel", endedAt.load() - cancelledAt.load());
    }
};

QTEST_GUILESS_MAIN(TestUploadCap)
#include "tst_collectives_upload_cap.moc"
