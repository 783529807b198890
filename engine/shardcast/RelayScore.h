#pragma once
// Which relay to ask next. Each relay has a success rate and a bandwidth, both exponential moving averages
// (alpha 0.3, as SHARDCAST uses); every update lets every relay's success rate heal by 0.01 so a relay that
// failed once is tried again later. Choice is weighted-random by success^3 x bandwidth, which spreads load
// while favouring fast, reliable relays.
#include "core/DownloadProgress.h"

#include <QList>
#include <QString>
#include <functional>

namespace cohort::shardcast {

using RelayStats = RelayProgress;

class RelayScore {
public:
    static constexpr double kAlpha = 0.3;
    static constexpr double kHeal = 0.01;
    static constexpr double kUnmeasuredMBps = 50.0; // optimistic start so every relay gets tried

    explicit RelayScore(const QStringList &urls = {});

    // random01 returns a number in [0, 1); injectable for tests. exclude: index to avoid if possible.
    int choose(const std::function<double()> &random01, int exclude = -1) const;
    void recordSuccess(int relay, qint64 bytes, double seconds);
    void recordFailure(int relay, const QString &error);
    double weight(int relay) const;

    const QList<RelayStats> &relays() const { return m_relays; }
    QList<RelayStats> &relays() { return m_relays; }
    int count() const { return int(m_relays.size()); }

private:
    void heal();
    QList<RelayStats> m_relays;
};

} // namespace cohort::shardcast
