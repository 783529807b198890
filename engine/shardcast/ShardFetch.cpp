#include "shardcast/ShardFetch.h"

#include "core/HttpHead.h"

#include <QFile>
#include <QSslSocket>
#include <QTcpSocket>
#include <algorithm>

namespace cohort::shardcast {

namespace {
constexpr int kMaxHeaderBytes = 16 * 1024;
constexpr qint64 kSocketBuffer = 4 << 20;
constexpr qint64 kCappedSocketBuffer = 256 << 10; // small under a cap, so TCP itself slows the relay
constexpr qint64 kStagingBytes = 256 << 10;       // fits in L2: written out while still hot
} // namespace

ShardFetch::ShardFetch(Spec spec, QObject *parent)
    : QObject(parent),
      m_spec(std::move(spec)),
      m_stall(this)
{
    m_stall.setSingleShot(true);
    m_stall.setInterval(m_spec.stallTimeoutMs);
    connect(&m_stall, &QTimer::timeout, this,
            [this] { finish(false, QStringLiteral("stalled for %1 s").arg(m_spec.stallTimeoutMs / 1000.0)); });
    m_rate.setInterval(std::max(100, m_spec.rateWindowMs));
    connect(&m_rate, &QTimer::timeout, this, [this] {
        const qint64 got = m_received - m_receivedAtWindow;
        m_receivedAtWindow = m_received;
        const qint64 wanted = m_spec.minBytesPerSecond * m_rate.interval() / 1000;
        if (m_spec.minBytesPerSecond > 0 && !m_spec.tokens && missing() > 0 && got < wanted)
            finish(false, QStringLiteral("slower than %1 KiB/s (%2 bytes in %3 s)")
                              .arg(m_spec.minBytesPerSecond / 1024)
                              .arg(got)
                              .arg(m_rate.interval() / 1000.0));
    });
}

ShardFetch::~ShardFetch()
{
    abort();
}

void ShardFetch::start()
{
    const bool tls = m_spec.url.scheme() == QLatin1String("https");
    m_socket = tls ? new QSslSocket(this) : new QTcpSocket(this);
    m_socket->setReadBufferSize(m_spec.tokens ? kCappedSocketBuffer : kSocketBuffer);
    // Plain HTTP without a cap reads straight from the kernel into the mapped file: no copy through Qt's
    // buffer. TLS decrypts into QSslSocket's buffer anyway, and a cap needs bytes to wait somewhere.
    m_unbuffered = !tls && !m_spec.tokens;
    connect(m_socket, &QTcpSocket::readyRead, this, &ShardFetch::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, [this] {
        // The relay may close right after the last byte; under a bandwidth cap those bytes are still in our
        // buffer, waiting for tokens. Only a body that cannot be complete is a truncation.
        m_peerClosed = true;
        onReadyRead();
        if (!m_finished && (!m_inBody || m_socket->bytesAvailable() < m_skip + missing()))
            finish(false, m_inBody ? QStringLiteral("truncated: %1 of %2 bytes")
                                         .arg(m_spec.have + std::max<qint64>(0, m_socket->bytesAvailable() - m_skip))
                                         .arg(m_spec.rangeEnd - m_spec.rangeBegin)
                                   : QStringLiteral("connection closed before an answer"));
    });
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError error) {
        if (error != QAbstractSocket::RemoteHostClosedError)
            finish(false, m_socket->errorString());
    });
    const quint16 port = quint16(m_spec.url.port(tls ? 443 : 80));
    QByteArray request =
        "GET " + m_spec.url.path(QUrl::FullyEncoded).toUtf8() +
        " HTTP/1.1\r\nHost: " + m_spec.url.host(QUrl::FullyEncoded).toUtf8() + ':' + QByteArray::number(port) +
        "\r\nUser-Agent: cohort/" COHORT_VERSION_STRING "\r\nAccept-Encoding: identity\r\nConnection: close\r\n";
    const qint64 from = m_spec.rangeBegin + m_spec.have;
    if (from > 0 || m_spec.rangeEnd < m_spec.shardSize)
        request += "Range: bytes=" + QByteArray::number(from) + '-' + QByteArray::number(m_spec.rangeEnd - 1) + "\r\n";
    request += "\r\n";
    if (tls) {
        auto *ssl = static_cast<QSslSocket *>(m_socket);
        connect(ssl, &QSslSocket::encrypted, this, [this, request] { m_socket->write(request); });
        ssl->connectToHostEncrypted(m_spec.url.host(), port);
    } else {
        connect(m_socket, &QTcpSocket::connected, this, [this, request] { m_socket->write(request); });
        m_socket->connectToHost(m_spec.url.host(), port,
                                m_unbuffered ? QIODevice::ReadWrite | QIODevice::Unbuffered : QIODevice::ReadWrite);
    }
    m_stall.start();
    m_receivedAtWindow = m_received;
    m_rate.start();
}

void ShardFetch::abort()
{
    m_finished = true;
    m_stall.stop();
    m_rate.stop();
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
    }
}

bool ShardFetch::parseHeaders(const QByteArray &head, QString *error)
{
    const HttpHead parsed = parseHttpHead(head);
    const QList<QByteArray> &status = parsed.startLine;
    const int code = status.value(1).toInt();
    if (status.size() < 2 || !status[0].startsWith("HTTP/1.")) {
        *error = QStringLiteral("not an HTTP answer");
        return false;
    }
    const QByteArray range = parsed.value("content-range");
    bool numeric = false;
    const qint64 length = parsed.value("content-length").toLongLong(&numeric);
    const QByteArray encoding = parsed.value("transfer-encoding").toLower();
    if (!encoding.isEmpty() && encoding != "identity") {
        *error = QStringLiteral("sends a chunked body; relays must send Content-Length");
        return false;
    }
    const qint64 from = m_spec.rangeBegin + m_spec.have;
    qint64 expected = missing();
    if (code == 206) {
        // "bytes a-b/total": exactly the bytes asked for, of a file of this shard's size.
        const qsizetype dash = range.indexOf('-'), slash = range.indexOf('/');
        if (!range.startsWith("bytes ") || dash < 0 || slash < 0 ||
            range.mid(6, dash - 6).trimmed().toLongLong() != from ||
            range.mid(dash + 1, slash - dash - 1).trimmed().toLongLong() != m_spec.rangeEnd - 1 ||
            range.mid(slash + 1).trimmed().toLongLong() != m_spec.shardSize) {
            *error = QStringLiteral("unexpected Content-Range '%1'").arg(QString::fromLatin1(range.left(100)));
            return false;
        }
    } else if (code == 200) {
        m_skip = from; // the relay ignores Range: the whole shard comes, the piece is in it
        expected = m_spec.shardSize;
    } else {
        *error = QStringLiteral("HTTP %1").arg(code);
        return false;
    }
    if (!numeric || length != expected) {
        *error = QStringLiteral("serves %1 bytes where %2 are missing").arg(length).arg(expected);
        return false;
    }
    return true;
}

void ShardFetch::onReadyRead()
{
    if (m_finished || !m_socket)
        return;
    m_stall.start();
    if (!m_inBody) {
        m_head += m_socket->read(kMaxHeaderBytes + 4 - m_head.size());
        const qsizetype end = m_head.indexOf("\r\n\r\n");
        if (end < 0) {
            if (m_head.size() > kMaxHeaderBytes)
                finish(false, QStringLiteral("answer headers larger than 16 KiB"));
            return;
        }
        QString error;
        const QByteArray rest = m_head.mid(end + 4);
        if (!parseHeaders(m_head.left(end), &error))
            return finish(false, error);
        m_inBody = true;
        // Body bytes that came with the headers.
        const qint64 stored = take(rest.constData(), std::min<qint64>(rest.size(), m_skip + missing()));
        if (stored < 0)
            return;
        if (m_spec.tokens)
            *m_spec.tokens -= stored;
        if (stored > 0)
            Q_EMIT bytesArrived(stored);
    }
    pump();
}

void ShardFetch::pump()
{
    if (m_finished || !m_inBody)
        return;
    qint64 total = 0;
    if (m_staging.isEmpty())
        m_staging.resize(kStagingBytes);
    while (m_unbuffered && missing() > 0) {
        // Unbuffered: read until the kernel has nothing (0); -1 is the relay closing or an error.
        const qint64 n = m_socket->read(m_staging.data(), std::min<qint64>(kStagingBytes, m_skip + missing()));
        if (n < 0) {
            if (total > 0)
                Q_EMIT bytesArrived(total);
            return finish(
                false,
                QStringLiteral("truncated: %1 of %2 bytes").arg(m_spec.have).arg(m_spec.rangeEnd - m_spec.rangeBegin));
        }
        if (n == 0)
            break;
        const qint64 stored = take(m_staging.constData(), n);
        if (stored < 0)
            return;
        total += stored;
        m_stall.start();
    }
    while (!m_unbuffered && missing() > 0) {
        qint64 want = std::min<qint64>(m_socket->bytesAvailable(), m_skip + missing());
        if (m_spec.tokens)
            want = std::min(want, *m_spec.tokens);
        if (want <= 0)
            break;
        const qint64 n = m_socket->read(m_staging.data(), std::min(want, kStagingBytes));
        if (n <= 0)
            break;
        const qint64 stored = take(m_staging.constData(), n);
        if (stored < 0)
            return;
        total += stored;
        m_stall.start(); // progress, even when the bytes were already buffered
        if (m_spec.tokens)
            *m_spec.tokens -= n;
    }
    if (total > 0)
        Q_EMIT bytesArrived(total);
    if (missing() == 0)
        finish(true, {});
}

qint64 ShardFetch::take(const char *data, qint64 size)
{
    const qint64 skipped = std::min(size, m_skip);
    m_skip -= skipped;
    if (size > skipped && !store(data + skipped, size - skipped))
        return -1;
    return size - skipped;
}

bool ShardFetch::store(const char *data, qint64 size)
{
    QFile *file = m_spec.file;
    if (!file->seek(m_spec.fileOffset + m_spec.rangeBegin + m_spec.have) || file->write(data, size) != size) {
        finish(false, QStringLiteral("cannot write %1: %2").arg(file->fileName(), file->errorString()));
        return false;
    }
    m_spec.have += size;
    m_received += size;
    return true;
}

void ShardFetch::finish(bool ok, const QString &error)
{
    if (m_finished)
        return;
    m_finished = true;
    m_stall.stop();
    m_rate.stop();
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
    }
    Q_EMIT done(ok, error);
}

} // namespace cohort::shardcast
