#include "net/ReplayGuard.h"

namespace cohort {

ReplayGuard::ReplayGuard(qint64 windowMs, qsizetype maxEntries) : m_windowMs(windowMs), m_maxEntries(maxEntries) {}

bool ReplayGuard::admit(const QByteArray &publicKey, const QByteArray &nonce, qint64 timestampMs, qint64 nowMs)
{
    prune(nowMs);
    const QByteArray id = publicKey + nonce;
    if (m_seen.contains(id))
        return false;
    if (m_seen.size() >= m_maxEntries)
        return false; // refuse rather than forget: forgetting would reopen the replay window
    // The pair must be remembered until its timestamp leaves the window on either side.
    const qint64 expiry = qMax(timestampMs, nowMs) + m_windowMs;
    m_seen.insert(id, expiry);
    m_expiry.insert(expiry, id);
    return true;
}

void ReplayGuard::prune(qint64 nowMs)
{
    auto it = m_expiry.begin();
    while (it != m_expiry.end() && it.key() < nowMs) {
        m_seen.remove(it.value());
        it = m_expiry.erase(it);
    }
}

} // namespace cohort
