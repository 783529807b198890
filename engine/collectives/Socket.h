#pragma once
// A small portable TCP layer for the communicator's own thread: non-blocking sockets and a poll over several of them.
// Socket.cpp holds the only OS calls (BSD sockets on POSIX, Winsock on Windows); nothing here touches Qt's event loop,
// so it works in any thread. Addresses come in as QHostAddress.
#include "core/Expected.h"

#include <QHostAddress>

#include <cstddef>
#include <cstdint>
#include <span>

namespace cohort::collectives {

using NativeSocket = intptr_t; // int on POSIX, SOCKET on Windows
inline constexpr NativeSocket kNoSocket = -1;

struct IoResult {
    size_t bytes = 0; // transferred (may be 0 when it would block)
    bool wouldBlock = false;
    bool closed = false; // the peer closed (recv returned 0) or the connection broke
    QString error;       // set when closed because of an error
};

class TcpSocket {
public:
    TcpSocket() = default;
    explicit TcpSocket(NativeSocket s)
        : m_socket(s)
    {}
    TcpSocket(TcpSocket &&other) noexcept
        : m_socket(other.m_socket)
    {
        other.m_socket = kNoSocket;
    }
    TcpSocket &operator=(TcpSocket &&other) noexcept;
    TcpSocket(const TcpSocket &) = delete;
    TcpSocket &operator=(const TcpSocket &) = delete;
    ~TcpSocket() { close(); }

    // Connects (non-blocking underneath) within timeoutMs; the socket is left non-blocking with TCP_NODELAY.
    static Expected<TcpSocket> connectTo(const QHostAddress &address, uint16_t port, int timeoutMs);

    bool valid() const { return m_socket != kNoSocket; }
    NativeSocket native() const { return m_socket; }
    IoResult send(const void *data, size_t size);
    IoResult recv(void *data, size_t size);
    // Sends all of `data`, waiting up to timeoutMs in total.
    Status sendAll(const void *data, size_t size, int timeoutMs);
    void close();

private:
    NativeSocket m_socket = kNoSocket;
};

class TcpListener {
public:
    TcpListener() = default;
    TcpListener(TcpListener &&other) noexcept
        : m_socket(other.m_socket),
          m_port(other.m_port)
    {
        other.m_socket = kNoSocket;
    }
    TcpListener &operator=(TcpListener &&other) noexcept;
    TcpListener(const TcpListener &) = delete;
    TcpListener &operator=(const TcpListener &) = delete;
    ~TcpListener() { close(); }

    // Listens on address:port (port 0: any free port).
    static Expected<TcpListener> listen(const QHostAddress &address, uint16_t port);
    bool valid() const { return m_socket != kNoSocket; }
    NativeSocket native() const { return m_socket; }
    uint16_t port() const { return m_port; }
    // A pending connection (non-blocking, TCP_NODELAY), or an invalid socket when none is waiting.
    TcpSocket accept();
    void close();

private:
    NativeSocket m_socket = kNoSocket;
    uint16_t m_port = 0;
};

struct PollEntry {
    NativeSocket socket = kNoSocket;
    bool wantRead = false;
    bool wantWrite = false;
    bool readable = false; // out: readable, or closed/errored (a read will tell)
    bool writable = false; // out
};

// Waits up to timeoutMs (0: just check) for any entry to become ready. Returns the number of ready entries, 0 on
// timeout, -1 on error. Entries with socket == kNoSocket are ignored.
int pollSockets(std::span<PollEntry> entries, int timeoutMs);

// Lets other threads wake a thread that waits in pollSockets: a connected pair of loopback sockets (portable, unlike
// socketpair or eventfd). notify() may be called from any thread; the waiter polls native() for reading and drains.
class WakeSignal {
public:
    Status open();
    bool valid() const { return m_reader.valid(); }
    NativeSocket native() const { return m_reader.native(); }
    void notify();
    void drain();
    void close();

private:
    TcpSocket m_reader, m_writer;
};

// Starts the socket library where one needs starting (Windows); safe to call many times.
bool initializeSockets();

} // namespace cohort::collectives
