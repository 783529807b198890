#include "DaemonOptions.h"

namespace cohort {

Expected<EngineOptions> engineOptionsFrom(const Settings &settings, const DaemonOverrides &cli)
{
    const SettingsValues &values = settings.values();
    EngineOptions options;
    options.hubUrl = cli.hubUrl.value_or(values.hubUrl);
    options.dataDir = cli.dataDir.value_or(settings.effectiveDataDir());
    options.nodeName = cli.nodeName.value_or(settings.effectiveNodeName());
    options.hubCertificateFile = cli.hubCertificate.value_or(values.hubCertificate);
    const QString hubKeyText = cli.hubKey.value_or(values.hubKey);
    if (cli.taskId == QLatin1String(kAutomaticTask))
        options.chooseTaskAutomatically = true;
    else
        options.taskId = cli.taskId;
    options.heartbeatIntervalMs = cli.heartbeatIntervalMs;
    options.maxDownloadBytesPerSecond = qint64(cli.downloadKiBps.value_or(values.downloadLimitKiBps)) * 1024;
    options.maxUploadBytesPerSecond = qint64(cli.uploadKiBps.value_or(values.uploadLimitKiBps)) * 1024;
    options.payoutAddress = values.payoutAddress; // validated with the settings when they were read
    options.gpuUuids = values.gpuUuids; // a worker each, among the GPUs CUDA shows (CUDA_VISIBLE_DEVICES limits them)
    options.gpuMemoryPercent = cli.gpuMemoryPercent.value_or(values.gpuMemoryPercent);
    options.gpuMemoryPercentPerGpu = values.gpuMemoryPercentPerGpu;

    SettingsValues scheduling = values;
    scheduling.runOnlyWhenIdle = cli.idleOnly;
    if (cli.schedule)
        scheduling.schedule = *cli.schedule;
    scheduling.pauseWhenFullscreen = scheduling.pauseWhenFullscreen || cli.pauseWhenFullscreen;
    if (cli.pauseForPrograms)
        scheduling.pauseForPrograms = *cli.pauseForPrograms;
    scheduling.pauseWhenGpuBusy = scheduling.pauseWhenGpuBusy || cli.pauseWhenGpuBusy;
    SettingsValues check = scheduling;
    check.hubUrl = options.hubUrl;
    check.dataDir = options.dataDir;
    check.nodeName = options.nodeName;
    check.hubCertificate = options.hubCertificateFile;
    check.hubKey = hubKeyText;
    for (const SettingsError &e : Settings::validate(check))
        return fail(QStringLiteral("%1: %2").arg(e.key, e.message));
    options.hubKey = Settings::hubKeyFromText(hubKeyText);
    options.scheduler = Settings::schedulerPolicy(scheduling);
    return options;
}

} // namespace cohort
