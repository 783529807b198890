#pragma once
// The only door into the engine for the UI and for cohortd. It owns the engine thread ("cohort-engine")
// and, when no hub URL is given, the embedded local hub. It creates them through EngineParts: the ones linked in, or
// (desktop app) the engine module, which start() loads in the background first. Commands are queued calls into the
// engine thread; snapshots (<= 4 per second) and events come back as queued signals. Never blocks the caller's thread.
#include "core/EarningsReport.h"
#include "core/EngineEvent.h"
#include "core/EngineSnapshot.h"
#include "core/GpuHistory.h"
#include "core/OwnedThread.h"
#include "core/Scheduler.h"

#include <QMap>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <memory>

namespace cohort {

class EngineBackend;
class EnginePartsLoader;
class LocalNetwork;

struct EngineOptions {
    QString dataDir{}; // required: identity/, hub/ (embedded) and later checkpoints live here
    QString hubUrl{};  // empty: start the embedded local network
    QString nodeName{};
    QString taskId{};                     // join this task once registered (cohortd --task)
    int heartbeatIntervalMs = 0;          // 0: what the hub asks for (default 10 s)
    qint64 maxDownloadBytesPerSecond = 0; // checkpoint downloads; 0: unlimited
    SchedulerPolicy scheduler{};          // when to work (settings); the user's pause is not part of it
    // The fields below apply to a running engine without a restart (reconfigure), like the scheduler.
    QStringList gpuUuids{};    // the GPUs compute may use, a worker each (NVML UUIDs, settings); empty: all
    int gpuMemoryPercent = 90; // share of each GPU's memory generation may use (core/MemoryBudget)
    QMap<QString, int> gpuMemoryPercentPerGpu{}; // a share of its own for some GPUs (by UUID), over gpuMemoryPercent
    qint64 maxUploadBytesPerSecond = 0;          // DiLoCo traffic to peers (collectives); 0: unlimited
    QString payoutAddress{};      // sent to the hub with the registration and every heartbeat; empty: none
    QString hubCertificateFile{}; // PEM: trusted for an https hub besides the system's CAs (net/Tls); empty: none
    // The hub's ed25519 public key, given by its operator (settings, cohortd --hub-key): registration trusts only it
    // and refuses any other, and its answers must carry its signature from the first one. Empty: trust on first use.
    QByteArray hubKey{};
    // With no task named or remembered: join the first of the hub's tasks this computer can run, once (cohortd
    // --task auto; the desktop app after the welcome's "Start"). A task the user leaves stays left. Build options
    // with designated initialisers (EngineOptions{.dataDir = …}): a field added anywhere then breaks nothing.
    bool chooseTaskAutomatically = false;
    bool operator==(const EngineOptions &) const = default;
};

class EngineController : public QObject {
    Q_OBJECT
public:
    explicit EngineController(EngineOptions options, QObject *parent = nullptr);
    ~EngineController() override; // stops the engine and waits for its thread (bounded)

    const EngineOptions &options() const { return m_options; }
    const EngineSnapshot &snapshot() const { return m_snapshot; } // the latest one received
    bool isRunning() const { return m_running; }
    QString embeddedHubUrl() const { return m_embeddedUrl; }

public Q_SLOTS:
    void start();
    void pause();
    void resume();
    void togglePause();
    void snooze(int seconds); // pause for a while (0: end the snooze)
    void pauseAfterStep();    // pause at the next safe point (the batch in hand finished and saved)
    // Pauses or resumes the worker on one GPU (NVML UUID); the others keep working. Survives a restart.
    void setGpuPaused(const QString &gpuUuid, bool paused);
    void joinTask(const QString &taskId);
    void chooseTaskAutomatically(); // see EngineOptions::chooseTaskAutomatically
    void leaveTask();
    // Restarts the engine with new options (e.g. the hub URL changed in settings). No-op if unchanged. Changes of
    // only the scheduler, the upload cap, the payout address, the GPUs and their memory shares reach the running
    // engine without a restart.
    // A restart does not emit stopped().
    void reconfigure(const cohort::EngineOptions &options);
    // Asks the engine to stop cleanly; stopped() follows.
    void stop();

Q_SIGNALS:
    void snapshotChanged(const cohort::EngineSnapshot &snapshot);
    void eventOccurred(const cohort::EngineEvent &event);
    // The hub ledger's report for this node: fetched after accepted work and every minute (fromCache false);
    // at start, the copy saved on disk (fromCache true), so figures show before the hub answers or while it is down.
    void earningsChanged(const cohort::EarningsReport &report, bool fromCache);
    // The GPU minutes earlier runs stored for the last day, read by the engine as it starts (each start, also after a
    // restart), before its first snapshot with GPU readings: the views' hour and day charts begin with them. The
    // views never open the engine's database themselves; the energy those minutes add up to is in the snapshot.
    void gpuHistoryLoaded(const QList<cohort::GpuHistoryRecord> &minutes);
    void stopped();

private:
    void loadPartsThenStart();
    void startWithParts();
    void startEngine(const QString &hubUrl, bool embedded);
    void shutdownThreads();
    void onEngineSnapshot(const cohort::EngineSnapshot &snapshot);

    EngineOptions m_options;
    EngineSnapshot m_snapshot;
    OwnedThread m_engineThread{QStringLiteral("cohort-engine")};
    QPointer<EngineBackend> m_engine;
    std::unique_ptr<LocalNetwork> m_embeddedHub;
    std::unique_ptr<EnginePartsLoader> m_loader; // only where the engine is a module loaded at run time
    QString m_embeddedUrl;
    bool m_running = false;
    bool m_stopRequested = false;
    bool m_pendingPause = false;
    bool m_restarting = false;
};

} // namespace cohort

Q_DECLARE_METATYPE(cohort::EngineOptions)
