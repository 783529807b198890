// Checkpoint download throughput from a loopback relay (nginx), Cohort against named peers in one run:
//   ./build/tests/bench/bench_shardcast [MiB=512]
// - cohort: SHARDCAST downloader, 8 parallel shard requests, every shard and the whole file SHA-256-verified,
//           written with positional writes into a preallocated file, then marked stable (usable); the time
//           until the background sync has put it on disk is printed too;
// - curl:   one stream of the same bytes (the whole file), unverified;
// - aria2c: -x8 -s8 of the whole file, unverified.
// Then the resume overhead: the download is interrupted at ~50 % (object destroyed, as on quit) and resumed;
// the bytes the relay served beyond the file size and the extra seconds are printed.
#include "NginxRelay.h"
#include "TestCheckpoint.h"
#include "net/Identity.h"
#include "shardcast/Downloader.h"
#include "shardcast/Publisher.h"
#include "shardcast/RelayServer.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QTimer>
#include <cstdio>

using namespace cohort;
using namespace cohort::shardcast;

namespace {
double runPeer(const QString &program, const QStringList &args, const QString &output, qint64 size)
{
    if (QStandardPaths::findExecutable(program).isEmpty())
        return -1;
    QFile::remove(output);
    QElapsedTimer t;
    t.start();
    QProcess p;
    p.start(program, args);
    p.waitForFinished(600'000);
    const double seconds = t.nsecsElapsed() / 1e9;
    if (p.exitCode() != 0 || QFileInfo(output).size() != size) {
        std::fprintf(stderr, "%s failed: %s\n", qPrintable(program), p.readAllStandardError().constData());
        return -1;
    }
    QFile::remove(output);
    return size / 1e6 / seconds;
}

// Runs a download to its end (or until stopAtBytes), returns seconds.
double runCohort(const DownloadRequest &request, qint64 stopAtBytes = -1)
{
    Downloader d(request);
    QEventLoop loop;
    QObject::connect(&d, &Downloader::finished, &loop, &QEventLoop::quit);
    QObject::connect(&d, &Downloader::failed, &loop, [&loop](const QString &e) {
        std::fprintf(stderr, "cohort download failed: %s\n", qPrintable(e));
        loop.quit();
    });
    if (stopAtBytes > 0)
        QObject::connect(&d, &Downloader::progressChanged, &loop, [&loop, stopAtBytes](const DownloadProgress &p) {
            if (p.doneBytes >= stopAtBytes)
                loop.quit();
        });
    QElapsedTimer t;
    t.start();
    d.start();
    loop.exec();
    return t.nsecsElapsed() / 1e9;
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const qint64 mib = argc > 1 ? std::max(8, atoi(argv[1])) : 512;
    QTemporaryDir dir(QDir::currentPath() + QStringLiteral("/bench-shardcast-XXXXXX")); // on the build disk, not tmpfs
    const QString checkpoint = dir.filePath(QStringLiteral("policy.safetensors"));
    if (const QString e = test::writeTestCheckpoint(checkpoint, mib << 20, 1); !e.isEmpty())
        return std::fprintf(stderr, "%s\n", qPrintable(e)), 1;
    const qint64 size = QFileInfo(checkpoint).size();
    auto hub = Identity::loadOrCreate(dir.filePath(QStringLiteral("hubkey")));
    const QString tree = dir.filePath(QStringLiteral("tree"));
    Publisher publisher(tree, *hub);
    auto published = publisher.publish(QStringLiteral("arith-rl"), checkpoint);
    if (!published)
        return std::fprintf(stderr, "%s\n", qPrintable(published.error())), 1;
    QDir().mkpath(tree + QStringLiteral("/full"));
    QFile::copy(checkpoint, tree + QStringLiteral("/full/policy.safetensors"));

    test::NginxRelay nginx;
    if (!nginx.isAvailable())
        return std::fprintf(stderr, "nginx is needed (installer/install-deps-debian.sh)\n"), 1;
    if (const QString e = nginx.start(tree); !e.isEmpty())
        return std::fprintf(stderr, "%s\n", qPrintable(e)), 1;

    DownloadRequest request;
    request.taskId = QStringLiteral("arith-rl");
    request.manifestBytes = published->bytes;
    request.signatureBytes = published->signatureFileBytes();
    request.pinnedHubKey = hub->publicKey();
    request.relays = {nginx.url()};
    request.checkpointsDir = dir.filePath(QStringLiteral("node"));

    std::printf("SHARDCAST fetch of a %lld MiB checkpoint (%lld shards of %lld MiB) from nginx on loopback\n", mib,
                qint64(published->manifest.shards.size()), published->manifest.shardSize >> 20);
    const double cohortSeconds = runCohort(request);
    // The version is usable at `finished`; its bytes reach the disk in the background. Wait for that before
    // the peers run, and report it.
    QElapsedTimer durable;
    durable.start();
    QThreadPool::globalInstance()->waitForDone();
    const double durableSeconds = durable.nsecsElapsed() / 1e9;
    const QString model = stableVersionDir(request.checkpointsDir, request.taskId, 1) + QStringLiteral("/model.safetensors");
    if (QFileInfo(model).size() != size)
        return std::fprintf(stderr, "cohort download did not complete\n"), 1;
    QDir(request.checkpointsDir).removeRecursively();
    const double cohortMBps = size / 1e6 / cohortSeconds;
    const QString out = dir.filePath(QStringLiteral("peer.out"));
    const QString url = nginx.url() + QStringLiteral("/full/policy.safetensors");
    const double curl = runPeer(QStringLiteral("curl"), {QStringLiteral("-sS"), QStringLiteral("-o"), out, url}, out, size);
    const double aria = runPeer(QStringLiteral("aria2c"),
                                {QStringLiteral("-q"), QStringLiteral("-x8"), QStringLiteral("-s8"), QStringLiteral("--file-allocation=none"),
                                 QStringLiteral("--allow-overwrite=true"), QStringLiteral("-d"), dir.path(), QStringLiteral("-o"),
                                 QStringLiteral("peer.out"), url},
                                out, size);
    std::printf("  cohort (8 parallel, every shard + whole file verified): %7.0f MB/s   usable after %.2f s, on disk (fsync) %.2f s later\n",
                cohortMBps, cohortSeconds, durableSeconds);
    if (curl > 0)
        std::printf("  curl (1 stream, unverified):                           %7.0f MB/s   cohort/curl   = %.2fx\n", curl, cohortMBps / curl);
    if (aria > 0)
        std::printf("  aria2c -x8 (unverified):                               %7.0f MB/s   cohort/aria2c = %.2fx\n", aria, cohortMBps / aria);

    // Resume overhead, measured at a relay that counts what it serves.
    RelayServer relay(tree);
    relay.listenOn(QHostAddress::LocalHost, 0, nullptr);
    request.relays = {relay.url()};
    const double firstPart = runCohort(request, size / 2);
    const double rest = runCohort(request);
    const qint64 extra = relay.bytesServed() - size;
    std::printf("  resume after an interruption at 50%%: %.2f MiB re-fetched (bound: 8 x %lld MiB), %.2f s in total vs %.2f s "
                "uninterrupted\n",
                extra / 1048576.0, published->manifest.shardSize >> 20, firstPart + rest, cohortSeconds);
    return 0;
}
