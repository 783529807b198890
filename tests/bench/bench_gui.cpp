// The desktop app's cost to the user's machine: time from launch to the first window on screen, and CPU time of the
// GUI thread while the engine works (target: at most 1% of one core). Runs the real `cohort` on the offscreen
// platform with its own settings and data folders, with two GPUs from the fake NVML (tests/support/fakenvml), so the
// dashboard's GPU cards and charts are live; the engine trains the embedded network's DiLoCo task (joined
// beforehand with cohortd, which the app then joins again from the engine bundle), so snapshots arrive at their
// full rate. Next to it, in the same invocation, the engine threads of the same process for scale.
// Launches: the first is cold — a data folder never used, and the kernel's page cache dropped first when this
// process may (root; it says whether it did) — the rest warm, each on a fresh data folder too.
// The CPU window is cut into 5 equal parts: median and min-max per thread.
// Linux only (reads /proc/<pid>/task/<tid>/stat).
//   bench_gui [seconds=60] [launches=6]
#include "BenchSpread.h"
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <map>
#include <unistd.h>

using cohort::bench::Spread;
using cohort::bench::spreadOf;

namespace {

QString program(const char *name)
{
    const QString dir = QCoreApplication::applicationDirPath(); // build/tests/bench
    return QDir(dir).filePath(QStringLiteral("../../app/%1/%1").arg(QLatin1String(name)));
}

// utime + stime in clock ticks, per thread name ("cohort" is the GUI thread: the process's main thread).
std::map<QString, qint64> threadTicks(qint64 pid)
{
    std::map<QString, qint64> ticks;
    const QDir tasks(QStringLiteral("/proc/%1/task").arg(pid));
    for (const QString &tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile stat(tasks.filePath(tid + QStringLiteral("/stat")));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        const qsizetype close = line.lastIndexOf(')');
        const QString name = QString::fromUtf8(line.mid(line.indexOf('(') + 1, close - line.indexOf('(') - 1));
        const QList<QByteArray> fields = line.mid(close + 2).split(' ');
        if (fields.size() < 13)
            continue;
        // After "pid (comm) ": state is field 0, utime field 11, stime field 12.
        const QString key = tid.toLongLong() == pid ? QStringLiteral("GUI thread (main)") : name;
        ticks[key] += fields[11].toLongLong() + fields[12].toLongLong();
    }
    return ticks;
}

QProcessEnvironment isolatedEnvironment(const QTemporaryDir &tmp)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), tmp.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), tmp.filePath(QStringLiteral("share")));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), tmp.filePath(QStringLiteral("cache")));
    // Two GPUs at work, so the GPU cards and charts draw what a GPU owner sees.
    const QString config = tmp.filePath(QStringLiteral("fakenvml.json"));
    QFile f(config);
    if (f.open(QIODevice::WriteOnly)) {
        f.write(R"({"devices": [
  {"name": "Fake GPU 0", "uuid": "GPU-bench-0", "utilization_gpu": 87, "utilization_memory": 40, "memory_total": 25769803776,
   "memory_used": 8589934592, "temperature": 71, "power_mw": 350000, "power_limit_mw": 450000, "sm_clock": 2520,
   "mem_clock": 10501, "fan": 65},
  {"name": "Fake GPU 1", "uuid": "GPU-bench-1", "utilization_gpu": 55, "utilization_memory": 20, "memory_total": 12884901888,
   "memory_used": 2147483648, "temperature": 64, "power_mw": 180000, "power_limit_mw": 250000, "sm_clock": 1900,
   "mem_clock": 7000, "fan": 40}]})");
        f.close();
        env.insert(QStringLiteral("COHORT_FAKENVML_CONFIG"), config);
        env.insert(QStringLiteral("COHORT_NVML_LIBRARY"), QStringLiteral(COHORT_FAKENVML));
    }
    return env;
}

// Drops the kernel's page cache (root only), so the next launch reads the program and its libraries from disk.
bool dropPageCache()
{
    ::sync();
    QFile f(QStringLiteral("/proc/sys/vm/drop_caches"));
    return f.open(QIODevice::WriteOnly) && f.write("3\n") == 2;
}

bool waitForStderr(QProcess &p, const QByteArray &text, int timeoutMs, QByteArray *seen)
{
    // waitForReadyRead() wakes for the current read channel only: on stdout (the default) it would sleep its whole
    // timeout while stderr fills, and every launch would read as a multiple of it.
    p.setReadChannel(QProcess::StandardError);
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        p.waitForReadyRead(100);
        *seen += p.readAllStandardError();
        if (seen->contains(text))
            return true;
        if (p.state() == QProcess::NotRunning)
            return false;
    }
    return false;
}

void stop(QProcess &p)
{
    p.terminate(); // SIGTERM: the app's clean quit
    if (!p.waitForFinished(30'000)) {
        p.kill();
        p.waitForFinished(5'000);
    }
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int seconds = argc > 1 ? std::max(10, atoi(argv[1])) : 60;
    const int launches = argc > 2 ? std::max(2, atoi(argv[2])) : 6;
    QTemporaryDir tmp;
    const QProcessEnvironment env = isolatedEnvironment(tmp);
    const QString node = tmp.filePath(QStringLiteral("node"));

    // 1. Launch to first window: a cold one, then warm ones, each on a data folder never used.
    std::printf("launch to first window (cohort --report-startup, offscreen, two fake GPUs)\n");
    const bool dropped = dropPageCache();
    std::vector<double> warm;
    for (int i = 0; i < launches; ++i) {
        QProcess p;
        p.setProcessEnvironment(env);
        QElapsedTimer t;
        t.start();
        p.start(program("cohort"), {QStringLiteral("--data-dir"), tmp.filePath(QStringLiteral("launch-%1").arg(i)),
                                    QStringLiteral("--report-startup")});
        QByteArray err;
        if (!waitForStderr(p, "first window exposed", 30'000, &err)) {
            std::fprintf(stderr, "cohort never showed a window:\n%s\n", err.constData());
            return 1;
        }
        const double ms = double(t.elapsed());
        const qsizetype at = err.indexOf("first window exposed");
        std::printf("  launch %d (%s): %6.0f ms from spawn (%s)\n", i + 1,
                    i == 0 ? (dropped ? "cold: page cache dropped" : "first: page cache NOT dropped (not root)")
                           : "warm",
                    ms, err.mid(at, err.indexOf('\n', at) - at).constData());
        if (i > 0)
            warm.push_back(ms);
        stop(p);
    }
    const Spread w = spreadOf(warm);
    std::printf("  warm: median %.0f ms (min-max %.0f-%.0f) over %zu launches (target <= 1500 ms)\n\n", w.median, w.min,
                w.max, warm.size());

    // 2. GUI-thread CPU while the engine trains: join the DiLoCo task once with cohortd (same data folder).
    {
        QProcess join;
        join.setProcessEnvironment(env);
        join.start(program("cohortd"),
                   {QStringLiteral("--data-dir"), node, QStringLiteral("--task"), QStringLiteral("tiny-lm-diloco"),
                    QStringLiteral("--duration"), QStringLiteral("8")});
        if (!join.waitForFinished(60'000) || join.exitCode() != 0) {
            std::fprintf(stderr, "cohortd could not join the task: %s\n",
                         join.readAllStandardError().right(2000).constData());
            return 1;
        }
    }
    QProcess gui;
    gui.setProcessEnvironment(env);
    gui.start(program("cohort"), {QStringLiteral("--data-dir"), node, QStringLiteral("--report-startup")});
    QByteArray err;
    if (!waitForStderr(gui, "DiLoCo outer step", 60'000, &err)) {
        std::fprintf(stderr, "the app's engine did not train:\n%s\n", err.right(3000).constData());
        return 1;
    }
    const qint64 pid = gui.processId();
    const long hz = sysconf(_SC_CLK_TCK);
    constexpr int kParts = 5;
    std::map<QString, std::vector<double>> percents; // per thread, one per part of the window
    for (int part = 0; part < kParts; ++part) {
        const auto before = threadTicks(pid);
        QElapsedTimer window;
        window.start();
        while (window.elapsed() < qint64(seconds) * 1000 / kParts) {
            gui.waitForReadyRead(500);
            gui.readAllStandardError(); // keep the pipe drained
        }
        const auto after = threadTicks(pid);
        const double elapsedS = double(window.elapsed()) / 1000.0;
        for (const auto &[name, ticks] : after) {
            const qint64 delta = ticks - (before.count(name) ? before.at(name) : 0);
            percents[name].push_back(100.0 * double(delta) / double(hz) / elapsedS);
        }
    }
    std::printf(
        "CPU while the engine trains tiny-lm-diloco with two GPUs on the dashboard (%d s in %d parts, %% of one core: "
        "median, min-max)\n",
        seconds, kParts);
    Spread guiPercent;
    for (const auto &[name, values] : percents) {
        const Spread p = spreadOf(values);
        if (name.startsWith(QLatin1String("GUI")))
            guiPercent = p;
        if (p.max >= 0.05 || name.startsWith(QLatin1String("GUI")))
            std::printf("  %-28s %7.2f %%  (%.2f-%.2f)\n", qPrintable(name), p.median, p.min, p.max);
    }
    std::printf("GUI thread: median %.2f %% of a core (min-max %.2f-%.2f) = %.2f s CPU per minute (target <= 1 %%)\n",
                guiPercent.median, guiPercent.min, guiPercent.max, guiPercent.median * 0.6);
    stop(gui);
    return 0;
}
