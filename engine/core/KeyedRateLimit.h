#pragma once
// Token buckets by key (a node's key, a source address): `ratePerSecond` sustained, `burst` at once. For quotas a
// stranger must not be able to exhaust for others: each key has its own bucket, and the table of keys is bounded
// (buckets that refilled are forgotten first; when every tracked key is still in debt, a new key is refused,
// never an old one forgotten). Single-threaded (the hub's thread). Times are passed in, for tests.
#include <QByteArray>
#include <QHash>

namespace cohort {

class KeyedRateLimit {
public:
    KeyedRateLimit(double ratePerSecond, double burst, qsizetype maxKeys = 100'000);

    // Takes one token for `key`; false when its bucket is empty (then *retryAfterMs says when one will be there).
    bool take(const QByteArray &key, qint64 nowMs, qint64 *retryAfterMs = nullptr);
    // Whether take() would succeed now, without taking.
    bool wouldTake(const QByteArray &key, qint64 nowMs, qint64 *retryAfterMs = nullptr) const;
    qsizetype trackedKeys() const { return m_buckets.size(); }
    double ratePerSecond() const { return m_rate; }

private:
    struct Bucket {
        double tokens;
        qint64 atMs;
    };
    void forgetRefilled(qint64 nowMs);

    double m_rate;
    double m_burst;
    qsizetype m_maxKeys;
    QHash<QByteArray, Bucket> m_buckets;
};

} // namespace cohort
