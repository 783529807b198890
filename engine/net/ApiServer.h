#pragma once
// A small JSON API server on Qt HttpServer: routes by method and path pattern ("/v1/nodes/{id}"),
// 404 for unknown paths, 405 for wrong methods, and every answer a JSON object (but for a route that answers in
// another format, ApiResponse::raw: GET /metrics). Request bodies are
// capped before they are buffered (GuardedTcpServer), every connection is held to the listener's limits, and only
// the configured host names are answered (a web page that rebinds its name to 127.0.0.1 gets 421).
#include "net/ApiTypes.h"
#include "net/ConnectionGate.h"
#include "net/HostCheck.h"

#include <QAbstractHttpServer>
#include <QHostAddress>
#include <functional>
#include <vector>

namespace cohort {

class ServerTls;

class ApiServer : public QAbstractHttpServer {
    Q_OBJECT
public:
    using Handler = std::function<ApiResponse(const ApiRequest &)>;

    explicit ApiServer(qint64 maxBodyBytes, QObject *parent = nullptr);

    void addRoute(const QByteArray &method, const QString &pattern, Handler handler);
    // Before listenOn(): the limits of the listener and a name for its log lines ("hub API", "control API").
    void setListenerLimits(const ListenerLimits &limits, const char *name);
    // Before listenOn(): serve HTTPS with this (not owned; must outlive the server).
    void setTls(const ServerTls *tls) { m_tls = tls; }
    // Before listenOn(): proxies in front (nginx terminating TLS): a request from one of them is from the address
    // its X-Forwarded-For names last, and they are not held to the per-source connection cap. Nobody else's
    // X-Forwarded-For is believed.
    void setTrustedProxies(const QList<QHostAddress> &proxies) { m_trustedProxies = proxies; }
    // Before the first request: which Host / Origin names are answered (HostCheck).
    void setHostCheck(HostCheck check) { m_hosts = std::move(check); }
    const ConnectionGate *gate() const;
    // Signs each answer to a signed request (net/RequestSigning: X-Cohort-Reply-Signature): message -> base64
    // signature.
    using ReplySigner = std::function<QByteArray(const QByteArray &message)>;
    // publicKeyBase64: sent beside each signature (signing::kReplyKeyHeader).
    void setReplySigner(ReplySigner signer, QByteArray publicKeyBase64)
    {
        m_replySigner = std::move(signer);
        m_replyKey = std::move(publicKeyBase64);
    }
    // Returns the port, or 0 with *error set.
    quint16 listenOn(const QHostAddress &address, quint16 port, QString *error);
    quint16 port() const { return m_port; }
    // Routes a request without HTTP: 404 for unknown paths, 405 for a wrong method.
    ApiResponse dispatch(ApiRequest request) const;

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override;
    void missingHandler(const QHttpServerRequest &request, QTcpSocket *socket) override;

private:
    struct Route {
        QByteArray method;
        QStringList segments;
        Handler handler;
    };
    static bool match(const Route &route, const QStringList &segments, QHash<QString, QString> *params);
    void respond(const QHttpServerRequest &request, QTcpSocket *socket, const ApiResponse &response);
    QByteArray replySignature(const QHttpServerRequest &request, int status, const QByteArray &body) const;

    std::vector<Route> m_routes;
    qint64 m_maxBodyBytes;
    ListenerLimits m_limits;
    const char *m_name = "API";
    HostCheck m_hosts;
    QList<QHostAddress> m_trustedProxies;
    ReplySigner m_replySigner;
    QByteArray m_replyKey;
    const ServerTls *m_tls = nullptr;
    class GuardedTcpServer *m_listener = nullptr;
    quint16 m_port = 0;
};

} // namespace cohort
