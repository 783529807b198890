#pragma once
// Remembers (key, nonce) pairs for as long as their timestamp is inside the clock window, so a captured
// request cannot be sent again. Memory is bounded: old entries are pruned as time passes.
#include <QByteArray>
#include <QHash>
#include <QMultiMap>

namespace cohort {

class ReplayGuard {
public:
    explicit ReplayGuard(qint64 windowMs, qsizetype maxEntries = 1'000'000);
    // True if the nonce is new for this key (and records it); false for a replay or when full.
    bool admit(const QByteArray &publicKey, const QByteArray &nonce, qint64 timestampMs, qint64 nowMs);
    qsizetype size() const { return m_seen.size(); }

private:
    void prune(qint64 nowMs);
    qint64 m_windowMs;
    qsizetype m_maxEntries;
    QHash<QByteArray, qint64> m_seen;       // key+nonce -> expiry
    QMultiMap<qint64, QByteArray> m_expiry; // expiry -> key+nonce
};

} // namespace cohort
