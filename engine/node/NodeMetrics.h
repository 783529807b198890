#pragma once
// What a node's GET /metrics says (the control API, Prometheus text: core/PrometheusText): the engine's latest
// snapshot, the earnings the hub last reported, and the few totals a snapshot cannot carry. README "Metrics" lists
// the names.
#include "core/EarningsReport.h"
#include "core/EngineSnapshot.h"

#include <QByteArray>
#include <QObject>
#include <optional>

namespace cohort {

class EngineController;

// Sums over the snapshots of this process: a snapshot carries only the current checkpoint download and the last
// all-reduce, and its run counters start again when the engine restarts with new settings.
struct NodeMetricTotals {
    qint64 checkpointBytes = 0; // received over the network for checkpoint downloads
    qint64 allReduceBytes = 0;  // sent and received by DiLoCo all-reduces
    qint64 outerSteps = 0;      // DiLoCo outer steps this node took part in

    void observe(const EngineSnapshot &snapshot);

private:
    QString m_download;        // the download being counted: task and version
    qint64 m_downloadSeen = 0; // its bytes already added
    int m_outerStepsSeen = 0;  // DilocoStatus::outerStepsThisRun already added
};

QByteArray renderNodeMetrics(const EngineSnapshot &snapshot, const std::optional<EarningsReport> &earnings,
                             const NodeMetricTotals &totals);

// Follows the controller's snapshots and earnings (in the controller's thread) and renders them on request.
class NodeMetrics : public QObject {
    Q_OBJECT
public:
    explicit NodeMetrics(EngineController &controller, QObject *parent = nullptr);
    QByteArray render() const;

private:
    EngineController &m_controller;
    NodeMetricTotals m_totals;
    std::optional<EarningsReport> m_earnings;
};

} // namespace cohort
