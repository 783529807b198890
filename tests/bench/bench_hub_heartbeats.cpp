// Signed heartbeats a real cohort-hub sustains, and their latency, three ways in one invocation: plain HTTP, HTTPS
// (the hub's own TLS, a certificate of a test CA made here), and plain HTTP while a hostile load runs (thousands of
// idle connections, a relay reader that never reads, a registration flood and a replay flood from 127.0.0.2).
// Each side: one hub process, `clients` keep-alive connections from as many threads, each sending signed
// heartbeats back to back for `seconds`; latency is timed per request around write + full answer, the same way on
// every side. Sides alternate, repeated `rounds` times; printed: median and spread (min-max) of throughput, p50 and
// p99, and the hub's peak resident memory (VmHWM) per side.
//   build/tests/bench/bench_hub_heartbeats [rounds=5] [seconds=5] [clients=4]
#include "TestCertificates.h"
#include "TestSupport.h"
#include "net/Identity.h"
#include "net/RequestSigning.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QMap>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QThread>
#include <QUrl>

#include <algorithm>
#include <arpa/inet.h>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace cohort;
using namespace cohort::test;

namespace {

struct Sample {
    double perSecond = 0;
    double p50Ms = 0;
    double p99Ms = 0;
    qint64 peakKiB = 0;
    int failures = 0;
};

QByteArray heartbeatRequest(const Identity &id, const QByteArray &hubKey)
{
    const QByteArray body = R"({"state":"idle"})";
    QByteArray request =
        "POST /v1/nodes/heartbeat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: " +
        QByteArray::number(body.size()) + "\r\n";
    for (const auto &[name, value] :
         signRequest(id, "POST", "/v1/nodes/heartbeat", body, QDateTime::currentMSecsSinceEpoch(), {}, hubKey))
        request += name + ": " + value + "\r\n";
    return request + "\r\n" + body;
}

// Reads one HTTP answer (head + Content-Length body); returns its status, 0 on failure.
int readAnswer(QTcpSocket &socket)
{
    QByteArray buffer;
    qsizetype headEnd = -1;
    while ((headEnd = buffer.indexOf("\r\n\r\n")) < 0) {
        if (!socket.bytesAvailable() && !socket.waitForReadyRead(10'000))
            return 0;
        buffer += socket.readAll();
    }
    const QByteArray head = buffer.left(headEnd).toLower();
    const qsizetype at = head.indexOf("content-length:");
    const qint64 length = at < 0 ? 0 : head.mid(at + 15, head.indexOf('\r', at) - at - 15).trimmed().toLongLong();
    while (buffer.size() - headEnd - 4 < length) {
        if (!socket.bytesAvailable() && !socket.waitForReadyRead(10'000))
            return 0;
        buffer += socket.readAll();
    }
    return buffer.mid(9, 3).toInt();
}

Sample measure(const StartedHub &hub, const QList<Identity> &ids, const QByteArray &hubKey, const QString &caFile,
               int seconds)
{
    const QUrl url(hub.url);
    const bool tls = url.scheme() == QLatin1String("https");
    std::vector<std::vector<double>> latencies(ids.size());
    std::vector<int> failures(ids.size(), 0);
    std::atomic<qint64> done{0};
    std::vector<std::thread> threads;
    for (int c = 0; c < ids.size(); ++c) {
        threads.emplace_back([&, c] {
            std::unique_ptr<QTcpSocket> socket(tls ? new QSslSocket : new QTcpSocket);
            if (tls) {
                auto *ssl = static_cast<QSslSocket *>(socket.get());
                QSslConfiguration config = QSslConfiguration::defaultConfiguration();
                config.addCaCertificates(QSslCertificate::fromPath(caFile));
                ssl->setSslConfiguration(config);
                ssl->connectToHostEncrypted(QStringLiteral("127.0.0.1"), quint16(url.port()));
                if (!ssl->waitForEncrypted(10'000)) {
                    ++failures[c];
                    return;
                }
            } else {
                socket->connectToHost(QStringLiteral("127.0.0.1"), quint16(url.port()));
                if (!socket->waitForConnected(10'000)) {
                    ++failures[c];
                    return;
                }
            }
            QElapsedTimer total;
            total.start();
            while (total.elapsed() < seconds * 1000) {
                const QByteArray request =
                    heartbeatRequest(ids[c], hubKey); // signing is the node's cost, outside the timing
                QElapsedTimer one;
                one.start();
                socket->write(request);
                const int status = readAnswer(*socket);
                const double ms = double(one.nsecsElapsed()) / 1e6;
                if (status != 200) {
                    ++failures[c];
                    if (status == 0)
                        return;
                    continue;
                }
                latencies[c].push_back(ms);
                ++done;
            }
        });
    }
    for (std::thread &t : threads)
        t.join();
    std::vector<double> all;
    Sample s;
    for (int c = 0; c < ids.size(); ++c) {
        all.insert(all.end(), latencies[c].begin(), latencies[c].end());
        s.failures += failures[c];
    }
    std::sort(all.begin(), all.end());
    s.perSecond = double(done) / seconds;
    s.p50Ms = all.empty() ? 0 : all[all.size() / 2];
    s.p99Ms = all.empty() ? 0 : all[std::min(all.size() - 1, size_t(double(all.size()) * 0.99))];
    s.peakKiB = processMemoryKiB(hub.process->process().processId(), "VmHWM");
    return s;
}

// The hostile load, until `stop`: idle half-sent heads from 32 addresses (127.0.0.2-33; each source is held to the
// hub's per-source cap, all of them to its total cap), re-opened as the hub closes them at its head deadline; relay
// readers that never read; signed requests from a key nobody registered. `held`: connections open at the end.
void hostileLoad(const StartedHub &hub, std::atomic<bool> &stop, std::atomic<qint64> &attempts,
                 std::atomic<qint64> &held)
{
    const auto connectFrom = [](int source, quint16 port) {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in from{}, to{};
        from.sin_family = to.sin_family = AF_INET;
        from.sin_addr.s_addr = htonl((127u << 24) | quint32(2 + source));
        ::inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
        to.sin_port = htons(port);
        timeval tv{1, 0};
        ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
        if (::bind(fd, reinterpret_cast<sockaddr *>(&from), sizeof from) != 0 ||
            ::connect(fd, reinterpret_cast<sockaddr *>(&to), sizeof to) != 0) {
            ::close(fd);
            return -1;
        }
        return fd;
    };
    const quint16 api = quint16(QUrl(hub.url).port()), relay = quint16(QUrl(hub.relayUrl).port());
    std::vector<int> open;
    const QByteArray half = "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    const QByteArray relayAbuse = "GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + QByteArray(256 << 10, 'A');
    auto junkId = Identity::loadOrCreate(
        QDir::tempPath() + QStringLiteral("/cohort-bench-junk-%1").arg(QCoreApplication::applicationPid()));
    int round = 0;
    while (!stop) {
        for (int source = 0; source < 32 && !stop; ++source) {
            for (int i = 0; i < 8; ++i, ++attempts)
                if (const int fd = connectFrom(source, api); fd >= 0) {
                    ::send(fd, half.constData(), size_t(half.size()), MSG_NOSIGNAL | MSG_DONTWAIT);
                    open.push_back(fd);
                }
            if (const int fd = connectFrom(source, relay); fd >= 0) {
                ::send(fd, relayAbuse.constData(), size_t(relayAbuse.size()), MSG_NOSIGNAL | MSG_DONTWAIT);
                open.push_back(fd);
            }
            ++attempts;
        }
        if (junkId) {
            const QByteArray request = heartbeatRequest(*junkId, {});
            if (const int fd = connectFrom(round % 32, api); fd >= 0) {
                for (int i = 0; i < 10; ++i) // pipelined: each refused as not registered
                    ::send(fd, request.constData(), size_t(request.size()), MSG_NOSIGNAL | MSG_DONTWAIT);
                open.push_back(fd);
            }
        }
        // Forget the ones the hub closed (refused or timed out); keep the rest open.
        std::vector<int> still;
        for (int fd : open) {
            char c;
            const ssize_t n = ::recv(fd, &c, 1, MSG_DONTWAIT | MSG_PEEK);
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK))
                ::close(fd);
            else
                still.push_back(fd);
        }
        open.swap(still);
        held = qint64(open.size());
        ++round;
    }
    for (int fd : open)
        ::close(fd);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (qEnvironmentVariableIsEmpty("COHORT_BUILD_DIR")) // build/tests/bench/ -> build/
        qputenv("COHORT_BUILD_DIR",
                QDir(QCoreApplication::applicationDirPath() + QStringLiteral("/../..")).absolutePath().toUtf8());
    const int rounds = argc > 1 ? std::max(1, atoi(argv[1])) : 5;
    const int seconds = argc > 2 ? std::max(1, atoi(argv[2])) : 5;
    const int clients = argc > 3 ? std::max(1, atoi(argv[3])) : 4;
    QTemporaryDir dir;
    TestCertificates certs(dir.filePath(QStringLiteral("pki")));
    const PemPair pem = certs.leaf(QStringLiteral("hub"), {QStringLiteral("127.0.0.1")}, 30, 7);
    if (!certs.ok() || pem.certificateFile.isEmpty()) {
        std::fprintf(stderr, "cannot make test certificates\n");
        return 1;
    }
    QList<Identity> ids;
    for (int c = 0; c < clients; ++c)
        ids.append(*Identity::loadOrCreate(dir.filePath(QStringLiteral("node%1").arg(c))));

    const QStringList sides{QStringLiteral("plain"), QStringLiteral("tls"), QStringLiteral("plain+hostile")};
    QMap<QString, QList<Sample>> results;
    for (int round = 0; round < rounds; ++round) {
        for (const QString &side : sides) {
            const QString hubDir = dir.filePath(QStringLiteral("hub-%1-%2").arg(side).arg(round));
            QDir().mkpath(hubDir + QStringLiteral("/shardcast"));
            QFile big(hubDir + QStringLiteral("/shardcast/big.bin"));
            big.open(QIODevice::WriteOnly);
            big.write(QByteArray(8 << 20, 'x'));
            big.close();
            QStringList args{QStringLiteral("--registration-work-bits"), QStringLiteral("0")};
            if (side == QLatin1String("tls"))
                args << QStringLiteral("--tls-certificate") << pem.certificateFile << QStringLiteral("--tls-key")
                     << pem.keyFile;
            QString why;
            auto hub = startHub(hubDir, args, &why);
            if (!hub) {
                std::fprintf(stderr, "cohort-hub did not start: %s\n", qPrintable(why));
                return 1;
            }
            const QByteArray hubKey = QByteArray::fromBase64(
                hub->process->output().section(QStringLiteral("key "), -1).section(QLatin1Char(')'), 0, 0).toLatin1());
            // Register the clients (plain registration through the same code path as the timed requests).
            for (const Identity &id : ids) {
                std::unique_ptr<QTcpSocket> s(side == QLatin1String("tls") ? new QSslSocket : new QTcpSocket);
                const QByteArray body = R"({"name":"bench"})";
                QByteArray request = "POST /v1/nodes/register HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                     "application/json\r\nContent-Length: " +
                                     QByteArray::number(body.size()) + "\r\n";
                for (const auto &[name, value] :
                     signRequest(id, "POST", "/v1/nodes/register", body, QDateTime::currentMSecsSinceEpoch()))
                    request += name + ": " + value + "\r\n";
                if (auto *ssl = qobject_cast<QSslSocket *>(s.get())) {
                    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
                    config.addCaCertificates(QSslCertificate::fromPath(certs.caFile()));
                    ssl->setSslConfiguration(config);
                    ssl->connectToHostEncrypted(QStringLiteral("127.0.0.1"), quint16(QUrl(hub->url).port()));
                    ssl->waitForEncrypted(10'000);
                } else {
                    s->connectToHost(QStringLiteral("127.0.0.1"), quint16(QUrl(hub->url).port()));
                    s->waitForConnected(10'000);
                }
                s->write(request + "\r\n" + body);
                if (readAnswer(*s) != 200) {
                    std::fprintf(stderr, "registration failed on %s\n", qPrintable(side));
                    return 1;
                }
            }
            std::atomic<bool> stop{false};
            std::atomic<qint64> attempts{0}, held{0};
            std::thread hostile;
            if (side == QLatin1String("plain+hostile"))
                hostile = std::thread([&] {
                    QThread::msleep(300); // the honest clients connect first; then the attack fills what the caps allow
                    hostileLoad(*hub, stop, attempts, held);
                });
            const Sample s = measure(*hub, ids, hubKey, certs.caFile(), seconds);
            stop = true;
            if (hostile.joinable())
                hostile.join();
            results[side].append(s);
            std::printf(
                "round %d %-14s %7.0f heartbeats/s  p50 %6.2f ms  p99 %6.2f ms  peak %5lld MiB  failures %d%s\n",
                round + 1, qPrintable(side), s.perSecond, s.p50Ms, s.p99Ms, s.peakKiB / 1024, s.failures,
                side == QLatin1String("plain+hostile")
                    ? qPrintable(QStringLiteral("  (hostile: %1 connections tried, %2 open at the end)")
                                     .arg(attempts.load())
                                     .arg(held.load()))
                    : "");
            std::fflush(stdout);
            int exitCode = 0;
            hub->process->terminateAndWait(20'000, &exitCode);
        }
    }
    std::printf("\n%d rounds of %d s, %d client connections, sides alternating:\n", rounds, seconds, clients);
    for (const QString &side : sides) {
        QList<Sample> v = results[side];
        const auto stat = [&v](auto field) {
            std::vector<double> xs;
            for (const Sample &s : v)
                xs.push_back(double(field(s)));
            std::sort(xs.begin(), xs.end());
            return std::array<double, 3>{xs[xs.size() / 2], xs.front(), xs.back()};
        };
        const auto rate = stat([](const Sample &s) { return s.perSecond; });
        const auto p50 = stat([](const Sample &s) { return s.p50Ms; });
        const auto p99 = stat([](const Sample &s) { return s.p99Ms; });
        const auto peak = stat([](const Sample &s) { return s.peakKiB / 1024; });
        std::printf(
            "%-14s %6.0f/s (%.0f-%.0f)  p50 %.2f ms (%.2f-%.2f)  p99 %.2f ms (%.2f-%.2f)  peak %.0f MiB (%.0f-%.0f)\n",
            qPrintable(side), rate[0], rate[1], rate[2], p50[0], p50[1], p50[2], p99[0], p99[1], p99[2], peak[0],
            peak[1], peak[2]);
    }
    return 0;
}
