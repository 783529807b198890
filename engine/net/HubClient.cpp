#include "net/HubClient.h"

#include "core/JsonReader.h"
#include "core/Logging.h"
#include "net/Ed25519.h"
#include "net/RequestSigning.h"
#include "net/Tls.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

namespace cohort {

HubClient::HubClient(const QUrl &baseUrl, const Identity &identity, QObject *parent)
    : QObject(parent),
      m_base(baseUrl),
      m_identity(identity),
      m_network(new QNetworkAccessManager(this))
{}

HubClient::~HubClient()
{
    abortAll();
}

void HubClient::get(const QString &path, Callback callback)
{
    send("GET", path, {}, std::move(callback));
}

void HubClient::post(const QString &path, const QJsonObject &body, Callback callback)
{
    send("POST", path, QJsonDocument(body).toJson(QJsonDocument::Compact), std::move(callback));
}

void HubClient::abortAll()
{
    const auto pending = m_pending;
    m_pending.clear();
    for (QNetworkReply *reply : pending) {
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
}

void HubClient::postBytes(const QString &path, const QByteArray &body, Callback callback)
{
    send("POST", path, body, std::move(callback), QByteArrayLiteral("application/octet-stream"));
}

void HubClient::send(const QByteArray &method, const QString &path, const QByteArray &body, Callback callback,
                     const QByteArray &contentType)
{
    QUrl url = m_base;
    QString basePath = url.path();
    while (basePath.endsWith(QLatin1Char('/')))
        basePath.chop(1);
    const int query = path.indexOf(QLatin1Char('?'));
    url.setPath(basePath + (query < 0 ? path : path.left(query)));
    if (query >= 0)
        url.setQuery(path.mid(query + 1));

    QNetworkRequest request(url);
    request.setTransferTimeout(kTimeoutMs);
    request.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("cohort/" COHORT_VERSION_STRING));
    if (!body.isEmpty() || method == "POST")
        request.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
    const QByteArray signedPath = url.path(QUrl::FullyEncoded).toUtf8() +
                                  (url.hasQuery() ? '?' + url.query(QUrl::FullyEncoded).toUtf8() : QByteArray());
    const QByteArray nonce = freshNonce();
    for (const auto &[name, value] :
         signRequest(m_identity, method, signedPath, body, QDateTime::currentMSecsSinceEpoch(), nonce, m_hubKey))
        request.setRawHeader(name, value);

    QNetworkReply *reply =
        method == "GET" ? m_network->get(request) : m_network->sendCustomRequest(request, method, body);
    m_pending.insert(reply);
    // A hostile or broken hub must not make us buffer without bound.
    connect(reply, &QNetworkReply::downloadProgress, this, [reply](qint64 received, qint64) {
        if (received > kMaxReplyBytes)
            reply->abort();
    });
    // Why a TLS handshake failed, in words, for the error the callback gets (Qt only says "SSL handshake failed").
    connect(reply, &QNetworkReply::sslErrors, this, [reply](const QList<QSslError> &errors) {
        reply->setProperty("cohortTlsProblem", tlsProblemText(errors));
    });
    connect(reply, &QNetworkReply::finished, this,
            [this, reply, nonce, hubKey = m_hubKey, callback = std::move(callback)] {
                if (!m_pending.remove(reply))
                    return;
                finish(reply, callback, nonce, hubKey);
                reply->deleteLater();
            });
}

void HubClient::finish(QNetworkReply *reply, const Callback &callback, const QByteArray &nonce,
                       const QByteArray &hubKey)
{
    HubReply result;
    result.httpStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray bytes = reply->readAll();
    if (result.httpStatus == 0) {
        const bool timedOut =
            reply->error() == QNetworkReply::OperationCanceledError || reply->error() == QNetworkReply::TimeoutError;
        result.errorCode = timedOut ? QStringLiteral("timeout") : QStringLiteral("network");
        result.error = timedOut ? QStringLiteral("no answer within %1 s").arg(kTimeoutMs / 1000) : reply->errorString();
        if (const QString tls = reply->property("cohortTlsProblem").toString(); !tls.isEmpty()) {
            result.errorCode = QStringLiteral("tls");
            result.error = QStringLiteral("TLS: %1").arg(tls);
        }
        callback(result);
        return;
    }
    if (!hubKey.isEmpty()) {
        const QByteArray signature = reply->rawHeader(signing::kReplySignatureHeader);
        if (signature.isEmpty() || !verifyReply(result.httpStatus, nonce, bytes, signature, hubKey)) {
            // Signed, but by another key: another hub answers at this address (an answer rewritten on the way has no
            // valid signature at all). Said apart because only the user (or the operator) can settle it.
            const QByteArray otherKey = QByteArray::fromBase64(reply->rawHeader(signing::kReplyKeyHeader));
            if (!signature.isEmpty() && otherKey.size() == 32 && otherKey != hubKey &&
                verifyReply(result.httpStatus, nonce, bytes, signature, otherKey)) {
                result.errorCode = QStringLiteral("other_hub");
                result.error = QStringLiteral("another hub answers at this address: its key is %1, this node trusts %2")
                                   .arg(ed25519::fingerprint(otherKey), ed25519::fingerprint(hubKey));
                qCWarning(lcNet) << reply->url().toString() << result.error;
                callback(result);
                return;
            }
            result.errorCode = signature.isEmpty() ? QStringLiteral("unsigned_reply") : QStringLiteral("forged_reply");
            result.error =
                signature.isEmpty()
                    ? QStringLiteral(
                          "the hub's answer (HTTP %1) is not signed; something between this node and the hub "
                          "may have rewritten it")
                          .arg(result.httpStatus)
                    : QStringLiteral("the hub's answer (HTTP %1) is not signed by the hub's pinned key; it was "
                                     "rewritten on the way or comes from another server")
                          .arg(result.httpStatus);
            qCWarning(lcNet) << reply->url().toString() << result.error;
            callback(result);
            return;
        }
    }
    auto json = parseJsonObject(bytes, kMaxReplyBytes);
    if (!json) {
        result.errorCode = QStringLiteral("bad_reply");
        result.error = QStringLiteral("HTTP %1 with an unreadable body: %2").arg(result.httpStatus).arg(json.error());
        callback(result);
        return;
    }
    result.body = *json;
    if (result.httpStatus < 200 || result.httpStatus >= 300) {
        const QJsonObject error = result.body.value(QStringLiteral("error")).toObject();
        result.errorCode =
            error.value(QStringLiteral("code")).toString(QStringLiteral("http_%1").arg(result.httpStatus));
        result.error = QStringLiteral("HTTP %1 %2: %3")
                           .arg(result.httpStatus)
                           .arg(result.errorCode, error.value(QStringLiteral("message")).toString());
        qCDebug(lcNet) << reply->url().path() << result.error;
    }
    callback(result);
}

} // namespace cohort
