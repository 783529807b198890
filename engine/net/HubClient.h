#pragma once
// JSON-over-HTTP client for the hub's /v1 API, living in the engine thread. Every request is signed with
// the node identity; replies are size-capped and parsed strictly; failures come back as values. Once the hub's
// key is known (pinned), requests name that hub and every answer must carry the hub's signature over its status,
// the request's nonce and its body: an answer without one, or with a wrong one, is refused ("unsigned_reply",
// "forged_reply") as if it had never arrived.
#include "net/Identity.h"

#include <QJsonObject>
#include <QObject>
#include <QSet>
#include <QUrl>
#include <functional>

class QNetworkAccessManager;
class QNetworkReply;

namespace cohort {

struct HubReply {
    int httpStatus = 0; // 0: no HTTP answer (network error, timeout, refused)
    QJsonObject body;
    QString errorCode; // from the hub's {"error": {"code": ...}} or "network"/"timeout"/"bad_reply"
    QString error;     // for people
    bool ok() const { return error.isEmpty() && httpStatus >= 200 && httpStatus < 300; }
    bool networkFailure() const { return httpStatus == 0; }
};

class HubClient : public QObject {
    Q_OBJECT
public:
    using Callback = std::function<void(const HubReply &)>;
    static constexpr qint64 kMaxReplyBytes = 8 << 20;
    static constexpr int kTimeoutMs = 20'000;

    HubClient(const QUrl &baseUrl, const Identity &identity, QObject *parent = nullptr);
    ~HubClient() override;

    void get(const QString &path, Callback callback);
    void post(const QString &path, const QJsonObject &body, Callback callback);
    // A binary body (application/octet-stream), signed like any other.
    void postBytes(const QString &path, const QByteArray &body, Callback callback);
    void abortAll();
    QUrl baseUrl() const { return m_base; }
    // The hub's public key (raw 32 bytes); empty: not known yet (first contact: requests name no hub and answers
    // are taken unsigned).
    void setHubKey(const QByteArray &hubKey) { m_hubKey = hubKey; }
    QByteArray hubKey() const { return m_hubKey; }
    int pendingCount() const { return int(m_pending.size()); }

private:
    void send(const QByteArray &method, const QString &path, const QByteArray &body, Callback callback,
              const QByteArray &contentType = QByteArrayLiteral("application/json"));
    void finish(QNetworkReply *reply, const Callback &callback, const QByteArray &nonce, const QByteArray &hubKey);

    QUrl m_base;
    Identity m_identity;
    QByteArray m_hubKey;
    QNetworkAccessManager *m_network;
    QSet<QNetworkReply *> m_pending;
};

} // namespace cohort
