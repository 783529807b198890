// Hashing and request-signing throughput.
//   ./build/tests/bench/bench_hashing [MiB]
// Prints: our SHA-256 (OpenSSL EVP) vs the named peer QCryptographicHash::Sha256 on the same buffer,
// and ed25519 request signing / verification rates (the hub verifies every node request).
#include "core/Sha256.h"
#include "net/Identity.h"
#include "net/ReplayGuard.h"
#include "net/RequestSigning.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <cstdio>

namespace {
template <typename F>
double bestSeconds(int repeats, F &&f)
{
    double best = 1e30;
    for (int i = 0; i < repeats; ++i) {
        QElapsedTimer t;
        t.start();
        f();
        best = std::min(best, t.nsecsElapsed() / 1e9);
    }
    return best;
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int mib = argc > 1 ? std::max(1, atoi(argv[1])) : 256;
    QByteArray buffer(qsizetype(mib) << 20, Qt::Uninitialized);
    QRandomGenerator gen(42);
    gen.fillRange(reinterpret_cast<quint32 *>(buffer.data()), buffer.size() / 4);

    QByteArray ours, peer;
    const double tOurs = bestSeconds(3, [&] { ours = cohort::Sha256::hash(buffer); });
    const double tPeer = bestSeconds(3, [&] { peer = QCryptographicHash::hash(buffer, QCryptographicHash::Sha256); });
    if (ours != peer) {
        std::fprintf(stderr, "digests differ!\n");
        return 1;
    }
    const double mbOurs = buffer.size() / 1e6 / tOurs, mbPeer = buffer.size() / 1e6 / tPeer;
    std::printf("sha256 %d MiB: cohort (OpenSSL EVP) %.0f MB/s, peer QCryptographicHash %.0f MB/s, ratio %.2fx\n", mib,
                mbOurs, mbPeer, mbOurs / mbPeer);

    QTemporaryDir dir;
    auto id = cohort::Identity::loadOrCreate(dir.path());
    if (!id)
        return 1;
    const QByteArray body(512, 'x');
    const int n = 5000;
    QList<cohort::HeaderList> signedHeaders;
    const double tSign = bestSeconds(1, [&] {
        for (int i = 0; i < n; ++i)
            signedHeaders.append(cohort::signRequest(*id, "POST", "/v1/nodes/heartbeat", body, 1'800'000'000'000 + i));
    });
    cohort::ReplayGuard replays(cohort::signing::kDefaultWindowMs);
    cohort::RequestVerifier verifier(replays);
    int verified = 0;
    const double tVerify = bestSeconds(1, [&] {
        for (int i = 0; i < n; ++i) {
            const auto &h = signedHeaders[i];
            const auto lookup = [&h](const QByteArray &name) {
                for (const auto &[k, v] : h)
                    if (k == name)
                        return v;
                return QByteArray();
            };
            verified += verifier.verify("POST", "/v1/nodes/heartbeat", lookup, body, 1'800'000'000'000 + i, nullptr, nullptr);
        }
    });
    std::printf("signed requests (512-byte body): sign %.0f/s, verify %.0f/s (%d/%d verified)\n", n / tSign, n / tVerify,
                verified, n);
    return verified == n ? 0 : 1;
}
