#pragma once
// Wires an EngineController to the terminal (through ConsoleOutput): progress line or JSON lines, events on
// stderr, --duration, clean shutdown on SIGINT/SIGTERM, and settings-file edits applied while running.
#include "ConsoleOutput.h"
#include "api/EngineController.h"
#include "core/Expected.h"
#include "node/ControlApi.h"
#include "settings/Settings.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <memory>

namespace cohort {

class DaemonRunner : public QObject {
    Q_OBJECT
public:
    struct Options {
        EngineOptions engine;
        int durationSeconds = 0; // 0: until a signal
        bool json = false;
        bool controlApi = true;  // the local control API on 127.0.0.1 (token in <data>/control.json)
        quint16 controlPort = 0; // 0: any free port
        QByteArray controlToken; // --control-token-file; empty: a random one each start
    };
    DaemonRunner(Options options, ConsoleOutput &console, QObject *parent = nullptr);
    void start();
    void requestStop(const QString &why);
    // The settings file changed (`keys`): apply the rebuilt options to the running engine (a restart of it only where
    // EngineController::reconfigure needs one). The data folder stays the one cohortd started with.
    void applySettings(const Expected<EngineOptions> &options, const Settings::Changes &changes);

private:
    void printStatus();
    void finish();

    Options m_options;
    ConsoleOutput &m_console;
    EngineController m_controller;
    std::unique_ptr<ControlServer> m_control;
    QTimer m_statusTimer;
    QElapsedTimer m_clock;
    bool m_terminal = false;
    bool m_stopping = false;
    QString m_lastPrintedState; // without a terminal: the state and reason last printed, and when
    qint64 m_lastPrintedAt = -1;
};

} // namespace cohort
