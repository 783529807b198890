#include "FakeEngineParts.h"

#include <QMetaObject>
#include <QThread>

namespace cohort::fake {

namespace {

EngineLog g_log;
Script g_script;
QMutex g_engineMutex;
FakeEngine *g_engine = nullptr; // cleared by its destructor, under the mutex
int g_created = 0;

class FakeLocalNetwork final : public LocalNetwork {
public:
    using LocalNetwork::LocalNetwork;
    void start() override
    {
        g_log.append(QStringLiteral("local network start"));
        // Asynchronous, as the real one: the answer comes from the event loop. (Made and started on the controller's
        // thread, the test's, which is the one that writes the script.)
        const QString url = g_script.localNetworkUrl;
        const QString error = g_script.localNetworkError;
        QMetaObject::invokeMethod(
            this,
            [this, url, error] {
                if (error.isEmpty())
                    Q_EMIT started(url);
                else
                    Q_EMIT failed(error);
            },
            Qt::QueuedConnection);
    }
};

EngineBackend *createEngine(const EngineOptions &options, const QString &hubUrl, bool embedded)
{
    // Made on the controller's thread (the test's), which is the thread that writes the script.
    auto *engine = new FakeEngine(options, hubUrl, embedded, g_script);
    QMutexLocker lock(&g_engineMutex);
    g_engine = engine;
    ++g_created;
    return engine;
}

LocalNetwork *createLocalNetwork(const QString &dataDir)
{
    g_log.append(QStringLiteral("local network in ") + dataDir);
    return new FakeLocalNetwork;
}

const EngineParts g_parts{&createEngine, &createLocalNetwork};

} // namespace

void EngineLog::append(const QString &line)
{
    QMutexLocker lock(&m_mutex);
    m_lines.append(line);
}

void EngineLog::appendOptions(const EngineOptions &options)
{
    QMutexLocker lock(&m_mutex);
    m_options.append(options);
}

QStringList EngineLog::lines() const
{
    QMutexLocker lock(&m_mutex);
    return m_lines;
}

QList<EngineOptions> EngineLog::options() const
{
    QMutexLocker lock(&m_mutex);
    return m_options;
}

void EngineLog::clear()
{
    QMutexLocker lock(&m_mutex);
    m_lines.clear();
    m_options.clear();
}

FakeEngine::FakeEngine(EngineOptions options, const QString &hubUrl, bool embedded, Script script)
    : m_options(std::move(options)),
      m_script(std::move(script))
{
    g_log.append(
        QStringLiteral("create %1 %2").arg(hubUrl, embedded ? QStringLiteral("embedded") : QStringLiteral("remote")));
    g_log.appendOptions(m_options);
}

FakeEngine::~FakeEngine()
{
    {
        QMutexLocker lock(&g_engineMutex);
        if (g_engine == this)
            g_engine = nullptr;
    }
    g_log.append(QStringLiteral("destroyed on ") + QThread::currentThread()->objectName());
}

void FakeEngine::publish(const EngineSnapshot &snapshot)
{
    QMetaObject::invokeMethod(
        this, [this, snapshot] { Q_EMIT snapshotReady(snapshot); }, Qt::QueuedConnection);
}

void FakeEngine::say(const EngineEvent &event)
{
    QMetaObject::invokeMethod(
        this, [this, event] { Q_EMIT eventOccurred(event); }, Qt::QueuedConnection);
}

void FakeEngine::reportEarnings(const EarningsReport &report, bool fromCache)
{
    QMetaObject::invokeMethod(
        this, [this, report, fromCache] { Q_EMIT earningsReady(report, fromCache); }, Qt::QueuedConnection);
}

void FakeEngine::start()
{
    g_log.append(QStringLiteral("start on ") + QThread::currentThread()->objectName());
}
void FakeEngine::pause()
{
    g_log.append(QStringLiteral("pause"));
}
void FakeEngine::resume()
{
    g_log.append(QStringLiteral("resume"));
}
void FakeEngine::snooze(int seconds)
{
    g_log.append(QStringLiteral("snooze %1").arg(seconds));
}
void FakeEngine::pauseAfterStep()
{
    g_log.append(QStringLiteral("pause after step"));
}

void FakeEngine::setGpuPaused(const QString &gpuUuid, bool paused)
{
    g_log.append(
        QStringLiteral("gpu %1 %2").arg(gpuUuid, paused ? QStringLiteral("paused") : QStringLiteral("resumed")));
}

void FakeEngine::applyLiveOptions(const EngineOptions &options)
{
    m_options = options;
    g_log.append(QStringLiteral("live options"));
    g_log.appendOptions(options);
}

void FakeEngine::joinTask(const QString &taskId)
{
    g_log.append(QStringLiteral("join ") + taskId);
}
void FakeEngine::chooseTaskAutomatically()
{
    g_log.append(QStringLiteral("choose a task"));
}
void FakeEngine::leaveTask()
{
    g_log.append(QStringLiteral("leave"));
}

void FakeEngine::stop()
{
    g_log.append(QStringLiteral("stop"));
    if (m_script.engineStops)
        Q_EMIT stopped();
}

void FakeEngine::failFatally(const QString &message)
{
    g_log.append(QStringLiteral("fail: ") + message);
}

void install(const Script &s)
{
    g_script = s;
    g_log.clear();
    {
        QMutexLocker lock(&g_engineMutex);
        g_engine = nullptr;
        g_created = 0;
    }
    registerEngineParts(&g_parts);
}

EngineLog &log()
{
    return g_log;
}
Script &script()
{
    return g_script;
}

FakeEngine *currentEngine()
{
    QMutexLocker lock(&g_engineMutex);
    return g_engine;
}

int enginesCreated()
{
    QMutexLocker lock(&g_engineMutex);
    return g_created;
}

} // namespace cohort::fake
