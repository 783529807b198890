#pragma once
// Remembers (key, nonce) pairs for as long as their timestamp is inside the clock window, so a captured
// request cannot be sent again. Memory is bounded twice: in all, and per key, so that one key (or a few) that
// sends thousands of requests a second fills only its own share and is refused itself, never everyone else.
// Old entries are pruned as time passes. The hub lets only registered keys (and registrations, which are
// rate-limited and cost work) reach the guard, so free identities cannot fill it either.
#include <QByteArray>
#include <QHash>
#include <QMultiMap>
#include <QPair>

namespace cohort {

class ReplayGuard {
public:
    enum class Admission { Admitted, Replayed, KeyFull, Full };
    // perKey: 20,000 in a 5-minute window is ~65 signed requests a second from one node, sustained.
    explicit ReplayGuard(qint64 windowMs, qsizetype maxEntries = 1'000'000, qsizetype maxPerKey = 20'000);
    // Records the nonce if it is new for this key and there is room.
    Admission admit(const QByteArray &publicKey, const QByteArray &nonce, qint64 timestampMs, qint64 nowMs);
    qsizetype size() const { return m_seen.size(); }
    qsizetype sizeOf(const QByteArray &publicKey) const { return m_perKey.value(publicKey); }

private:
    void prune(qint64 nowMs);
    qint64 m_windowMs;
    qsizetype m_maxEntries;
    qsizetype m_maxPerKey;
    QHash<QByteArray, qint64> m_seen;                          // key+nonce -> expiry
    QMultiMap<qint64, QPair<QByteArray, QByteArray>> m_expiry; // expiry -> (key, key+nonce)
    QHash<QByteArray, qsizetype> m_perKey;                     // key -> entries
};

} // namespace cohort
