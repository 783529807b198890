#include "core/OwnedThread.h"

#include <QDeadlineTimer>
#include <QLoggingCategory>
#include <QMutexLocker>

namespace cohort {

namespace {
// Its own category, beside core/Logging.h's subsystem ones: a thread that did not stop is news whichever
// subsystem owns it ("cohort.threads").
Q_LOGGING_CATEGORY(lcThreads, "cohort.threads", QtInfoMsg)

// A QThread that runs the owner's function, or its event loop when there is none (QThread::run's default).
class Runner : public QThread {
public:
    std::function<void()> body;

protected:
    void run() override
    {
        if (body)
            body();
        else
            exec();
    }
};
} // namespace

bool ThreadLink::post(std::function<void()> f) const
{
    // Under the mutex: the owner cannot let go (and then die) between the check and the post. Once posted, a
    // replyTo destroyed before the call runs takes the queued call with it.
    QMutexLocker lock(&m_state->mutex);
    if (!m_state->replyTo)
        return false;
    return QMetaObject::invokeMethod(m_state->replyTo, std::move(f), Qt::QueuedConnection);
}

OwnedThread::OwnedThread(QString name, QObject *replyTo)
    : m_name(std::move(name)),
      m_replyTo(replyTo),
      m_state(std::make_shared<ThreadLink::State>())
{
    m_state->replyTo = m_replyTo;
}

OwnedThread::~OwnedThread()
{
    stop(kDefaultStopBound);
}

QThread &OwnedThread::thread()
{
    // A run that ended by itself leaves its QThread behind: the next run, or object, gets a fresh one (and a fresh
    // link), never one that may still be finishing.
    if (m_thread && m_thread->isFinished())
        stop(kDefaultStopBound);
    if (!m_thread) {
        m_thread = std::make_unique<Runner>();
        m_thread->setObjectName(m_name); // Qt names the OS thread after it when it starts
    }
    return *m_thread;
}

bool OwnedThread::isRunning() const
{
    return m_thread && m_thread->isRunning();
}

void OwnedThread::run(std::function<void(const ThreadLink &)> work, QThread::Priority priority)
{
    if (!mayStart())
        return;
    start([work = std::move(work), link = link()] { work(link); }, priority);
}

void OwnedThread::startEventLoop(QThread::Priority priority)
{
    if (mayStart())
        start({}, priority);
}

bool OwnedThread::mayStart()
{
    if (isRunning()) { // a new run would need the old one gone: the owner stops it first
        qCWarning(lcThreads).noquote() << "thread" << m_name << "asked to start while it runs; ignored";
        return false;
    }
    if (m_state->stop.load()) // asked to stop (requestStop) since the last start: this run starts unasked
        letGo();
    thread(); // before the caller takes link(): it may renew the link
    return true;
}

void OwnedThread::start(std::function<void()> body, QThread::Priority priority)
{
    static_cast<Runner &>(*m_thread).body = std::move(body);
    m_guestsNotStarted.clear(); // they run now: the thread deletes them as it ends
    m_thread->start(priority);
}

void OwnedThread::host(QObject *object)
{
    Q_ASSERT(object && !object->parent()); // a parent would delete it from the wrong thread
    QThread &t = thread();
    object->moveToThread(&t);
    // In the thread, as it ends (QThread sends the deferred deletes of its objects before it finishes).
    QObject::connect(&t, &QThread::finished, object, &QObject::deleteLater);
    if (!t.isRunning())
        m_guestsNotStarted.append(object);
}

void OwnedThread::requestStop()
{
    m_state->stop.store(true, std::memory_order_release);
    if (m_thread) {
        m_thread->requestInterruption(); // for code that asks QThread::isInterruptionRequested()
        m_thread->quit();                // the event loop, if any; a quit before exec() still counts
    }
}

bool OwnedThread::stop(Bound bound)
{
    requestStop();
    bool ended = true;
    if (m_thread) {
        ended = m_thread->wait(QDeadlineTimer(bound));
        if (ended) {
            for (const QPointer<QObject> &guest : std::as_const(m_guestsNotStarted))
                delete guest.data(); // never ran: nothing of theirs lives in a thread
            m_guestsNotStarted.clear();
            m_thread.reset();
        } else {
            qCWarning(lcThreads).noquote().nospace() << "thread " << m_name << " did not stop within " << bound.count()
                                                     << " ms; it is left to finish on its own";
            // Deleting a QThread that runs aborts the program, and deleting it once it says "finished" would wait
            // for the rest of its clean-up: the QThread object (not the OS thread, which is detached) is leaked,
            // the price of never blocking the owner.
            (void)m_thread.release();
        }
    }
    letGo();
    return ended;
}

bool OwnedThread::waitFor(Bound bound) const
{
    return !m_thread || m_thread->wait(QDeadlineTimer(bound));
}

// Ends the current run's link (its posts go nowhere from now on) and makes a fresh one for the next run.
void OwnedThread::letGo()
{
    {
        QMutexLocker lock(&m_state->mutex);
        m_state->replyTo = nullptr; // what the old run still posts goes nowhere
    }
    m_state = std::make_shared<ThreadLink::State>();
    m_state->replyTo = m_replyTo;
}

} // namespace cohort
