#include "shardcast/ShardPieces.h"

#include <algorithm>

namespace cohort::shardcast {

ShardPieces::ShardPieces(qint64 shardSize, qint64 pieceBytes, qint64 have)
    : m_shardSize(shardSize),
      m_pieceBytes(std::max<qint64>(1, pieceBytes))
{
    const qint64 pieces = std::max<qint64>(1, (shardSize + m_pieceBytes - 1) / m_pieceBytes);
    m_have.resize(pieces);
    for (int i = 0; i < count(); ++i)
        m_have[i] = std::clamp<qint64>(have - begin(i), 0, size(i));
}

qint64 ShardPieces::size(int piece) const
{
    return std::min(m_pieceBytes, m_shardSize - begin(piece));
}

qint64 ShardPieces::contiguousHave() const
{
    qint64 total = 0;
    for (int i = 0; i < count(); ++i) {
        total += m_have[i];
        if (!pieceComplete(i))
            break;
    }
    return total;
}

qint64 ShardPieces::totalHave() const
{
    qint64 total = 0;
    for (qint64 h : m_have)
        total += h;
    return total;
}

bool ShardPieces::complete() const
{
    for (int i = 0; i < count(); ++i)
        if (!pieceComplete(i))
            return false;
    return true;
}

void ShardPieces::clear()
{
    std::fill(m_have.begin(), m_have.end(), 0);
}

} // namespace cohort::shardcast
