// core/OwnedThread: the thread has its name, stops on request within its bound, is reported (and let go) when it
// ignores the request, hosts objects whose slots run on it and deletes them there, and its destructor stops it.
// Threads are coordinated with semaphores and atomics only: no sleep decides an outcome.
#include "core/OwnedThread.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSemaphore>
#include <QTest>

#include <atomic>

using namespace cohort;
using namespace std::chrono_literals;

namespace {
// The "did not hang" margin: a stop call must return within its bound plus this, however loaded the machine.
constexpr qint64 kSlackMs = 2000;

// Lives on the thread under test: says where its slot ran, and where it was deleted.
class Guest : public QObject {
    Q_OBJECT
public:
    explicit Guest(std::atomic<QThread *> *deletedIn)
        : m_deletedIn(deletedIn)
    {}
    ~Guest() override { m_deletedIn->store(QThread::currentThread()); }

    QThread *ranIn = nullptr; // written by where(), read after `ran` was acquired
    QString ranInName;
    QSemaphore ran;

public Q_SLOTS:
    void where()
    {
        ranIn = QThread::currentThread();
        ranInName = ranIn->objectName();
        ran.release();
    }

private:
    std::atomic<QThread *> *m_deletedIn;
};
} // namespace

class TestOwnedThread : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void threadHasItsName()
    {
        OwnedThread thread(QStringLiteral("cohort-test-name"));
        QString seen;
        QByteArray osName;
        QSemaphore done;
        thread.run([&](const ThreadLink &) {
            seen = QThread::currentThread()->objectName();
#ifdef Q_OS_LINUX
            QFile comm(QStringLiteral("/proc/thread-self/comm")); // what `top -H` and debuggers show
            if (comm.open(QIODevice::ReadOnly))
                osName = comm.readAll().trimmed();
#endif
            done.release();
        });
        QVERIFY(done.tryAcquire(1, 10'000));
        QVERIFY(thread.stop(5s));
        QCOMPARE(seen, QStringLiteral("cohort-test-name"));
#ifdef Q_OS_LINUX
        QCOMPARE(osName, QByteArray("cohort-test-nam")); // Linux keeps 15 characters
#endif
    }

    void functionStopsOnRequestWithinBound()
    {
        OwnedThread thread(QStringLiteral("cohort-test-stop"));
        QSemaphore started;
        std::atomic<bool> sawStop{false};
        thread.run([&](const ThreadLink &link) {
            started.release();
            while (!link.stopRequested())
                QThread::yieldCurrentThread(); // busy work that looks at the flag, like a search or a replay
            sawStop = true;
        });
        QVERIFY(started.tryAcquire(1, 10'000));
        QVERIFY(thread.isRunning());
        QElapsedTimer clock;
        clock.start();
        QVERIFY(thread.stop(5s));
        QVERIFY2(clock.elapsed() < 5000 + kSlackMs, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(sawStop);
        QVERIFY(!thread.isRunning());
    }

    void threadIgnoringStopIsReportedAndOwnerNotBlocked()
    {
        // The worker ignores the request and blocks until released after the check, so the OS thread ends cleanly.
        auto release = std::make_shared<QSemaphore>();
        auto started = std::make_shared<QSemaphore>();
        auto postedAfterLetGo = std::make_shared<std::atomic<int>>(-1);
        auto ended = std::make_shared<QSemaphore>();
        QObject replyTo;
        QAtomicInt delivered = 0;
        {
            OwnedThread thread(QStringLiteral("cohort-test-stuck"), &replyTo);
            thread.run([=, &delivered](const ThreadLink &link) {
                started->release();
                release->acquire();
                // The owner let go: a post must report so and never reach the owner.
                *postedAfterLetGo = link.post([&delivered] { delivered.ref(); }) ? 1 : 0;
                ended->release();
            });
            QVERIFY(started->tryAcquire(1, 10'000));
            QTest::ignoreMessage(
                QtWarningMsg, "thread cohort-test-stuck did not stop within 300 ms; it is left to finish on its own");
            QElapsedTimer clock;
            clock.start();
            QVERIFY(!thread.stop(300ms));
            QVERIFY2(clock.elapsed() >= 250, qPrintable(QString::number(clock.elapsed()))); // it did wait
            QVERIFY2(clock.elapsed() < 300 + kSlackMs, qPrintable(QString::number(clock.elapsed())));
            QVERIFY(!thread.isRunning()); // let go: the owner holds no thread now
        }                                 // and its destructor does not wait for the one it let go of
        release->release();
        QVERIFY(ended->tryAcquire(1, 10'000));
        QCOMPARE(postedAfterLetGo->load(), 0);
        QCoreApplication::processEvents();
        QCOMPARE(delivered.loadRelaxed(), 0);
    }

    void postReachesTheOwnerThread()
    {
        QObject replyTo;
        OwnedThread thread(QStringLiteral("cohort-test-post"), &replyTo);
        QThread *deliveredIn = nullptr;
        bool posted = false;
        QSemaphore done;
        thread.run([&](const ThreadLink &link) {
            posted = link.post([&] { deliveredIn = QThread::currentThread(); });
            done.release();
        });
        QVERIFY(done.tryAcquire(1, 10'000));
        QVERIFY(posted);
        QTRY_COMPARE(deliveredIn, QThread::currentThread());
    }

    void hostedObjectRunsSlotsOnTheThreadAndDiesThere()
    {
        std::atomic<QThread *> deletedIn{nullptr};
        OwnedThread thread(QStringLiteral("cohort-test-host"));
        auto *guest = new Guest(&deletedIn);
        thread.host(guest);
        thread.startEventLoop();
        QMetaObject::invokeMethod(guest, &Guest::where, Qt::QueuedConnection);
        QVERIFY(guest->ran.tryAcquire(1, 10'000));
        QThread *ranIn = guest->ranIn;
        QVERIFY(ranIn != QThread::currentThread());
        QCOMPARE(guest->ranInName, QStringLiteral("cohort-test-host"));
        QVERIFY(thread.stop(5s));
        QCOMPARE(deletedIn.load(), ranIn); // deleted in its own thread as that ended
    }

    void hostedButNeverStartedIsDeletedByStop()
    {
        std::atomic<QThread *> deletedIn{nullptr};
        OwnedThread thread(QStringLiteral("cohort-test-idle"));
        thread.host(new Guest(&deletedIn));
        QVERIFY(thread.stop(1s));
        QCOMPARE(deletedIn.load(), QThread::currentThread());
    }

    void destructorStopsARunningThread()
    {
        std::atomic<bool> sawStop{false};
        std::atomic<QThread *> deletedIn{nullptr};
        QSemaphore started;
        {
            OwnedThread function(QStringLiteral("cohort-test-dtor-fn"));
            function.run([&](const ThreadLink &link) {
                started.release();
                while (!link.stopRequested())
                    QThread::yieldCurrentThread();
                sawStop = true;
            });
            OwnedThread loop(QStringLiteral("cohort-test-dtor-loop"));
            loop.host(new Guest(&deletedIn));
            loop.startEventLoop();
            QVERIFY(started.tryAcquire(1, 10'000));
        }
        QVERIFY(sawStop);          // the function saw the request and returned before the destructor did
        QVERIFY(deletedIn.load()); // the event loop ended and its guest went with it
        QVERIFY(deletedIn.load() != QThread::currentThread());
    }

    void restartsAfterStop()
    {
        OwnedThread thread(QStringLiteral("cohort-test-again"));
        for (int i = 0; i < 2; ++i) {
            QSemaphore started;
            bool stoppedOnEntry = true;
            thread.run([&](const ThreadLink &link) {
                stoppedOnEntry = link.stopRequested(); // a new run starts unasked
                started.release();
                while (!link.stopRequested())
                    QThread::yieldCurrentThread();
            });
            QVERIFY(started.tryAcquire(1, 10'000));
            QVERIFY(!stoppedOnEntry);
            QVERIFY(thread.stop(5s));
        }
    }

    void runsAgainAfterEndingByItself()
    {
        QObject replyTo;
        OwnedThread thread(QStringLiteral("cohort-test-rerun"), &replyTo);
        int delivered = 0;
        for (int i = 0; i < 2; ++i) {
            QTRY_VERIFY(!thread.isRunning()); // the first run's own end, not a stop
            QSemaphore done;
            thread.run([&](const ThreadLink &link) {
                if (link.post([&] { ++delivered; })) // the fresh run's link reaches the owner
                    done.release();
            });
            QVERIFY(done.tryAcquire(1, 10'000));
        }
        QTRY_COMPARE(delivered, 2);
        QVERIFY(thread.stop(5s));
    }
};

QTEST_GUILESS_MAIN(TestOwnedThread)
#include "tst_owned_thread.moc"
