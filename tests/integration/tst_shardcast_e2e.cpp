// SHARDCAST across real processes on 127.0.0.1: cohort-hub publishes, cohortd downloads (bytes identical);
// kill -9 of the node at five points, each resume re-fetching at most parallel x shard size; a relay serving
// corrupted shards is detected and avoided; a stock nginx serving a copied tree works as a relay.
#include "NginxRelay.h"
#include "TestCheckpoint.h"
#include "TestSupport.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace cohort;
using cohort::test::ChildProcess;
using cohort::test::programPath;

namespace {
constexpr qint64 kShardSize = 1 << 20;
constexpr int kParallel = 8; // the downloader's default

struct Hub {
    std::unique_ptr<ChildProcess> process;
    QString url;
    QString relay;
};

QJsonObject lastJson(ChildProcess &p)
{
    const QStringList lines = p.output().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return lines.isEmpty() ? QJsonObject() : QJsonDocument::fromJson(lines.last().toUtf8()).object();
}
} // namespace

class TestShardcastE2E : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_checkpoint;
    QNetworkAccessManager m_net;

    // publish: make the checkpoint version 1 of arith-rl (a restarted hub keeps what it published).
    Hub startHub(const QString &name, const QStringList &extra = {}, bool publish = true)
    {
        QStringList args{QStringLiteral("--shard-size"), QString::number(kShardSize),
                         QStringLiteral("--heartbeat-interval"), QStringLiteral("1")};
        if (publish)
            args << QStringLiteral("--publish") << QStringLiteral("arith-rl=") + m_checkpoint;
        // No trainer unless asked (the fixture's default): the versions here are the test's alone.
        QString why;
        auto started = test::startHub(m_dir.filePath(name), args + extra, &why);
        if (!started) {
            qWarning() << "cohort-hub did not start:" << why;
            return {};
        }
        return Hub{std::move(started->process), started->url, started->relayUrl};
    }
    std::unique_ptr<ChildProcess> startNode(const Hub &hub, const QString &name, const QStringList &extra = {})
    {
        auto node = std::make_unique<ChildProcess>(
            programPath(QStringLiteral("cohortd")),
            QStringList{QStringLiteral("--hub"), hub.url, QStringLiteral("--data-dir"), m_dir.filePath(name),
                        QStringLiteral("--task"), QStringLiteral("arith-rl"), QStringLiteral("--json"),
                        QStringLiteral("--settings"), m_dir.filePath(name + QStringLiteral(".ini"))} +
                extra);
        node->start();
        return node;
    }
    QString modelPath(const QString &node) const
    {
        return m_dir.filePath(node + QStringLiteral("/checkpoints/arith-rl/v1/model.safetensors"));
    }
    qint64 relayBytesServed(const QString &relay)
    {
        QNetworkReply *reply = m_net.get(QNetworkRequest(QUrl(relay + QStringLiteral("/-/stats"))));
        QSignalSpy done(reply, &QNetworkReply::finished);
        if (!reply->isFinished())
            done.wait(10'000);
        const qint64 bytes =
            QJsonDocument::fromJson(reply->readAll()).object().value(QStringLiteral("bytes_served")).toInteger(-1);
        reply->deleteLater();
        return bytes;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_checkpoint = m_dir.filePath(QStringLiteral("policy.safetensors"));
        QCOMPARE(test::writeTestCheckpoint(m_checkpoint, 24 * kShardSize + 777, 11), QString());
    }

    void hubPublishesNodeDownloads()
    {
        Hub hub = startHub(QStringLiteral("hub-a"));
        QVERIFY(!hub.url.isEmpty()); // the hub's stderr is in the warning above
        auto node = startNode(hub, QStringLiteral("node-a"));
        QTRY_VERIFY_WITH_TIMEOUT(lastJson(*node).value(QStringLiteral("checkpoint_version")).toInt() == 1, 60'000);
        QCOMPARE(test::readAll(modelPath(QStringLiteral("node-a"))), test::readAll(m_checkpoint));
        QVERIFY(QFile::exists(m_dir.filePath(QStringLiteral("node-a/checkpoints/arith-rl/v1/stable"))));
        QVERIFY(node->errors().contains(QStringLiteral("verified and ready")));
    }

    // A hub on every address (a server's usual --listen 0.0.0.0) once told nodes its relay was 127.0.0.1: a node on
    // another machine then downloaded from itself and failed. The relay is named by the host the node used.
    void aHubOnEveryAddressNamesItsRelayByTheNodesHost()
    {
        Hub hub = startHub(QStringLiteral("hub-any"), {QStringLiteral("--listen"), QStringLiteral("0.0.0.0")});
        QVERIFY(!hub.url.isEmpty()); // the hub's stderr is in the warning above
        const int apiPort = QUrl(hub.url).port();
        const int relayPort = QUrl(hub.relay).port();
        QVERIFY(apiPort > 0 && relayPort > 0);
        // 127.0.0.2 stands for the server's public address: Linux routes all of 127/8 to the loopback interface.
        for (const QString &host : {QStringLiteral("127.0.0.2"), QStringLiteral("localhost")}) {
            QNetworkReply *reply = m_net.get(QNetworkRequest(
                QUrl(QStringLiteral("http://%1:%2/v1/tasks/arith-rl/checkpoint").arg(host).arg(apiPort))));
            QSignalSpy done(reply, &QNetworkReply::finished);
            QVERIFY(reply->isFinished() || done.wait(15'000));
            const QJsonArray relays =
                QJsonDocument::fromJson(reply->readAll()).object().value(QStringLiteral("relays")).toArray();
            reply->deleteLater();
            QCOMPARE(relays.size(), 1);
            QCOMPARE(relays.at(0).toString(), QStringLiteral("http://%1:%2").arg(host).arg(relayPort));
        }
        // And a node that reached the hub under that name downloads through it.
        Hub named;
        named.url = QStringLiteral("http://127.0.0.2:%1").arg(apiPort);
        auto node = startNode(named, QStringLiteral("node-any"));
        QTRY_VERIFY_WITH_TIMEOUT(lastJson(*node).value(QStringLiteral("checkpoint_version")).toInt() == 1, 60'000);
        QCOMPARE(test::readAll(modelPath(QStringLiteral("node-any"))), test::readAll(m_checkpoint));
    }

    void killNineFiveTimesThenResume()
    {
        Hub hub = startHub(QStringLiteral("hub-k"));
        QVERIFY(!hub.url.isEmpty());
        const qint64 fileSize = QFileInfo(m_checkpoint).size();
        // 2 MiB/s keeps the 24 MiB download running for ~12 s, so all five kills land mid-transfer
        // (each run advances at most 1.5 MiB past the last plus one status line, ~2 MiB).
        const QStringList slow{QStringLiteral("--max-download-rate"), QStringLiteral("2048")};
        qint64 lastDone = 0;
        for (int kill = 0; kill < 5; ++kill) {
            auto node = startNode(hub, QStringLiteral("node-k"), slow);
            // Kill at a random point past where the previous run got to.
            const qint64 target = lastDone + qint64(QRandomGenerator::global()->bounded(1 << 19, 3 << 19));
            QTRY_VERIFY_WITH_TIMEOUT(lastJson(*node)
                                                 .value(QStringLiteral("download"))
                                                 .toObject()
                                                 .value(QStringLiteral("done_bytes"))
                                                 .toInteger() >= target ||
                                         lastJson(*node).value(QStringLiteral("checkpoint_version")).toInt() == 1,
                                     60'000);
            QVERIFY2(lastJson(*node).value(QStringLiteral("checkpoint_version")).toInt() == 0,
                     "finished before the fifth kill");
            lastDone = lastJson(*node)
                           .value(QStringLiteral("download"))
                           .toObject()
                           .value(QStringLiteral("done_bytes"))
                           .toInteger();
            node->process().kill(); // SIGKILL: no chance to save anything
            QVERIFY(node->process().waitForFinished(10'000));
        }
        auto node = startNode(hub, QStringLiteral("node-k"));
        QTRY_VERIFY_WITH_TIMEOUT(lastJson(*node).value(QStringLiteral("checkpoint_version")).toInt() == 1, 60'000);
        QCOMPARE(test::readAll(modelPath(QStringLiteral("node-k"))), test::readAll(m_checkpoint));
        const qint64 served = relayBytesServed(hub.relay);
        const qint64 refetched = served - fileSize;
        qInfo("relay served %lld bytes for a %lld-byte file: %lld re-fetched over 5 kills (bound %lld per kill)",
              served, fileSize, refetched, kParallel * kShardSize);
        QVERIFY(served >= fileSize);
        QVERIFY2(refetched <= 5 * kParallel * kShardSize, qPrintable(QString::number(refetched)));
    }

    void corruptedRelayIsAvoided()
    {
        // A middle relay (cohort-hub --serve-dir) whose every shard is corrupted, listed first.
        Hub origin = startHub(QStringLiteral("hub-c"));
        QVERIFY(!origin.url.isEmpty());
        origin.process->terminateAndWait(10'000, nullptr);
        const QString tree = m_dir.filePath(QStringLiteral("hub-c/shardcast"));
        const QString copy = m_dir.filePath(QStringLiteral("poisoned-tree"));
        QVERIFY(QDir().mkpath(copy + QStringLiteral("/arith-rl/v1")));
        QFile::copy(tree + QStringLiteral("/arith-rl/index.json"), copy + QStringLiteral("/arith-rl/index.json"));
        for (const QFileInfo &fi : QDir(tree + QStringLiteral("/arith-rl/v1")).entryInfoList(QDir::Files)) {
            QByteArray bytes = test::readAll(fi.filePath());
            if (fi.fileName().startsWith(QStringLiteral("shard_")))
                bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x5a);
            QFile out(copy + QStringLiteral("/arith-rl/v1/") + fi.fileName());
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(bytes);
        }
        ChildProcess bad(programPath(QStringLiteral("cohort-hub")),
                         {QStringLiteral("--serve-dir"), copy, QStringLiteral("--relay-port"), QStringLiteral("0")});
        QVERIFY(bad.start());
        QVERIFY(bad.waitForOutput(QStringLiteral("relay serving"), 20'000));
        const QString badUrl = QRegularExpression(QStringLiteral("on (http://\\S+)")).match(bad.output()).captured(1);
        Hub hub = startHub(QStringLiteral("hub-c"), {QStringLiteral("--relay"), badUrl}, false); // v1 already there
        QVERIFY(!hub.url.isEmpty());
        auto node = startNode(hub, QStringLiteral("node-c"));
        QElapsedTimer clock;
        clock.start();
        QTRY_VERIFY_WITH_TIMEOUT(lastJson(*node).value(QStringLiteral("checkpoint_version")).toInt() == 1, 90'000);
        qInfo("downloaded past the poisoned relay in %lld ms", clock.elapsed());
        QCOMPARE(test::readAll(modelPath(QStringLiteral("node-c"))), test::readAll(m_checkpoint));
        // The bad relay was tried (it is listed and starts with the same score) and named in the log.
        QVERIFY2(node->errors().contains(QStringLiteral("failed its SHA-256 check")),
                 qPrintable(node->errors().right(2000)));
        QVERIFY(node->errors().contains(badUrl));
    }

    void middleRelayMirrorsUpstream()
    {
        Hub origin = startHub(QStringLiteral("hub-m"));
        QVERIFY(!origin.url.isEmpty());
        const QString key =
            QRegularExpression(QStringLiteral("key (\\S+)\\)")).match(origin.process->output()).captured(1);
        QVERIFY(!key.isEmpty());
        // A mirror trusting the wrong key refuses the manifest and publishes nothing.
        const QString wrongKey = QString::fromLatin1(QByteArray(32, 'w').toBase64());
        ChildProcess impostor(programPath(QStringLiteral("cohort-hub")),
                              {QStringLiteral("--serve-dir"), m_dir.filePath(QStringLiteral("mirror-wrong")),
                               QStringLiteral("--relay-of"), origin.relay, QStringLiteral("--hub-key"), wrongKey,
                               QStringLiteral("--mirror-task"), QStringLiteral("arith-rl"),
                               QStringLiteral("--poll-seconds"), QStringLiteral("1"), QStringLiteral("--data-dir"),
                               m_dir.filePath(QStringLiteral("mirror-wrong-data"))});
        QVERIFY(impostor.start());
        QTRY_VERIFY_WITH_TIMEOUT(impostor.errors().contains(QStringLiteral("refused the checkpoint manifest")), 20'000);
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("mirror-wrong/arith-rl/index.json"))));

        ChildProcess mirror(programPath(QStringLiteral("cohort-hub")),
                            {QStringLiteral("--serve-dir"), m_dir.filePath(QStringLiteral("mirror")),
                             QStringLiteral("--relay-of"), origin.relay, QStringLiteral("--hub-key"), key,
                             QStringLiteral("--mirror-task"), QStringLiteral("arith-rl"),
                             QStringLiteral("--poll-seconds"), QStringLiteral("1"), QStringLiteral("--data-dir"),
                             m_dir.filePath(QStringLiteral("mirror-data"))});
        QVERIFY(mirror.start());
        QVERIFY2(mirror.waitForOutput(QStringLiteral("mirrored arith-rl v1"), 60'000), qPrintable(mirror.errors()));
        const QString mirrorUrl =
            QRegularExpression(QStringLiteral("on (http://\\S+)")).match(mirror.output()).captured(1);
        // Nodes now fetch only from the mirror, and verify against the origin's signature as usual.
        origin.process->terminateAndWait(10'000, nullptr);
        Hub hub = startHub(QStringLiteral("hub-m"),
                           {QStringLiteral("--relay"), mirrorUrl, QStringLiteral("--no-self-relay")}, false);
        auto node = startNode(hub, QStringLiteral("node-m"));
        QTRY_VERIFY_WITH_TIMEOUT(lastJson(*node).value(QStringLiteral("checkpoint_version")).toInt() == 1, 60'000);
        QCOMPARE(test::readAll(modelPath(QStringLiteral("node-m"))), test::readAll(m_checkpoint));
        QVERIFY(relayBytesServed(mirrorUrl) >= QFileInfo(m_checkpoint).size());
        QCOMPARE(relayBytesServed(hub.relay), 0);
    }

    void nginxServesACopiedTree()
    {
        test::NginxRelay nginx;
        if (!nginx.isAvailable())
            QSKIP("nginx is not installed (installer/install-deps-debian.sh installs nginx-light)");
        Hub origin = startHub(QStringLiteral("hub-n"));
        QVERIFY(!origin.url.isEmpty());
        const QString tree = m_dir.filePath(QStringLiteral("hub-n/shardcast"));
        const QString error = nginx.start(tree); // a copy is not even needed: nginx reads the same files
        QVERIFY2(error.isEmpty(), qPrintable(error));
        origin.process->terminateAndWait(10'000, nullptr);
        Hub hub = startHub(QStringLiteral("hub-n"),
                           {QStringLiteral("--relay"), nginx.url(), QStringLiteral("--no-self-relay")}, false);
        auto node = startNode(hub, QStringLiteral("node-n"));
        QTRY_VERIFY_WITH_TIMEOUT(lastJson(*node).value(QStringLiteral("checkpoint_version")).toInt() == 1, 60'000);
        QCOMPARE(test::readAll(modelPath(QStringLiteral("node-n"))), test::readAll(m_checkpoint));
        QVERIFY(nginx.accessLog().contains(QStringLiteral("GET /arith-rl/v1/shard_00001.bin")));
        QCOMPARE(relayBytesServed(hub.relay), 0); // the hub's own relay was not used
    }
};

QTEST_GUILESS_MAIN(TestShardcastE2E)
#include "tst_shardcast_e2e.moc"
