#pragma once
// cohort-hub's GET /metrics (Prometheus text, core/PrometheusText): nodes, rollout submissions, verification,
// trainers, published checkpoints, DiLoCo rings and the listeners' refusals. Answered only to the operator's bearer
// token (HubConfig::operatorToken): on a public hub a stranger's scrape gets a 401 and costs a token comparison.
// The text is computed at most every kRefreshMs, so however often it is scraped the hub counts its nodes table
// (the one pass over a big table) at most that often; everything else is kept in memory.
#include "hub/DilocoCoordinator.h"
#include "hub/HubStore.h"
#include "hub/RlCoordinator.h"
#include "net/ApiTypes.h"

#include <QElapsedTimer>
#include <QList>
#include <QMap>

namespace cohort {

class HubService;
namespace shardcast {
class Publisher;
}

// Everything the text says, as plain values (rendered by a pure function, tested with golden strings).
struct HubMetricsInput {
    HubStore::NodeCounts nodes;
    QMap<QString, RlCoordinator::TaskMetrics> rl; // by task
    QMap<QString, int> checkpointVersions;        // by task: the newest published version (tasks that have one)
    QMap<QString, DilocoTaskStats> diloco;        // by task
    struct Listener {
        QString name; // "api", "relay"
        int open = 0;
        qint64 refused = 0;  // turned away at the connection caps
        qint64 timedOut = 0; // closed at a deadline (a stalled head or body, silence)
    };
    QList<Listener> listeners;
};

QByteArray renderHubMetrics(const HubMetricsInput &input);

class HubMetrics {
public:
    static constexpr qint64 kRefreshMs = 2000;

    HubMetrics(const HubService &hub, const HubStore &store, const shardcast::Publisher &publisher);
    // 403 when the hub has no operator token, 401 without it or with a wrong one; the text otherwise.
    ApiResponse handle(const ApiRequest &request);

private:
    HubMetricsInput collect() const;

    const HubService &m_hub;
    const HubStore &m_store;
    const shardcast::Publisher &m_publisher;
    QByteArray m_text;
    QElapsedTimer m_renderedAt; // invalid: never rendered
};

} // namespace cohort
