#pragma once
// Which programs run on this computer, for "pause while one of my programs runs": the running processes matched
// against a list of executable names the user typed. Linux reads /proc (each process's comm, the base name of its
// argv[0] and of /proc/<pid>/exe where readable); Windows takes a Toolhelp snapshot. Names compare exactly on Linux,
// case-insensitively on Windows, where "game" also matches "game.exe". A path in the list counts by its file name.
//
// Bounded: a scan reads at most maxProcesses processes and a few hundred bytes of each, keeps nothing between scans,
// and ProgramWatch scans at most once per interval however often it is asked.
#include <QElapsedTimer>
#include <QString>
#include <QStringList>
#include <optional>

namespace cohort {

struct RunningProgram {
    qint64 pid = 0;
    QString name; // as the process shows it ("cohort-test-game", "Game.exe")
};

// The first running process (other than this one) whose name is in `names`; nullopt when none is.
std::optional<RunningProgram> findRunningProgram(const QStringList &names, int maxProcesses = 8192);

// A process's executable name ("blender"); empty when it is gone or cannot be read (another user's, on Windows).
QString processName(qint64 pid);

// The names a user listed, as findRunningProgram compares them: trimmed, the file name of a path, without empty ones.
QStringList normalizedProgramNames(const QStringList &names);

// findRunningProgram at most once per interval; between scans the last answer stands.
class ProgramWatch {
public:
    static constexpr int kDefaultIntervalMs = 5000;
    explicit ProgramWatch(int intervalMs = kDefaultIntervalMs)
        : m_intervalMs(intervalMs)
    {}

    void setNames(const QStringList &names); // a new list is scanned for at the next ask
    const QStringList &names() const { return m_names; }
    std::optional<RunningProgram> running();

private:
    int m_intervalMs;
    QStringList m_names;
    QElapsedTimer m_sinceScan; // invalid: scan at the next ask
    std::optional<RunningProgram> m_last;
};

} // namespace cohort
