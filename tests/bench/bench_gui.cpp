// The desktop app's cost to the user's machine: time from launch to the first window on screen, and CPU time of the
// GUI thread while the engine works (target: at most 1% of one core). Runs the real `cohort` on the offscreen
// platform with its own settings and data folders; the engine trains the embedded network's DiLoCo task (joined
// beforehand with cohortd, which the app then joins again from the engine bundle), so snapshots arrive at their
// full rate. Next to it, in the same invocation, the engine threads of the same process for scale.
// Linux only (reads /proc/<pid>/task/<tid>/stat).
//   bench_gui [seconds=60] [launches=3]
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
    return env;
}

bool waitForStderr(QProcess &p, const QByteArray &text, int timeoutMs, QByteArray *seen)
{
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
    const int launches = argc > 2 ? std::max(1, atoi(argv[2])) : 3;
    QTemporaryDir tmp;
    const QProcessEnvironment env = isolatedEnvironment(tmp);
    const QString node = tmp.filePath(QStringLiteral("node"));

    // 1. Launch to first window.
    std::printf("launch to first window (cohort --report-startup, offscreen)\n");
    std::vector<double> wall;
    for (int i = 0; i < launches; ++i) {
        QProcess p;
        p.setProcessEnvironment(env);
        QElapsedTimer t;
        t.start();
        p.start(program("cohort"), {QStringLiteral("--data-dir"), node, QStringLiteral("--report-startup")});
        QByteArray err;
        if (!waitForStderr(p, "first window exposed", 30'000, &err)) {
            std::fprintf(stderr, "cohort never showed a window:\n%s\n", err.constData());
            return 1;
        }
        wall.push_back(double(t.elapsed()));
        const qsizetype at = err.indexOf("first window exposed");
        std::printf("  launch %d: %6.0f ms from spawn (%s)\n", i + 1, wall.back(),
                    err.mid(at, err.indexOf('\n', at) - at).constData());
        stop(p);
    }
    std::sort(wall.begin(), wall.end());
    std::printf("  median %.0f ms (target <= 1500 ms)\n\n", wall[wall.size() / 2]);

    // 2. GUI-thread CPU while the engine trains: join the DiLoCo task once with cohortd (same data folder).
    {
        QProcess join;
        join.setProcessEnvironment(env);
        join.start(program("cohortd"), {QStringLiteral("--data-dir"), node, QStringLiteral("--task"), QStringLiteral("tiny-lm-diloco"),
                                        QStringLiteral("--duration"), QStringLiteral("8")});
        if (!join.waitForFinished(60'000) || join.exitCode() != 0) {
            std::fprintf(stderr, "cohortd could not join the task: %s\n", join.readAllStandardError().right(2000).constData());
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
    const auto before = threadTicks(pid);
    QElapsedTimer window;
    window.start();
    while (window.elapsed() < qint64(seconds) * 1000) {
        gui.waitForReadyRead(500);
        gui.readAllStandardError(); // keep the pipe drained
    }
    const auto after = threadTicks(pid);
    const double elapsedS = double(window.elapsed()) / 1000.0;
    std::printf("CPU while the engine trains tiny-lm-diloco (%.0f s, %% of one core)\n", elapsedS);
    double guiPercent = -1;
    for (const auto &[name, ticks] : after) {
        const qint64 delta = ticks - (before.count(name) ? before.at(name) : 0);
        const double percent = 100.0 * double(delta) / double(hz) / elapsedS;
        if (name.startsWith(QLatin1String("GUI")))
            guiPercent = percent;
        if (percent >= 0.05 || name.startsWith(QLatin1String("GUI")))
            std::printf("  %-28s %7.2f %%\n", qPrintable(name), percent);
    }
    std::printf("GUI thread: %.2f %% of a core = %.2f s CPU per minute (target <= 1 %%)\n", guiPercent, guiPercent * 0.6);
    stop(gui);
    return 0;
}
