#include "platform/ProcessList.h"

#include <QCoreApplication>

#include <algorithm>
#include <iterator>

#ifdef _WIN32
#  ifndef NOMINMAX
#    define NOMINMAX
#  endif
#  include <windows.h>
#  include <tlhelp32.h>
#else
#  include <dirent.h>
#  include <fcntl.h>
#  include <unistd.h>
#endif

namespace cohort {

namespace {

QString fileNameOf(QString path)
{
    path = path.trimmed();
    const qsizetype slash = std::max(path.lastIndexOf(QLatin1Char('/')), path.lastIndexOf(QLatin1Char('\\')));
    return slash >= 0 ? path.mid(slash + 1) : path;
}

QString withoutExe(const QString &name)
{
    return name.endsWith(QLatin1String(".exe"), Qt::CaseInsensitive) ? name.chopped(4) : name;
}

// Windows names compare as Windows does (any case, ".exe" optional); so do Windows programs under Wine or Proton on
// Linux, whose processes are called "Game.exe". Everything else exactly.
bool nameMatches(const QString &listed, const QString &process)
{
    if (process.isEmpty())
        return false;
#ifdef _WIN32
    constexpr bool windowsNames = true;
#else
    const bool windowsNames = process.endsWith(QLatin1String(".exe"), Qt::CaseInsensitive);
#endif
    if (windowsNames)
        return withoutExe(listed).compare(withoutExe(process), Qt::CaseInsensitive) == 0;
    return listed == process;
}

const QString *matchingName(const QStringList &names, const QString &process)
{
    for (const QString &n : names)
        if (nameMatches(n, process))
            return &n;
    return nullptr;
}

#ifndef _WIN32
// Up to `max` bytes of a /proc file (they are small and generated on read; a partial read is all there is).
QByteArray readProcFile(const char *path, int max)
{
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return {};
    QByteArray data(max, Qt::Uninitialized);
    const ssize_t n = ::read(fd, data.data(), size_t(max));
    ::close(fd);
    data.truncate(n > 0 ? qsizetype(n) : 0);
    return data;
}

// comm: the kernel's name, the first 15 bytes of the executable's file name (or what the process set).
QString commOf(qint64 pid)
{
    const QByteArray path = "/proc/" + QByteArray::number(pid) + "/comm";
    return QString::fromUtf8(readProcFile(path.constData(), 64)).trimmed();
}

// argv[0]'s file name: whole where comm is cut at 15 bytes. Kernel threads have none.
QString argv0Of(qint64 pid)
{
    const QByteArray path = "/proc/" + QByteArray::number(pid) + "/cmdline";
    const QByteArray cmdline = readProcFile(path.constData(), 4096);
    return fileNameOf(QString::fromUtf8(cmdline.left(cmdline.indexOf('\0'))));
}

// The executable's file name; readable for this user's processes only.
QString exeOf(qint64 pid)
{
    const QByteArray path = "/proc/" + QByteArray::number(pid) + "/exe";
    char target[4096];
    const ssize_t n = ::readlink(path.constData(), target, sizeof target);
    if (n <= 0)
        return {};
    QString name = fileNameOf(QString::fromUtf8(target, qsizetype(n)));
    if (name.endsWith(QLatin1String(" (deleted)"))) // replaced by an update while it runs
        name.chop(10);
    return name;
}
#endif

} // namespace

QStringList normalizedProgramNames(const QStringList &names)
{
    QStringList out;
    for (const QString &n : names)
        if (const QString name = fileNameOf(n); !name.isEmpty() && !out.contains(name))
            out.append(name);
    return out;
}

#ifdef _WIN32

std::optional<RunningProgram> findRunningProgram(const QStringList &listed, int maxProcesses)
{
    const QStringList names = normalizedProgramNames(listed);
    if (names.isEmpty())
        return std::nullopt;
    const HANDLE snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
    if (snapshot == INVALID_HANDLE_VALUE)
        return std::nullopt;
    const DWORD self = GetCurrentProcessId();
    std::optional<RunningProgram> found;
    PROCESSENTRY32W entry{};
    entry.dwSize = sizeof entry;
    int seen = 0;
    for (BOOL more = Process32FirstW(snapshot, &entry); more && seen < maxProcesses && !found;
         more = Process32NextW(snapshot, &entry), ++seen) {
        if (entry.th32ProcessID == self)
            continue;
        const QString name = QString::fromWCharArray(entry.szExeFile);
        if (matchingName(names, name))
            found = RunningProgram{qint64(entry.th32ProcessID), name};
    }
    CloseHandle(snapshot);
    return found;
}

QString processName(qint64 pid)
{
    const HANDLE process = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, DWORD(pid));
    if (!process)
        return {};
    wchar_t path[MAX_PATH * 2];
    DWORD size = DWORD(std::size(path));
    const bool ok = QueryFullProcessImageNameW(process, 0, path, &size);
    CloseHandle(process);
    return ok ? fileNameOf(QString::fromWCharArray(path, int(size))) : QString();
}

#else

std::optional<RunningProgram> findRunningProgram(const QStringList &listed, int maxProcesses)
{
    const QStringList names = normalizedProgramNames(listed);
    if (names.isEmpty())
        return std::nullopt;
    DIR *proc = ::opendir("/proc");
    if (!proc)
        return std::nullopt;
    const qint64 self = QCoreApplication::applicationPid();
    std::optional<RunningProgram> found;
    int seen = 0;
    while (const dirent *entry = ::readdir(proc)) {
        bool numeric = false;
        const qint64 pid = QByteArray(entry->d_name).toLongLong(&numeric);
        if (!numeric || pid <= 0 || pid == self)
            continue;
        if (++seen > maxProcesses)
            break;
        // No command line and no program file: a kernel thread, or a zombie whose program has ended (its parent has yet
        // to reap it). No command line but a program file: a process in the middle of exec (its new program is
        // mapped, its arguments not yet), seen by a scan that comes right after it started.
        const QString argv0 = argv0Of(pid);
        QString exe; // read only where it is needed: most processes are told by their comm or argv[0]
        if (argv0.isEmpty() && (exe = exeOf(pid)).isEmpty())
            continue;
        // comm alone decides when it is whole (shorter than the kernel's 15 bytes); a cut one is only a prefix.
        const QString comm = commOf(pid);
        if (comm.toUtf8().size() < 15 && matchingName(names, comm)) {
            found = RunningProgram{pid, comm};
            break;
        }
        for (const QString &name : {argv0, exe.isEmpty() ? exeOf(pid) : exe}) {
            if (matchingName(names, name)) {
                found = RunningProgram{pid, name};
                break;
            }
        }
        if (found)
            break;
    }
    ::closedir(proc);
    return found;
}

QString processName(qint64 pid)
{
    if (pid <= 0)
        return {};
    const QString comm = commOf(pid);
    if (comm.toUtf8().size() < 15)
        return comm;
    // The whole name where comm was cut, if it starts the same: argv[0], or the program file while the process is
    // in the middle of exec (no arguments yet).
    for (const QString &whole : {argv0Of(pid), exeOf(pid)})
        if (!whole.isEmpty() && whole.startsWith(comm))
            return whole;
    return comm;
}

#endif

void ProgramWatch::setNames(const QStringList &names)
{
    const QStringList normalized = normalizedProgramNames(names);
    if (normalized == m_names)
        return;
    m_names = normalized;
    m_sinceScan.invalidate();
    m_last.reset();
}

std::optional<RunningProgram> ProgramWatch::running()
{
    if (m_names.isEmpty())
        return std::nullopt;
    if (!m_sinceScan.isValid() || m_sinceScan.elapsed() >= m_intervalMs) {
        m_last = findRunningProgram(m_names);
        m_sinceScan.start();
    }
    return m_last;
}

} // namespace cohort
