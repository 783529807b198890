#include "api/EngineController.h"

#include "api/EngineParts.h"
#include "api/EnginePartsLoader.h"
#include "core/Logging.h"

#include <QCoreApplication>
#include <QDir>

namespace cohort {

namespace {
void registerMetaTypes()
{
    qRegisterMetaType<cohort::EngineSnapshot>();
    qRegisterMetaType<cohort::EngineEvent>();
    qRegisterMetaType<cohort::EngineOptions>();
    qRegisterMetaType<cohort::EarningsReport>();
    qRegisterMetaType<QList<cohort::GpuHistoryRecord>>();
}
} // namespace

EngineController::EngineController(EngineOptions options, QObject *parent)
    : QObject(parent),
      m_options(std::move(options))
{
    registerMetaTypes();
}

EngineController::~EngineController()
{
    shutdownThreads();
}

void EngineController::start()
{
    if (m_running)
        return;
    m_running = true;
    m_stopRequested = false;
    if (!registeredEngineParts()) {
        loadPartsThenStart();
        return;
    }
    startWithParts();
}

void EngineController::loadPartsThenStart()
{
    if (m_loader)
        return; // already on its way
    m_loader = std::make_unique<EnginePartsLoader>();
    // Most of a second on a small machine: say what is going on meanwhile.
    m_snapshot.state = NodeState::Starting;
    m_snapshot.why = QCoreApplication::translate("EngineController", "Loading the compute engine");
    ++m_snapshot.sequence;
    Q_EMIT snapshotChanged(m_snapshot);
    connect(m_loader.get(), &EnginePartsLoader::loaded, this, [this](const EngineParts *parts) {
        registerEngineParts(parts);
        if (m_running && !m_stopRequested && !m_engine && !m_embeddedHub)
            startWithParts();
    });
    connect(m_loader.get(), &EnginePartsLoader::failed, this, [this](const QString &reason) {
        qCCritical(lcEngine) << reason;
        m_loader.release()->deleteLater(); // not while it emits; a later start() tries again
        Q_EMIT eventOccurred(EngineEvent::error(EventCategory::Lifecycle, reason));
        m_snapshot.state = NodeState::Error;
        m_snapshot.why = QCoreApplication::translate("EngineController", "Cohort cannot work: %1").arg(reason);
        m_snapshot.lastError = reason;
        ++m_snapshot.sequence;
        Q_EMIT snapshotChanged(m_snapshot);
    });
    m_loader->load();
}

void EngineController::startWithParts()
{
    const EngineParts *parts = registeredEngineParts();
    if (!m_options.hubUrl.isEmpty()) {
        startEngine(m_options.hubUrl, false);
        return;
    }
    m_embeddedHub.reset(parts->createLocalNetwork(QDir(m_options.dataDir).filePath(QStringLiteral("hub"))));
    connect(m_embeddedHub.get(), &LocalNetwork::started, this, [this](const QString &url) {
        m_embeddedUrl = url;
        Q_EMIT eventOccurred(
            EngineEvent::info(EventCategory::Hub, QStringLiteral("Local network started at %1").arg(url)));
        startEngine(url, true);
    });
    connect(m_embeddedHub.get(), &LocalNetwork::failed, this, [this](const QString &error) {
        // Without a hub the engine still starts, so the user sees the reason in the usual places.
        startEngine(QString(), true);
        if (m_engine)
            QMetaObject::invokeMethod(
                m_engine, "failFatally", Qt::QueuedConnection,
                Q_ARG(QString, QStringLiteral("The local network could not start: %1").arg(error)));
    });
    m_embeddedHub->start();
}

void EngineController::startEngine(const QString &hubUrl, bool embedded)
{
    if (m_stopRequested)
        return;
    EngineBackend *engine = registeredEngineParts()->createEngine(m_options, hubUrl, embedded);
    m_engineThread.host(engine); // deleted in its thread as that ends
    m_engine = engine;
    connect(engine, &EngineBackend::snapshotReady, this, &EngineController::onEngineSnapshot, Qt::QueuedConnection);
    connect(engine, &EngineBackend::eventOccurred, this, &EngineController::eventOccurred, Qt::QueuedConnection);
    connect(engine, &EngineBackend::earningsReady, this, &EngineController::earningsChanged, Qt::QueuedConnection);
    connect(engine, &EngineBackend::gpuHistoryLoaded, this, &EngineController::gpuHistoryLoaded, Qt::QueuedConnection);
    connect(
        engine, &EngineBackend::stopped, this,
        [this] {
            shutdownThreads();
            m_running = false;
            if (m_restarting) {
                m_restarting = false; // a restart is not a stop: nobody outside needs to hear about it
                start();
                return;
            }
            Q_EMIT stopped();
        },
        Qt::QueuedConnection);
    m_engineThread.startEventLoop();
    if (hubUrl.isEmpty())
        return; // failFatally() follows from the caller
    QMetaObject::invokeMethod(engine, &EngineBackend::start, Qt::QueuedConnection);
    if (m_pendingPause)
        QMetaObject::invokeMethod(engine, &EngineBackend::pause, Qt::QueuedConnection);
}

void EngineController::onEngineSnapshot(const EngineSnapshot &snapshot)
{
    m_snapshot = snapshot;
    Q_EMIT snapshotChanged(m_snapshot);
}

void EngineController::pause()
{
    m_pendingPause = true; // survives a restart of the engine (reconfigure)
    if (m_engine)
        QMetaObject::invokeMethod(m_engine, &EngineBackend::pause, Qt::QueuedConnection);
}

void EngineController::resume()
{
    m_pendingPause = false;
    if (m_engine)
        QMetaObject::invokeMethod(m_engine, &EngineBackend::resume, Qt::QueuedConnection);
}

void EngineController::togglePause()
{
    if (m_snapshot.userPaused() || (m_pendingPause && !m_engine))
        resume();
    else
        pause();
}

void EngineController::snooze(int seconds)
{
    if (m_engine)
        QMetaObject::invokeMethod(
            m_engine, [engine = m_engine, seconds] { engine->snooze(seconds); }, Qt::QueuedConnection);
}

void EngineController::pauseAfterStep()
{
    if (m_engine)
        QMetaObject::invokeMethod(m_engine, &EngineBackend::pauseAfterStep, Qt::QueuedConnection);
}

void EngineController::setGpuPaused(const QString &gpuUuid, bool paused)
{
    if (m_engine)
        QMetaObject::invokeMethod(
            m_engine, [engine = m_engine, gpuUuid, paused] { engine->setGpuPaused(gpuUuid, paused); },
            Qt::QueuedConnection);
}

void EngineController::joinTask(const QString &taskId)
{
    m_options.taskId = taskId;
    if (m_engine)
        QMetaObject::invokeMethod(
            m_engine, [engine = m_engine, taskId] { engine->joinTask(taskId); }, Qt::QueuedConnection);
}

void EngineController::chooseTaskAutomatically()
{
    m_options.chooseTaskAutomatically = true; // an engine not created yet (module still loading) gets it too
    if (m_engine)
        QMetaObject::invokeMethod(m_engine, &EngineBackend::chooseTaskAutomatically, Qt::QueuedConnection);
}

void EngineController::leaveTask()
{
    m_options.taskId.clear();
    m_options.chooseTaskAutomatically = false; // left on purpose: a restart (settings changed) must not join again
    if (m_engine)
        QMetaObject::invokeMethod(m_engine, &EngineBackend::leaveTask, Qt::QueuedConnection);
}

void EngineController::stop()
{
    if (!m_running) {
        Q_EMIT stopped();
        return;
    }
    m_stopRequested = true;
    m_restarting = false;
    if (m_engine)
        QMetaObject::invokeMethod(m_engine, &EngineBackend::stop, Qt::QueuedConnection);
    else {
        shutdownThreads(); // the embedded hub was still starting
        m_running = false;
        Q_EMIT stopped();
    }
}

void EngineController::reconfigure(const EngineOptions &options)
{
    EngineOptions next = options;
    next.taskId = m_options.taskId; // keep the joined task, or the wish for one, across a restart
    next.chooseTaskAutomatically = next.chooseTaskAutomatically || m_options.chooseTaskAutomatically;
    if (next == m_options)
        return;
    // Only what the running engine takes as it is changed (schedule, upload cap, payout address, the GPUs and
    // their memory shares): no restart.
    EngineOptions sameLive = next;
    sameLive.scheduler = m_options.scheduler;
    sameLive.maxUploadBytesPerSecond = m_options.maxUploadBytesPerSecond;
    sameLive.payoutAddress = m_options.payoutAddress;
    sameLive.gpuMemoryPercent = m_options.gpuMemoryPercent;
    sameLive.gpuMemoryPercentPerGpu = m_options.gpuMemoryPercentPerGpu;
    sameLive.gpuUuids = m_options.gpuUuids;
    if (sameLive == m_options) {
        m_options = next;
        if (m_engine)
            QMetaObject::invokeMethod(
                m_engine, [engine = m_engine, next] { engine->applyLiveOptions(next); }, Qt::QueuedConnection);
        return;
    }
    m_options = next;
    if (!m_running)
        return;
    Q_EMIT eventOccurred(
        EngineEvent::info(EventCategory::Settings, QStringLiteral("Settings changed; restarting the engine")));
    // Restart: stop the old engine (it says goodbye to its hub), then start with the new options.
    if (!m_engine) {
        shutdownThreads(); // the embedded hub was still starting
        m_running = false;
        start();
        return;
    }
    m_restarting = true;
    QMetaObject::invokeMethod(m_engine, &EngineBackend::stop, Qt::QueuedConnection);
}

void EngineController::shutdownThreads()
{
    // The engine is deleted as its thread ends, and its destructor stops its own threads, each with a bound: the
    // DiLoCo thread 30 s (an average in flight), the compute thread 30 s (a policy load cannot be interrupted). The
    // bound covers both with room to spare, so that a restart never runs a second engine beside one still ending;
    // an engine stuck past it is let go and logged (cohort.threads).
    constexpr std::chrono::seconds kStopBound{65};
    m_engineThread.stop(kStopBound);
    m_engine = nullptr;
    m_embeddedHub.reset();
    m_embeddedUrl.clear();
}

} // namespace cohort
