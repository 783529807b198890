// Hashing and request-signing throughput.
//   ./build/tests/bench/bench_hashing [MiB]
// Prints: our SHA-256 (OpenSSL EVP) vs the named peer QCryptographicHash::Sha256 on the same buffer,
// ed25519 request signing / verification rates (the hub verifies every node request), and the shared state's digest
// (collectives::tensorDigest, SHA-256) against the 64-bit hash it replaced (kept here as the peer), the two
// alternating, 7 times each: median and spread.
#include "collectives/Communicator.h"
#include "core/Sha256.h"
#include "net/Identity.h"
#include "net/ReplayGuard.h"
#include "net/RequestSigning.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

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
// The shared state's hash before SHA-256 (engine/collectives until 2026-12-02): four multiply-xorshift lanes over
// 8-byte words — fast, and invertible (a forger could match it by solving 32 bytes).
uint64_t previousStateHash(const uint8_t *bytes, size_t n)
{
    constexpr uint64_t k = 0x9e3779b97f4a7c15ull;
    uint64_t lane[4] = {0x243f6a8885a308d3ull, 0x13198a2e03707344ull, 0xa4093822299f31d0ull, 0x082efa98ec4e6c89ull};
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int l = 0; l < 4; ++l) {
            uint64_t w;
            std::memcpy(&w, bytes + i + 8 * size_t(l), 8);
            lane[l] = (lane[l] ^ w) * k;
            lane[l] ^= lane[l] >> 29;
        }
    uint64_t h = uint64_t(n);
    for (; i < n; ++i)
        h = (h ^ bytes[i]) * k;
    for (int l = 0; l < 4; ++l) {
        h ^= (lane[l] << (13 * l + 7)) | (lane[l] >> (64 - (13 * l + 7)));
        h *= k;
        h ^= h >> 31;
    }
    return h;
}

struct Spread {
    double median = 0, low = 0, high = 0;
};
Spread spreadOf(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v.front(), v.back()};
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

    {
        const auto *bytes = reinterpret_cast<const uint8_t *>(buffer.constData());
        const size_t n = size_t(buffer.size());
        std::vector<double> sha, previous;
        uint64_t sink = 0;
        for (int round = 0; round < 7; ++round) { // alternating, so a change in the machine's load hits both alike
            QElapsedTimer t;
            t.start();
            const QByteArray d = cohort::collectives::tensorDigest({bytes, n});
            sha.push_back(double(n) / 1e6 / (double(t.nsecsElapsed()) / 1e9));
            sink += uint8_t(d[0]);
            t.restart();
            sink += previousStateHash(bytes, n);
            previous.push_back(double(n) / 1e6 / (double(t.nsecsElapsed()) / 1e9));
        }
        const Spread a = spreadOf(sha), b = spreadOf(previous);
        std::printf(
            "shared-state digest %d MiB, 7 alternating runs: SHA-256 %.0f MB/s (%.0f-%.0f), previous 64-bit hash "
            "%.0f MB/s (%.0f-%.0f), SHA-256 takes %.1fx as long (sink %llu: keeps the hashes from being optimised "
            "away)\n",
            mib, a.median, a.low, a.high, b.median, b.low, b.high, b.median / a.median,
            static_cast<unsigned long long>(sink % 10));
    }

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
            verified +=
                verifier.verify("POST", "/v1/nodes/heartbeat", lookup, body, 1'800'000'000'000 + i, nullptr, nullptr);
        }
    });
    std::printf("signed requests (512-byte body): sign %.0f/s, verify %.0f/s (%d/%d verified)\n", n / tSign,
                n / tVerify, verified, n);
    return verified == n ? 0 : 1;
}
