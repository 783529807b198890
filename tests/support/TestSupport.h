#pragma once
// Helpers shared by the test suites: locating built programs and running them as real processes.
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

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
    QString output() const; // stdout so far
    QString errors() const; // stderr so far
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

// A cohort-hub on 127.0.0.1 with a free port (and relay port), started and waited for; nullptr if it did not start
// (its stderr is then in *why). `wrapper`: a shell snippet run before the hub replaces the shell (e.g. "ulimit -n
// 160").
struct StartedHub {
    std::unique_ptr<ChildProcess> process;
    QString url;      // http://127.0.0.1:port
    QString relayUrl; // the hub's own relay
};
std::optional<StartedHub> startHub(const QString &dataDir, const QStringList &extraArguments = {},
                                   QString *why = nullptr, const QString &wrapper = {});

// Writes the fake NVML's configuration (tests/support/fakenvml: {"devices": [...]}) to `path` atomically, for a
// process that reads COHORT_FAKENVML_CONFIG; false when it could not be written.
bool writeFakeNvml(const QString &path, const QJsonArray &devices);

// The newest status line (a JSON object with "state") that `cohortd --json` wrote to `output`; empty if none yet.
QJsonObject lastJsonStatus(const QString &output);

// A memory figure of a process in KiB from Linux /proc/<pid>/status ("VmRSS": resident now, "VmHWM": its peak),
// or -1.
qint64 processMemoryKiB(qint64 pid, const QByteArray &field);
inline qint64 residentKiB(qint64 pid)
{
    return processMemoryKiB(pid, "VmRSS");
}

} // namespace cohort::test
