#include "TestSupport.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
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
    : m_process(std::make_unique<QProcess>()), m_program(program), m_arguments(arguments)
{
}

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

bool ChildProcess::waitForOutput(const QString &text, int timeoutMs) { return waitForText(false, text, timeoutMs); }

bool ChildProcess::waitForError(const QString &text, int timeoutMs) { return waitForText(true, text, timeoutMs); }

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

} // namespace cohort::test
