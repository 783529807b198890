#pragma once
// A QTcpServer that refuses oversized requests before Qt HttpServer buffers them. Qt HttpServer 6.4 reads
// a whole body into memory before any handler runs, so a hostile Content-Length of gigabytes would be
// accepted byte by byte. This server peeks at each connection's incoming bytes first (its readyRead
// handler is connected before the HTTP server's) and answers 413 / 431 / 411 itself, then closes.
#include <QTcpServer>

namespace cohort {

class GuardedTcpServer : public QTcpServer {
    Q_OBJECT
public:
    explicit GuardedTcpServer(qint64 maxBodyBytes, QObject *parent = nullptr);
    qint64 maxBodyBytes() const { return m_maxBodyBytes; }
    static constexpr qint64 kMaxHeaderBytes = 32 * 1024;

protected:
    void incomingConnection(qintptr socketDescriptor) override;

private:
    qint64 m_maxBodyBytes;
};

} // namespace cohort
