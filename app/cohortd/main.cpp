// cohortd: the Cohort engine without a window, for servers, scripts and tests.
#include "ControlCommand.h"
#include "DaemonRunner.h"
#include "settings/NetworkProxy.h"
#include "settings/Settings.h"
#include "platform/TerminationSignals.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <cstdio>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("cohortd"));
    QCoreApplication::setOrganizationName(QStringLiteral("Cohort"));
    QCoreApplication::setApplicationVersion(QStringLiteral(COHORT_VERSION_STRING));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Cohort engine, headless. Without --hub it starts a local network."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption hubOption(QStringLiteral("hub"), QStringLiteral("Hub address (default: from settings, else the embedded local network)."), QStringLiteral("url"));
    const QCommandLineOption dataOption(QStringLiteral("data-dir"), QStringLiteral("Folder for identity, checkpoints and state."), QStringLiteral("dir"));
    const QCommandLineOption taskOption(QStringLiteral("task"), QStringLiteral("Join this task once registered."), QStringLiteral("id"));
    const QCommandLineOption durationOption(QStringLiteral("duration"), QStringLiteral("Stop cleanly after this many seconds."), QStringLiteral("seconds"));
    const QCommandLineOption jsonOption(QStringLiteral("json"), QStringLiteral("Print one JSON status line per second instead of the progress line."));
    const QCommandLineOption nameOption(QStringLiteral("name"), QStringLiteral("Node name shown to the hub operator."), QStringLiteral("name"));
    const QCommandLineOption settingsOption(QStringLiteral("settings"), QStringLiteral("Settings file (default: the desktop app's)."), QStringLiteral("file"));
    const QCommandLineOption rateOption(QStringLiteral("max-download-rate"), QStringLiteral("Checkpoint download limit in KiB/s (default: from settings; 0: none)."), QStringLiteral("KiB/s"));
    const QCommandLineOption uploadRateOption(QStringLiteral("max-upload-rate"), QStringLiteral("Upload limit for DiLoCo traffic to peers in KiB/s (default: from settings; 0: none)."), QStringLiteral("KiB/s"));
    const QCommandLineOption gpuMemoryOption(QStringLiteral("gpu-memory"), QStringLiteral("Share of the GPU's memory generation may use, 10..100 % (default: from settings, 90)."), QStringLiteral("percent"));
    const QCommandLineOption heartbeatOption(QStringLiteral("heartbeat-ms"), QStringLiteral("Heartbeat interval override in milliseconds."), QStringLiteral("ms"));
    const QCommandLineOption idleOnlyOption(QStringLiteral("idle-only"), QStringLiteral("Work only while nobody uses this computer's desktop (off by default on a server, whatever the settings say)."));
    const QCommandLineOption scheduleOption(QStringLiteral("schedule"), QStringLiteral("Work only in this window, e.g. \"mon-fri 22:00-06:00\" (repeatable; replaces the settings' schedule)."), QStringLiteral("window"));
    const QCommandLineOption controlOption(QStringLiteral("control"), QStringLiteral("Tell the node running on --data-dir to: status, pause, resume, pause-after-step, snooze:SECONDS; then exit."), QStringLiteral("command"));
    const QCommandLineOption noControlOption(QStringLiteral("no-control-api"), QStringLiteral("Do not offer the local control API."));
    const QCommandLineOption controlPortOption(QStringLiteral("control-port"), QStringLiteral("Port of the local control API on 127.0.0.1 (default: any free port)."), QStringLiteral("port"));
    parser.addOptions({hubOption, dataOption, taskOption, durationOption, jsonOption, nameOption, settingsOption, heartbeatOption, rateOption,
                       uploadRateOption, gpuMemoryOption, idleOnlyOption, scheduleOption, controlOption, noControlOption, controlPortOption});
    parser.process(app);

    cohort::Settings settings(parser.value(settingsOption));
    if (parser.isSet(controlOption)) {
        const QString dataDir = parser.isSet(dataOption) ? QDir(parser.value(dataOption)).absolutePath() : settings.effectiveDataDir();
        return cohort::runControlCommand(dataDir, parser.value(controlOption));
    }
    cohort::DaemonRunner::Options options;
    options.engine.hubUrl = parser.isSet(hubOption) ? cohort::Settings::normalizedHubUrl(parser.value(hubOption)) : settings.values().hubUrl;
    options.engine.dataDir = parser.isSet(dataOption) ? QDir(parser.value(dataOption)).absolutePath() : settings.effectiveDataDir();
    options.engine.nodeName = parser.isSet(nameOption) ? parser.value(nameOption) : settings.effectiveNodeName();
    options.engine.taskId = parser.value(taskOption);
    int rateKiB = settings.values().downloadLimitKiBps;
    if (parser.isSet(rateOption)) {
        bool rateOk = false;
        rateKiB = parser.value(rateOption).toInt(&rateOk);
        if (!rateOk || rateKiB < 0 || rateKiB > cohort::Settings::kMaxDownloadLimitKiBps) {
            std::fprintf(stderr, "cohortd: --max-download-rate must be 0..%d KiB/s\n", cohort::Settings::kMaxDownloadLimitKiBps);
            return 2;
        }
    }
    options.engine.maxDownloadBytesPerSecond = qint64(rateKiB) * 1024;
    int uploadKiB = settings.values().uploadLimitKiBps;
    if (parser.isSet(uploadRateOption)) {
        bool rateOk = false;
        uploadKiB = parser.value(uploadRateOption).toInt(&rateOk);
        if (!rateOk || uploadKiB < 0 || uploadKiB > cohort::Settings::kMaxUploadLimitKiBps) {
            std::fprintf(stderr, "cohortd: --max-upload-rate must be 0..%d KiB/s\n", cohort::Settings::kMaxUploadLimitKiBps);
            return 2;
        }
    }
    options.engine.maxUploadBytesPerSecond = qint64(uploadKiB) * 1024;
    options.engine.payoutAddress = settings.values().payoutAddress; // validated with the settings when they were read
    options.engine.gpuUuids = settings.values().gpuUuids; // CUDA_VISIBLE_DEVICES in the environment still wins
    options.engine.gpuMemoryPercent = settings.values().gpuMemoryPercent;
    if (parser.isSet(gpuMemoryOption)) {
        bool percentOk = false;
        options.engine.gpuMemoryPercent = parser.value(gpuMemoryOption).toInt(&percentOk);
        if (!percentOk || options.engine.gpuMemoryPercent < 10 || options.engine.gpuMemoryPercent > 100) {
            std::fprintf(stderr, "cohortd: --gpu-memory must be 10..100 (percent)\n");
            return 2;
        }
    }
    cohort::applyNetworkProxy(settings.values()); // the same proxy setting as the desktop app
    options.json = parser.isSet(jsonOption);
    options.controlApi = !parser.isSet(noControlOption);
    if (parser.isSet(controlPortOption)) {
        bool portOk = false;
        const uint port = parser.value(controlPortOption).toUInt(&portOk);
        if (!portOk || port > 65535) {
            std::fprintf(stderr, "cohortd: --control-port must be 0..65535\n");
            return 2;
        }
        options.controlPort = quint16(port);
    }
    cohort::SettingsValues scheduling = settings.values();
    scheduling.runOnlyWhenIdle = parser.isSet(idleOnlyOption);
    if (parser.isSet(scheduleOption))
        scheduling.schedule = parser.values(scheduleOption);

    cohort::SettingsValues check = scheduling;
    check.hubUrl = options.engine.hubUrl;
    check.dataDir = options.engine.dataDir;
    check.nodeName = options.engine.nodeName;
    for (const cohort::SettingsError &e : cohort::Settings::validate(check)) {
        std::fprintf(stderr, "cohortd: %s: %s\n", qPrintable(e.key), qPrintable(e.message));
        return 2;
    }
    options.engine.scheduler = cohort::Settings::schedulerPolicy(scheduling);
    bool ok = true;
    if (parser.isSet(durationOption)) {
        options.durationSeconds = parser.value(durationOption).toInt(&ok);
        if (!ok || options.durationSeconds <= 0) {
            std::fprintf(stderr, "cohortd: --duration needs a positive number of seconds\n");
            return 2;
        }
    }
    if (parser.isSet(heartbeatOption)) {
        options.engine.heartbeatIntervalMs = parser.value(heartbeatOption).toInt(&ok);
        if (!ok || options.engine.heartbeatIntervalMs < 100) {
            std::fprintf(stderr, "cohortd: --heartbeat-ms needs at least 100\n");
            return 2;
        }
    }
    if (!options.engine.taskId.isEmpty() && !cohort::TaskInfo::isValidId(options.engine.taskId)) {
        std::fprintf(stderr, "cohortd: --task: '%s' is not a task id\n", qPrintable(options.engine.taskId));
        return 2;
    }

    cohort::DaemonRunner runner(options);
    cohort::TerminationSignals signals;
    QObject::connect(&signals, &cohort::TerminationSignals::terminationRequested, &runner,
                     [&runner](int number) { runner.requestStop(QStringLiteral("signal %1").arg(number)); });
    runner.start();
    return app.exec();
}
