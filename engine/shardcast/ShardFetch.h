#pragma once
// One HTTP/1.1 GET of a piece of a shard (its missing tail, with Range), written at its place in the preallocated
// checkpoint file. A lean client on QTcpSocket/QSslSocket instead of QNetworkAccessManager: plain HTTP reads
// straight from the kernel (unbuffered socket) into a small staging buffer that is written with write(), not
// through the memory map: a first touch of a mapped page makes the kernel zero it (readahead of unwritten
// blocks), which cost more than the copy. No extra thread either: that is what lets verified downloads keep
// up with curl on a fast link.
// Refuses what does not fit: wrong status, a Content-Range that does not continue where we are, a length that
// is not what was asked, chunked bodies, oversized headers, silence longer than the stall timeout. A relay
// that ignores Range (200 with the whole shard) is still usable: the bytes before the piece are skipped.
#include <QObject>
#include <QTimer>
#include <QUrl>

class QFile;
class QTcpSocket;

namespace cohort::shardcast {

class ShardFetch : public QObject {
    Q_OBJECT
public:
    struct Spec {
        QUrl url;
        QFile *file = nullptr; // the checkpoint file, open for writing (shared by all fetches)
        qint64 fileOffset = 0; // where byte 0 of the shard goes
        qint64 shardSize = 0;
        qint64 rangeBegin = 0; // the piece: [rangeBegin, rangeEnd) of the shard
        qint64 rangeEnd = 0;
        qint64 have = 0; // bytes of the piece already in place: ask for the rest
        int stallTimeoutMs = 15'000;
        // A relay that trickles (a byte now and then defeats the stall timeout) is dropped when fewer than
        // minBytesPerSecond arrive over a window of rateWindowMs; not under our own bandwidth cap (tokens), which
        // slows every relay on purpose. 0: no minimum.
        qint64 minBytesPerSecond = 16 * 1024;
        int rateWindowMs = 20'000;
        qint64 *tokens = nullptr; // bandwidth budget shared by all fetches; nullptr: unlimited
    };

    ShardFetch(Spec spec, QObject *parent = nullptr);
    ~ShardFetch() override;

    void start();
    void abort();                               // no signal follows
    void pump();                                // read what the budget allows (called by the bandwidth timer)
    qint64 have() const { return m_spec.have; } // of the piece
    qint64 received() const { return m_received; }

Q_SIGNALS:
    void bytesArrived(qint64 count);
    void done(bool ok, const QString &error);

private:
    void onReadyRead();
    bool parseHeaders(const QByteArray &head, QString *error);
    void finish(bool ok, const QString &error);
    bool store(const char *data, qint64 size); // at the piece's `have`; finishes with an error when the disk fails
    // Bytes as they come off the wire: those before the piece are skipped, the rest stored. Returns how many were
    // stored, or -1 when the disk failed (then the fetch has finished).
    qint64 take(const char *data, qint64 size);
    qint64 missing() const { return m_spec.rangeEnd - m_spec.rangeBegin - m_spec.have; }

    Spec m_spec;
    QTcpSocket *m_socket = nullptr;
    QTimer m_stall;
    QTimer m_rate;
    qint64 m_receivedAtWindow = 0;
    QByteArray m_head;
    bool m_inBody = false;
    bool m_finished = false;
    bool m_peerClosed = false;
    bool m_unbuffered = false; // reads go from the kernel straight into m_staging
    QByteArray m_staging;
    qint64 m_received = 0;
    qint64 m_skip = 0; // bytes before the piece, from a relay that answered 200 to a Range request
};

} // namespace cohort::shardcast
