#include "net/GuardedTcpServer.h"

#include "core/HttpHead.h"
#include "core/Logging.h"
#include "net/Tls.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>

namespace cohort {

namespace {

// Follows the request framing on one connection (headers, then Content-Length bytes of body, repeat)
// from copies of the bytes, without consuming anything the HTTP server needs.
class ConnectionGuard : public QObject {
public:
    ConnectionGuard(QTcpSocket *socket, qint64 maxBody, ConnectionClock *clock)
        : QObject(socket),
          m_socket(socket),
          m_maxBody(maxBody),
          m_clock(clock)
    {
        // Connected before QAbstractHttpServer connects its own handler, so this runs first.
        connect(socket, &QTcpSocket::readyRead, this, &ConnectionGuard::inspect);
    }

private:
    void inspect()
    {
        if (m_refused) {
            m_socket->readAll(); // drain: nothing more reaches the HTTP server
            return;
        }
        const QByteArray data = m_socket->peek(m_socket->bytesAvailable());
        qsizetype i = 0;
        while (i < data.size()) {
            if (m_bodyRemaining > 0) {
                const qsizetype take = qMin<qint64>(m_bodyRemaining, data.size() - i);
                m_bodyRemaining -= take;
                i += take;
                if (m_bodyRemaining == 0)
                    m_clock->bodyComplete();
                continue;
            }
            m_clock->headStarted();
            // The blank line may be split across reads ("\r\n" now, "\r\n" next time): search the head collected
            // so far, from just before the new bytes.
            const qsizetype before = m_header.size();
            const qsizetype room = GuardedTcpServer::kMaxHeaderBytes + 4 - before;
            m_header += data.mid(i, qMin<qsizetype>(room, data.size() - i));
            const qsizetype end = m_header.indexOf("\r\n\r\n", qMax<qsizetype>(0, before - 3));
            if (end < 0 || end + 4 > GuardedTcpServer::kMaxHeaderBytes) {
                if (m_header.size() > GuardedTcpServer::kMaxHeaderBytes)
                    return refuse(431, "headers_too_large", QStringLiteral("request headers exceed 32 KiB"));
                break; // the rest of the head is still on its way
            }
            m_header.truncate(end + 4);
            i += m_header.size() - before;
            if (!headerComplete())
                return;
            m_header.clear();
        }
    }

    // Returns false if the request was refused.
    bool headerComplete()
    {
        qint64 length = 0;
        const HttpHead head = parseHttpHead(m_header);
        const QList<QByteArray> lengths = head.values("content-length");
        for (const QByteArray &value : lengths) {
            bool ok = false;
            length = value.toLongLong(&ok);
            // Two different lengths are how requests get smuggled past a proxy: refuse rather than pick one.
            if (!ok || length < 0 || value != lengths.first()) {
                refuse(400, "bad_request", QStringLiteral("invalid Content-Length"));
                return false;
            }
        }
        for (const QByteArray &encoding : head.values("transfer-encoding")) {
            if (encoding.toLower() != "identity") {
                refuse(411, "length_required",
                       QStringLiteral("send a Content-Length; chunked bodies are not accepted"));
                return false;
            }
        }
        if (length > m_maxBody) {
            refuse(413, "too_large",
                   QStringLiteral("request body of %1 bytes exceeds the limit of %2 bytes").arg(length).arg(m_maxBody));
            return false;
        }
        m_bodyRemaining = length;
        m_clock->headComplete(length);
        return true;
    }

    void refuse(int status, const char *code, const QString &message)
    {
        m_refused = true;
        qCInfo(lcHub) << "refused a request from" << m_socket->peerAddress().toString() << ":" << message;
        m_socket->readAll(); // the HTTP server never sees these bytes
        static const QHash<int, QByteArray> reasons{{400, "Bad Request"},
                                                    {411, "Length Required"},
                                                    {413, "Payload Too Large"},
                                                    {431, "Request Header Fields Too Large"}};
        const QByteArray body = QJsonDocument(QJsonObject{{QStringLiteral("error"),
                                                           QJsonObject{{QStringLiteral("code"), QLatin1String(code)},
                                                                       {QStringLiteral("message"), message}}}})
                                    .toJson(QJsonDocument::Compact);
        m_socket->write("HTTP/1.1 " + QByteArray::number(status) + ' ' + reasons.value(status) +
                        "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) +
                        "\r\nConnection: close\r\n\r\n" + body);
        m_socket->disconnectFromHost();
    }

    QTcpSocket *m_socket;
    qint64 m_maxBody;
    ConnectionClock *m_clock;
    QByteArray m_header;
    qint64 m_bodyRemaining = 0;
    bool m_refused = false;
};

} // namespace

GuardedTcpServer::GuardedTcpServer(qint64 maxBodyBytes, const ListenerLimits &limits, const char *name,
                                   const ServerTls *tls, QObject *parent)
    : QTcpServer(parent),
      m_maxBodyBytes(maxBodyBytes),
      m_gate(new ConnectionGate(
          this, limits, ConnectionGate::httpRefusal(QStringLiteral("too many connections; try again in a few seconds")),
          name)),
      m_tls(tls)
{}

void GuardedTcpServer::incomingConnection(qintptr socketDescriptor)
{
    QTcpSocket *socket = newServerSocket(socketDescriptor, m_tls, this);
    if (!socket)
        return;
    ConnectionClock *clock = m_gate->admit(socket, !m_tls);
    if (!clock)
        return; // told why and closing; the HTTP server never sees it
    new ConnectionGuard(socket, m_maxBodyBytes, clock);
    startServerHandshake(socket, m_tls); // the head deadline runs from the connection: a stalled handshake counts
    addPendingConnection(socket);
}

} // namespace cohort
