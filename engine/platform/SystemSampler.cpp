#include "platform/SystemSampler.h"

#include <QFile>
#include <QThread>

#include <optional>

#ifdef Q_OS_WIN
#  define NOMINMAX
#  include <windows.h>
#  include <psapi.h>
#endif

namespace cohort {

namespace {

struct CpuTimes {
    quint64 busy = 0;
    quint64 total = 0;
};

double cpuPercentBetween(const CpuTimes &before, const CpuTimes &now)
{
    if (now.total <= before.total)
        return -1;
    const double busy = double(now.busy - before.busy);
    const double total = double(now.total - before.total);
    return qBound(0.0, 100.0 * busy / total, 100.0);
}

#if defined(Q_OS_LINUX)
class ProcSystemSampler final : public SystemSampler {
public:
    SystemSample sample() override
    {
        SystemSample s;
        s.cpuCores = QThread::idealThreadCount();
        if (const auto times = readCpuTimes()) {
            if (m_previous.total > 0)
                s.cpuPercent = cpuPercentBetween(m_previous, *times);
            m_previous = *times;
        }
        readMemInfo(s);
        readProcessRss(s);
        return s;
    }

private:
    static std::optional<CpuTimes> readCpuTimes()
    {
        QFile f(QStringLiteral("/proc/stat"));
        if (!f.open(QIODevice::ReadOnly))
            return std::nullopt;
        const QByteArray line = f.readLine(); // "cpu  user nice system idle iowait irq softirq steal ..."
        const QList<QByteArray> parts = line.simplified().split(' ');
        if (parts.size() < 5 || parts[0] != "cpu")
            return std::nullopt;
        CpuTimes t;
        for (int i = 1; i < parts.size() && i <= 8; ++i) {
            const quint64 v = parts[i].toULongLong();
            t.total += v;
            if (i != 4 && i != 5) // idle and iowait are not busy
                t.busy += v;
        }
        return t;
    }

    static void readMemInfo(SystemSample &s)
    {
        QFile f(QStringLiteral("/proc/meminfo"));
        if (!f.open(QIODevice::ReadOnly))
            return;
        qint64 total = 0, available = -1;
        // /proc files report a size of 0, so read everything rather than looping on atEnd().
        const QList<QByteArray> lines = f.readAll().split('\n');
        for (const QByteArray &line : lines) {
            const QList<QByteArray> parts = line.simplified().split(' ');
            if (parts.size() < 2)
                continue;
            if (parts[0] == "MemTotal:")
                total = parts[1].toLongLong() * 1024;
            else if (parts[0] == "MemAvailable:")
                available = parts[1].toLongLong() * 1024;
        }
        s.memTotalBytes = total;
        if (available >= 0)
            s.memUsedBytes = total - available;
    }

    static void readProcessRss(SystemSample &s)
    {
        QFile f(QStringLiteral("/proc/self/statm"));
        if (!f.open(QIODevice::ReadOnly))
            return;
        const QList<QByteArray> parts = f.readAll().simplified().split(' ');
        if (parts.size() >= 2)
            s.processRssBytes = parts[1].toLongLong() * 4096; // pages; 4 KiB on every Linux we ship for
    }

    CpuTimes m_previous;
};
#elif defined(Q_OS_WIN)
class WindowsSystemSampler final : public SystemSampler {
public:
    SystemSample sample() override
    {
        SystemSample s;
        s.cpuCores = QThread::idealThreadCount();
        FILETIME idle, kernel, user;
        if (GetSystemTimes(&idle, &kernel, &user)) {
            const auto u64 = [](FILETIME t) { return (quint64(t.dwHighDateTime) << 32) | t.dwLowDateTime; };
            CpuTimes now;
            now.total = u64(kernel) + u64(user); // kernel time includes idle time
            now.busy = now.total - u64(idle);
            if (m_previous.total > 0)
                s.cpuPercent = cpuPercentBetween(m_previous, now);
            m_previous = now;
        }
        MEMORYSTATUSEX mem{};
        mem.dwLength = sizeof(mem);
        if (GlobalMemoryStatusEx(&mem)) {
            s.memTotalBytes = qint64(mem.ullTotalPhys);
            s.memUsedBytes = qint64(mem.ullTotalPhys - mem.ullAvailPhys);
        }
        PROCESS_MEMORY_COUNTERS counters{};
        if (GetProcessMemoryInfo(GetCurrentProcess(), &counters, sizeof(counters)))
            s.processRssBytes = qint64(counters.WorkingSetSize);
        return s;
    }

private:
    CpuTimes m_previous;
};
#endif

class MinimalSystemSampler final : public SystemSampler {
public:
    SystemSample sample() override
    {
        SystemSample s;
        s.cpuCores = QThread::idealThreadCount();
        return s;
    }
};

} // namespace

std::unique_ptr<SystemSampler> createSystemSampler()
{
#if defined(Q_OS_LINUX)
    return std::make_unique<ProcSystemSampler>();
#elif defined(Q_OS_WIN)
    return std::make_unique<WindowsSystemSampler>();
#else
    return std::make_unique<MinimalSystemSampler>();
#endif
}

} // namespace cohort
