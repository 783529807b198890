#include "node/NodeMetrics.h"

#include "api/EngineController.h"
#include "core/Logging.h"
#include "core/PrometheusText.h"

namespace cohort {

using prometheus::Labels;
using prometheus::Type;

void NodeMetricTotals::observe(const EngineSnapshot &snapshot)
{
    // The downloader counts each download's bytes from 0; a new download (another task or version), or the same one
    // started again, begins a new count.
    const DownloadProgress &d = snapshot.download;
    const QString download = d.taskId + QLatin1Char('#') + QString::number(d.version);
    if (download != m_download || d.fetchedThisSession < m_downloadSeen) {
        m_download = download;
        m_downloadSeen = 0;
    }
    checkpointBytes += d.fetchedThisSession - m_downloadSeen;
    m_downloadSeen = d.fetchedThisSession;

    // Each completed outer step moved about the last all-reduce's bytes (the same model each time); snapshots are
    // published at most 4 times a second, so two quick steps can arrive in one.
    const int steps = snapshot.diloco.outerStepsThisRun;
    if (steps < m_outerStepsSeen)
        m_outerStepsSeen = 0; // the engine restarted (new settings): its run counter did too
    if (steps > m_outerStepsSeen) {
        outerSteps += steps - m_outerStepsSeen;
        allReduceBytes += qint64(steps - m_outerStepsSeen) * snapshot.diloco.lastReduceBytes;
        m_outerStepsSeen = steps;
    }
}

namespace {
std::optional<double> ratio(const std::optional<int> &percent)
{
    return percent ? std::optional<double>(*percent / 100.0) : std::nullopt;
}
std::optional<double> hertz(const std::optional<int> &mhz)
{
    return mhz ? std::optional<double>(*mhz * 1e6) : std::nullopt;
}
std::optional<double> seconds(const QDateTime &when)
{
    return when.isValid() ? std::optional<double>(when.toMSecsSinceEpoch() / 1000.0) : std::nullopt;
}

void writeGpus(prometheus::Writer &w, const EngineSnapshot &s)
{
    const auto labelsOf = [](const GpuSample &g) {
        return Labels{{"gpu", QString::number(g.index)}, {"uuid", g.uuid}, {"name", g.name}};
    };
    // One family at a time over every GPU: the format wants each family's samples together.
    const auto each = [&](const QByteArray &name, const QString &help, auto value) {
        w.family(name, Type::Gauge, help);
        for (const GpuSample &g : s.gpus)
            w.add(value(g), labelsOf(g));
    };
    each("cohort_gpu_utilization_ratio", QStringLiteral("Share of time the GPU's SMs were busy (NVML), 0..1."),
         [](const GpuSample &g) { return ratio(g.utilizationPercent); });
    each("cohort_gpu_memory_utilization_ratio",
         QStringLiteral("Share of time the GPU's memory was read or written (NVML), 0..1."),
         [](const GpuSample &g) { return ratio(g.memoryUtilizationPercent); });
    each("cohort_gpu_memory_used_bytes", QStringLiteral("GPU memory in use, by every process."),
         [](const GpuSample &g) { return g.memoryUsedBytes; });
    each("cohort_gpu_memory_total_bytes", QStringLiteral("GPU memory in all."),
         [](const GpuSample &g) { return g.memoryTotalBytes; });
    each("cohort_gpu_temperature_celsius", QStringLiteral("GPU core temperature."),
         [](const GpuSample &g) { return g.temperatureC; });
    each("cohort_gpu_power_watts", QStringLiteral("Power the GPU draws."), [](const GpuSample &g) { return g.powerW; });
    each("cohort_gpu_power_limit_watts", QStringLiteral("The GPU's enforced power limit."),
         [](const GpuSample &g) { return g.powerLimitW; });
    each("cohort_gpu_sm_clock_hertz", QStringLiteral("The GPU's SM clock."),
         [](const GpuSample &g) { return hertz(g.smClockMHz); });
    each("cohort_gpu_memory_clock_hertz", QStringLiteral("The GPU's memory clock."),
         [](const GpuSample &g) { return hertz(g.memoryClockMHz); });
    each("cohort_gpu_fan_speed_ratio", QStringLiteral("The GPU fan's speed as a share of its maximum, 0..1."),
         [](const GpuSample &g) { return ratio(g.fanPercent); });
}
// One rollout worker per GPU the node lends (or the CPU): what each does, for a server owner's per-GPU panels.
void writeWorkers(prometheus::Writer &w, const EngineSnapshot &s)
{
    const auto labelsOf = [](const ComputeWorkerStatus &c) {
        return Labels{{"device", c.device}, {"uuid", c.gpuUuid}};
    };
    const auto each = [&](const QByteArray &name, Type type, const QString &help, auto value) {
        w.family(name, type, help);
        for (const ComputeWorkerStatus &c : s.computeWorkers)
            w.add(value(c), labelsOf(c));
    };
    each("cohort_worker_paused", Type::Gauge, QStringLiteral("1 while the user paused this worker's GPU on its own."),
         [](const ComputeWorkerStatus &c) { return c.paused ? 1 : 0; });
    each("cohort_worker_generating", Type::Gauge, QStringLiteral("1 while the worker generates a batch."),
         [](const ComputeWorkerStatus &c) { return c.generating ? 1 : 0; });
    each("cohort_worker_tokens_per_second", Type::Gauge,
         QStringLiteral("The worker's generation rate over its last batch."),
         [](const ComputeWorkerStatus &c) { return c.tokensPerSecond; });
    each("cohort_worker_batches_accepted_total", Type::Counter,
         QStringLiteral("The worker's batches the hub accepted since the node started."),
         [](const ComputeWorkerStatus &c) { return c.batchesAccepted; });
    each("cohort_worker_memory_budget_bytes", Type::Gauge,
         QStringLiteral("GPU memory the worker's generation may use (its share, Settings, Compute)."),
         [](const ComputeWorkerStatus &c) { return c.memoryBudgetBytes; });
}
} // namespace

QByteArray renderNodeMetrics(const EngineSnapshot &s, const std::optional<EarningsReport> &earnings,
                             const NodeMetricTotals &totals)
{
    prometheus::Writer w;
    w.family("cohort_build_info", Type::Gauge, QStringLiteral("The Cohort version this node runs (always 1)."));
    w.add(1, {{"version", QStringLiteral(COHORT_VERSION_STRING)}});
    if (!s.nodeId.isEmpty()) {
        w.family("cohort_node_info", Type::Gauge,
                 QStringLiteral("This node's id at its hub, its name, hub and joined task (always 1)."));
        w.add(1, {{"node_id", s.nodeId}, {"name", s.nodeName}, {"hub", s.hubUrl}, {"task", s.joinedTaskId}});
    }

    w.family("cohort_node_state", Type::Gauge, QStringLiteral("1 for the node's current state, 0 for the others."));
    for (int i = int(NodeState::Starting); i <= int(NodeState::Stopping); ++i)
        w.add(s.state == NodeState(i) ? 1 : 0, {{"state", nodeStateName(NodeState(i))}});
    w.family("cohort_node_state_since_timestamp_seconds", Type::Gauge,
             QStringLiteral("When the node entered its current state (Unix time)."));
    w.add(seconds(s.stateSince));
    w.family(
        "cohort_node_pause_reason", Type::Gauge,
        QStringLiteral(
            "1 for each reason the node is paused or throttled by now (several can hold at once), 0 for the others."));
    for (int i = int(PauseReason::User); i <= int(PauseReason::ForegroundApp); ++i) { // every reason but None
        const PauseReason reason = PauseReason(i);
        const bool active = s.pauseReasons.contains(reason) || s.schedule.throttleReasons.contains(reason);
        w.add(active ? 1 : 0, {{"reason", pauseReasonName(reason)}});
    }
    w.family("cohort_scheduler_duty_cycle_ratio", Type::Gauge,
             QStringLiteral("Share of the time the scheduler lets the node compute, 0..1."));
    w.add(s.schedule.dutyCycle);

    w.family("cohort_heartbeat_failures", Type::Gauge,
             QStringLiteral("Heartbeats in a row the hub did not answer (0 once one gets through)."));
    w.add(s.heartbeatFailures);
    w.family("cohort_last_heartbeat_timestamp_seconds", Type::Gauge,
             QStringLiteral("When the hub last answered a heartbeat (Unix time)."));
    w.add(seconds(s.lastHeartbeatAt));

    const RolloutStats &r = s.rollouts;
    w.family("cohort_rollout_batches_accepted_total", Type::Counter,
             QStringLiteral("Rollout batches the hub accepted since the engine started."));
    w.add(r.batchesAccepted);
    w.family("cohort_rollout_batches_refused_total", Type::Counter,
             QStringLiteral("Rollout batches the hub refused since the engine started."));
    w.add(r.batchesRejected);
    w.family("cohort_rollout_tokens_generated_total", Type::Counter,
             QStringLiteral("Tokens generated for rollouts since the engine started."));
    w.add(r.tokensGenerated);
    w.family("cohort_rollout_tokens_per_second", Type::Gauge,
             QStringLiteral("Generation speed of the last rollout batch, in tokens per second."));
    w.add(r.tokensPerSecond);
    w.family("cohort_rollout_outbox_batches", Type::Gauge,
             QStringLiteral("Finished batches the hub has not acknowledged yet."));
    w.add(r.outboxBatches);
    w.family("cohort_rollout_last_mean_reward", Type::Gauge,
             QStringLiteral("Mean reward of the last rollout batch, 0..1."));
    w.add(r.lastMeanReward >= 0 ? std::optional<double>(r.lastMeanReward) : std::nullopt);
    w.family("cohort_rollout_policy_version", Type::Gauge,
             QStringLiteral("Model version the last rollout batch was generated with."));
    w.add(r.policyVersion);

    if (earnings) {
        w.family("cohort_earnings_credits", Type::Gauge,
                 QStringLiteral("This node's earnings in the hub's ledger (its unit: %1), by status: pending "
                                "verification, confirmed, refused.")
                     .arg(earnings->unit));
        w.add(earnings->total.pending, {{"status", QStringLiteral("pending")}});
        w.add(earnings->total.confirmed, {{"status", QStringLiteral("confirmed")}});
        w.add(earnings->total.refused, {{"status", QStringLiteral("refused")}});
    }
    if (!s.contribution.taskId.isEmpty()) {
        w.family("cohort_contribution_accepted_batches", Type::Gauge,
                 QStringLiteral("This node's accepted batches in the joined task, as the hub counts them."));
        w.add(s.contribution.acceptedBatches, {{"task", s.contribution.taskId}});
        w.family("cohort_contribution_share_ratio", Type::Gauge,
                 QStringLiteral("This node's share of the joined task's accepted batches, 0..1."));
        w.add(s.contribution.share, {{"task", s.contribution.taskId}});
    }

    w.family("cohort_checkpoint_version", Type::Gauge,
             QStringLiteral("Newest verified checkpoint version of the joined task (0: none)."));
    w.add(s.checkpointVersion);
    w.family("cohort_checkpoint_download_bytes_total", Type::Counter,
             QStringLiteral("Checkpoint bytes received over the network since the node started."));
    w.add(totals.checkpointBytes);
    if (s.download.phase != DownloadProgress::Phase::None) {
        const Labels task{{"task", s.download.taskId}, {"version", QString::number(s.download.version)}};
        w.family("cohort_checkpoint_download_size_bytes", Type::Gauge,
                 QStringLiteral("Size of the current or last checkpoint download."));
        w.add(s.download.totalBytes, task);
        w.family("cohort_checkpoint_download_done_bytes", Type::Gauge,
                 QStringLiteral("Bytes of the current or last checkpoint download on disk."));
        w.add(s.download.doneBytes, task);
        w.family("cohort_checkpoint_download_bytes_per_second", Type::Gauge,
                 QStringLiteral("Speed of the current checkpoint download."));
        w.add(s.download.active() ? s.download.bytesPerSecond : 0.0, task);
    }

    const DilocoStatus &d = s.diloco;
    w.family("cohort_diloco_outer_steps_total", Type::Counter,
             QStringLiteral("DiLoCo outer steps (all-reduces) this node took part in since it started."));
    w.add(totals.outerSteps);
    w.family("cohort_diloco_all_reduce_bytes_total", Type::Counter,
             QStringLiteral("Bytes sent and received by DiLoCo all-reduces since the node started."));
    w.add(totals.allReduceBytes);
    if (d.active) {
        w.family("cohort_diloco_revision", Type::Gauge,
                 QStringLiteral("The DiLoCo task's completed outer steps (its shared-state revision)."));
        w.add(d.outerStep);
        w.family("cohort_diloco_peers", Type::Gauge, QStringLiteral("Members of the DiLoCo ring, this node included."));
        w.add(d.peers);
        w.family("cohort_diloco_loss", Type::Gauge,
                 QStringLiteral("The last inner step's training loss, in nats per token."));
        w.add(d.loss);
        w.family("cohort_diloco_last_all_reduce_bytes", Type::Gauge,
                 QStringLiteral("Bytes sent and received by the last all-reduce."));
        w.add(d.lastReduceBytes);
    }

    w.family("cohort_cpu_utilization_ratio", Type::Gauge, QStringLiteral("The whole machine's CPU use, 0..1."));
    w.add(s.system.cpuPercent >= 0 ? std::optional<double>(s.system.cpuPercent / 100.0) : std::nullopt);
    w.family("cohort_cpu_cores", Type::Gauge, QStringLiteral("The machine's logical CPU cores."));
    w.add(s.system.cpuCores > 0 ? std::optional<int>(s.system.cpuCores) : std::nullopt);
    w.family("cohort_memory_used_bytes", Type::Gauge, QStringLiteral("The whole machine's memory in use."));
    w.add(s.system.memTotalBytes > 0 ? std::optional<qint64>(s.system.memUsedBytes) : std::nullopt);
    w.family("cohort_memory_total_bytes", Type::Gauge, QStringLiteral("The machine's memory in all."));
    w.add(s.system.memTotalBytes > 0 ? std::optional<qint64>(s.system.memTotalBytes) : std::nullopt);
    w.family("cohort_process_resident_memory_bytes", Type::Gauge,
             QStringLiteral("Resident memory of this node's process."));
    w.add(s.system.processRssBytes > 0 ? std::optional<qint64>(s.system.processRssBytes) : std::nullopt);

    writeGpus(w, s);
    writeWorkers(w, s);
    w.family(
        "cohort_gpu_memory_budget_bytes", Type::Gauge,
        QStringLiteral("GPU memory generation may use on the compute GPU with the largest share (Settings, Compute)."));
    w.add(s.gpuMemoryBudgetBytes > 0 ? std::optional<qint64>(s.gpuMemoryBudgetBytes) : std::nullopt);

    for (const QString &problem : w.problems())
        qCWarning(lcEngine) << "metrics:" << problem;
    return w.text();
}

NodeMetrics::NodeMetrics(EngineController &controller, QObject *parent)
    : QObject(parent),
      m_controller(controller)
{
    m_totals.observe(controller.snapshot());
    connect(&controller, &EngineController::snapshotChanged, this,
            [this](const EngineSnapshot &s) { m_totals.observe(s); });
    connect(&controller, &EngineController::earningsChanged, this,
            [this](const EarningsReport &report, bool) { m_earnings = report; });
}

QByteArray NodeMetrics::render() const
{
    return renderNodeMetrics(m_controller.snapshot(), m_earnings, m_totals);
}

} // namespace cohort
