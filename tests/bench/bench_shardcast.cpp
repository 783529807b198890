// Checkpoint download throughput from a loopback relay (nginx), Cohort against named peers in one run:
//   ./build/tests/bench/bench_shardcast [MiB=512] [--rounds N=5]
// Every side is a process, timed the same way (from its start to its exit, on one monotonic clock), against the
// same nginx serving the same file from the page cache, in turns: round r starts with a different side.
// - cohort: this program's --fetch mode: GETs the signed manifest and its signature from the relay, checks them
//           against the pinned hub key, fetches with 8 parallel shard requests, verifies every shard and the whole
//           file (SHA-256), writes with positional writes into a preallocated file and marks the version usable;
//           it exits there (the background sync to disk is measured once, apart);
// - curl:   one stream of the same bytes (the whole file), unverified; and curl then sha256sum (verified once);
// - aria2c: -x8 -s8 of the whole file, unverified.
// Then the resume overhead, at the same nginx: a fetch process that stops at ~50 % as a kill would (_Exit, no
// clean-up), then a second that resumes; the bytes nginx served beyond the file size (its access log) and the
// seconds beyond an uninterrupted fetch of the same round.
//   ./build/tests/bench/bench_shardcast --fetch URL --task T --hub-key BASE64 --dir D [--stop-at BYTES] [--durable]
#include "BenchSpread.h"
#include "NginxRelay.h"
#include "TestCheckpoint.h"
#include "net/Identity.h"
#include "shardcast/Downloader.h"
#include "shardcast/Manifest.h"
#include "shardcast/Publisher.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThreadPool>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

using namespace cohort;
using namespace cohort::shardcast;

using cohort::bench::Spread;
using cohort::bench::spreadOf;

namespace {

QByteArray httpGet(QNetworkAccessManager &net, const QString &url, QString *error)
{
    QNetworkReply *reply = net.get(QNetworkRequest(QUrl(url)));
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const QByteArray body = reply->readAll();
    if (reply->error() != QNetworkReply::NoError)
        *error = QStringLiteral("%1: %2").arg(url, reply->errorString());
    reply->deleteLater();
    return body;
}

// --fetch: a node's checkpoint download as a process of its own. Exit 0 once usable (with --stop-at: once that
// many bytes are on disk, without any clean-up, as a kill would leave it).
int fetch(const QStringList &args)
{
    QCommandLineParser parser;
    for (const char *name : {"fetch", "task", "hub-key", "dir", "stop-at"})
        parser.addOption({QString::fromLatin1(name), QString::fromLatin1(name), QStringLiteral("value")});
    parser.addOption({QStringLiteral("durable"), QStringLiteral("wait for the background sync, print how long")});
    parser.process(args);
    const QString relay = parser.value(QStringLiteral("fetch"));
    DownloadRequest request;
    request.taskId = parser.value(QStringLiteral("task"));
    request.pinnedHubKey = QByteArray::fromBase64(parser.value(QStringLiteral("hub-key")).toLatin1());
    request.relays = {relay};
    request.checkpointsDir = parser.value(QStringLiteral("dir"));
    QNetworkAccessManager net;
    QString error;
    const QString manifestUrl = QStringLiteral("%1/%2/%3/manifest.json").arg(relay, request.taskId, versionDirName(1));
    request.manifestBytes = httpGet(net, manifestUrl, &error);
    request.signatureBytes = httpGet(net, manifestUrl + QStringLiteral(".sig"), &error);
    if (!error.isEmpty())
        return std::fprintf(stderr, "%s\n", qPrintable(error)), 1;
    const qint64 stopAt = parser.value(QStringLiteral("stop-at")).toLongLong();
    Downloader d(request);
    int rc = 1;
    QEventLoop loop;
    QObject::connect(&d, &Downloader::finished, &loop, [&] {
        rc = 0;
        loop.quit();
    });
    QObject::connect(&d, &Downloader::failed, &loop, [&](const QString &e) {
        std::fprintf(stderr, "cohort download failed: %s\n", qPrintable(e));
        loop.quit();
    });
    if (stopAt > 0)
        QObject::connect(&d, &Downloader::progressChanged, &loop, [stopAt](const DownloadProgress &p) {
            if (p.doneBytes >= stopAt)
                std::_Exit(0);
        });
    d.start();
    loop.exec();
    if (rc == 0 && parser.isSet(QStringLiteral("durable"))) {
        QElapsedTimer durable;
        durable.start();
        QThreadPool::globalInstance()->waitForDone();
        std::printf("durable %.3f\n", durable.nsecsElapsed() / 1e9);
    }
    std::fflush(stdout);
    std::_Exit(rc); // usable is the end: the page cache holds the bytes, as it does curl's
}

struct Run {
    double seconds = -1;
    QString output;
};

Run runProcess(const QString &program, const QStringList &args)
{
    QElapsedTimer t;
    t.start();
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(600'000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        std::fprintf(stderr, "%s failed: %s\n", qPrintable(program), p.readAllStandardError().constData());
        return {};
    }
    return {t.nsecsElapsed() / 1e9, QString::fromUtf8(p.readAllStandardOutput())};
}

// Bytes nginx served so far (the body sizes in its access log, combined format).
qint64 bytesServed(const test::NginxRelay &nginx)
{
    static const QRegularExpression line(QStringLiteral("\" (\\d{3}) (\\d+) "));
    qint64 total = 0;
    for (auto it = line.globalMatch(nginx.accessLog()); it.hasNext();)
        total += it.next().captured(2).toLongLong();
    return total;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (app.arguments().contains(QStringLiteral("--fetch")))
        return fetch(app.arguments());
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("MiB"), QStringLiteral("checkpoint size (default 512)"));
    parser.addOption(
        {QStringLiteral("rounds"), QStringLiteral("rounds (default 5)"), QStringLiteral("n"), QStringLiteral("5")});
    parser.process(app);
    const qint64 mib =
        parser.positionalArguments().isEmpty() ? 512 : std::max(8, parser.positionalArguments()[0].toInt());
    const int rounds = std::max(1, parser.value(QStringLiteral("rounds")).toInt());
    QTemporaryDir dir(QDir::currentPath() + QStringLiteral("/bench-shardcast-XXXXXX")); // on the build disk, not tmpfs
    const QString checkpoint = dir.filePath(QStringLiteral("policy.safetensors"));
    if (const QString e = test::writeTestCheckpoint(checkpoint, mib << 20, 1); !e.isEmpty())
        return std::fprintf(stderr, "%s\n", qPrintable(e)), 1;
    const qint64 size = QFileInfo(checkpoint).size();
    auto hub = Identity::loadOrCreate(dir.filePath(QStringLiteral("hubkey")));
    const QString tree = dir.filePath(QStringLiteral("tree"));
    const QString task = QStringLiteral("arith-rl");
    Publisher publisher(tree, *hub);
    auto published = publisher.publish(task, checkpoint);
    if (!published)
        return std::fprintf(stderr, "%s\n", qPrintable(published.error())), 1;
    QDir().mkpath(tree + QStringLiteral("/full"));
    QFile::copy(checkpoint, tree + QStringLiteral("/full/policy.safetensors"));

    test::NginxRelay nginx;
    if (!nginx.isAvailable())
        return std::fprintf(stderr, "nginx is needed (installer/install-deps-debian.sh)\n"), 1;
    if (const QString e = nginx.start(tree); !e.isEmpty())
        return std::fprintf(stderr, "%s\n", qPrintable(e)), 1;

    const QString self = QCoreApplication::applicationFilePath();
    const QString nodeDir = dir.filePath(QStringLiteral("node"));
    const QStringList fetchArgs{QStringLiteral("--fetch"),   nginx.url(),
                                QStringLiteral("--task"),    task,
                                QStringLiteral("--hub-key"), QString::fromLatin1(hub->publicKey().toBase64()),
                                QStringLiteral("--dir"),     nodeDir};
    const QString out = dir.filePath(QStringLiteral("peer.out"));
    const QString url = nginx.url() + QStringLiteral("/full/policy.safetensors");
    struct Side {
        const char *name;
        QString program;
        QStringList args;
    };
    std::vector<Side> sides{
        {"cohort", self, fetchArgs},
        {"curl", QStringLiteral("curl"), {QStringLiteral("-sS"), QStringLiteral("-o"), out, url}},
        // verified as a person would check a download: its SHA-256 afterwards
        {"curl+sha256sum",
         QStringLiteral("sh"),
         {QStringLiteral("-c"), QStringLiteral("curl -sS -o \"$1\" \"$2\" && sha256sum \"$1\" >/dev/null"),
          QStringLiteral("sh"), out, url}},
        {"aria2c",
         QStringLiteral("aria2c"),
         {QStringLiteral("-q"), QStringLiteral("-x8"), QStringLiteral("-s8"), QStringLiteral("--file-allocation=none"),
          QStringLiteral("--allow-overwrite=true"), QStringLiteral("-d"), dir.path(), QStringLiteral("-o"),
          QStringLiteral("peer.out"), url}}};
    std::erase_if(sides, [](const Side &s) { return QStandardPaths::findExecutable(s.program).isEmpty(); });
    // Each side's output is checked and removed before the next: a cohort run ends with a usable version.
    const auto delivered = [&](const Side &side) {
        bool ok;
        if (side.program == self) {
            ok = QFileInfo(stableVersionDir(nodeDir, task, 1) + QStringLiteral("/model.safetensors")).size() == size;
            QDir(nodeDir).removeRecursively();
        } else {
            ok = QFileInfo(out).size() == size;
            QFile::remove(out);
        }
        return ok;
    };

    std::printf("SHARDCAST fetch of a %lld MiB checkpoint (%lld shards of %lld MiB) from nginx on loopback, %d rounds, "
                "each side a process timed from start to exit, sides taking turns\n",
                mib, qint64(published->manifest.shards.size()), published->manifest.shardSize >> 20, rounds);
    std::map<std::string, std::vector<double>> mbps;
    std::map<std::string, std::vector<double>> ratios; // cohort / peer, per round
    for (int r = 0; r < rounds; ++r) {
        std::map<std::string, double> round;
        for (size_t i = 0; i < sides.size(); ++i) {
            const Side &side = sides[(i + size_t(r)) % sides.size()];
            const Run run = runProcess(side.program, side.args);
            if (run.seconds < 0 || !delivered(side))
                return std::fprintf(stderr, "%s did not deliver the file\n", side.name), 1;
            round[side.name] = size / 1e6 / run.seconds;
            mbps[side.name].push_back(round[side.name]);
        }
        for (const auto &[name, value] : round)
            if (name != "cohort")
                ratios[name].push_back(round["cohort"] / value);
        std::printf("  round %d:", r + 1);
        for (const auto &[name, value] : round)
            std::printf("  %s %.0f MB/s", name.c_str(), value);
        std::printf("\n");
    }
    for (const auto &[name, values] : mbps) {
        const Spread s = spreadOf(values);
        std::printf("  %-14s median %5.0f MB/s (min-max %.0f-%.0f)", name.c_str(), s.median, s.min, s.max);
        if (ratios.count(name)) {
            const Spread q = spreadOf(ratios[name]);
            std::printf("   cohort/%s median %.2fx (min-max %.2f-%.2fx)", name.c_str(), q.median, q.min, q.max);
        }
        std::printf("\n");
    }

    // The resume overhead, at the same nginx: uninterrupted and interrupted-then-resumed fetches take turns.
    std::vector<double> extraSeconds, extraMiB;
    for (int r = 0; r < rounds; ++r) {
        double whole = -1, interrupted = -1;
        qint64 served = 0;
        for (int i = 0; i < 2; ++i) {
            if ((i + r) % 2 == 0) {
                const Run run = runProcess(self, fetchArgs);
                if (run.seconds < 0 || !delivered(sides.front()))
                    return std::fprintf(stderr, "the uninterrupted fetch failed\n"), 1;
                whole = run.seconds;
            } else {
                const qint64 before = bytesServed(nginx);
                const Run first =
                    runProcess(self, fetchArgs + QStringList{QStringLiteral("--stop-at"), QString::number(size / 2)});
                const Run rest = runProcess(self, fetchArgs);
                if (first.seconds < 0 || rest.seconds < 0 || !delivered(sides.front()))
                    return std::fprintf(stderr, "the interrupted fetch failed\n"), 1;
                interrupted = first.seconds + rest.seconds;
                served = bytesServed(nginx) - before;
            }
        }
        extraSeconds.push_back(interrupted - whole);
        // Each process GETs the manifest and its signature once.
        const qint64 manifests = 2 * qint64(published->bytes.size() + published->signatureFileBytes().size());
        extraMiB.push_back((served - size - manifests) / 1048576.0);
    }
    const Spread bytes = spreadOf(extraMiB), seconds = spreadOf(extraSeconds);
    std::printf("  resume after an interruption at 50%%: %.2f MiB re-fetched (min-max %.2f-%.2f; bound 8 x %lld MiB), "
                "+%.2f s (min-max %.2f-%.2f) over an uninterrupted fetch\n",
                bytes.median, bytes.min, bytes.max, published->manifest.shardSize >> 20, seconds.median, seconds.min,
                seconds.max);

    const Run durable = runProcess(self, fetchArgs + QStringList{QStringLiteral("--durable")});
    if (durable.seconds >= 0 && delivered(sides.front()))
        std::printf("  after usable, the background sync had it on disk %s s later\n",
                    qPrintable(durable.output.section(QLatin1Char(' '), 1).trimmed()));
    return 0;
}
