// cohortd: the Cohort engine without a window, for servers, scripts and tests.
#include "ConsoleOutput.h"
#include "ControlCommand.h"
#include "DaemonOptions.h"
#include "DaemonRunner.h"
#include "DoctorCommand.h"
#include "assembly/BuiltinEngineParts.h"
#include "net/BearerToken.h"
#include "platform/Console.h"
#include "platform/FilePermissions.h"
#include "platform/TerminationSignals.h"
#include "settings/NetworkProxy.h"
#include "settings/Settings.h"
#include "settings/SettingsFileWatcher.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <cstdio>
#include <cstdlib>
#include <limits>

int main(int argc, char *argv[])
{
    cohort::registerEngineParts(&cohort::builtinEngineParts()); // the engine is linked into cohortd
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("cohortd"));
    QCoreApplication::setOrganizationName(QStringLiteral("Cohort"));
    QCoreApplication::setApplicationVersion(QStringLiteral(COHORT_VERSION_STRING));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Cohort engine, headless. Without --hub it starts a local network."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption hubOption(
        QStringLiteral("hub"), QStringLiteral("Hub address (default: from settings, else the embedded local network)."),
        QStringLiteral("url"));
    const QCommandLineOption dataOption(QStringLiteral("data-dir"),
                                        QStringLiteral("Folder for identity, checkpoints and state."),
                                        QStringLiteral("dir"));
    const QCommandLineOption taskOption(
        QStringLiteral("task"),
        QStringLiteral("Join this task once registered; 'auto': the task joined last time, else the first of the hub's "
                       "tasks this computer can run."),
        QStringLiteral("id"));
    const QCommandLineOption durationOption(
        QStringLiteral("duration"), QStringLiteral("Stop cleanly after this many seconds."), QStringLiteral("seconds"));
    const QCommandLineOption verboseOption(
        QStringLiteral("verbose"), // -v is --version
        QStringLiteral("Print every event (each batch) and the engine's step-by-step log; without it routine events "
                       "are summarised once a minute and each kind of message is held to a few lines a minute."));
    const QCommandLineOption jsonOption(
        QStringLiteral("json"), QStringLiteral("Print one JSON status line per second instead of the progress line."));
    const QCommandLineOption hubCertificateOption(
        QStringLiteral("hub-certificate"),
        QStringLiteral("Trust this PEM certificate (the hub's own, or a private CA) for an https:// hub, besides the "
                       "system's CAs (default: from settings)."),
        QStringLiteral("file"));
    const QCommandLineOption nameOption(QStringLiteral("name"), QStringLiteral("Node name shown to the hub operator."),
                                        QStringLiteral("name"));
    const QCommandLineOption settingsOption(QStringLiteral("settings"),
                                            QStringLiteral("Settings file (default: the desktop app's)."),
                                            QStringLiteral("file"));
    const QCommandLineOption rateOption(
        QStringLiteral("max-download-rate"),
        QStringLiteral("Checkpoint download limit in KiB/s (default: from settings; 0: none)."),
        QStringLiteral("KiB/s"));
    const QCommandLineOption uploadRateOption(
        QStringLiteral("max-upload-rate"),
        QStringLiteral("Upload limit for DiLoCo traffic to peers in KiB/s (default: from settings; 0: none)."),
        QStringLiteral("KiB/s"));
    const QCommandLineOption gpuMemoryOption(
        QStringLiteral("gpu-memory"),
        QStringLiteral("Share of the GPU's memory generation may use, 10..100 % (default: from settings, 90)."),
        QStringLiteral("percent"));
    const QCommandLineOption heartbeatOption(QStringLiteral("heartbeat-ms"),
                                             QStringLiteral("Heartbeat interval override in milliseconds."),
                                             QStringLiteral("ms"));
    const QCommandLineOption idleOnlyOption(QStringLiteral("idle-only"),
                                            QStringLiteral("Work only while nobody uses this computer's desktop (off "
                                                           "by default on a server, whatever the settings say)."));
    const QCommandLineOption scheduleOption(
        QStringLiteral("schedule"),
        QStringLiteral(
            "Work only in this window, e.g. \"mon-fri 22:00-06:00\" (repeatable; replaces the settings' schedule)."),
        QStringLiteral("window"));
    const QCommandLineOption pauseFullscreenOption(
        QStringLiteral("pause-when-fullscreen"),
        QStringLiteral(
            "Pause while a program runs full screen on this computer's desktop (X11 or Windows; also from settings)."));
    const QCommandLineOption pauseForOption(QStringLiteral("pause-for"),
                                            QStringLiteral("Pause while this program runs, by executable name, e.g. "
                                                           "\"steam\" (repeatable; replaces the settings' list)."),
                                            QStringLiteral("program"));
    const QCommandLineOption pauseGpuBusyOption(
        QStringLiteral("pause-when-gpu-busy"),
        QStringLiteral("Pause while another process computes on the GPU, or renders there with 1 GiB or more (also "
                       "from settings)."));
    const QCommandLineOption controlOption(
        QStringLiteral("control"),
        QStringLiteral("Tell the node running on --data-dir to: status, pause, resume, pause-after-step, "
                       "snooze:SECONDS, pause-gpu:UUID, resume-gpu:UUID (one GPU's worker); then exit."),
        QStringLiteral("command"));
    const QCommandLineOption noControlOption(QStringLiteral("no-control-api"),
                                             QStringLiteral("Do not offer the local control API."));
    const QCommandLineOption controlTokenOption(
        QStringLiteral("control-token-file"),
        QStringLiteral("Ask for this token on the control API (and /metrics) instead of a new random one each start, "
                       "so a Prometheus credentials file stays valid: one line of 32+ characters, e.g. from 'openssl "
                       "rand -hex 32', mode 0600."),
        QStringLiteral("file"));
    parser.addOption(controlTokenOption);
    const QCommandLineOption controlPortOption(
        QStringLiteral("control-port"),
        QStringLiteral("Port of the local control API on 127.0.0.1 (default: any free port)."), QStringLiteral("port"));
    parser.addOption(hubCertificateOption);
    const QCommandLineOption hubKeyOption(
        QStringLiteral("hub-key"),
        QStringLiteral(
            "The hub's public key (base64, as cohort-hub prints it at start), from its operator: registration trusts "
            "only this key, not the first one the hub presents (default: from settings)."),
        QStringLiteral("key"));
    parser.addOption(hubKeyOption);
    const QCommandLineOption doctorOption(
        QStringLiteral("doctor"),
        QStringLiteral("Check this computer against what Cohort needs (hub and its key, clock, reachability by peers, "
                       "disk, memory, BLAS, GPU, data folder, tray) and say how to fix what is wrong; then exit (1 if "
                       "something must be fixed). With --json: one JSON object."));
    parser.addOption(doctorOption);
    parser.addOptions({hubOption,        dataOption,         taskOption,     durationOption,  verboseOption,
                       jsonOption,       nameOption,         settingsOption, heartbeatOption, rateOption,
                       uploadRateOption, gpuMemoryOption,    idleOnlyOption, scheduleOption,  pauseFullscreenOption,
                       pauseForOption,   pauseGpuBusyOption, controlOption,  noControlOption, controlPortOption});
    parser.process(app);

    // From here on Qt's messages (the settings file's complaints included) go through the console's bounds.
    cohort::ConsoleOutput::Options consoleOptions;
    consoleOptions.terminal = !parser.isSet(jsonOption) && cohort::stdoutIsTerminal();
    consoleOptions.verbose = parser.isSet(verboseOption);
    cohort::ConsoleOutput console(consoleOptions);
    if (!parser.isSet(controlOption))
        console.installMessageHandler();

    cohort::Settings settings(parser.value(settingsOption));
    if (parser.isSet(controlOption)) {
        const QString dataDir =
            parser.isSet(dataOption) ? QDir(parser.value(dataOption)).absolutePath() : settings.effectiveDataDir();
        return cohort::runControlCommand(dataDir, parser.value(controlOption));
    }
    // The command line: checked once; each value it sets wins over the settings file, now and after every edit.
    cohort::DaemonOverrides cli;
    if (parser.isSet(hubOption))
        cli.hubUrl = cohort::Settings::normalizedHubUrl(parser.value(hubOption));
    if (parser.isSet(dataOption))
        cli.dataDir = QDir(parser.value(dataOption)).absolutePath();
    if (parser.isSet(hubKeyOption))
        cli.hubKey = parser.value(hubKeyOption).trimmed();
    if (parser.isSet(hubCertificateOption))
        cli.hubCertificate = QFileInfo(parser.value(hubCertificateOption)).absoluteFilePath();
    if (parser.isSet(nameOption))
        cli.nodeName = parser.value(nameOption);
    cli.taskId = parser.value(taskOption);
    const auto intOption = [&parser](const QCommandLineOption &option, int min, int max,
                                     const char *what) -> std::optional<int> {
        bool ok = false;
        const int value = parser.value(option).toInt(&ok);
        if (!ok || value < min || value > max) {
            std::fprintf(stderr, "cohortd: %s\n", what);
            std::exit(2);
        }
        return value;
    };
    if (parser.isSet(rateOption))
        cli.downloadKiBps = intOption(rateOption, 0, cohort::Settings::kMaxDownloadLimitKiBps,
                                      qPrintable(QStringLiteral("--max-download-rate must be 0..%1 KiB/s")
                                                     .arg(cohort::Settings::kMaxDownloadLimitKiBps)));
    if (parser.isSet(uploadRateOption))
        cli.uploadKiBps = intOption(
            uploadRateOption, 0, cohort::Settings::kMaxUploadLimitKiBps,
            qPrintable(
                QStringLiteral("--max-upload-rate must be 0..%1 KiB/s").arg(cohort::Settings::kMaxUploadLimitKiBps)));
    if (parser.isSet(gpuMemoryOption))
        cli.gpuMemoryPercent = intOption(gpuMemoryOption, 10, 100, "--gpu-memory must be 10..100 (percent)");
    cli.idleOnly = parser.isSet(idleOnlyOption);
    if (parser.isSet(scheduleOption))
        cli.schedule = parser.values(scheduleOption);
    cli.pauseWhenFullscreen = parser.isSet(pauseFullscreenOption);
    if (parser.isSet(pauseForOption))
        cli.pauseForPrograms = parser.values(pauseForOption);
    cli.pauseWhenGpuBusy = parser.isSet(pauseGpuBusyOption);
    if (parser.isSet(heartbeatOption))
        cli.heartbeatIntervalMs =
            intOption(heartbeatOption, 100, std::numeric_limits<int>::max(), "--heartbeat-ms needs at least 100")
                .value();
    if (!cli.taskId.isEmpty() && cli.taskId != QLatin1String(cohort::kAutomaticTask) &&
        !cohort::TaskInfo::isValidId(cli.taskId)) {
        std::fprintf(stderr, "cohortd: --task: '%s' is not a task id\n", qPrintable(cli.taskId));
        return 2;
    }

    cohort::DaemonRunner::Options options;
    auto engine = cohort::engineOptionsFrom(settings, cli);
    if (!engine) {
        std::fprintf(stderr, "cohortd: %s\n", qPrintable(engine.error()));
        return 2;
    }
    options.engine = engine.value();
    cohort::applyNetworkProxy(settings.values()); // the same proxy setting as the desktop app
    if (parser.isSet(doctorOption))
        return cohort::runDoctorCommand(options.engine, parser.isSet(jsonOption));
    options.json = parser.isSet(jsonOption);
    options.controlApi = !parser.isSet(noControlOption);
    if (parser.isSet(controlPortOption))
        options.controlPort =
            quint16(intOption(controlPortOption, 0, 65535, "--control-port must be 0..65535").value());
    if (parser.isSet(controlTokenOption)) {
        const QString path = parser.value(controlTokenOption);
        const cohort::Expected<QByteArray> token = cohort::readTokenFile(path);
        if (!token) {
            std::fprintf(stderr, "cohortd: --control-token-file: %s\n", qPrintable(token.error()));
            return 2;
        }
        if (!cohort::isOwnerOnly(path))
            std::fprintf(stderr, "cohortd: warning: %s can be read by other users; chmod 600 it\n", qPrintable(path));
        options.controlToken = *token;
    }
    if (parser.isSet(durationOption))
        options.durationSeconds = intOption(durationOption, 1, std::numeric_limits<int>::max(),
                                            "--duration needs a positive number of seconds")
                                      .value();

    cohort::DaemonRunner runner(options, console);
    cohort::TerminationSignals signals;
    QObject::connect(&signals, &cohort::TerminationSignals::terminationRequested, &runner,
                     [&runner](int number) { runner.requestStop(QStringLiteral("signal %1").arg(number)); });
    // Follow the settings file: an edit (by hand, or the desktop app's Settings when they share the file) applies
    // without a restart, the command line's values still on top.
    cohort::SettingsFileWatcher watcher(settings.filePath());
    QObject::connect(&watcher, &cohort::SettingsFileWatcher::edited, &settings, [&settings] { settings.reload(); });
    QObject::connect(&settings, &cohort::Settings::changed, &runner,
                     [&](const cohort::SettingsValues &values, const cohort::Settings::Changes &changes) {
                         if (changes.contains(cohort::Settings::Change::Proxy))
                             cohort::applyNetworkProxy(values);
                         runner.applySettings(cohort::engineOptionsFrom(settings, cli), changes);
                     });
    runner.start();
    return app.exec();
}
