// cohort-hub: the coordinator a network operator runs (the desktop app embeds the same service).
#include "hub/HubService.h"
#include "platform/TerminationSignals.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QStandardPaths>
#include <cstdio>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("cohort-hub"));
    QCoreApplication::setOrganizationName(QStringLiteral("Cohort"));
    QCoreApplication::setApplicationVersion(QStringLiteral(COHORT_VERSION_STRING));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Cohort hub: task board, node registry and (later) verification and training."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption listenOption(QStringLiteral("listen"), QStringLiteral("Address to listen on (default 127.0.0.1)."), QStringLiteral("address"), QStringLiteral("127.0.0.1"));
    const QCommandLineOption portOption(QStringLiteral("port"), QStringLiteral("TCP port (default 8420; 0 picks a free one)."), QStringLiteral("port"), QStringLiteral("8420"));
    const QCommandLineOption dataOption(QStringLiteral("data-dir"), QStringLiteral("Folder for the database and the hub key."), QStringLiteral("dir"));
    const QCommandLineOption catalogueOption(QStringLiteral("catalogue"), QStringLiteral("Task catalogue JSON file (default: the built-in one)."), QStringLiteral("file"));
    const QCommandLineOption heartbeatOption(QStringLiteral("heartbeat-interval"), QStringLiteral("Seconds between node heartbeats (default 10)."), QStringLiteral("seconds"), QStringLiteral("10"));
    parser.addOptions({listenOption, portOption, dataOption, catalogueOption, heartbeatOption});
    parser.process(app);

    cohort::HubConfig config;
    if (!config.address.setAddress(parser.value(listenOption))) {
        std::fprintf(stderr, "cohort-hub: --listen: '%s' is not an IP address\n", qPrintable(parser.value(listenOption)));
        return 2;
    }
    bool ok = false;
    const uint port = parser.value(portOption).toUInt(&ok);
    if (!ok || port > 65535) {
        std::fprintf(stderr, "cohort-hub: --port must be 0..65535\n");
        return 2;
    }
    config.port = quint16(port);
    config.heartbeatIntervalS = parser.value(heartbeatOption).toInt(&ok);
    if (!ok || config.heartbeatIntervalS < 1 || config.heartbeatIntervalS > 3600) {
        std::fprintf(stderr, "cohort-hub: --heartbeat-interval must be 1..3600 seconds\n");
        return 2;
    }
    config.dataDir = parser.isSet(dataOption)
                         ? QDir(parser.value(dataOption)).absolutePath()
                         : QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QStringLiteral("/cohort-hub");
    config.catalogueFile = parser.value(catalogueOption);

    cohort::HubService hub(config);
    if (cohort::Status started = hub.start(); !started) {
        std::fprintf(stderr, "cohort-hub: %s\n", qPrintable(started.error()));
        return 1;
    }
    std::fprintf(stdout, "cohort-hub listening on %s (data in %s, key %s)\n", qPrintable(hub.url()),
                 qPrintable(config.dataDir), qPrintable(hub.hubKeyBase64()));
    std::fflush(stdout);

    cohort::TerminationSignals signals;
    QObject::connect(&signals, &cohort::TerminationSignals::terminationRequested, &app, [](int number) {
        std::fprintf(stderr, "cohort-hub: signal %d, shutting down\n", number);
        QCoreApplication::quit();
    });
    return app.exec();
}
