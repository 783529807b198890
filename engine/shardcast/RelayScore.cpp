#include "shardcast/RelayScore.h"

#include <algorithm>

namespace cohort::shardcast {

RelayScore::RelayScore(const QStringList &urls)
{
    for (const QString &u : urls) {
        RelayStats stats;
        stats.url = u;
        m_relays.append(stats);
    }
}

double RelayScore::weight(int relay) const
{
    const RelayStats &r = m_relays[relay];
    const double bandwidth = r.bandwidthMBps > 0 ? r.bandwidthMBps : kUnmeasuredMBps;
    // Failures cost a retry and a back-off, so they weigh more than linearly (cubed); a floor keeps a
    // failing relay selectable at a low rate, so it can prove itself again once it heals.
    const double success = std::max(r.successRate, 0.05);
    return success * success * success * std::max(bandwidth, 0.1);
}

int RelayScore::choose(const std::function<double()> &random01, int exclude) const
{
    if (m_relays.isEmpty())
        return -1;
    if (m_relays.size() == 1)
        return 0;
    double total = 0;
    for (int i = 0; i < count(); ++i)
        if (i != exclude)
            total += weight(i);
    double pick = random01() * total;
    int lastCandidate = -1;
    for (int i = 0; i < count(); ++i) {
        if (i == exclude)
            continue;
        lastCandidate = i;
        pick -= weight(i);
        if (pick < 0)
            return i;
    }
    return lastCandidate;
}

void RelayScore::heal()
{
    for (RelayStats &r : m_relays)
        r.successRate = std::min(1.0, r.successRate + kHeal);
}

void RelayScore::recordSuccess(int relay, qint64 bytes, double seconds)
{
    RelayStats &r = m_relays[relay];
    r.successRate = (1 - kAlpha) * r.successRate + kAlpha * 1.0;
    if (seconds > 0.001 && bytes > 0) {
        const double mbps = bytes / 1e6 / seconds;
        r.bandwidthMBps = r.bandwidthMBps > 0 ? (1 - kAlpha) * r.bandwidthMBps + kAlpha * mbps : mbps;
    }
    r.bytes += bytes;
    heal();
}

void RelayScore::recordFailure(int relay, const QString &error)
{
    RelayStats &r = m_relays[relay];
    r.successRate = (1 - kAlpha) * r.successRate;
    ++r.failures;
    r.lastError = error;
    heal();
}

} // namespace cohort::shardcast
