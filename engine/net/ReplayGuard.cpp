#include "net/ReplayGuard.h"

namespace cohort {

ReplayGuard::ReplayGuard(qint64 windowMs, qsizetype maxEntries, qsizetype maxPerKey)
    : m_windowMs(windowMs),
      m_maxEntries(maxEntries),
      m_maxPerKey(maxPerKey)
{}

ReplayGuard::Admission ReplayGuard::admit(const QByteArray &publicKey, const QByteArray &nonce, qint64 timestampMs,
                                          qint64 nowMs)
{
    prune(nowMs);
    const QByteArray id = publicKey + nonce;
    if (m_seen.contains(id))
        return Admission::Replayed;
    // Refuse rather than forget: forgetting would reopen the replay window.
    qsizetype &mine = m_perKey[publicKey];
    if (mine >= m_maxPerKey || m_seen.size() >= m_maxEntries) {
        const Admission why = mine >= m_maxPerKey ? Admission::KeyFull : Admission::Full;
        if (mine == 0)
            m_perKey.remove(publicKey);
        return why;
    }
    // The pair must be remembered until its timestamp leaves the window on either side.
    const qint64 expiry = qMax(timestampMs, nowMs) + m_windowMs;
    m_seen.insert(id, expiry);
    m_expiry.insert(expiry, {publicKey, id});
    ++mine;
    return Admission::Admitted;
}

void ReplayGuard::prune(qint64 nowMs)
{
    auto it = m_expiry.begin();
    while (it != m_expiry.end() && it.key() < nowMs) {
        m_seen.remove(it.value().second);
        if (auto k = m_perKey.find(it.value().first); k != m_perKey.end() && --k.value() <= 0)
            m_perKey.erase(k);
        it = m_expiry.erase(it);
    }
}

} // namespace cohort
