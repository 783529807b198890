#pragma once
// A QTcpServer that refuses oversized and slow requests before Qt HttpServer buffers them. Qt HttpServer 6.4
// reads a whole body into memory before any handler runs, so a hostile Content-Length of gigabytes would be
// accepted byte by byte. This server peeks at each connection's incoming bytes first (its readyRead handler is
// connected before the HTTP server's), answers 413 / 431 / 411 itself and closes, and holds every connection to
// the listener's limits (net/ConnectionGate: caps, head deadline, body rate, idle timeout).
#include "net/ConnectionGate.h"

#include <QTcpServer>

namespace cohort {

class ServerTls;

class GuardedTcpServer : public QTcpServer {
    Q_OBJECT
public:
    // tls: serve HTTPS with it (not owned; outlives the server); nullptr: plain HTTP.
    GuardedTcpServer(qint64 maxBodyBytes, const ListenerLimits &limits, const char *name,
                     const ServerTls *tls = nullptr, QObject *parent = nullptr);
    qint64 maxBodyBytes() const { return m_maxBodyBytes; }
    const ConnectionGate &gate() const { return *m_gate; }
    void setExemptSources(const QList<QHostAddress> &sources) { m_gate->setExemptSources(sources); }
    static constexpr qint64 kMaxHeaderBytes = 32 * 1024;

protected:
    void incomingConnection(qintptr socketDescriptor) override;

private:
    qint64 m_maxBodyBytes;
    ConnectionGate *m_gate;
    const ServerTls *m_tls;
};

} // namespace cohort
