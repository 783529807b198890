#include "TestSupport.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTest>

namespace cohort::test {

QString programPath(const QString &name)
{
    const QString root = qEnvironmentVariable("COHORT_BUILD_DIR");
    const QString suffix =
#ifdef Q_OS_WIN
        QStringLiteral(".exe");
#else
        QString();
#endif
    for (const QString &sub : QStringList{QStringLiteral("app/") + name, QStringLiteral("app")}) {
        const QString candidate = QDir(root).filePath(sub + QLatin1Char('/') + name + suffix);
        if (QFileInfo::exists(candidate))
            return candidate;
    }
    return QDir(root).filePath(QStringLiteral("app/") + name + QLatin1Char('/') + name + suffix);
}

ChildProcess::ChildProcess(const QString &program, const QStringList &arguments)
    : m_process(std::make_unique<QProcess>()),
      m_program(program),
      m_arguments(arguments)
{}

ChildProcess::~ChildProcess()
{
    if (m_process->state() != QProcess::NotRunning) {
        m_process->kill();
        m_process->waitForFinished(5000);
    }
}

bool ChildProcess::start()
{
    m_process->start(m_program, m_arguments);
    return m_process->waitForStarted(10'000);
}

QString ChildProcess::output() const
{
    m_out += m_process->readAllStandardOutput();
    return QString::fromUtf8(m_out);
}

QString ChildProcess::errors() const
{
    m_err += m_process->readAllStandardError();
    return QString::fromUtf8(m_err);
}

bool ChildProcess::waitForText(bool onStderr, const QString &text, int timeoutMs)
{
    const auto seen = [&] { return (onStderr ? errors() : output()).contains(text); };
    QDeadlineTimer deadline(timeoutMs);
    while (!seen()) {
        if (deadline.hasExpired() || m_process->state() == QProcess::NotRunning)
            return seen();
        m_process->waitForReadyRead(int(qMin<qint64>(deadline.remainingTime(), 200)));
    }
    return true;
}

bool ChildProcess::waitForOutput(const QString &text, int timeoutMs)
{
    return waitForText(false, text, timeoutMs);
}

bool ChildProcess::waitForError(const QString &text, int timeoutMs)
{
    return waitForText(true, text, timeoutMs);
}

bool ChildProcess::terminateAndWait(int timeoutMs, int *exitCode)
{
    m_process->terminate();
    if (!m_process->waitForFinished(timeoutMs))
        return false;
    output();
    errors();
    if (exitCode)
        *exitCode = m_process->exitStatus() == QProcess::NormalExit ? m_process->exitCode() : -1;
    return true;
}

std::optional<StartedHub> startHub(const QString &dataDir, const QStringList &extraArguments, QString *why,
                                   const QString &wrapper)
{
    QStringList arguments{QStringLiteral("--port"), QStringLiteral("0"),          QStringLiteral("--relay-port"),
                          QStringLiteral("0"),      QStringLiteral("--data-dir"), dataDir};
    // No trainer unless the test asks for one (--train): a warm-up costs ~18 s of CPU per RL task.
    if (!extraArguments.contains(QStringLiteral("--train")))
        arguments << QStringLiteral("--train") << QStringLiteral("none");
    arguments += extraArguments;
    StartedHub hub;
    if (wrapper.isEmpty()) {
        hub.process = std::make_unique<ChildProcess>(programPath(QStringLiteral("cohort-hub")), arguments);
    } else {
        // sh -c '<wrapper>; exec "$0" "$@"' hub args...: the hub is the process QProcess started (same pid).
        hub.process = std::make_unique<ChildProcess>(QStringLiteral("/bin/sh"),
                                                     QStringList{QStringLiteral("-c"),
                                                                 wrapper + QStringLiteral(" && exec \"$0\" \"$@\""),
                                                                 programPath(QStringLiteral("cohort-hub"))} +
                                                         arguments);
    }
    if (!hub.process->start() || !hub.process->waitForOutput(QStringLiteral("listening on"), 30'000)) {
        if (why)
            *why = hub.process->errors();
        return std::nullopt;
    }
    const QRegularExpressionMatch m =
        QRegularExpression(
            QStringLiteral("listening on (https?://127\\.0\\.0\\.1:\\d+) \\(relay (https?://127\\.0\\.0\\.1:\\d+)"))
            .match(hub.process->output());
    if (!m.hasMatch()) {
        if (why)
            *why = QStringLiteral("unexpected output: ") + hub.process->output();
        return std::nullopt;
    }
    hub.url = m.captured(1);
    hub.relayUrl = m.captured(2);
    return hub;
}

bool writeFakeNvml(const QString &path, const QJsonArray &devices)
{
    QSaveFile f(path);
    return f.open(QIODevice::WriteOnly) &&
           f.write(QJsonDocument(QJsonObject{{QStringLiteral("devices"), devices}}).toJson()) > 0 && f.commit();
}

QJsonObject lastJsonStatus(const QString &output)
{
    const QStringList lines = output.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (auto it = lines.crbegin(); it != lines.crend(); ++it) {
        const QJsonObject o = QJsonDocument::fromJson(it->toUtf8()).object();
        if (o.contains(QStringLiteral("state")))
            return o;
    }
    return {};
}

qint64 processMemoryKiB(qint64 pid, const QByteArray &field)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray prefix = field + ':';
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith(prefix))
            return line.mid(prefix.size()).trimmed().split(' ').value(0).toLongLong();
    return -1;
}

} // namespace cohort::test
