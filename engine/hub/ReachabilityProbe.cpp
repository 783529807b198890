#include "hub/ReachabilityProbe.h"

#include "core/JsonReader.h"
#include "core/Logging.h"
#include "net/ApiServer.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTimer>

#include <algorithm>

namespace cohort {

ReachabilityProbe::ReachabilityProbe(bool loopbackSources, QObject *parent)
    : QObject(parent),
      m_loopbackSources(loopbackSources),
      m_perSource(kProbesPerSecondPerSource, 1, 10'000)
{}

void ReachabilityProbe::registerRoutes(ApiServer &server)
{
    server.addRoute("POST", QStringLiteral("/v1/reachability"), [this](const ApiRequest &r) { return handle(r); });
}

ApiResponse ReachabilityProbe::handle(const ApiRequest &request)
{
    auto body = parseJsonObject(request.body, 1024);
    if (!body)
        return ApiResponse::error(400, QStringLiteral("bad_request"), body.error());
    JsonReader r(*body);
    const qint64 port = r.integer(QStringLiteral("port"), 1, 65535);
    const QString nonce = r.string(QStringLiteral("nonce"), 32);
    if (!r.ok())
        return ApiResponse::error(400, QStringLiteral("bad_request"), r.error());
    static const QRegularExpression hex32(QStringLiteral("^[0-9a-f]{32}$"));
    if (!hex32.match(nonce).hasMatch())
        return ApiResponse::error(400, QStringLiteral("bad_request"),
                                  QStringLiteral("field 'nonce': 32 lower-case hex digits"));
    // The source decides where the hub connects: a probe of anyone else is impossible by construction.
    QHostAddress source = request.remote;
    if (source.isNull())
        return ApiResponse::error(400, QStringLiteral("bad_request"),
                                  QStringLiteral("the request's source address is unknown"));
    bool mapped = false;
    if (const quint32 v4 = source.toIPv4Address(&mapped); mapped)
        source = QHostAddress(v4);
    if (source.isLoopback() && !m_loopbackSources)
        return ApiResponse::error(403, QStringLiteral("not_probed"),
                                  QStringLiteral("this hub does not probe its own machine (behind a reverse proxy, the "
                                                 "operator must name it with --trusted-proxy)"));
    qint64 retryAfterMs = 0;
    if (m_inFlight >= kMaxInFlight ||
        !m_perSource.take(source.toString().toLatin1(), QDateTime::currentMSecsSinceEpoch(), &retryAfterMs)) {
        ApiResponse busy =
            ApiResponse::error(429, QStringLiteral("rate_limited"),
                               QStringLiteral("one reachability probe per source every 10 s; try again later"));
        busy.headers.append(
            {QByteArrayLiteral("Retry-After"), QByteArray::number(std::max<qint64>(1, (retryAfterMs + 999) / 1000))});
        return busy;
    }
    probe(source, quint16(port), nonce.toLatin1());
    return ApiResponse::json({{QStringLiteral("probing"), true},
                              {QStringLiteral("address"), source.toString()},
                              {QStringLiteral("port"), port},
                              {QStringLiteral("timeout_ms"), kConnectTimeoutMs}},
                             202);
}

void ReachabilityProbe::probe(const QHostAddress &address, quint16 port, const QByteArray &nonce)
{
    ++m_inFlight;
    auto *socket = new QTcpSocket(this);
    auto *deadline = new QTimer(socket);
    deadline->setSingleShot(true);
    // Whatever happens (connected and written, refused, silent), the socket goes and the slot is freed exactly once.
    const auto finish = [this, socket] {
        if (socket->property("finished").toBool())
            return;
        socket->setProperty("finished", true);
        --m_inFlight;
        socket->abort();
        socket->deleteLater();
    };
    connect(deadline, &QTimer::timeout, socket, finish);
    connect(socket, &QTcpSocket::errorOccurred, socket, finish);
    connect(socket, &QTcpSocket::connected, socket, [socket, nonce, deadline] {
        socket->write("cohort-probe " + nonce + '\n');
        socket->disconnectFromHost(); // flushes, then closes; the deadline still bounds a peer that never reads
        deadline->start(kConnectTimeoutMs);
    });
    connect(socket, &QTcpSocket::disconnected, socket, finish);
    deadline->start(kConnectTimeoutMs);
    socket->connectToHost(address, port);
    qCDebug(lcHub) << "reachability probe to" << address.toString() << port;
}

} // namespace cohort
