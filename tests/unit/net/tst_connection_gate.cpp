// net/ConnectionGate when the process runs out of file descriptors (issue 21): Qt's QTcpServer stops accepting after
// accept() fails with EMFILE and nothing resumes it, so one burst of connections left a listener deaf for good. Here
// the process's descriptor limit is lowered until the listener's own accept() must fail, then raised back by closing
// connections: every connection still waiting, and a new one, must be served.
#include "net/ConnectionGate.h"

#include <QDir>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <arpa/inet.h>
#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace cohort;

namespace {

// Admits each connection through the gate and greets it, so a client can tell it was accepted.
class GreetingServer : public QTcpServer {
public:
    explicit GreetingServer(const ListenerLimits &limits)
        : m_gate(new ConnectionGate(this, limits, "busy\n", "test"))
    {}
    ConnectionGate *gate() const { return m_gate; }

protected:
    void incomingConnection(qintptr descriptor) override
    {
        auto *socket = new QTcpSocket(this);
        socket->setSocketDescriptor(descriptor);
        if (m_gate->admit(socket))
            socket->write("hello\n");
    }

private:
    ConnectionGate *m_gate;
};

// A raw client socket (POSIX, so that making one needs nothing but a descriptor), connected without blocking.
int connectTo(quint16 port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -errno;
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(port);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<const sockaddr *>(&to), sizeof to) != 0 && errno != EINPROGRESS) {
        ::close(fd);
        return -errno;
    }
    return fd;
}

bool greeted(int fd)
{
    char buffer[16];
    return ::recv(fd, buffer, sizeof buffer, MSG_PEEK) > 0 && std::string_view(buffer, 5) == "hello";
}

int openDescriptors()
{
    return int(QDir(QStringLiteral("/proc/self/fd")).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size()) -
           1; // its own
}

} // namespace

class TestConnectionGate : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void listenerAcceptsAgainAfterRunningOutOfDescriptors()
    {
        ListenerLimits limits;
        limits.acceptRetryMs = 50;
        GreetingServer server(limits);
        QVERIFY(server.listen(QHostAddress::LocalHost));
        QSignalSpy acceptErrors(&server, &QTcpServer::acceptError);

        rlimit before{};
        QCOMPARE(::getrlimit(RLIMIT_NOFILE, &before), 0);
        rlimit lowered = before;
        lowered.rlim_cur = rlim_t(openDescriptors() + 24);
        QCOMPARE(::setrlimit(RLIMIT_NOFILE, &lowered), 0);
        const auto restore = qScopeGuard([&before] { ::setrlimit(RLIMIT_NOFILE, &before); });

        // Clients until no descriptor is left; they wait in the kernel's backlog, since no event loop ran yet.
        QList<int> clients;
        int why = 0;
        while ((why = connectTo(server.serverPort())) >= 0)
            clients.append(why);
        QCOMPARE(why, -EMFILE);
        QVERIFY(clients.size() >= 16);
        // Now the listener's accept() has no descriptor to return: EMFILE, and Qt stops accepting.
        QTRY_VERIFY_WITH_TIMEOUT(acceptErrors.count() > 0, 10'000);
        QCOMPARE(acceptErrors.at(0).at(0).value<QAbstractSocket::SocketError>(), QAbstractSocket::SocketResourceError);
        const int servedWhileFull = int(std::count_if(clients.cbegin(), clients.cend(), greeted));

        // Descriptors come back (most clients give up): everyone still waiting, and a newcomer, is served.
        const QList<int> leaving = clients.mid(0, clients.size() - 4);
        const QList<int> waiting = clients.mid(clients.size() - 4);
        for (int fd : leaving)
            ::close(fd);
        const int newcomer = connectTo(server.serverPort());
        QVERIFY(newcomer >= 0);
        QTRY_VERIFY_WITH_TIMEOUT(std::all_of(waiting.cbegin(), waiting.cend(), greeted) && greeted(newcomer), 10'000);
        qInfo("%lld clients until EMFILE, %d greeted while full, %lld accept errors, then all served",
              qlonglong(clients.size()), servedWhileFull, qlonglong(acceptErrors.count()));
        for (int fd : waiting)
            ::close(fd);
        ::close(newcomer);
    }
};

QTEST_GUILESS_MAIN(TestConnectionGate)
#include "tst_connection_gate.moc"
