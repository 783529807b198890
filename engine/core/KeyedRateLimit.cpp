#include "core/KeyedRateLimit.h"

#include <algorithm>
#include <cmath>

namespace cohort {

KeyedRateLimit::KeyedRateLimit(double ratePerSecond, double burst, qsizetype maxKeys)
    : m_rate(std::max(ratePerSecond, 1e-6)),
      m_burst(std::max(burst, 1.0)),
      m_maxKeys(std::max<qsizetype>(maxKeys, 1))
{}

void KeyedRateLimit::forgetRefilled(qint64 nowMs)
{
    for (auto it = m_buckets.begin(); it != m_buckets.end();) {
        const double tokens = it->tokens + double(nowMs - it->atMs) / 1000.0 * m_rate;
        if (tokens >= m_burst)
            it = m_buckets.erase(it); // a full bucket is the same as no bucket
        else
            ++it;
    }
}

bool KeyedRateLimit::wouldTake(const QByteArray &key, qint64 nowMs, qint64 *retryAfterMs) const
{
    const auto it = m_buckets.constFind(key);
    if (it == m_buckets.constEnd())
        return true; // a key without a bucket has a full one (or gets one when there is room)
    const double tokens =
        std::min(m_burst, it->tokens + double(std::max<qint64>(0, nowMs - it->atMs)) / 1000.0 * m_rate);
    if (tokens >= 1.0)
        return true;
    if (retryAfterMs)
        *retryAfterMs = qint64(std::ceil((1.0 - tokens) / m_rate * 1000.0));
    return false;
}

bool KeyedRateLimit::take(const QByteArray &key, qint64 nowMs, qint64 *retryAfterMs)
{
    auto it = m_buckets.find(key);
    if (it == m_buckets.end()) {
        if (m_buckets.size() >= m_maxKeys)
            forgetRefilled(nowMs);
        if (m_buckets.size() >= m_maxKeys) {
            if (retryAfterMs)
                *retryAfterMs = qint64(std::ceil(1000.0 / m_rate));
            return false;
        }
        it = m_buckets.insert(key, Bucket{m_burst, nowMs});
    }
    Bucket &b = *it;
    b.tokens = std::min(m_burst, b.tokens + double(std::max<qint64>(0, nowMs - b.atMs)) / 1000.0 * m_rate);
    b.atMs = std::max(b.atMs, nowMs);
    if (b.tokens >= 1.0) {
        b.tokens -= 1.0;
        return true;
    }
    if (retryAfterMs)
        *retryAfterMs = qint64(std::ceil((1.0 - b.tokens) / m_rate * 1000.0));
    return false;
}

} // namespace cohort
