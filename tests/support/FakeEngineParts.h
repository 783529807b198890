#pragma once
// A scriptable engine behind the EngineParts seam (api/EngineParts.h), so that tests of the engine controller and of
// the window bound to it (tst_engine_controller, tst_window_binding) run without LibTorch or a hub. Register it with
// fake::install() before an EngineController starts; every engine it creates then records the calls it gets (on the
// engine thread) in one log the test reads, and the test makes the current engine say things (snapshots, events,
// earnings) as the real one would, through the same queued signals.
#include "api/EngineParts.h"

#include <QMutex>
#include <QStringList>

namespace cohort::fake {

// What the fakes were asked, in order, across every engine they made. Safe to read from any thread.
class EngineLog {
public:
    void append(const QString &line);
    void appendOptions(const EngineOptions &options); // what an engine was created with, or given live
    QStringList lines() const;
    QList<EngineOptions> options() const;
    int count(const QString &line) const { return int(lines().count(line)); }
    void clear();

private:
    mutable QMutex m_mutex;
    QStringList m_lines;
    QList<EngineOptions> m_options;
};

// How the fakes behave; set before the controller starts.
struct Script {
    // The embedded local network: it starts at this URL, or fails with localNetworkError when that is not empty.
    QString localNetworkUrl = QStringLiteral("http://127.0.0.1:7777");
    QString localNetworkError;
    // The engine answers stop() with stopped() (a real engine says goodbye to its hub first); false: it hangs.
    bool engineStops = true;
};

class FakeEngine final : public EngineBackend {
    Q_OBJECT
public:
    FakeEngine(EngineOptions options, const QString &hubUrl, bool embedded, Script script);
    ~FakeEngine() override;

    // Called from the test's thread: queued to the engine's thread and emitted from there, as the real engine does.
    void publish(const EngineSnapshot &snapshot);
    void say(const EngineEvent &event);
    void reportEarnings(const EarningsReport &report, bool fromCache);

public Q_SLOTS:
    void start() override;
    void pause() override;
    void resume() override;
    void snooze(int seconds) override;
    void pauseAfterStep() override;
    void setGpuPaused(const QString &gpuUuid, bool paused) override;
    void applyLiveOptions(const cohort::EngineOptions &options) override;
    void joinTask(const QString &taskId) override;
    void chooseTaskAutomatically() override;
    void leaveTask() override;
    void stop() override;
    void failFatally(const QString &message) override;

private:
    // Read and written on the engine's thread only; what the test reads goes through the log.
    EngineOptions m_options;
    const Script m_script; // the script as it was when the engine was made: the test thread may change its own
};

// Installs the fakes as this process's engine parts with `script` and an empty log (idempotent).
void install(const Script &script = {});
EngineLog &log();
Script &script(); // for the engines and local networks made from now on; change it on the test's thread only
// The engine created last while it exists, else null. Its publish(), say() and reportEarnings() may be called from
// the test's thread as long as the test knows it still exists (e.g. before it asks the controller to stop).
FakeEngine *currentEngine();
// How many engines the fakes have created since install().
int enginesCreated();

} // namespace cohort::fake
