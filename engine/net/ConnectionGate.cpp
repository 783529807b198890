#include "net/ConnectionGate.h"

#include "core/Logging.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTcpSocket>

namespace cohort {

QString ListenerLimits::problem() const
{
    if (maxConnections < 1 || maxConnections > 1'000'000)
        return QStringLiteral("the connection cap must be 1..1000000");
    if (maxPerSource < 1 || maxPerSource > maxConnections)
        return QStringLiteral("the per-source connection cap must be 1..the total cap (%1)").arg(maxConnections);
    if (headerTimeoutMs < 100 || headerTimeoutMs > 600'000)
        return QStringLiteral("the request head timeout must be 0.1..600 s");
    if (idleTimeoutMs < 100 || idleTimeoutMs > 3'600'000)
        return QStringLiteral("the idle timeout must be 0.1..3600 s");
    if (minBodyBytesPerSecond < 1)
        return QStringLiteral("the minimum body rate must be at least 1 byte/s");
    if (acceptRetryMs < 1 || acceptRetryMs > 60'000)
        return QStringLiteral("the accept retry must be 1..60000 ms");
    return {};
}

QByteArray connectionSourceKey(const QHostAddress &address)
{
    bool isV4 = false;
    const quint32 v4 = address.toIPv4Address(&isV4); // also unwraps ::ffff:a.b.c.d
    if (isV4)
        return QByteArray::number(v4);
    const Q_IPV6ADDR v6 = address.toIPv6Address();
    return QByteArray(reinterpret_cast<const char *>(v6.c), 8).toHex() + "/64";
}

QByteArray ConnectionGate::httpRefusal(const QString &message)
{
    const QByteArray body =
        QJsonDocument(QJsonObject{{QStringLiteral("error"),
                                   QJsonObject{{QStringLiteral("code"), QStringLiteral("too_many_connections")},
                                               {QStringLiteral("message"), message}}}})
            .toJson(QJsonDocument::Compact);
    return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 5\r\nContent-Length: " +
           QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

ConnectionGate::ConnectionGate(QTcpServer *server, ListenerLimits limits, QByteArray refusal, const char *listenerName)
    : QObject(server),
      m_server(server),
      m_limits(limits),
      m_refusal(std::move(refusal)),
      m_name(listenerName)
{
    m_resume.setSingleShot(true);
    connect(&m_resume, &QTimer::timeout, this, [this] { m_server->resumeAccepting(); });
    // QTcpServer pauses accepting when accept() fails for lack of resources (EMFILE, ENFILE, ENOBUFS) and never
    // resumes on its own: a listener would stay deaf after one burst of connections.
    connect(server, &QTcpServer::acceptError, this, &ConnectionGate::onAcceptError);
}

void ConnectionGate::onAcceptError()
{
    qCWarning(lcNet) << m_name << "cannot accept a connection:" << m_server->errorString() << "- trying again in"
                     << m_limits.acceptRetryMs << "ms";
    m_server->pauseAccepting(); // whatever Qt did, accept again only after the pause
    m_resume.start(m_limits.acceptRetryMs);
}

ConnectionClock *ConnectionGate::admit(QTcpSocket *socket, bool answer)
{
    const QByteArray source = connectionSourceKey(socket->peerAddress());
    int &fromSource = m_perSource[source];
    const bool full = m_open >= m_limits.maxConnections;
    const bool exempt = !m_exempt.isEmpty() && m_exempt.contains(socket->peerAddress());
    if (full || (fromSource >= m_limits.maxPerSource && !exempt)) {
        if (fromSource == 0)
            m_perSource.remove(source);
        ++m_refused;
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        if (now - m_lastRefusalLogMs > 10'000) { // a flood must not flood the log too
            m_lastRefusalLogMs = now;
            qCWarning(lcNet) << m_name << "refused a connection from" << socket->peerAddress().toString()
                             << (full ? "(all connection slots in use)" : "(too many connections from that source)")
                             << "- refused so far:" << m_refused;
        }
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        if (!answer) {
            socket->abort();
            socket->deleteLater();
            return nullptr;
        }
        if (!m_refusal.isEmpty())
            socket->write(m_refusal);
        socket->disconnectFromHost();
        // A peer that never reads does not keep the descriptor: the answer is small, and abort is the fallback.
        QTimer::singleShot(1000, socket, [socket] { socket->abort(); });
        return nullptr;
    }
    ++fromSource;
    ++m_open;
    connect(socket, &QObject::destroyed, this, [this, source] { release(source); });
    return new ConnectionClock(socket, this);
}

void ConnectionGate::release(const QByteArray &source)
{
    --m_open;
    auto it = m_perSource.find(source);
    if (it != m_perSource.end() && --it.value() <= 0)
        m_perSource.erase(it);
}

ConnectionClock::ConnectionClock(QTcpSocket *socket, ConnectionGate *gate)
    : QObject(socket),
      m_socket(socket),
      m_gate(gate)
{
    for (QTimer *t : {&m_idleTimer, &m_headTimer, &m_bodyTimer})
        t->setSingleShot(true);
    connect(&m_idleTimer, &QTimer::timeout, this, [this] { expire("was idle too long"); });
    connect(&m_headTimer, &QTimer::timeout, this, [this] { expire("did not finish its request head in time"); });
    connect(&m_bodyTimer, &QTimer::timeout, this, [this] { expire("sent its request body too slowly"); });
    connect(socket, &QTcpSocket::readyRead, this, &ConnectionClock::touch);
    connect(socket, &QTcpSocket::bytesWritten, this, &ConnectionClock::touch);
    connect(socket, &QTcpSocket::disconnected, this, [this] {
        m_idleTimer.stop();
        m_headTimer.stop();
        m_bodyTimer.stop();
    });
    m_idleTimer.start(m_gate->limits().idleTimeoutMs);
    headStarted(); // a connection that sends nothing at all is held to the head deadline too
}

void ConnectionClock::touch()
{
    if (m_settled)
        return;
    m_idleTimer.start(m_gate->limits().idleTimeoutMs);
}

void ConnectionClock::settle()
{
    m_settled = true;
    m_idleTimer.stop();
    m_headTimer.stop();
    m_bodyTimer.stop();
}

void ConnectionClock::headStarted()
{
    if (!m_headTimer.isActive() && !m_settled)
        m_headTimer.start(m_gate->limits().headerTimeoutMs);
}

void ConnectionClock::headComplete(qint64 bodyBytes)
{
    m_headTimer.stop();
    if (bodyBytes <= 0)
        return;
    const ListenerLimits &l = m_gate->limits();
    const qint64 allowed = l.headerTimeoutMs + bodyBytes * 1000 / l.minBodyBytesPerSecond;
    m_bodyTimer.start(int(qMin<qint64>(allowed, std::numeric_limits<int>::max())));
}

void ConnectionClock::bodyComplete()
{
    m_bodyTimer.stop();
}

void ConnectionClock::expire(const char *what)
{
    if (m_socket->state() == QAbstractSocket::UnconnectedState)
        return;
    m_gate->countTimeout();
    qCInfo(lcNet) << "closed a connection from" << m_socket->peerAddress().toString() << "that" << what;
    m_socket->abort();
}

} // namespace cohort
