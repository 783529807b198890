// bench_allreduce: ring all-reduce bus bandwidth on 127.0.0.1, Cohort's collectives next to torch.distributed Gloo
// measured in the same invocation (allreduce_gloo.py, Debian's python3-torch).
//
//   bench_allreduce [--mib 64] [--iters 5] [--rounds 3] [--procs 2,4] [--block 262144] [--python PY] [--no-gloo]
//                   [--compare-checks] [--compare-sealed]
//
// For each process count N: a master and N cohort-collective-peer processes all-reduce (sum) a float32 buffer of
// --mib MiB, 1 warm-up + --iters times, without quantization and with uint8 quantization; then Gloo the same way.
// Bus bandwidth = 2(N-1)/N x bytes / time (the bytes every link carries in a ring); with quantization the f32 bytes
// count (effective bandwidth). Time of one operation, the same for both: from the last process's call to the last
// process's return, on the machine-wide monotonic clock each process reads (Gloo's ranks after a barrier; Cohort's
// peers as they come: the master starts an operation when every peer has begun it). A Cohort run in which any
// operation needed a second attempt (a peer retried) is thrown away and said: its time would not be one operation's.
// The implementations take turns (--rounds), and the median over all their operations is printed. Cohort runs the
// out-of-place call (input read, result in a second buffer: no copy kept); the in-place call adds one copy of the
// buffer, made block by block during the exchange, to restore it on failure.
// Cohort's rows run with the checks a DiLoCo task uses (a contribution norm bound: each peer's own input checked
// before it is sent, every received block checked, ValueBounds.h); --compare-checks adds rows with every check off
// (the peers' --unchecked), taking turns with the others; --compare-sealed adds rows with every ring block protected
// (the peers' --protect: CommunicatorOptions::linkProtection; integrity: Poly1305, encryption: ChaCha20-Poly1305),
// checks on.
#include <QCoreApplication>
#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <vector>

namespace {

QString peerProgram()
{
    return QDir(QStringLiteral(COHORT_BUILD_DIR)).filePath(QStringLiteral("tests/integration/cohort-collective-peer"));
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Per-operation times (ms) of one Cohort run, or empty on failure; `ringOnly` gets the data-exchange part of each
// (without the two round trips to the master that bracket every operation).
std::vector<double> runCohort(std::vector<double> *ringOnly, int procs, int mib, int iters, const QString &quant,
                              const QString &block, bool checks, const QString &protection)
{
    QProcess master;
    master.start(peerProgram(), {QStringLiteral("master"), QStringLiteral("--port"), QStringLiteral("0")});
    if (!master.waitForStarted(10'000) || !master.waitForReadyRead(10'000))
        return {};
    static const QRegularExpression portRe(QStringLiteral("master listening (\\d+)"));
    const QString port = portRe.match(QString::fromUtf8(master.readAllStandardOutput())).captured(1);
    if (port.isEmpty())
        return {};
    const int ops = 1 + iters;
    std::vector<std::unique_ptr<QProcess>> peers;
    for (int i = 0; i < procs; ++i) {
        auto p = std::make_unique<QProcess>();
        p->setProcessChannelMode(QProcess::MergedChannels);
        QStringList args{QStringLiteral("peer"),
                         QStringLiteral("--master-port"),
                         port,
                         QStringLiteral("--seed"),
                         QString::number(i + 1),
                         QStringLiteral("--world"),
                         QString::number(procs),
                         QStringLiteral("--count"),
                         QString::number(qint64(mib) * 1024 * 1024 / 4),
                         QStringLiteral("--ops"),
                         QString::number(ops),
                         QStringLiteral("--quant"),
                         quant,
                         QStringLiteral("--block"),
                         block,
                         QStringLiteral("--bench"),
                         QStringLiteral("--out-of-place")};
        // The inputs lie in [-4, 4): a bound no sum of them reaches, so only the checks' cost is measured.
        if (checks)
            args << QStringLiteral("--bound") << QStringLiteral("1e30");
        else
            args << QStringLiteral("--unchecked");
        if (!protection.isEmpty())
            args << QStringLiteral("--protect") << protection;
        p->start(peerProgram(), args);
        peers.push_back(std::move(p));
    }
    // op -> the last call and the last return over the peers (ns), and the ring exchange of the peer that began last.
    struct Span {
        qint64 lastStart = 0, lastEnd = 0;
        double ring = 0;
    };
    std::map<int, Span> perOp;
    static const QRegularExpression opRe(
        QStringLiteral(
            "^op (\\d+) ok world (\\d+) .* attempts (\\d+) .* ring ([0-9.]+) outcome [0-9.]+ t0 (\\d+) t1 (\\d+)"),
        QRegularExpression::MultilineOption);
    bool ok = true;
    for (auto &p : peers) {
        if (!p->waitForFinished(300'000) || p->exitCode() != 0)
            ok = false;
        const QString out = QString::fromUtf8(p->readAll());
        auto it = opRe.globalMatch(out);
        while (it.hasNext()) {
            const auto m = it.next();
            if (m.captured(2).toInt() != procs)
                ok = false;
            const int op = m.captured(1).toInt();
            if (m.captured(3).toInt() != 1) {
                std::fprintf(stderr, "operation %d needed %d attempts: the run is not timed\n", op,
                             m.captured(3).toInt());
                ok = false;
            }
            const qint64 t0 = m.captured(5).toLongLong(), t1 = m.captured(6).toLongLong();
            Span &span = perOp[op];
            if (t0 > span.lastStart) {
                span.lastStart = t0;
                span.ring = m.captured(4).toDouble();
            }
            span.lastEnd = std::max(span.lastEnd, t1);
        }
        if (!ok)
            std::fprintf(stderr, "peer failed:\n%s\n", out.toUtf8().constData());
    }
    master.kill();
    master.waitForFinished(5000);
    if (!ok)
        return {};
    std::vector<double> times;
    for (const auto &[op, span] : perOp) {
        if (op >= 1) { // op 0 is the warm-up
            times.push_back(double(span.lastEnd - span.lastStart) / 1e6);
            ringOnly->push_back(span.ring);
        }
    }
    if (int(perOp.size()) != ops) {
        std::fprintf(stderr, "%d of %d operations reported by every peer\n", int(perOp.size()), ops);
        return {};
    }
    return times;
}

std::vector<double> runGloo(const QString &python, int procs, int mib, int iters)
{
    QProcess p;
    p.start(python,
            {QStringLiteral(COHORT_BENCH_DIR "/allreduce_gloo.py"), QStringLiteral("--procs"), QString::number(procs),
             QStringLiteral("--mib"), QString::number(mib), QStringLiteral("--iters"), QString::number(iters)});
    if (!p.waitForFinished(600'000) || p.exitCode() != 0) {
        std::fprintf(stderr, "gloo failed: %s\n", p.readAllStandardError().constData());
        return {};
    }
    static const QRegularExpression msRe(QStringLiteral("\"ms\": \\[([^\\]]*)\\]"));
    const auto m = msRe.match(QString::fromUtf8(p.readAllStandardOutput()));
    std::vector<double> times;
    for (const QString &v : m.captured(1).split(QLatin1Char(','), Qt::SkipEmptyParts))
        times.push_back(v.trimmed().toDouble());
    return times;
}

QString findPython(const QString &given)
{
    QStringList candidates;
    if (!given.isEmpty())
        candidates << given;
    candidates << QStringLiteral("python3") << QStringLiteral("/usr/bin/python3"); // Debian's python3-torch
    for (const QString &py : candidates) {
        QProcess p;
        p.start(py,
                {QStringLiteral("-c"), QStringLiteral("import torch.distributed as d; assert d.is_gloo_available()")});
        if (p.waitForFinished(60'000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0)
            return py;
    }
    return {};
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    auto value = [&](const char *name, const QString &def) {
        const int i = int(args.indexOf(QString::fromLatin1(name)));
        return i >= 0 && i + 1 < args.size() ? args[i + 1] : def;
    };
    const int mib = value("--mib", QStringLiteral("64")).toInt();
    const int iters = value("--iters", QStringLiteral("5")).toInt();
    const int rounds = value("--rounds", QStringLiteral("3")).toInt();
    const QString block = value("--block", QStringLiteral("262144"));
    QList<int> procsList;
    for (const QString &p : value("--procs", QStringLiteral("2,4")).split(QLatin1Char(',')))
        procsList << p.toInt();
    const bool gloo = !args.contains(QStringLiteral("--no-gloo"));
    const bool compareChecks = args.contains(QStringLiteral("--compare-checks"));
    const bool compareSealed = args.contains(QStringLiteral("--compare-sealed"));
    const QString python = gloo ? findPython(value("--python", QString())) : QString();
    if (gloo && python.isEmpty())
        std::fprintf(stderr, "no python with torch.distributed (Gloo) found; pass --python or --no-gloo\n");

    std::printf(
        "all-reduce (sum) of %d MiB float32 on 127.0.0.1, median of %d rounds x %d operations (1 warm-up each), "
        "each from the last process's call to the last process's return; bus bandwidth = 2(n-1)/n x bytes / time\n",
        mib, rounds, iters);
    std::printf("%-6s %-24s %10s %15s %12s %10s   %s\n", "procs", "implementation", "ms", "(min-max)", "bus GB/s",
                "vs Gloo", "ring exchange only (no master round trips)");
    const double bytes = double(mib) * 1024 * 1024;
    for (const int procs : procsList) {
        const double factor = 2.0 * (procs - 1) / procs;
        // The implementations take turns, --rounds times, so a change in the machine's load hits them alike; each
        // row is the median over all rounds' operations.
        std::vector<QString> names;
        if (!python.isEmpty())
            names.push_back(QStringLiteral("torch.distributed Gloo"));
        names.push_back(QStringLiteral("Cohort f32"));
        if (compareChecks)
            names.push_back(QStringLiteral("Cohort f32 no checks"));
        if (compareSealed) {
            names.push_back(QStringLiteral("Cohort f32 integrity"));
            names.push_back(QStringLiteral("Cohort f32 encryption"));
        }
        names.push_back(QStringLiteral("Cohort uint8 (eff.)"));
        if (compareChecks)
            names.push_back(QStringLiteral("Cohort uint8 no checks"));
        if (compareSealed) {
            names.push_back(QStringLiteral("Cohort uint8 integrity"));
            names.push_back(QStringLiteral("Cohort uint8 encryption"));
        }
        std::map<QString, std::vector<double>> times, ringTimes;
        std::map<QString, bool> failed;
        for (int round = 0; round < rounds; ++round) {
            for (const QString &name : names) {
                std::vector<double> t =
                    name.startsWith(QStringLiteral("torch"))
                        ? runGloo(python, procs, mib, iters)
                        : runCohort(&ringTimes[name], procs, mib, iters,
                                    name.contains(QStringLiteral("uint8")) ? QStringLiteral("u8")
                                                                           : QStringLiteral("none"),
                                    block, !name.contains(QStringLiteral("no checks")),
                                    name.contains(QStringLiteral("integrity"))    ? QStringLiteral("integrity")
                                    : name.contains(QStringLiteral("encryption")) ? QStringLiteral("encryption")
                                                                                  : QString());
                if (t.empty())
                    failed[name] = true;
                times[name].insert(times[name].end(), t.begin(), t.end());
            }
        }
        double glooBus = 0;
        for (const QString &name : names) {
            if (failed[name] || times[name].empty()) {
                std::printf("%-6d %-24s %10s\n", procs, qPrintable(name), "failed");
                continue;
            }
            const double ms = median(times[name]);
            const auto [fastest, slowest] = std::minmax_element(times[name].begin(), times[name].end());
            const QString spread = QStringLiteral("(%1-%2)").arg(*fastest, 0, 'f', 1).arg(*slowest, 0, 'f', 1);
            const double bus = factor * bytes / (ms / 1000.0) / 1e9;
            if (name.startsWith(QStringLiteral("torch")))
                glooBus = bus;
            QString ringOnly;
            if (!ringTimes[name].empty())
                ringOnly = QStringLiteral("%1 ms, %2 GB/s")
                               .arg(median(ringTimes[name]), 0, 'f', 1)
                               .arg(factor * bytes / (median(ringTimes[name]) / 1000.0) / 1e9, 0, 'f', 3);
            std::printf("%-6d %-24s %10.1f %15s %12.3f %9s   %s\n", procs, qPrintable(name), ms, qPrintable(spread),
                        bus, glooBus > 0 ? qPrintable(QStringLiteral("%1x").arg(bus / glooBus, 0, 'f', 2)) : "-",
                        qPrintable(ringOnly));
            std::fflush(stdout);
        }
    }
    return 0;
}
