#pragma once
// A small JSON API server on Qt HttpServer: routes by method and path pattern ("/v1/nodes/{id}"),
// 404 for unknown paths, 405 for wrong methods, and every answer a JSON object. Request bodies are
// capped before they are buffered (GuardedTcpServer).
#include "hub/ApiTypes.h"

#include <QAbstractHttpServer>
#include <QHostAddress>
#include <functional>
#include <vector>

namespace cohort {

class ApiServer : public QAbstractHttpServer {
    Q_OBJECT
public:
    using Handler = std::function<ApiResponse(const ApiRequest &)>;

    explicit ApiServer(qint64 maxBodyBytes, QObject *parent = nullptr);

    void addRoute(const QByteArray &method, const QString &pattern, Handler handler);
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

    std::vector<Route> m_routes;
    qint64 m_maxBodyBytes;
    quint16 m_port = 0;
};

} // namespace cohort
