#include "shardcast/RelayServer.h"

#include "core/HttpHead.h"
#include "core/Logging.h"
#include "net/Tls.h"
#include "shardcast/Manifest.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QUrl>

namespace cohort::shardcast {

bool parseRange(const QByteArray &header, qint64 size, qint64 *begin, qint64 *end, bool *satisfiable)
{
    *satisfiable = true;
    const QByteArray h = header.trimmed();
    if (!h.startsWith("bytes=") || h.contains(','))
        return false;
    const QByteArray spec = h.mid(6).trimmed();
    const int dash = spec.indexOf('-');
    if (dash < 0)
        return false;
    const QByteArray first = spec.left(dash).trimmed(), last = spec.mid(dash + 1).trimmed();
    bool ok1 = true, ok2 = true;
    if (first.isEmpty()) { // suffix: the last n bytes
        const qint64 n = last.toLongLong(&ok2);
        if (!ok2 || n <= 0)
            return ok2 ? (*satisfiable = false, true) : false;
        *begin = std::max<qint64>(0, size - n);
        *end = size - 1;
    } else {
        *begin = first.toLongLong(&ok1);
        *end = last.isEmpty() ? size - 1 : last.toLongLong(&ok2);
        if (!ok1 || !ok2 || *begin < 0 || (!last.isEmpty() && *end < *begin))
            return false;
        if (*begin >= size) {
            *satisfiable = false;
            return true;
        }
        *end = std::min(*end, size - 1);
    }
    if (size == 0 || *begin >= size)
        *satisfiable = false;
    return true;
}

namespace {

constexpr qint64 kChunk = 256 * 1024;
constexpr qint64 kHighWater = 2 * 1024 * 1024; // keep at most this much queued in the socket (and the server's budget)
constexpr int kMaxRequestHeader = 16 * 1024;

class RelayConnection : public QObject {
public:
    RelayConnection(QTcpSocket *socket, RelayServer *server, ConnectionClock *clock)
        : QObject(socket),
          m_socket(socket),
          m_server(server),
          m_clock(clock)
    {
        // Qt reads no more than this ahead of us; the rest of a pipelined burst stays in the kernel.
        socket->setReadBufferSize(kMaxRequestHeader);
        connect(socket, &QTcpSocket::readyRead, this, &RelayConnection::takeRequests);
        connect(socket, &QTcpSocket::bytesWritten, this, [this](qint64 written) {
            const qint64 drained = std::min(written, m_queuedHere);
            m_queuedHere -= drained;
            m_server->addQueued(-drained);
            pump();
        });
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    }

    ~RelayConnection() override { m_server->addQueued(-m_queuedHere); }

private:
    // Answers at most one request per call; the next one is taken from the event loop, so a thousand pipelined
    // HEADs are a thousand loop iterations, not a thousand stack frames.
    void takeRequests()
    {
        if (m_file.isOpen() || m_socket->state() != QAbstractSocket::ConnectedState)
            return; // one request at a time; pipelined ones wait
        if (m_socket->bytesToWrite() >= kHighWater)
            return; // the peer has not read our last answers: take nothing new until it does (pump calls back)
        m_buffer += m_socket->read(kMaxRequestHeader + 4 - m_buffer.size());
        if (m_buffer.isEmpty())
            return;
        m_clock->headStarted();
        const qsizetype end = m_buffer.indexOf("\r\n\r\n");
        if (end < 0) {
            if (m_buffer.size() > kMaxRequestHeader)
                return finishWithError(431, "request headers too large", true);
            return;
        }
        m_clock->headComplete(0);
        const QByteArray head = m_buffer.left(end);
        m_buffer.remove(0, end + 4);
        handle(head);
        scheduleNext();
    }

    void scheduleNext()
    {
        if (m_nextQueued || m_file.isOpen() || m_socket->state() != QAbstractSocket::ConnectedState)
            return;
        if (m_buffer.isEmpty() && m_socket->bytesAvailable() == 0)
            return;
        m_nextQueued = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_nextQueued = false;
                takeRequests();
            },
            Qt::QueuedConnection);
    }

    void handle(const QByteArray &head)
    {
        m_server->countRequest();
        const HttpHead parsed = parseHttpHead(head);
        const QList<QByteArray> &requestLine = parsed.startLine;
        if (requestLine.size() != 3 || !requestLine[2].startsWith("HTTP/1."))
            return finishWithError(400, "malformed request line", true);
        if (std::optional<HostCheck::Refusal> refused =
                m_server->hostCheck().check(parsed.value("host"), parsed.value("origin")))
            return finishWithError(refused->status, "this relay does not answer to that name", true);
        const QByteArray method = requestLine[0];
        m_head = method == "HEAD";
        if (method != "GET" && !m_head)
            return finishWithError(405, "only GET and HEAD are served", false);
        const QByteArray range = parsed.value("range");
        const QByteArray connection = parsed.value("connection").toLower();
        m_keepAlive = connection != "close" && (requestLine[2] == "HTTP/1.1" || connection == "keep-alive");
        const QByteArray length = parsed.value("content-length");
        if ((!length.isEmpty() && length != "0") || !parsed.value("transfer-encoding").isEmpty())
            return finishWithError(400, "request bodies are not accepted", true);
        const QString path = QUrl::fromPercentEncoding(requestLine[1].split('?').value(0));
        if (path == QLatin1String("/-/stats"))
            return sendStats();
        const QStringList segments = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
        if (segments.isEmpty())
            return finishWithError(404, "no such file", false);
        for (const QString &s : segments)
            if (!isSafeName(s))
                return finishWithError(404, "no such file", false); // traversal attempts look like missing files
        const QString filePath = QDir(m_server->root()).filePath(segments.join(QLatin1Char('/')));
        const QFileInfo info(filePath);
        if (!info.isFile())
            return finishWithError(404, "no such file", false);
        m_file.setFileName(filePath);
        if (!m_file.open(QIODevice::ReadOnly))
            return finishWithError(403, "cannot read the file", false);
        const qint64 size = m_file.size();
        qint64 begin = 0, last = size - 1;
        bool satisfiable = true;
        QByteArray status = "200 OK";
        QByteArray extra;
        if (!range.isEmpty() && parseRange(range, size, &begin, &last, &satisfiable)) {
            if (!satisfiable) {
                m_file.close();
                m_extraHeaders = "Content-Range: bytes */" + QByteArray::number(size) + "\r\n";
                return finishWithError(416, "range outside the file", false);
            }
            status = "206 Partial Content";
            extra = "Content-Range: bytes " + QByteArray::number(begin) + '-' + QByteArray::number(last) + '/' +
                    QByteArray::number(size) + "\r\n";
        }
        m_remaining = size == 0 ? 0 : last - begin + 1;
        m_file.seek(begin);
        const QByteArray type = filePath.endsWith(QLatin1String(".json")) || filePath.endsWith(QLatin1String(".sig"))
                                    ? "application/json"
                                    : "application/octet-stream";
        m_socket->write("HTTP/1.1 " + status + "\r\nContent-Type: " + type +
                        "\r\nContent-Length: " + QByteArray::number(m_remaining) + "\r\nAccept-Ranges: bytes\r\n" +
                        extra + (m_keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n") + "\r\n");
        if (m_head)
            m_remaining = 0;
        pump();
    }

    void pump()
    {
        if (!m_file.isOpen())
            return scheduleNext(); // answers drained: a waiting pipelined request may go on
        while (m_remaining > 0 && m_socket->bytesToWrite() < kHighWater) {
            if (m_server->queuedBytes() >= m_server->queueBudget()) {
                if (m_queuedHere == 0) // nothing of ours in flight to call us back: ask the server to
                    m_server->waitForBudget(this, [this] { pump(); });
                return;
            }
            const QByteArray chunk = m_file.read(std::min(kChunk, m_remaining));
            if (chunk.isEmpty()) { // the file shrank or failed under us: the client sees a short body
                m_socket->abort();
                return;
            }
            m_remaining -= chunk.size();
            m_server->addServed(chunk.size());
            m_queuedHere += chunk.size();
            m_server->addQueued(chunk.size());
            m_socket->write(chunk);
        }
        if (m_remaining == 0) {
            m_file.close();
            if (!m_keepAlive)
                m_socket->disconnectFromHost();
            else
                scheduleNext(); // a pipelined request may be waiting
        }
    }

    void sendStats()
    {
        const QByteArray body = QJsonDocument(QJsonObject{{QStringLiteral("bytes_served"), m_server->bytesServed()},
                                                          {QStringLiteral("requests"), m_server->requestsServed()}})
                                    .toJson(QJsonDocument::Compact);
        m_socket->write(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nCache-Control: no-store\r\nContent-Length: " +
            QByteArray::number(body.size()) + "\r\n" +
            (m_keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n") + "\r\n" + body);
        if (!m_keepAlive)
            m_socket->disconnectFromHost();
    }

    void finishWithError(int code, const char *message, bool close)
    {
        static const QHash<int, QByteArray> reasons{{400, "Bad Request"},
                                                    {403, "Forbidden"},
                                                    {404, "Not Found"},
                                                    {405, "Method Not Allowed"},
                                                    {416, "Range Not Satisfiable"},
                                                    {421, "Misdirected Request"},
                                                    {431, "Request Header Fields Too Large"}};
        const QByteArray body =
            QByteArray("{\"error\":{\"code\":\"") + QByteArray::number(code) + "\",\"message\":\"" + message + "\"}}";
        const bool keep = m_keepAlive && !close;
        m_socket->write(
            "HTTP/1.1 " + QByteArray::number(code) + ' ' + reasons.value(code) +
            "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(m_head ? 0 : body.size()) +
            "\r\n" + m_extraHeaders + (keep ? "Connection: keep-alive\r\n" : "Connection: close\r\n") + "\r\n" +
            (m_head ? QByteArray() : body));
        m_extraHeaders.clear();
        if (!keep)
            m_socket->disconnectFromHost();
    }

    QTcpSocket *m_socket;
    RelayServer *m_server;
    ConnectionClock *m_clock;
    qint64 m_queuedHere = 0; // file bytes this connection put in its socket that the peer has not taken yet
    QByteArray m_buffer;
    bool m_nextQueued = false;
    QByteArray m_extraHeaders;
    QFile m_file;
    qint64 m_remaining = 0;
    bool m_keepAlive = true;
    bool m_head = false;
};

} // namespace

RelayServer::RelayServer(QString root, QObject *parent)
    : QTcpServer(parent),
      m_root(std::move(root))
{}

RelayServer::~RelayServer()
{
    qDeleteAll(findChildren<QTcpSocket *>(QString(), Qt::FindDirectChildrenOnly));
}

void RelayServer::addQueued(qint64 bytes)
{
    m_queued += bytes;
    if (bytes >= 0 || m_waiting.isEmpty() || m_queued >= m_queueBudget)
        return;
    // Room again: resume the waiting connections from the event loop (never from inside another's signal).
    const auto waiting = std::exchange(m_waiting, {});
    for (const auto &[connection, resume] : waiting)
        if (connection)
            QMetaObject::invokeMethod(connection, resume, Qt::QueuedConnection);
}

void RelayServer::waitForBudget(QObject *connection, std::function<void()> resume)
{
    for (const auto &[c, r] : std::as_const(m_waiting))
        if (c == connection)
            return;
    m_waiting.append({QPointer<QObject>(connection), std::move(resume)});
}

ListenerLimits RelayServer::defaultLimits()
{
    ListenerLimits limits;
    limits.maxConnections = 256;
    limits.maxPerSource = 16;
    return limits;
}

bool RelayServer::listenOn(const QHostAddress &address, quint16 port, QString *error)
{
    if (const QString problem = m_limits.problem(); !problem.isEmpty()) {
        if (error)
            *error = QStringLiteral("relay limits: %1").arg(problem);
        return false;
    }
    if (!m_gate)
        m_gate = new ConnectionGate(this, m_limits,
                                    ConnectionGate::httpRefusal(QStringLiteral(
                                        "too many connections to this relay; try again in a few seconds")),
                                    "relay");
    if (listen(address, port))
        return true;
    if (error)
        *error =
            QStringLiteral("relay cannot listen on %1:%2: %3").arg(address.toString()).arg(port).arg(errorString());
    return false;
}

QString RelayServer::url() const
{
    QHostAddress a = serverAddress();
    if (a == QHostAddress::Any || a == QHostAddress::AnyIPv4 || a == QHostAddress::AnyIPv6)
        a = QHostAddress::LocalHost;
    const QString host = a.protocol() == QAbstractSocket::IPv6Protocol
                             ? QLatin1Char('[') + a.toString() + QLatin1Char(']')
                             : a.toString();
    return QStringLiteral("%1://%2:%3")
        .arg(m_tls ? QStringLiteral("https") : QStringLiteral("http"), host)
        .arg(serverPort());
}

void RelayServer::incomingConnection(qintptr descriptor)
{
    QTcpSocket *socket = newServerSocket(descriptor, m_tls, this);
    if (!socket)
        return;
    ConnectionClock *clock = m_gate->admit(socket, !m_tls);
    if (!clock)
        return;
    new RelayConnection(socket, this, clock);
    startServerHandshake(socket, m_tls);
}

} // namespace cohort::shardcast
