#pragma once
// Connection discipline for every listener a stranger can reach (the hub's API and relay, a node's control API):
// a total and a per-source cap, a deadline for each request head, a minimum rate for each body, an idle timeout,
// and an accept loop that never stays deaf after the process ran out of descriptors. Qt's QTcpServer pauses
// accepting on EMFILE and nothing resumes it; the gate resumes it after a short pause.
//
// A listener creates one gate and calls admit() for each socket it accepts; the protocol code on the socket
// reports the framing it sees to the socket's ConnectionClock (headStarted, headComplete, bodyComplete).
#include <QHash>
#include <QHostAddress>
#include <QObject>
#include <QTimer>

class QTcpServer;
class QTcpSocket;

namespace cohort {

struct ListenerLimits {
    int maxConnections = 1024;               // open at once, from everyone
    int maxPerSource = 64;                   // from one IPv4 address or one IPv6 /64
    int headerTimeoutMs = 10'000;            // from the first byte of a request head to its blank line
    int idleTimeoutMs = 60'000;              // no byte moved in either direction
    qint64 minBodyBytesPerSecond = 4 * 1024; // a body may take headerTimeoutMs plus its size at this rate
    int acceptRetryMs = 250;                 // after an accept error (out of descriptors), try again this much later

    QString problem() const; // empty when every value is in range
};

// The source a cap counts against: the IPv4 address (also when mapped into IPv6), or the /64 of an IPv6 address
// (one subscriber gets a whole /64, so counting single IPv6 addresses would count nothing).
QByteArray connectionSourceKey(const QHostAddress &address);

class ConnectionClock;

class ConnectionGate : public QObject {
public:
    // `refusal`: what a refused connection is told before it is closed (an HTTP 503 for HTTP listeners).
    ConnectionGate(QTcpServer *server, ListenerLimits limits, QByteArray refusal, const char *listenerName);

    // In incomingConnection(): the socket stays (and gets a ConnectionClock) or is refused, told why, and closed.
    // Returns the clock, or nullptr when refused. answer=false: a refused socket is closed without the refusal
    // text (a TLS socket before its handshake: the text could not be read, and the handshake is not worth its cost).
    ConnectionClock *admit(QTcpSocket *socket, bool answer = true);

    const ListenerLimits &limits() const { return m_limits; }
    // Sources not held to the per-source cap (a TLS-terminating proxy in front: every client comes from it).
    void setExemptSources(const QList<QHostAddress> &sources) { m_exempt = sources; }
    int openConnections() const { return m_open; }
    qint64 refusedConnections() const { return m_refused; }
    qint64 timedOutConnections() const { return m_timedOut; }
    void countTimeout() { ++m_timedOut; }

    // An HTTP/1.1 503 with a JSON error body and Retry-After, for HTTP listeners.
    static QByteArray httpRefusal(const QString &message);

private:
    void release(const QByteArray &source);
    void onAcceptError();

    QTcpServer *m_server;
    ListenerLimits m_limits;
    QByteArray m_refusal;
    const char *m_name;
    QHash<QByteArray, int> m_perSource;
    QList<QHostAddress> m_exempt;
    int m_open = 0;
    qint64 m_refused = 0;
    qint64 m_timedOut = 0;
    qint64 m_lastRefusalLogMs = 0;
    QTimer m_resume;
};

// The deadlines of one connection. Lives as a child of its socket; aborts the socket when a deadline passes.
class ConnectionClock : public QObject {
public:
    ConnectionClock(QTcpSocket *socket, ConnectionGate *gate);

    // The first byte of a request head arrived (idempotent until headComplete).
    void headStarted();
    // The head's blank line arrived; a body of `bodyBytes` follows (0: none).
    void headComplete(qint64 bodyBytes);
    void bodyComplete();
    bool inHead() const { return m_headTimer.isActive(); }
    // The peer proved who it is on a protocol with its own liveness (a DiLoCo ring member waits for minutes between
    // operations): no deadline applies from now on. The connection still counts against the caps.
    void settle();

private:
    void expire(const char *what);
    void touch();

    QTcpSocket *m_socket;
    ConnectionGate *m_gate;
    QTimer m_idleTimer;
    QTimer m_headTimer;
    QTimer m_bodyTimer;
    bool m_settled = false;
};

} // namespace cohort
