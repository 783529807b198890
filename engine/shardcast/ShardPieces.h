#pragma once
// How one shard is being fetched: in pieces (default 4 MiB), several at once, so that with 8 streams the
// shards still complete roughly in file order. That order is what lets the whole-file SHA-256, which can
// only advance in order, keep pace with the network instead of hashing the last several shards after the
// last byte. The progress record keeps only the contiguous prefix (DownloadState::have): a piece that
// finished beyond a gap is fetched again after a crash, at most `parallel` pieces.
#include <QList>

namespace cohort::shardcast {

class ShardPieces {
public:
    ShardPieces() = default;
    // `have` bytes from the start of the shard are already in place.
    ShardPieces(qint64 shardSize, qint64 pieceBytes, qint64 have);

    int count() const { return int(m_have.size()); }
    qint64 begin(int piece) const { return qint64(piece) * m_pieceBytes; }
    qint64 size(int piece) const;
    qint64 have(int piece) const { return m_have[piece]; }
    void setHave(int piece, qint64 bytes) { m_have[piece] = bytes; }
    bool pieceComplete(int piece) const { return m_have[piece] == size(piece); }

    qint64 contiguousHave() const; // what a progress record may claim
    qint64 totalHave() const;      // what the progress bar shows
    bool complete() const;
    void clear(); // poisoned or lost: every piece again

    // Which relay serves this shard: all pieces come from one relay while it works, so that a shard that
    // fails its hash can be blamed on the relays that sent it.
    int relay = -1;
    QList<int> contributors;
    int avoid = -1;   // the relay that failed it last
    int attempts = 0; // failed pieces and failed hashes, over all pieces

private:
    qint64 m_shardSize = 0;
    qint64 m_pieceBytes = 1;
    QList<qint64> m_have;
};

} // namespace cohort::shardcast
