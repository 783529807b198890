#pragma once
// One way to own a thread (docs/THREADS.md lists them all). An OwnedThread is a named QThread that its owner starts
// and stops: it runs one function, or an event loop for QObjects handed to it. Stopping is always bounded: the owner
// asks (a stop flag and interruption for a function, quit() for an event loop), waits at most the bound it gives,
// and hears whether the thread ended. A thread that outlives the bound is logged (cohort.threads) and let go: it
// finishes on its own, and whatever it still says to its owner through its ThreadLink goes nowhere — a stuck
// thread costs a warning and the work it was doing, never a hung owner.
//
//   OwnedThread m_thread{QStringLiteral("cohort-example"), this};   // a member: `this` outlives it
//   m_thread.run([](const ThreadLink &link) {
//       while (!link.stopRequested()) { ... }
//       link.post([] { /* back in the owner's thread, owner alive */ });
//   });
//   m_thread.stop(std::chrono::seconds(5));                          // false: it did not stop in 5 s
#include <QMutex>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThread>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>

namespace cohort {

// What code on an OwnedThread holds of its owner: the stop request and a way back. Copyable; it shares its state
// with the OwnedThread, so it stays valid after the owner let go of a thread that did not stop in time.
class ThreadLink {
public:
    bool stopRequested() const { return m_state->stop.load(std::memory_order_acquire); }
    // The same request as an atomic, for code that polls one (solveRegistrationWork, the DiLoCo replay).
    const std::atomic<bool> &stopFlag() const { return m_state->stop; }
    // Queues `f` to run in the thread of the OwnedThread's `replyTo` object. False, and `f` dropped, when there is
    // none or the owner has let go of this thread (it did not stop within its bound, or the owner is gone): the
    // thread then reports to no one and must clean up after itself.
    bool post(std::function<void()> f) const;

private:
    friend class OwnedThread;
    struct State {
        std::atomic<bool> stop{false};
        QMutex mutex;               // guards replyTo against the owner letting go while the thread posts
        QObject *replyTo = nullptr; // null once let go
    };
    explicit ThreadLink(std::shared_ptr<State> state)
        : m_state(std::move(state))
    {}
    std::shared_ptr<State> m_state;
};

class OwnedThread {
public:
    using Bound = std::chrono::milliseconds;
    // The destructor's bound, for an owner that did not stop the thread itself: long enough for any code that
    // looks at its stop request now and then, short enough that quitting never looks like a hang.
    static constexpr Bound kDefaultStopBound{10'000};

    // `name` is the thread's objectName (debuggers; the OS thread name in `top -H`, cut to 15 characters on Linux).
    // `replyTo`, if any, is where ThreadLink::post delivers; it must outlive this object (make this its member).
    explicit OwnedThread(QString name, QObject *replyTo = nullptr);
    ~OwnedThread(); // stop(kDefaultStopBound): never an unbounded wait
    OwnedThread(const OwnedThread &) = delete;
    OwnedThread &operator=(const OwnedThread &) = delete;

    // Starts the thread running `work`; the thread ends when it returns. `work` should look at
    // link.stopRequested() (or link.stopFlag()) often enough to end within its owner's bound. This and
    // startEventLoop() are refused, with a warning, while the thread runs: one run at a time, stop() first.
    void run(std::function<void(const ThreadLink &link)> work, QThread::Priority priority = QThread::InheritPriority);
    // Starts the thread's event loop, for objects handed over with host() (before or after).
    void startEventLoop(QThread::Priority priority = QThread::InheritPriority);
    // Moves `object` (it must have no parent) to this thread and takes it: it is deleted in the thread as the thread
    // ends (sockets, timers and database connections must die where they were used), or by stop() if it never ran.
    void host(QObject *object);

    const QString &name() const { return m_name; }
    bool isRunning() const;
    // The link of the current (or next) run, e.g. for jobs queued to a hosted object.
    ThreadLink link() const { return ThreadLink(m_state); }

    // Asks without waiting: sets the stop flag, requests interruption and quits the event loop.
    void requestStop();
    // Asks, then waits at most `bound`. True when the thread ended (or never ran); false after a warning naming the
    // thread when it still runs: it is then let go, and run()/startEventLoop() start a fresh one.
    bool stop(Bound bound);
    // Waits at most `bound` for the thread to end, without asking it to and without letting go: for an owner that
    // asked already (requestStop) and can wait again later. True when it ended (or never ran).
    bool waitFor(Bound bound) const;

private:
    QThread &thread();
    bool mayStart();
    void start(std::function<void()> body, QThread::Priority priority);
    void letGo();

    QString m_name;
    QObject *m_replyTo;
    std::shared_ptr<ThreadLink::State> m_state;
    std::unique_ptr<QThread> m_thread;           // created on demand; released (not deleted) when let go
    QList<QPointer<QObject>> m_guestsNotStarted; // hosted before the thread ran: stop() deletes them if it never does
};

} // namespace cohort
