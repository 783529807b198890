// cohort-hub: the coordinator a network operator runs (the desktop app embeds the same service).
#include "ClientOptions.h"
#include "ListenerOptions.h"
#include "hub/HubService.h"
#include "hub/RlCoordinator.h"
#include "hub/TaskCatalogue.h"
#include "platform/TerminationSignals.h"
#include "shardcast/Mirror.h"
#include "shardcast/RelayServer.h"

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
    parser.setApplicationDescription(QStringLiteral("Cohort hub: task board, node registry, rollout verification, GRPO "
                                                    "training, checkpoint publishing and the earnings ledger."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption listenOption(QStringLiteral("listen"),
                                          QStringLiteral("Address to listen on (default 127.0.0.1)."),
                                          QStringLiteral("address"), QStringLiteral("127.0.0.1"));
    const QCommandLineOption portOption(QStringLiteral("port"),
                                        QStringLiteral("TCP port (default 8420; 0 picks a free one)."),
                                        QStringLiteral("port"), QStringLiteral("8420"));
    const QCommandLineOption dataOption(
        QStringLiteral("data-dir"), QStringLiteral("Folder for the database and the hub key."), QStringLiteral("dir"));
    const QCommandLineOption catalogueOption(QStringLiteral("catalogue"),
                                             QStringLiteral("Task catalogue JSON file (default: the built-in one)."),
                                             QStringLiteral("file"));
    const QCommandLineOption heartbeatOption(QStringLiteral("heartbeat-interval"),
                                             QStringLiteral("Seconds between node heartbeats (default 10)."),
                                             QStringLiteral("seconds"), QStringLiteral("10"));
    const QCommandLineOption publishOption(
        QStringLiteral("publish"),
        QStringLiteral("Publish a safetensors checkpoint as the next version of a task (repeatable)."),
        QStringLiteral("task=file"));
    const QCommandLineOption relayOption(
        QStringLiteral("relay"),
        QStringLiteral("Another relay serving a copy of the checkpoint tree, listed to nodes (repeatable)."),
        QStringLiteral("url"));
    const QCommandLineOption relayPortOption(
        QStringLiteral("relay-port"),
        QStringLiteral("Port of the hub's own checkpoint relay (default: any free port)."), QStringLiteral("port"),
        QStringLiteral("0"));
    const QCommandLineOption noSelfRelayOption(
        QStringLiteral("no-self-relay"),
        QStringLiteral("Do not list the hub's own relay to nodes (serve checkpoints only through --relay)."));
    const QCommandLineOption shardSizeOption(QStringLiteral("shard-size"),
                                             QStringLiteral("Checkpoint shard size in bytes (default 32 MiB)."),
                                             QStringLiteral("bytes"));
    const QCommandLineOption keepOption(QStringLiteral("keep"),
                                        QStringLiteral("Checkpoint versions kept per task (default 3)."),
                                        QStringLiteral("n"), QStringLiteral("3"));
    const QCommandLineOption serveDirOption(QStringLiteral("serve-dir"),
                                            QStringLiteral("Only serve a copied checkpoint tree as a relay (no API)."),
                                            QStringLiteral("dir"));
    const QCommandLineOption relayOfOption(
        QStringLiteral("relay-of"),
        QStringLiteral("With --serve-dir: mirror this upstream hub relay or relay into the served tree."),
        QStringLiteral("url"));
    const QCommandLineOption hubKeyOption(
        QStringLiteral("hub-key"),
        QStringLiteral("With --relay-of: the origin hub's public key (base64, printed by cohort-hub at start)."),
        QStringLiteral("key"));
    const QCommandLineOption mirrorTaskOption(QStringLiteral("mirror-task"),
                                              QStringLiteral("With --relay-of: a task to mirror (repeatable)."),
                                              QStringLiteral("id"));
    const QCommandLineOption pollOption(
        QStringLiteral("poll-seconds"),
        QStringLiteral("With --relay-of: seconds between upstream checks (default 30)."), QStringLiteral("s"),
        QStringLiteral("30"));
    const QCommandLineOption dilocoPortOption(
        QStringLiteral("diloco-port"),
        QStringLiteral("First port of the DiLoCo collectives masters, one per diloco task (default: any free port)."),
        QStringLiteral("port"), QStringLiteral("0"));
    const QCommandLineOption ackDelayOption(
        QStringLiteral("rollout-ack-delay-ms"),
        QStringLiteral("Testing: answer rollout submissions this many ms late (default 0)."), QStringLiteral("ms"),
        QStringLiteral("0"));
    const QCommandLineOption trainOption(QStringLiteral("train"),
                                         QStringLiteral("Train this RL task (repeatable; 'none': no trainer). Default: "
                                                        "every RL task of the catalogue, from the start."),
                                         QStringLiteral("task"));
    const QCommandLineOption unflagOption(
        QStringLiteral("unflag"),
        QStringLiteral("Lift a node's TOPLOC flag (node or node:task) in the hub database, then exit."),
        QStringLiteral("node[:task]"));
    parser.addOption(unflagOption);
    parser.addOption(ackDelayOption);
    parser.addOption(dilocoPortOption);
    parser.addOption(trainOption);
    parser.addOptions({listenOption, portOption, dataOption, catalogueOption, heartbeatOption, publishOption,
                       relayOption, relayPortOption, noSelfRelayOption, shardSizeOption, keepOption, serveDirOption,
                       relayOfOption, hubKeyOption, mirrorTaskOption, pollOption});
    cohort::hubcli::ListenerOptions listenerOptions;
    listenerOptions.addTo(parser);
    cohort::hubcli::ClientOptions clientOptions;
    clientOptions.addTo(parser);
    parser.process(app);

    cohort::HubConfig config;
    if (!config.address.setAddress(parser.value(listenOption))) {
        std::fprintf(stderr, "cohort-hub: --listen: '%s' is not an IP address\n",
                     qPrintable(parser.value(listenOption)));
        return 2;
    }
    bool ok = false;
    const uint port = parser.value(portOption).toUInt(&ok);
    if (!ok || port > 65535) {
        std::fprintf(stderr, "cohort-hub: --port must be 0..65535\n");
        return 2;
    }
    config.port = quint16(port);
    if (const QString problem = listenerOptions.apply(parser, &config); !problem.isEmpty()) {
        std::fprintf(stderr, "cohort-hub: %s\n", qPrintable(problem));
        return 2;
    }
    if (const QString problem = clientOptions.apply(parser, &config); !problem.isEmpty()) {
        std::fprintf(stderr, "cohort-hub: %s\n", qPrintable(problem));
        return 2;
    }
    config.heartbeatIntervalS = parser.value(heartbeatOption).toInt(&ok);
    if (!ok || config.heartbeatIntervalS < 1 || config.heartbeatIntervalS > 3600) {
        std::fprintf(stderr, "cohort-hub: --heartbeat-interval must be 1..3600 seconds\n");
        return 2;
    }
    config.dataDir = parser.isSet(dataOption) ? QDir(parser.value(dataOption)).absolutePath()
                                              : QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
                                                    QStringLiteral("/cohort-hub");
    config.catalogueFile = parser.value(catalogueOption);
    // Trainers start from the catalogue or the operator's --train, never because some node joined a task.
    config.trainersOnDemand = false;
    config.extraRelays = parser.values(relayOption);
    config.selfRelay = !parser.isSet(noSelfRelayOption);
    const uint relayPort = parser.value(relayPortOption).toUInt(&ok);
    if (!ok || relayPort > 65535) {
        std::fprintf(stderr, "cohort-hub: --relay-port must be 0..65535\n");
        return 2;
    }
    config.relayPort = quint16(relayPort);
    const uint dilocoPort = parser.value(dilocoPortOption).toUInt(&ok);
    if (!ok || dilocoPort > 65535) {
        std::fprintf(stderr, "cohort-hub: --diloco-port must be 0..65535\n");
        return 2;
    }
    config.dilocoPort = quint16(dilocoPort);
    if (parser.isSet(shardSizeOption)) {
        config.shardSize = parser.value(shardSizeOption).toLongLong(&ok);
        if (!ok || config.shardSize < cohort::shardcast::kMinShardSize ||
            config.shardSize > cohort::shardcast::kMaxShardSize) {
            std::fprintf(stderr, "cohort-hub: --shard-size must be %lld..%lld bytes\n",
                         cohort::shardcast::kMinShardSize, cohort::shardcast::kMaxShardSize);
            return 2;
        }
    }
    config.rolloutAckDelayMs = parser.value(ackDelayOption).toInt(&ok);
    if (!ok || config.rolloutAckDelayMs < 0 || config.rolloutAckDelayMs > 600000) {
        std::fprintf(stderr, "cohort-hub: --rollout-ack-delay-ms must be 0..600000\n");
        return 2;
    }
    config.keepVersions = parser.value(keepOption).toInt(&ok);
    if (!ok || config.keepVersions < 1 || config.keepVersions > 100) {
        std::fprintf(stderr, "cohort-hub: --keep must be 1..100\n");
        return 2;
    }

    cohort::TerminationSignals signals;
    QObject::connect(&signals, &cohort::TerminationSignals::terminationRequested, &app, [](int number) {
        std::fprintf(stderr, "cohort-hub: signal %d, shutting down\n", number);
        QCoreApplication::quit();
    });

    if (parser.isSet(unflagOption)) {
        const QString spec = parser.value(unflagOption);
        const qsizetype colon = spec.indexOf(QLatin1Char(':'));
        const QString node = colon < 0 ? spec : spec.left(colon);
        const QString task = colon < 0 ? QString() : spec.mid(colon + 1);
        if (cohort::Status cleared = cohort::HubService::clearNodeFlag(config.dataDir, node, task); !cleared) {
            std::fprintf(stderr, "cohort-hub: --unflag: %s\n", qPrintable(cleared.error()));
            return 1;
        }
        std::fprintf(stdout, "cleared the TOPLOC flag of %s\n", qPrintable(spec));
        return 0;
    }
    if (parser.isSet(serveDirOption)) {
        // A plain relay for a copied tree: the same static server the hub uses for its own tree.
        cohort::shardcast::RelayServer relay(QDir(parser.value(serveDirOption)).absolutePath());
        relay.setListenerLimits(config.relayLimits);
        QString error;
        if (!relay.listenOn(config.address, config.relayPort, &error)) {
            std::fprintf(stderr, "cohort-hub: %s\n", qPrintable(error));
            return 1;
        }
        std::unique_ptr<cohort::shardcast::Mirror> mirror;
        if (parser.isSet(relayOfOption)) {
            cohort::shardcast::MirrorConfig mc;
            mc.upstream = parser.value(relayOfOption);
            mc.tasks = parser.values(mirrorTaskOption);
            mc.treeRoot = relay.root();
            mc.workDir = config.dataDir + QStringLiteral("/mirror-downloads");
            mc.hubKey = QByteArray::fromBase64(parser.value(hubKeyOption).toLatin1());
            mc.keepVersions = config.keepVersions;
            mc.pollSeconds = parser.value(pollOption).toInt(&ok);
            const QUrl upstream(mc.upstream);
            if (!upstream.isValid() ||
                (upstream.scheme() != QLatin1String("http") && upstream.scheme() != QLatin1String("https"))) {
                std::fprintf(stderr, "cohort-hub: --relay-of needs an http(s) URL\n");
                return 2;
            }
            if (mc.hubKey.size() != 32) {
                std::fprintf(stderr, "cohort-hub: --relay-of needs --hub-key (the origin hub's base64 public key)\n");
                return 2;
            }
            if (mc.tasks.isEmpty() || !ok || mc.pollSeconds < 1) {
                std::fprintf(stderr,
                             "cohort-hub: --relay-of needs at least one --mirror-task and --poll-seconds >= 1\n");
                return 2;
            }
            for (const QString &task : mc.tasks) {
                if (!cohort::TaskInfo::isValidId(task)) {
                    std::fprintf(stderr, "cohort-hub: --mirror-task: '%s' is not a task id\n", qPrintable(task));
                    return 2;
                }
            }
            mirror = std::make_unique<cohort::shardcast::Mirror>(mc);
            QObject::connect(mirror.get(), &cohort::shardcast::Mirror::mirrored, &app,
                             [](const QString &task, int version) {
                                 std::fprintf(stdout, "mirrored %s v%d\n", qPrintable(task), version);
                                 std::fflush(stdout);
                             });
            QObject::connect(mirror.get(), &cohort::shardcast::Mirror::problem, &app, [](const QString &message) {
                std::fprintf(stderr, "cohort-hub: mirror: %s\n", qPrintable(message));
            });
        }
        std::fprintf(stdout, "cohort-hub relay serving %s on %s\n", qPrintable(relay.root()), qPrintable(relay.url()));
        std::fflush(stdout);
        if (mirror)
            mirror->start();
        return app.exec();
    }

    cohort::HubService hub(config);
    if (cohort::Status started = hub.start(); !started) {
        std::fprintf(stderr, "cohort-hub: %s\n", qPrintable(started.error()));
        return 1;
    }
    for (const QString &spec : parser.values(publishOption)) {
        const qsizetype eq = spec.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            std::fprintf(stderr, "cohort-hub: --publish needs task=file, got '%s'\n", qPrintable(spec));
            return 2;
        }
        auto published = hub.publish(spec.left(eq), spec.mid(eq + 1));
        if (!published) {
            std::fprintf(stderr, "cohort-hub: %s\n", qPrintable(published.error()));
            return 1;
        }
        std::fprintf(stdout, "published %s v%d (%lld bytes, %lld shards)\n", qPrintable(published->manifest.task),
                     published->manifest.version, published->manifest.fileSize,
                     qint64(published->manifest.shards.size()));
    }
    QObject::connect(hub.rl(), &cohort::RlCoordinator::versionPublished, &app, [](const QString &task, int version) {
        std::fprintf(stdout, "trainer: %s v%d ready\n", qPrintable(task), version);
        std::fflush(stdout);
    });
    QStringList trained = parser.values(trainOption);
    if (trained.isEmpty())
        for (const cohort::TaskInfo &task : hub.catalogue().tasks())
            if (task.rl)
                trained.append(task.id);
    if (trained == QStringList{QStringLiteral("none")})
        trained.clear();
    for (const QString &task : std::as_const(trained)) {
        if (!cohort::TaskInfo::isValidId(task)) {
            std::fprintf(stderr, "cohort-hub: --train: '%s' is not a task id\n", qPrintable(task));
            return 2;
        }
        const cohort::TaskInfo *info = hub.catalogue().find(task);
        if (!info || !info->rl) {
            std::fprintf(stderr, "cohort-hub: --train: the catalogue has no RL task '%s'\n", qPrintable(task));
            return 2;
        }
        hub.rl()->ensureTrainer(task);
    }
    std::fprintf(stdout, "cohort-hub listening on %s (relay %s, data in %s, key %s)\n", qPrintable(hub.url()),
                 qPrintable(hub.relayUrl()), qPrintable(config.dataDir), qPrintable(hub.hubKeyBase64()));
    std::fflush(stdout);
    return app.exec();
}
