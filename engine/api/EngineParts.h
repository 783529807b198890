#pragma once
// The seam between EngineController (the UI's and cohortd's door into the engine) and the engine proper, which
// brings LibTorch with it. The controller only knows these interfaces; the parts that implement them are either
// linked in (cohortd, cohort-hub, tests: registerEngineParts(builtinEngineParts()) at start) or, in the desktop
// app, a module loaded after the first window is on screen (EnginePartsLoader), so LibTorch's ~0.7 s of loading
// does not delay the window.
#include "api/EngineController.h" // EngineOptions (moc needs the complete type of slot arguments)
#include "core/EarningsReport.h"
#include "core/EngineEvent.h"
#include "core/EngineSnapshot.h"
#include "core/GpuHistory.h"

#include <QObject>
#include <QString>

namespace cohort {

// The engine on its own thread. EngineController calls the slots queued and listens to the signals.
class EngineBackend : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

public Q_SLOTS:
    virtual void start() = 0;
    virtual void pause() = 0;
    virtual void resume() = 0;
    virtual void snooze(int seconds) = 0;
    virtual void pauseAfterStep() = 0;
    virtual void setGpuPaused(const QString &gpuUuid, bool paused) = 0;
    virtual void applyLiveOptions(const cohort::EngineOptions &options) = 0;
    virtual void joinTask(const QString &taskId) = 0;
    virtual void chooseTaskAutomatically() = 0;
    virtual void leaveTask() = 0;
    virtual void stop() = 0;
    virtual void failFatally(const QString &message) = 0;

Q_SIGNALS:
    void snapshotReady(const cohort::EngineSnapshot &snapshot);
    void eventOccurred(const cohort::EngineEvent &event);
    void stopped();
    void earningsReady(const cohort::EarningsReport &report, bool fromCache);
    // Once, as the engine starts, before the first snapshot with GPU readings (EngineController::gpuHistoryLoaded).
    void gpuHistoryLoaded(const QList<cohort::GpuHistoryRecord> &minutes);
};

// The embedded local network (a hub on loopback), for when no hub URL is configured.
class LocalNetwork : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    virtual void start() = 0; // asynchronous: started(url) or failed(error) follows

Q_SIGNALS:
    void started(const QString &url);
    void failed(const QString &error);
};

struct EngineParts {
    // A new engine (the caller moves it to the engine thread and owns it).
    EngineBackend *(*createEngine)(const EngineOptions &options, const QString &hubUrl, bool embeddedHub) = nullptr;
    // A local network keeping its state in `dataDir` (the caller owns it).
    LocalNetwork *(*createLocalNetwork)(const QString &dataDir) = nullptr;
};

// The parts linked into this program, if any (set once at start, before any EngineController starts).
void registerEngineParts(const EngineParts *parts);
const EngineParts *registeredEngineParts();

// The name the engine-parts module exports its EngineParts under (extern "C", returns const EngineParts *).
inline constexpr char kEnginePartsSymbol[] = "cohort_engine_parts";

} // namespace cohort
