#pragma once
// Helpers shared by the test suites: locating built programs and running them as real processes.
#include <QProcess>
#include <QString>
#include <QStringList>
#include <memory>

namespace cohort::test {

// Path of a program built in this tree (cohort-hub, cohortd, ...), from COHORT_BUILD_DIR.
QString programPath(const QString &name);

// A child process whose stdout/stderr are collected; killed on destruction if still running.
class ChildProcess {
public:
    ChildProcess(const QString &program, const QStringList &arguments);
    ~ChildProcess();
    bool start();
    // Waits (event loop) until stdout contains `text`; returns the whole stdout so far.
    bool waitForOutput(const QString &text, int timeoutMs);
    // The same for stderr.
    bool waitForError(const QString &text, int timeoutMs);
    QString output() const;   // stdout so far
    QString errors() const;   // stderr so far
    QProcess &process() { return *m_process; }
    bool terminateAndWait(int timeoutMs, int *exitCode); // SIGTERM (or kill on Windows), then wait

private:
    bool waitForText(bool onStderr, const QString &text, int timeoutMs);

    std::unique_ptr<QProcess> m_process;
    QString m_program;
    QStringList m_arguments;
    mutable QByteArray m_out;
    mutable QByteArray m_err;
};

} // namespace cohort::test
