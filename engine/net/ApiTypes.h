#pragma once
// Request and response values for the hub's JSON API, independent of the HTTP server underneath.
#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QUrlQuery>

namespace cohort {

struct ApiRequest {
    QByteArray method;       // "GET", "POST", ...
    QString path;            // decoded path
    QByteArray pathAndQuery; // as sent, for signature checks
    QUrlQuery query;
    QHash<QString, QString> params; // captured {name} segments
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    QHostAddress remote;

    QByteArray header(const QByteArray &name) const; // case-insensitive
};

struct ApiResponse {
    int status = 200;
    QJsonObject body;
    QList<QPair<QByteArray, QByteArray>> headers;
    int delayMs = 0; // > 0: sent that much later (a test knob for "the node dies before the ack arrives")
    // Set for an answer that is not JSON (GET /metrics' text format): rawBody is sent as it is, under this
    // Content-Type, and `body` is ignored. Signed like any other answer.
    QByteArray contentType;
    QByteArray rawBody;

    static ApiResponse json(QJsonObject body, int status = 200);
    static ApiResponse raw(QByteArray body, QByteArray contentType, int status = 200);
    // The bytes and Content-Type that go on the wire.
    QByteArray wireBody() const;
    QByteArray wireContentType() const;
    // {"error": {"code": code, "message": message}} — every 4xx/5xx has this shape.
    static ApiResponse error(int status, const QString &code, const QString &message);
};

} // namespace cohort
