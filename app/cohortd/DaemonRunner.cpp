#include "DaemonRunner.h"

#include "node/StatusLine.h"
#include "platform/Console.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonDocument>
#include <limits>

namespace cohort {

DaemonRunner::DaemonRunner(Options options, ConsoleOutput &console, QObject *parent)
    : QObject(parent),
      m_options(std::move(options)),
      m_console(console),
      m_controller(m_options.engine)
{
    m_terminal = !m_options.json && stdoutIsTerminal();
    m_statusTimer.setInterval(1000);
    connect(&m_statusTimer, &QTimer::timeout, this, &DaemonRunner::printStatus);
    connect(&m_controller, &EngineController::eventOccurred, this,
            [this](const EngineEvent &e) { m_console.event(e); });
    connect(&m_controller, &EngineController::stopped, this, &DaemonRunner::finish);
}

void DaemonRunner::start()
{
    m_clock.start();
    m_controller.start();
    if (m_options.controlApi) {
        m_control = std::make_unique<ControlServer>(m_controller, m_options.engine.dataDir);
        if (Status started = m_control->start(m_options.controlPort, m_options.controlToken); !started) {
            m_console.note(QStringLiteral("%1 (continuing without it)").arg(started.error()));
            m_control.reset();
        }
    }
    m_statusTimer.start();
    if (m_options.durationSeconds > 0)
        QTimer::singleShot(m_options.durationSeconds * 1000, this,
                           [this] { requestStop(QStringLiteral("ran for %1 s").arg(m_options.durationSeconds)); });
}

void DaemonRunner::requestStop(const QString &why)
{
    if (m_stopping)
        return;
    m_stopping = true;
    m_console.note(QStringLiteral("stopping (%1)").arg(why));
    m_controller.stop();
    // A hung engine must not keep the process alive.
    QTimer::singleShot(15'000, this, [this] {
        m_console.note(QStringLiteral("the engine did not stop within 15 s; exiting"));
        m_console.finish();
        QCoreApplication::exit(3);
    });
}

void DaemonRunner::applySettings(const Expected<EngineOptions> &rebuilt, const Settings::Changes &changes)
{
    if (m_stopping)
        return;
    const QString names = Settings::changeNames(changes);
    if (!rebuilt) {
        m_console.note(QStringLiteral("settings file changed (%1) but cannot be used: %2; keeping the current settings")
                           .arg(names, rebuilt.error()));
        return;
    }
    EngineOptions options = rebuilt.value();
    if (options.dataDir != m_options.engine.dataDir) {
        m_console.note(QStringLiteral("the data folder changes at the next start of cohortd (now %1)")
                           .arg(QDir::toNativeSeparators(m_options.engine.dataDir)));
        options.dataDir = m_options.engine.dataDir;
    }
    m_console.note(QStringLiteral("settings file changed (%1); applied").arg(names));
    m_options.engine = options;
    m_controller.reconfigure(options);
}

void DaemonRunner::printStatus()
{
    m_console.tick();
    const EngineSnapshot &s = m_controller.snapshot();
    if (s.sequence == 0)
        return; // nothing from the engine yet
    const qint64 elapsed = m_clock.elapsed() / 1000;
    if (m_options.json) {
        QJsonObject line = s.toJson();
        line.insert(QStringLiteral("elapsed_s"), elapsed);
        m_console.jsonLine(QJsonDocument(line).toJson(QJsonDocument::Compact));
    } else if (m_terminal) {
        m_console.status(statusLine(s, elapsed));
    } else {
        // In a journal or a pipe: a line when the state or its reason changes (at most every 5 s, so a flapping
        // state cannot flood it), otherwise once a minute. The reason's words are not compared: "retrying in 9 s"
        // changes every second.
        const QString key = nodeStateName(s.state) + QLatin1Char('/') + pauseReasonName(s.reason);
        const qint64 since = m_lastPrintedAt < 0 ? std::numeric_limits<qint64>::max() : elapsed - m_lastPrintedAt;
        if (!((key != m_lastPrintedState && since >= 5) || since >= 60))
            return;
        m_lastPrintedState = key;
        m_lastPrintedAt = elapsed;
        m_console.status(statusLine(s, elapsed));
    }
}

void DaemonRunner::finish()
{
    m_statusTimer.stop();
    m_lastPrintedAt = -1; // the final state is always printed
    printStatus();
    m_console.finish();
    // Success means the engine ran without a fatal error and reached its hub at least once.
    const EngineSnapshot &s = m_controller.snapshot();
    const bool failed = s.state == NodeState::Error || (!s.lastError.isEmpty() && !s.registeredAt.isValid());
    QCoreApplication::exit(failed ? 1 : 0);
}

} // namespace cohort
