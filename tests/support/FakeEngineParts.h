#pragma once
// A scriptable engine behind the EngineParts seam (api/EngineParts.h), so that tests of the engine controller, the
// desktop app and the tray run in milliseconds and without LibTorch. Register it with fake::install() before an
// EngineController starts; every engine it creates then records the calls it gets (on the engine thread) in one log the
// test reads, and the test makes the current engine say things (snapshots, events, earnings) as the real one would,
// through the same queued signals.
#include "api/EngineParts.h"

#include <QMutex>
#include <QPointer>
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
    FakeEngine(EngineOptions options, QString hubUrl, bool embedded);
    ~FakeEngine() override;

    const EngineOptions &options() const { return m_options; }
    QString hubUrl() const { return m_hubUrl; }
    bool embedded() const { return m_embedded; }

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
    EngineOptions m_options;
    QString m_hubUrl;
    bool m_embedded;
};

// Installs the fakes as this process's engine parts with `script` and an empty log (idempotent).
void install(const Script &script = {});
EngineLog &log();
Script &script();
// The engine created last (null before the first; it may already be deleted: a QPointer).
QPointer<FakeEngine> currentEngine();
// How many engines the fakes have created since install().
int enginesCreated();

} // namespace cohort::fake
