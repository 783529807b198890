#include "net/ApiServer.h"

#include "core/Logging.h"
#include "net/GuardedTcpServer.h"
#include "net/RequestSigning.h"

#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QTcpSocket>
#include <QTimer>

namespace cohort {

namespace {
QByteArray methodName(QHttpServerRequest::Method m)
{
    switch (m) {
    case QHttpServerRequest::Method::Get: return "GET";
    case QHttpServerRequest::Method::Put: return "PUT";
    case QHttpServerRequest::Method::Delete: return "DELETE";
    case QHttpServerRequest::Method::Post: return "POST";
    case QHttpServerRequest::Method::Head: return "HEAD";
    case QHttpServerRequest::Method::Options: return "OPTIONS";
    case QHttpServerRequest::Method::Patch: return "PATCH";
    case QHttpServerRequest::Method::Connect: return "CONNECT";
    case QHttpServerRequest::Method::Trace: return "TRACE";
    default: return "UNKNOWN";
    }
}
} // namespace

ApiServer::ApiServer(qint64 maxBodyBytes, QObject *parent)
    : QAbstractHttpServer(parent),
      m_maxBodyBytes(maxBodyBytes)
{}

void ApiServer::addRoute(const QByteArray &method, const QString &pattern, Handler handler)
{
    m_routes.push_back(Route{method, pattern.split(QLatin1Char('/'), Qt::SkipEmptyParts), std::move(handler)});
}

void ApiServer::setListenerLimits(const ListenerLimits &limits, const char *name)
{
    m_limits = limits;
    m_name = name;
}

const ConnectionGate *ApiServer::gate() const
{
    return m_listener ? &m_listener->gate() : nullptr;
}

quint16 ApiServer::listenOn(const QHostAddress &address, quint16 port, QString *error)
{
    auto *server = new GuardedTcpServer(m_maxBodyBytes, m_limits, m_name, m_tls, this);
    if (!server->listen(address, port)) {
        if (error)
            *error = QStringLiteral("cannot listen on %1:%2: %3")
                         .arg(address.toString())
                         .arg(port)
                         .arg(server->errorString());
        delete server;
        return 0;
    }
    server->setExemptSources(m_trustedProxies);
    bind(server);
    m_listener = server;
    m_port = server->serverPort();
    return m_port;
}

bool ApiServer::match(const Route &route, const QStringList &segments, QHash<QString, QString> *params)
{
    if (route.segments.size() != segments.size())
        return false;
    for (qsizetype i = 0; i < segments.size(); ++i) {
        const QString &want = route.segments[i];
        if (want.startsWith(QLatin1Char('{')) && want.endsWith(QLatin1Char('}'))) {
            if (segments[i].isEmpty() || segments[i].size() > 128)
                return false;
            if (params)
                params->insert(want.mid(1, want.size() - 2), segments[i]);
        } else if (want != segments[i]) {
            return false;
        }
    }
    return true;
}

bool ApiServer::handleRequest(const QHttpServerRequest &request, QTcpSocket *socket)
{
    if (request.body().size() > m_maxBodyBytes) { // GuardedTcpServer refuses these earlier; belt and braces
        respond(request, socket,
                ApiResponse::error(413, QStringLiteral("too_large"), QStringLiteral("request body too large")));
        return true;
    }
    if (const std::optional<HostCheck::Refusal> refused =
            m_hosts.check(request.value("Host"), request.value("Origin"))) {
        respond(request, socket, ApiResponse::error(refused->status, refused->code, refused->message));
        return true;
    }
    const QUrl url = request.url();
    ApiRequest api;
    api.method = methodName(request.method());
    api.path = url.path();
    api.pathAndQuery = url.path(QUrl::FullyEncoded).toUtf8() +
                       (url.hasQuery() ? '?' + url.query(QUrl::FullyEncoded).toUtf8() : QByteArray());
    api.query = QUrlQuery(url);
    api.headers = request.headers();
    api.body = request.body();
    api.remote = request.remoteAddress();
    if (!m_trustedProxies.isEmpty() && m_trustedProxies.contains(api.remote)) {
        const QByteArray forwarded = request.value("X-Forwarded-For");
        const QHostAddress client(
            QString::fromLatin1(forwarded.mid(forwarded.lastIndexOf(',') + 1).trimmed().left(64)));
        if (!client.isNull())
            api.remote = client;
    }
    respond(request, socket, dispatch(std::move(api)));
    return true;
}

ApiResponse ApiServer::dispatch(ApiRequest request) const
{
    const QStringList segments = request.path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    QByteArrayList allowed;
    for (const Route &route : m_routes) {
        QHash<QString, QString> params;
        if (!match(route, segments, &params))
            continue;
        if (route.method != request.method) {
            allowed << route.method;
            continue;
        }
        request.params = std::move(params);
        return route.handler(request);
    }
    if (!allowed.isEmpty()) {
        ApiResponse r =
            ApiResponse::error(405, QStringLiteral("method_not_allowed"),
                               QStringLiteral("%1 is not allowed here; use %2")
                                   .arg(QString::fromLatin1(request.method), QString::fromLatin1(allowed.join(", "))));
        r.headers.append({"Allow", allowed.join(", ")});
        return r;
    }
    return ApiResponse::error(404, QStringLiteral("not_found"),
                              QStringLiteral("no such resource: %1").arg(request.path));
}

void ApiServer::missingHandler(const QHttpServerRequest &request, QTcpSocket *socket)
{
    respond(request, socket,
            ApiResponse::error(404, QStringLiteral("not_found"),
                               QStringLiteral("no such resource: %1").arg(request.url().path())));
}

QByteArray ApiServer::replySignature(const QHttpServerRequest &request, int status, const QByteArray &body) const
{
    const QByteArray nonce = request.value(signing::kNonceHeader);
    if (!m_replySigner || nonce.isEmpty() || nonce.size() > 64)
        return {};
    return m_replySigner(canonicalReply(status, nonce, body));
}

void ApiServer::respond(const QHttpServerRequest &request, QTcpSocket *socket, const ApiResponse &response)
{
    if (response.delayMs > 0) {
        // The responder cannot outlive this call, so a delayed answer is written as plain HTTP/1.1 later.
        const QByteArray body = response.wireBody();
        QByteArray raw = "HTTP/1.1 " + QByteArray::number(response.status) +
                         " Delayed\r\n"
                         "Content-Type: " +
                         response.wireContentType() + "\r\nCache-Control: no-store\r\n";
        for (const auto &[name, value] : response.headers)
            raw += name + ": " + value + "\r\n";
        if (const QByteArray signature = replySignature(request, response.status, body); !signature.isEmpty())
            raw += QByteArray(signing::kReplySignatureHeader) + ": " + signature + "\r\n" + signing::kReplyKeyHeader +
                   ": " + m_replyKey + "\r\n";
        raw += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
        QTimer::singleShot(response.delayMs, socket, [socket, raw] { socket->write(raw); });
        return;
    }
    QHttpServerResponder responder = makeResponder(request, socket);
    const QByteArray body = response.wireBody();
    responder.writeStatusLine(static_cast<QHttpServerResponder::StatusCode>(response.status));
    responder.writeHeader("Content-Type", response.wireContentType());
    responder.writeHeader("Cache-Control", "no-store");
    for (const auto &[name, value] : response.headers)
        responder.writeHeader(name, value);
    if (const QByteArray signature = replySignature(request, response.status, body); !signature.isEmpty()) {
        responder.writeHeader(signing::kReplySignatureHeader, signature);
        responder.writeHeader(signing::kReplyKeyHeader, m_replyKey);
    }
    responder.writeHeader("Content-Length", QByteArray::number(body.size()));
    responder.writeBody(body);
}

} // namespace cohort
