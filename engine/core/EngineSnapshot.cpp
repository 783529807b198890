#include "core/EngineSnapshot.h"

#include <QJsonArray>

namespace cohort {

namespace {
QJsonValue isoOrNull(const QDateTime &t)
{
    return t.isValid() ? QJsonValue(t.toUTC().toString(Qt::ISODate)) : QJsonValue();
}
template <typename T>
QJsonValue orNull(const std::optional<T> &v)
{
    return v ? QJsonValue(*v) : QJsonValue();
}
} // namespace

QJsonObject GpuSample::toJson() const
{
    return QJsonObject{{QStringLiteral("index"), index},
                       {QStringLiteral("name"), name},
                       {QStringLiteral("uuid"), uuid},
                       {QStringLiteral("utilization_percent"), orNull(utilizationPercent)},
                       {QStringLiteral("memory_utilization_percent"), orNull(memoryUtilizationPercent)},
                       {QStringLiteral("memory_used_bytes"), orNull(memoryUsedBytes)},
                       {QStringLiteral("memory_total_bytes"), orNull(memoryTotalBytes)},
                       {QStringLiteral("temperature_c"), orNull(temperatureC)},
                       {QStringLiteral("power_w"), orNull(powerW)},
                       {QStringLiteral("power_limit_w"), orNull(powerLimitW)},
                       {QStringLiteral("sm_clock_mhz"), orNull(smClockMHz)},
                       {QStringLiteral("memory_clock_mhz"), orNull(memoryClockMHz)},
                       {QStringLiteral("fan_percent"), orNull(fanPercent)},
                       {QStringLiteral("notes"), QJsonArray::fromStringList(notes)}};
}

std::optional<double> hottestGpuTemperatureC(const QList<GpuSample> &gpus)
{
    std::optional<double> hottest;
    for (const GpuSample &g : gpus)
        if (g.temperatureC && (!hottest || *g.temperatureC > *hottest))
            hottest = *g.temperatureC;
    return hottest;
}

std::optional<double> totalGpuPowerW(const QList<GpuSample> &gpus)
{
    std::optional<double> total;
    for (const GpuSample &g : gpus)
        if (g.powerW)
            total = total.value_or(0) + *g.powerW;
    return total;
}

QJsonObject DilocoStatus::toJson() const
{
    return QJsonObject{{QStringLiteral("active"), active},
                       {QStringLiteral("phase"), phase},
                       {QStringLiteral("outer_step"), outerStep},
                       {QStringLiteral("inner_step"), innerStep},
                       {QStringLiteral("inner_steps"), innerSteps},
                       {QStringLiteral("peers"), peers},
                       {QStringLiteral("loss"), loss},
                       {QStringLiteral("outer_loss"), outerLoss},
                       {QStringLiteral("last_sync_bytes"), lastSyncBytes},
                       {QStringLiteral("last_reduce_bytes"), lastReduceBytes},
                       {QStringLiteral("outer_steps_this_run"), outerStepsThisRun},
                       {QStringLiteral("resumed"), resumed},
                       {QStringLiteral("note"), note}};
}

QJsonObject ComputeWorkerStatus::toJson() const
{
    return QJsonObject{{QStringLiteral("gpu"), gpuUuid.isEmpty() ? QJsonValue() : QJsonValue(gpuUuid)},
                       {QStringLiteral("name"), name},
                       {QStringLiteral("device"), device},
                       {QStringLiteral("paused"), paused},
                       {QStringLiteral("in_use_by"), inUseBy.isEmpty() ? QJsonValue() : QJsonValue(inUseBy)},
                       {QStringLiteral("generating"), generating},
                       {QStringLiteral("memory_percent"), memoryPercent},
                       {QStringLiteral("memory_budget_bytes"), double(memoryBudgetBytes)},
                       {QStringLiteral("batches_accepted"), batchesAccepted},
                       {QStringLiteral("tokens_generated"), tokensGenerated},
                       {QStringLiteral("tokens_per_second"), tokensPerSecond}};
}

QJsonObject ScheduleStatus::toJson() const
{
    QJsonArray throttle;
    for (PauseReason r : throttleReasons)
        throttle.append(pauseReasonName(r));
    return QJsonObject{
        {QStringLiteral("mode"), mode},
        {QStringLiteral("duty_cycle"), dutyCycle},
        {QStringLiteral("throttle_reasons"), throttle},
        {QStringLiteral("next_change"), isoOrNull(nextChange)},
        {QStringLiteral("snoozed_until"), isoOrNull(snoozedUntil)},
        {QStringLiteral("pause_after_step"), pauseAfterStep},
        {QStringLiteral("idle_source"), idleSource.isEmpty() ? QJsonValue() : QJsonValue(idleSource)},
        {QStringLiteral("input_idle_seconds"), inputIdleSeconds < 0 ? QJsonValue() : QJsonValue(inputIdleSeconds)},
        {QStringLiteral("on_battery"), onBattery < 0 ? QJsonValue() : QJsonValue(onBattery == 1)},
        {QStringLiteral("work_at_risk_seconds"), workAtRiskSeconds},
        {QStringLiteral("work_at_risk_tokens"), workAtRiskTokens},
        {QStringLiteral("last_pause_latency_ms"),
         lastPauseLatencyMs < 0 ? QJsonValue() : QJsonValue(lastPauseLatencyMs)}};
}

QJsonObject EngineSnapshot::toJson() const
{
    QJsonArray reasons;
    for (PauseReason r : pauseReasons)
        reasons.append(pauseReasonName(r));
    QJsonArray taskIds;
    for (const TaskInfo &t : tasks)
        taskIds.append(t.id);
    QJsonArray gpuList;
    for (const GpuSample &g : gpus)
        gpuList.append(g.toJson());
    QJsonArray workerList;
    for (const ComputeWorkerStatus &w : computeWorkers)
        workerList.append(w.toJson());
    return QJsonObject{
        {QStringLiteral("seq"), qint64(sequence)},
        {QStringLiteral("time"), isoOrNull(takenAt)},
        {QStringLiteral("state"), nodeStateName(state)},
        {QStringLiteral("reason"), reason == PauseReason::None ? QJsonValue() : QJsonValue(pauseReasonName(reason))},
        {QStringLiteral("pause_reasons"), reasons},
        {QStringLiteral("why"), why},
        {QStringLiteral("state_since"), isoOrNull(stateSince)},
        {QStringLiteral("node_id"), nodeId},
        {QStringLiteral("hub"), hubUrl},
        {QStringLiteral("hub_embedded"), hubEmbedded},
        {QStringLiteral("registered_at"), isoOrNull(registeredAt)},
        {QStringLiteral("last_heartbeat"), isoOrNull(lastHeartbeatAt)},
        {QStringLiteral("heartbeat_failures"), heartbeatFailures},
        {QStringLiteral("last_error"), lastError},
        {QStringLiteral("cpu_percent"), system.cpuPercent < 0 ? QJsonValue() : QJsonValue(system.cpuPercent)},
        {QStringLiteral("mem_used_bytes"), system.memUsedBytes},
        {QStringLiteral("mem_total_bytes"), system.memTotalBytes},
        {QStringLiteral("process_rss_bytes"), system.processRssBytes},
        {QStringLiteral("compute_device"), computeDevice},
        {QStringLiteral("compute_device_id"), computeDeviceId},
        {QStringLiteral("compute_dtype"), computeDtype},
        {QStringLiteral("gpu_memory_budget_bytes"), double(gpuMemoryBudgetBytes)},
        {QStringLiteral("gpus"), gpuList},
        {QStringLiteral("compute_workers"), workerList},
        {QStringLiteral("gpu_telemetry_note"), gpuTelemetryNote},
        // What the GPUs drew (the stored minutes' power): null until read, or when no minute had a power reading.
        {QStringLiteral("energy"), energy && energy->hasReadings
                                       ? QJsonValue(QJsonObject{{QStringLiteral("today_wh"), energy->todayWh},
                                                                {QStringLiteral("week_wh"), energy->weekWh}})
                                       : QJsonValue()},
        {QStringLiteral("tasks"), taskIds},
        {QStringLiteral("joined_task"), joinedTaskId.isEmpty() ? QJsonValue() : QJsonValue(joinedTaskId)},
        {QStringLiteral("checkpoint_version"), checkpointVersion},
        {QStringLiteral("download"),
         download.phase == DownloadProgress::Phase::None ? QJsonValue() : QJsonValue(download.toJson())},
        {QStringLiteral("rollouts"), QJsonObject{{QStringLiteral("batches_accepted"), rollouts.batchesAccepted},
                                                 {QStringLiteral("batches_rejected"), rollouts.batchesRejected},
                                                 {QStringLiteral("outbox_batches"), rollouts.outboxBatches},
                                                 {QStringLiteral("tokens_generated"), rollouts.tokensGenerated},
                                                 {QStringLiteral("tokens_per_second"), rollouts.tokensPerSecond},
                                                 {QStringLiteral("last_mean_reward"), rollouts.lastMeanReward},
                                                 {QStringLiteral("policy_version"), rollouts.policyVersion},
                                                 {QStringLiteral("hub_step"), rollouts.hubStep},
                                                 {QStringLiteral("last_rejection"), rollouts.lastRejection}}},
        {QStringLiteral("progress"), progress.toJson()},
        {QStringLiteral("contribution"), contribution.toJson()},
        {QStringLiteral("diloco"), diloco.toJson()},
        {QStringLiteral("schedule"), schedule.toJson()},
        {QStringLiteral("update"), update.isEmpty() ? QJsonValue() : QJsonValue(update.toJson())},
    };
}

} // namespace cohort
