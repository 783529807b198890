#include "ConsoleOutput.h"

#include "platform/Console.h"

#include <QDateTime>
#include <QLoggingCategory>
#include <QMutexLocker>

namespace cohort {

namespace {
ConsoleOutput *g_console =
    nullptr; // the handler's target; set and cleared on the main thread before/after the engine runs

void handleQtMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (g_console)
        g_console->qtMessage(type, context.category, message);
}

const char *qtTypeName(QtMsgType type)
{
    switch (type) {
    case QtDebugMsg: return "debug";
    case QtInfoMsg: return "info";
    case QtWarningMsg: return "warning";
    case QtCriticalMsg: return "critical";
    case QtFatalMsg: return "fatal";
    }
    return "info";
}

QByteArray timestamp()
{
    return QTime::currentTime().toString(QStringLiteral("HH:mm:ss")).toUtf8();
}
} // namespace

QString lineKind(const QString &category, const QString &severity)
{
    return category + QLatin1Char(' ') + severity;
}

ConsoleOutput::ConsoleOutput(Options options, FILE *out, FILE *err)
    : m_options(options),
      m_out(out),
      m_err(err),
      m_budget(options.linesPerKindPerMinute, 60'000)
{
    m_clock.start();
}

ConsoleOutput::~ConsoleOutput()
{
    if (m_installed) {
        qInstallMessageHandler(nullptr);
        g_console = nullptr;
    }
}

void ConsoleOutput::installMessageHandler()
{
    if (!m_options.verbose) {
        // The engine says at info level what it does step by step ("submitted s-…"): detail for -v. Rules set
        // here rank below QT_LOGGING_RULES and QT_LOGGING_CONF, so those still bring it back.
        QLoggingCategory::setFilterRules(QStringLiteral("cohort.*.info=false"));
    }
    g_console = this;
    m_installed = true;
    qInstallMessageHandler(handleQtMessage);
}

void ConsoleOutput::printLine(FILE *stream, const QByteArray &line)
{
    if (m_options.terminal && !m_statusLine.isEmpty()) {
        std::fputs("\r\033[K", m_out); // the line stands above the status line, which is drawn again below it
        std::fflush(m_out);
    }
    std::fwrite(line.constData(), 1, size_t(line.size()), stream);
    std::fputc('\n', stream);
    std::fflush(stream);
    if (m_options.terminal && !m_statusLine.isEmpty()) {
        std::fwrite(m_statusLine.constData(), 1, size_t(m_statusLine.size()), m_out);
        std::fflush(m_out);
    }
}

void ConsoleOutput::event(const EngineEvent &e)
{
    if (e.routine && !m_options.verbose)
        return; // its minute's summary is an event of its own
    const QString severity = EngineEvent::severityName(e.severity);
    const QString category = EngineEvent::categoryName(e.category);
    QMutexLocker lock(&m_mutex);
    if (!m_options.verbose && !m_budget.admit(lineKind(category, severity), nowMs()))
        return;
    printLine(m_err, e.time.toLocalTime().toString(QStringLiteral("HH:mm:ss")).toUtf8() + ' ' + severity.toUtf8() +
                         ' ' + category.toUtf8() + ": " + e.message.toUtf8());
}

void ConsoleOutput::qtMessage(QtMsgType type, const char *category, const QString &message)
{
    const QString kind =
        lineKind(QString::fromUtf8(category ? category : "default"), QString::fromLatin1(qtTypeName(type)));
    QMutexLocker lock(&m_mutex);
    if (!m_options.verbose && type != QtFatalMsg && !m_budget.admit(kind, nowMs()))
        return;
    printLine(m_err, timestamp() + ' ' + kind.toUtf8() + ": " + message.toUtf8());
}

void ConsoleOutput::note(const QString &text)
{
    QMutexLocker lock(&m_mutex);
    printLine(m_err, "cohortd: " + text.toUtf8());
}

void ConsoleOutput::jsonLine(const QByteArray &json)
{
    QMutexLocker lock(&m_mutex);
    printLine(m_out, json);
}

void ConsoleOutput::status(const QString &line)
{
    QMutexLocker lock(&m_mutex);
    if (!m_options.terminal) {
        printLine(m_out, line.toUtf8());
        return;
    }
    // One terminal row: a wrapped line could not be redrawn in place ("\r" returns to the start of the last row).
    QString shown = line;
    const int columns = terminalColumns();
    if (columns > 1 && shown.size() >= columns)
        shown = shown.left(columns - 2) + QChar(0x2026);
    m_statusLine = "\r\033[K" + shown.toUtf8();
    std::fwrite(m_statusLine.constData(), 1, size_t(m_statusLine.size()), m_out);
    std::fflush(m_out);
}

void ConsoleOutput::sayHeld(const QList<LogBudget::Suppressed> &held)
{
    for (const LogBudget::Suppressed &s : held)
        printLine(m_err, timestamp() + " cohortd: " + QByteArray::number(s.count) + " more \"" + s.kind.toUtf8() +
                             "\" lines in the last minute not shown (--verbose shows every line)");
}

void ConsoleOutput::tick()
{
    QMutexLocker lock(&m_mutex);
    sayHeld(m_budget.takeEnded(nowMs()));
}

void ConsoleOutput::finish()
{
    QMutexLocker lock(&m_mutex);
    sayHeld(m_budget.takeAll());
    if (m_options.terminal && !m_statusLine.isEmpty()) {
        std::fputc('\n', m_out); // the last status stays on screen
        std::fflush(m_out);
        m_statusLine.clear();
    }
}

} // namespace cohort
