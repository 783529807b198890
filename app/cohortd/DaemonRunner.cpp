#include "DaemonRunner.h"

#include "node/StatusLine.h"
#include "platform/Console.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonDocument>
#include <cstdio>

namespace cohort {

DaemonRunner::DaemonRunner(Options options, QObject *parent)
    : QObject(parent), m_options(std::move(options)), m_controller(m_options.engine)
{
    m_terminal = !m_options.json && stdoutIsTerminal();
    m_statusTimer.setInterval(1000);
    connect(&m_statusTimer, &QTimer::timeout, this, &DaemonRunner::printStatus);
    connect(&m_controller, &EngineController::eventOccurred, this, [this](const EngineEvent &e) {
        const QByteArray text = e.time.toLocalTime().toString(QStringLiteral("HH:mm:ss")).toUtf8() + ' ' +
                                EngineEvent::severityName(e.severity).toUtf8() + ' ' + e.category.toUtf8() + ": " +
                                e.message.toUtf8();
        if (m_terminal)
            std::fputs("\r\033[K", stdout); // clear the progress line so the event stands on its own
        std::fflush(stdout);
        std::fprintf(stderr, "%s\n", text.constData());
        std::fflush(stderr);
    });
    connect(&m_controller, &EngineController::stopped, this, &DaemonRunner::finish);
}

void DaemonRunner::start()
{
    m_clock.start();
    m_controller.start();
    if (m_options.controlApi) {
        m_control = std::make_unique<ControlServer>(m_controller, m_options.engine.dataDir);
        if (Status started = m_control->start(m_options.controlPort); !started) {
            std::fprintf(stderr, "cohortd: %s (continuing without it)\n", qPrintable(started.error()));
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
    std::fprintf(stderr, "%scohortd: stopping (%s)\n", m_terminal ? "\n" : "", qPrintable(why));
    std::fflush(stderr);
    m_controller.stop();
    // A hung engine must not keep the process alive.
    QTimer::singleShot(15'000, this, [] {
        std::fprintf(stderr, "cohortd: the engine did not stop within 15 s; exiting\n");
        QCoreApplication::exit(3);
    });
}

void DaemonRunner::applySettings(const Expected<EngineOptions> &rebuilt, const QStringList &keys)
{
    if (m_stopping)
        return;
    const QByteArray names = keys.join(QStringLiteral(", ")).toUtf8();
    if (!rebuilt) {
        std::fprintf(stderr, "cohortd: settings file changed (%s) but cannot be used: %s; keeping the current settings\n",
                     names.constData(), qPrintable(rebuilt.error()));
        std::fflush(stderr);
        return;
    }
    EngineOptions options = rebuilt.value();
    if (options.dataDir != m_options.engine.dataDir) {
        std::fprintf(stderr, "cohortd: the data folder changes at the next start of cohortd (now %s)\n",
                     qPrintable(QDir::toNativeSeparators(m_options.engine.dataDir)));
        options.dataDir = m_options.engine.dataDir;
    }
    std::fprintf(stderr, "cohortd: settings file changed (%s); applied\n", names.constData());
    std::fflush(stderr);
    m_options.engine = options;
    m_controller.reconfigure(options);
}

void DaemonRunner::printStatus()
{
    const EngineSnapshot &s = m_controller.snapshot();
    if (s.sequence == 0)
        return; // nothing from the engine yet
    const qint64 elapsed = m_clock.elapsed() / 1000;
    if (m_options.json) {
        QJsonObject line = s.toJson();
        line.insert(QStringLiteral("elapsed_s"), elapsed);
        std::fprintf(stdout, "%s\n", QJsonDocument(line).toJson(QJsonDocument::Compact).constData());
    } else if (m_terminal) {
        std::fprintf(stdout, "\r\033[K%s", qPrintable(statusLine(s, elapsed)));
    } else {
        // In a log file: a line when the state changes, otherwise every 10 s.
        const QString key = nodeStateName(s.state) + s.why;
        if (key == m_lastPrintedState && elapsed - m_lastPrintedAt < 10)
            return;
        m_lastPrintedState = key;
        m_lastPrintedAt = elapsed;
        std::fprintf(stdout, "%s\n", qPrintable(statusLine(s, elapsed)));
    }
    std::fflush(stdout);
}

void DaemonRunner::finish()
{
    m_statusTimer.stop();
    printStatus();
    if (m_terminal)
        std::fputs("\n", stdout);
    std::fflush(stdout);
    // Success means the engine ran without a fatal error and reached its hub at least once.
    const EngineSnapshot &s = m_controller.snapshot();
    const bool failed = s.state == NodeState::Error || (!s.lastError.isEmpty() && !s.registeredAt.isValid());
    QCoreApplication::exit(failed ? 1 : 0);
}

} // namespace cohort
