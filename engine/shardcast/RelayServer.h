#pragma once
// A static HTTP/1.1 file server for a SHARDCAST tree: GET and HEAD, single byte ranges (206/416), keep-alive,
// streaming with back-pressure, and strict path checks (one safe name per segment, no "..", no hidden files).
// Qt HttpServer 6.4 ignores Range and streams files at ~95 MB/s here, so relays use this instead.
// Any stock web server (nginx) serving a copy of the tree is an equally valid relay.
//
// Strangers connect here, so each connection costs a bounded amount: at most one request head is buffered (the
// socket's read buffer is capped, so pipelined requests wait in the kernel and TCP pushes back), pipelined
// requests are taken one at a time from the event loop (never recursively), no new request is taken while the
// peer has not read the last answer, and the listener's limits (net/ConnectionGate) close slow and idle peers.
#include "net/ConnectionGate.h"
#include "net/HostCheck.h"

#include <QHostAddress>
#include <QList>
#include <QPointer>
#include <QTcpServer>
#include <atomic>
#include <functional>

namespace cohort {
class ServerTls;
}

namespace cohort::shardcast {

class RelayServer : public QTcpServer {
    Q_OBJECT
public:
    explicit RelayServer(QString root, QObject *parent = nullptr);
    ~RelayServer() override; // closes the connections first: they give their queued bytes back to this server
    // Before listenOn(): connection limits and the names answered.
    void setListenerLimits(const ListenerLimits &limits) { m_limits = limits; }
    void setHostCheck(HostCheck check) { m_hosts = std::move(check); }
    // Serve HTTPS with this (not owned; must outlive the relay); url() then says https.
    void setTls(const cohort::ServerTls *tls) { m_tls = tls; }
    const HostCheck &hostCheck() const { return m_hosts; }
    const ConnectionGate *gate() const { return m_gate; }
    // Relay defaults: a connection may hold up to ~2.5 MiB of queued answer, so fewer of them than an API.
    static ListenerLimits defaultLimits();
    bool listenOn(const QHostAddress &address, quint16 port, QString *error);
    QString url() const;
    QString root() const { return m_root; }

    qint64 bytesServed() const { return m_bytesServed; }
    qint64 requestsServed() const { return m_requests; }
    void addServed(qint64 bytes) { m_bytesServed += bytes; }

    // File bytes queued in sockets across all connections: at most queueBudget() (plus one chunk per connection),
    // so that many readers that do not read cost a bounded amount together, not each. A connection that finds the
    // budget spent waits (waitForBudget) until others' peers read.
    qint64 queuedBytes() const { return m_queued; }
    qint64 queueBudget() const { return m_queueBudget; }
    void setQueueBudget(qint64 bytes) { m_queueBudget = bytes; }
    void addQueued(qint64 bytes);
    void waitForBudget(QObject *connection, std::function<void()> resume);
    void countRequest() { ++m_requests; }

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    QString m_root;
    ListenerLimits m_limits = defaultLimits();
    HostCheck m_hosts;
    ConnectionGate *m_gate = nullptr;
    const cohort::ServerTls *m_tls = nullptr;
    qint64 m_queued = 0;
    qint64 m_queueBudget = 64LL << 20;
    QList<std::pair<QPointer<QObject>, std::function<void()>>> m_waiting;
    std::atomic<qint64> m_bytesServed{0};
    std::atomic<qint64> m_requests{0};
};

// Parses "bytes=a-b", "bytes=a-" or "bytes=-n" against a file of `size` bytes.
// Returns false for anything else (multiple ranges, garbage); sets *satisfiable=false for ranges outside the file.
bool parseRange(const QByteArray &header, qint64 size, qint64 *begin, qint64 *end, bool *satisfiable);

} // namespace cohort::shardcast
