// SHARDCAST pieces in one process, over real loopback sockets: manifests and their signatures, the publisher,
// the Range relay, relay scoring, the progress record, and the downloader against good and bad relays.
#include "TestCheckpoint.h"
#include "net/Ed25519.h"
#include "net/Identity.h"
#include "shardcast/DownloadState.h"
#include "shardcast/Downloader.h"
#include "shardcast/Publisher.h"
#include "shardcast/RelayScore.h"
#include "shardcast/RelayServer.h"
#include "shardcast/ShardFetch.h"
#include "shardcast/ShardPieces.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTimer>

using namespace cohort;
using namespace cohort::shardcast;

class TestShardcast : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::optional<Identity> m_hub;
    std::optional<Identity> m_other;
    QString m_checkpoint;
    QString m_tree;
    std::optional<SignedManifest> m_published;

    static QString copyTree(const QString &from, const QString &to)
    {
        QDir().mkpath(to);
        for (const QFileInfo &fi : QDir(from).entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot)) {
            const QString target = QDir(to).filePath(fi.fileName());
            if (fi.isDir())
                copyTree(fi.filePath(), target);
            else
                QFile::copy(fi.filePath(), target);
        }
        return to;
    }
    DownloadRequest requestFor(const QStringList &relays, const QString &dir) const
    {
        DownloadRequest r;
        r.taskId = QStringLiteral("arith-rl");
        r.manifestBytes = m_published->bytes;
        r.signatureBytes = m_published->signatureFileBytes();
        r.pinnedHubKey = m_hub->publicKey();
        r.relays = relays;
        r.checkpointsDir = dir;
        r.stallTimeoutMs = 1500;
        return r;
    }
    QList<qint64> shardSizes() const
    {
        QList<qint64> sizes;
        for (const ShardInfo &shard : m_published->manifest.shards)
            sizes.append(shard.size);
        return sizes;
    }
    // Runs a download to its end; returns the model path or an empty string (and the error).
    static QString runDownload(Downloader &d, QString *error = nullptr)
    {
        QSignalSpy finished(&d, &Downloader::finished);
        QSignalSpy failed(&d, &Downloader::failed);
        d.start();
        (void)QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, 60'000);
        if (error && !failed.isEmpty())
            *error = failed.first().first().toString();
        return finished.isEmpty() ? QString() : finished.first().first().toString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        auto hub = Identity::loadOrCreate(m_dir.filePath(QStringLiteral("hubkey")));
        auto other = Identity::loadOrCreate(m_dir.filePath(QStringLiteral("otherkey")));
        QVERIFY(hub && other);
        m_hub = *hub;
        m_other = *other;
        m_checkpoint = m_dir.filePath(QStringLiteral("model.safetensors"));
        QCOMPARE(test::writeTestCheckpoint(m_checkpoint, 3 * 1024 * 1024 + 12345, 7), QString());
        m_tree = m_dir.filePath(QStringLiteral("tree"));
        Publisher publisher(m_tree, *m_hub, 256 * 1024, 3);
        auto published = publisher.publish(QStringLiteral("arith-rl"), m_checkpoint);
        QVERIFY2(published, qPrintable(published.error()));
        m_published = *published;
    }

    void manifestIsConsistentAndSigned()
    {
        const Manifest &m = m_published->manifest;
        QCOMPARE(m.version, 1);
        QCOMPARE(m.fileSize, QFileInfo(m_checkpoint).size());
        QCOMPARE(m.shards.size(), (m.fileSize + m.shardSize - 1) / m.shardSize);
        QCOMPARE(m.fileSha256, Sha256::hash(test::readAll(m_checkpoint)));
        auto again = SignedManifest::verify(m_published->bytes, m_published->signatureFileBytes(), m_hub->publicKey());
        QVERIFY2(again, qPrintable(again.error()));
        QCOMPARE(again->manifest, m);
        // The shard files on the tree are the pieces of the checkpoint.
        QByteArray joined;
        for (int i = 0; i < m.shards.size(); ++i)
            joined += test::readAll(m_tree + QStringLiteral("/arith-rl/v1/") + shardFileName(i));
        QCOMPARE(joined, test::readAll(m_checkpoint));
    }

    void forgedOrForeignManifestsAreRefused()
    {
        // Wrong key pinned: the hub we trust did not sign this.
        auto foreign =
            SignedManifest::verify(m_published->bytes, m_published->signatureFileBytes(), m_other->publicKey());
        QVERIFY(!foreign);
        QVERIFY(foreign.error().contains(QStringLiteral("not by the hub")));
        // Altered manifest (a shard hash swapped for the attacker's).
        QByteArray altered = m_published->bytes;
        altered.replace(m_published->manifest.shards[0].sha256.toHex(), QByteArray(64, 'a'));
        auto forged = SignedManifest::verify(altered, m_published->signatureFileBytes(), m_hub->publicKey());
        QVERIFY(!forged);
        QVERIFY(forged.error().contains(QStringLiteral("does not verify")));
        // Signed by another key but claiming ours.
        SignedManifest evil = *m_published;
        evil.signature = m_other->sign(signingMessage(altered));
        QVERIFY(!SignedManifest::verify(altered, evil.signatureFileBytes(), m_hub->publicKey()));
        // Missing or garbage signature file.
        QVERIFY(!SignedManifest::verify(m_published->bytes, QByteArray(), m_hub->publicKey()));
        QVERIFY(!SignedManifest::verify(m_published->bytes, "{\"key\":5}", m_hub->publicKey()));
    }

    void badManifestsAreRefused_data()
    {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("sizes do not add up")
            << QByteArray("\"file_size\": ") << QByteArray("\"file_size\": 1") << "shards";
        QTest::newRow("traversal in file name")
            << QByteArray("\"model.safetensors\"") << QByteArray("\"../../.bashrc\"") << "unsafe";
        QTest::newRow("traversal in task")
            << QByteArray("\"task\": \"arith-rl\"") << QByteArray("\"task\": \"../etc\"") << "task id";
        QTest::newRow("bad hash") << QByteArray("\"file_sha256\": \"") << QByteArray("\"file_sha256\": \"zz")
                                  << "file_sha256";
        QTest::newRow("tiny shard size") << QByteArray("\"shard_size\": 262144") << QByteArray("\"shard_size\": 1")
                                         << "shard_size";
        QTest::newRow("unknown format") << QByteArray("cohort-shardcast-v1") << QByteArray("cohort-shardcast-v9")
                                        << "format";
    }
    void badManifestsAreRefused()
    {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(QString, fragment);
        QByteArray bytes = m_published->bytes;
        QVERIFY2(bytes.contains(from), bytes.left(300).constData());
        bytes.replace(from, to);
        auto parsed = Manifest::parse(bytes);
        QVERIFY(!parsed);
        QVERIFY2(parsed.error().contains(fragment), qPrintable(parsed.error()));
    }

    void publisherKeepsNewestVersionsAndRefusesNonCheckpoints()
    {
        QTemporaryDir dir;
        Publisher publisher(dir.path(), *m_hub, 64 * 1024, 2);
        for (int i = 0; i < 4; ++i)
            QVERIFY(publisher.publish(QStringLiteral("sort-rl"), m_checkpoint));
        QCOMPARE(publisher.versions(QStringLiteral("sort-rl")), (QList<int>{3, 4}));
        QVERIFY(!QDir(dir.filePath(QStringLiteral("sort-rl/v1"))).exists());
        QVERIFY(!QDir(dir.filePath(QStringLiteral("sort-rl/v2"))).exists());
        QCOMPARE(publisher.latest(QStringLiteral("sort-rl"))->manifest.version, 4);

        QFile junk(dir.filePath(QStringLiteral("junk.bin")));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write(QByteArray(5000, 'x'));
        junk.close();
        auto refused = publisher.publish(QStringLiteral("sort-rl"), junk.fileName());
        QVERIFY(!refused);
        QVERIFY(refused.error().contains(QStringLiteral("safetensors")));
        QVERIFY(!publisher.publish(QStringLiteral("../evil"), m_checkpoint));
        QCOMPARE(publisher.versions(QStringLiteral("sort-rl")), (QList<int>{3, 4}));
    }

    void rangeParsing_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<bool>("satisfiable");
        QTest::addColumn<qint64>("begin");
        QTest::addColumn<qint64>("end");
        QTest::newRow("open") << QByteArray("bytes=100-") << true << true << qint64(100) << qint64(999);
        QTest::newRow("closed") << QByteArray("bytes=0-9") << true << true << qint64(0) << qint64(9);
        QTest::newRow("clamped") << QByteArray("bytes=990-5000") << true << true << qint64(990) << qint64(999);
        QTest::newRow("suffix") << QByteArray("bytes=-10") << true << true << qint64(990) << qint64(999);
        QTest::newRow("past end") << QByteArray("bytes=1000-") << true << false << qint64(0) << qint64(0);
        QTest::newRow("multi") << QByteArray("bytes=0-1,5-6") << false << true << qint64(0) << qint64(0);
        QTest::newRow("garbage") << QByteArray("bytes=x-y") << false << true << qint64(0) << qint64(0);
        QTest::newRow("reversed") << QByteArray("bytes=9-1") << false << true << qint64(0) << qint64(0);
    }
    void rangeParsing()
    {
        QFETCH(QByteArray, header);
        QFETCH(bool, valid);
        QFETCH(bool, satisfiable);
        QFETCH(qint64, begin);
        QFETCH(qint64, end);
        qint64 b = 0, e = 0;
        bool s = true;
        QCOMPARE(parseRange(header, 1000, &b, &e, &s), valid);
        if (valid) {
            QCOMPARE(s, satisfiable);
            if (satisfiable) {
                QCOMPARE(b, begin);
                QCOMPARE(e, end);
            }
        }
    }

    void relayServesRangesAndRefusesTraversal()
    {
        RelayServer relay(m_tree);
        QString error;
        QVERIFY2(relay.listenOn(QHostAddress::LocalHost, 0, &error), qPrintable(error));
        QNetworkAccessManager net;
        const auto fetch = [&](const QString &path, const QByteArray &range, int *status,
                               QByteArray *contentRange = nullptr) {
            QNetworkRequest request(QUrl(relay.url() + path));
            if (!range.isEmpty())
                request.setRawHeader("Range", range);
            QNetworkReply *reply = net.get(request);
            QSignalSpy done(reply, &QNetworkReply::finished);
            if (!reply->isFinished())
                done.wait(10'000);
            *status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            if (contentRange)
                *contentRange = reply->rawHeader("Content-Range");
            const QByteArray body = reply->readAll();
            reply->deleteLater();
            return body;
        };
        const QByteArray shard = test::readAll(m_tree + QStringLiteral("/arith-rl/v1/shard_00002.bin"));
        int status = 0;
        QByteArray contentRange;
        QCOMPARE(fetch(QStringLiteral("/arith-rl/v1/shard_00002.bin"), {}, &status), shard);
        QCOMPARE(status, 200);
        QCOMPARE(fetch(QStringLiteral("/arith-rl/v1/shard_00002.bin"), "bytes=1000-", &status, &contentRange),
                 shard.mid(1000));
        QCOMPARE(status, 206);
        QCOMPARE(contentRange,
                 "bytes 1000-" + QByteArray::number(shard.size() - 1) + '/' + QByteArray::number(shard.size()));
        fetch(QStringLiteral("/arith-rl/v1/shard_00002.bin"), "bytes=999999999-", &status);
        QCOMPARE(status, 416);
        for (const QString &evil :
             {QStringLiteral("/arith-rl/../../hubkey/node.key"), QStringLiteral("/%2e%2e/hubkey/node.key"),
              QStringLiteral("/arith-rl/.v1.tmp/manifest.json"), QStringLiteral("/")}) {
            fetch(evil, {}, &status);
            QCOMPARE(status, 404);
        }
        QVERIFY(relay.bytesServed() >= shard.size() * 2 - 1000);
    }

    void relayScoringPrefersGoodRelaysAndHeals()
    {
        RelayScore score({QStringLiteral("a"), QStringLiteral("b")});
        score.recordSuccess(0, 100'000'000, 1.0); // 100 MB/s
        score.recordSuccess(1, 10'000'000, 1.0);  // 10 MB/s
        QVERIFY(score.weight(0) > score.weight(1) * 5);
        int picksOfA = 0;
        for (int i = 0; i < 1000; ++i)
            picksOfA += score.choose([i] { return (i + 0.5) / 1000.0; }) == 0;
        QVERIFY2(picksOfA > 850 && picksOfA < 950, qPrintable(QString::number(picksOfA)));
        for (int i = 0; i < 5; ++i)
            score.recordFailure(0, QStringLiteral("boom"));
        QVERIFY(score.relays()[0].successRate < 0.2);
        QVERIFY(score.weight(0) < score.weight(1));
        const double before = score.relays()[0].successRate;
        score.recordSuccess(1, 1000, 0.001); // any update heals everyone a little
        QVERIFY(score.relays()[0].successRate > before);
        QCOMPARE(score.choose([] { return 0.0; }, 0), 1); // exclusion honoured
    }

    void progressRecordRefusesImpossibleClaims()
    {
        const QByteArray hash = Sha256::hash("manifest");
        DownloadState good{hash, {{100, true}, {40, false}}, {}, "boot"};
        auto parsed = DownloadState::parse(good.toJson(), hash, {100, 60});
        QVERIFY(parsed);
        QCOMPARE(parsed->shards[1].have, 40);
        QCOMPARE(parsed->bootId, QByteArray("boot"));
        QVERIFY(!DownloadState::parse(good.toJson(), Sha256::hash("other"), {100, 60}));
        QVERIFY(!DownloadState::parse(good.toJson(), hash, {100, 60, 5}));
        QVERIFY(!DownloadState::parse(good.toJson(), hash, {90, 60})); // verified but larger than the shard
        QVERIFY(!DownloadState::parse("{\"manifest_sha256\":", hash, {100, 60}));
    }

    void downloadsAndVerifies()
    {
        RelayServer relay(m_tree);
        QVERIFY(relay.listenOn(QHostAddress::LocalHost, 0, nullptr));
        QTemporaryDir dir;
        Downloader d(requestFor({relay.url()}, dir.path()));
        QSignalSpy progress(&d, &Downloader::progressChanged);
        QString error;
        const QString model = runDownload(d, &error);
        QVERIFY2(!model.isEmpty(), qPrintable(error));
        QCOMPARE(test::readAll(model), test::readAll(m_checkpoint));
        QVERIFY(isStable(dir.path(), QStringLiteral("arith-rl"), 1));
        QVERIFY(!QDir(dir.filePath(QStringLiteral("arith-rl/v1.partial"))).exists());
        QCOMPARE(d.progress().phase, DownloadProgress::Phase::Done);
        QCOMPARE(d.progress().shardsDone, d.progress().shardCount);
        QVERIFY(progress.count() > 1);
        // A second run finds the stable version and fetches nothing.
        const qint64 served = relay.bytesServed();
        Downloader again(requestFor({relay.url()}, dir.path()));
        QCOMPARE(runDownload(again), model);
        QCOMPARE(relay.bytesServed(), served);
    }

    void corruptedRelayIsDetectedAndAvoided()
    {
        const QString bad = copyTree(m_tree, m_dir.filePath(QStringLiteral("badtree")));
        QFile shard(bad + QStringLiteral("/arith-rl/v1/shard_00003.bin"));
        QVERIFY(shard.open(QIODevice::ReadWrite));
        shard.seek(100);
        shard.write("POISON");
        shard.close();
        RelayServer poisoned(bad), good(m_tree);
        QVERIFY(poisoned.listenOn(QHostAddress::LocalHost, 0, nullptr) &&
                good.listenOn(QHostAddress::LocalHost, 0, nullptr));
        QTemporaryDir dir;
        Downloader d(requestFor({poisoned.url(), good.url()}, dir.path()));
        QString error;
        const QString model = runDownload(d, &error);
        QVERIFY2(!model.isEmpty(), qPrintable(error));
        QCOMPARE(test::readAll(model), test::readAll(m_checkpoint));
        // Whether or not the poisoned shard was asked of the bad relay, nothing poisoned was kept.
        const RelayProgress &p = d.progress().relays[0];
        if (p.failures > 0)
            QVERIFY(p.lastError.contains(QStringLiteral("SHA-256")));
    }

    void onlyBadRelaysMeansNoUsableVersion()
    {
        const QString bad = copyTree(m_tree, m_dir.filePath(QStringLiteral("badtree2")));
        QFile shard(bad + QStringLiteral("/arith-rl/v1/shard_00001.bin"));
        QVERIFY(shard.open(QIODevice::ReadWrite));
        shard.write("POISON");
        shard.close();
        RelayServer poisoned(bad);
        QVERIFY(poisoned.listenOn(QHostAddress::LocalHost, 0, nullptr));
        QTemporaryDir dir;
        DownloadRequest request = requestFor({poisoned.url()}, dir.path());
        request.maxAttemptsPerShard = 2;
        Downloader d(request);
        QString error;
        QVERIFY(runDownload(d, &error).isEmpty());
        QVERIFY2(error.contains(QStringLiteral("SHA-256")) && error.contains(poisoned.url()), qPrintable(error));
        QVERIFY(!isStable(dir.path(), QStringLiteral("arith-rl"), 1));
    }

    void forgedManifestFetchesNothing()
    {
        RelayServer relay(m_tree);
        QVERIFY(relay.listenOn(QHostAddress::LocalHost, 0, nullptr));
        QTemporaryDir dir;
        DownloadRequest request = requestFor({relay.url()}, dir.path());
        request.pinnedHubKey = m_other->publicKey();
        Downloader d(request);
        QString error;
        QVERIFY(runDownload(d, &error).isEmpty());
        QVERIFY(error.contains(QStringLiteral("refused the checkpoint manifest")));
        QCOMPARE(relay.requestsServed(), 0);
        QVERIFY(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty());
    }

    void stallingGarbageAndFailingRelaysAreFailedOver()
    {
        // A relay that accepts connections and never answers, one that answers HTML, one that answers 503.
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost));
        QTcpServer garbage;
        QVERIFY(garbage.listen(QHostAddress::LocalHost));
        connect(&garbage, &QTcpServer::newConnection, this, [&garbage] {
            while (QTcpSocket *s = garbage.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [s] {
                    s->readAll();
                    s->write(
                        "HTTP/1.1 200 OK\r\nContent-Length: 20\r\nContent-Type: text/html\r\n\r\n<html>oops</html>   ");
                });
            }
        });
        QTcpServer failing;
        QVERIFY(failing.listen(QHostAddress::LocalHost));
        connect(&failing, &QTcpServer::newConnection, this, [&failing] {
            while (QTcpSocket *s = failing.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [s] {
                    s->readAll();
                    s->write("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n");
                });
            }
        });
        RelayServer good(m_tree);
        QVERIFY(good.listenOn(QHostAddress::LocalHost, 0, nullptr));
        const auto url = [](const QTcpServer &s) { return QStringLiteral("http://127.0.0.1:%1").arg(s.serverPort()); };
        QTemporaryDir dir;
        DownloadRequest request = requestFor({url(silent), url(garbage), url(failing), good.url()}, dir.path());
        request.maxAttemptsPerShard = 8;
        Downloader d(request);
        QString error;
        const QString model = runDownload(d, &error);
        QVERIFY2(!model.isEmpty(), qPrintable(error));
        QCOMPARE(test::readAll(model), test::readAll(m_checkpoint));
        QVERIFY(d.progress().relays[3].bytes > 0);
    }

    void pauseKeepsBytesAndResumeFinishes()
    {
        RelayServer relay(m_tree);
        QVERIFY(relay.listenOn(QHostAddress::LocalHost, 0, nullptr));
        QTemporaryDir dir;
        DownloadRequest request = requestFor({relay.url()}, dir.path());
        request.maxBytesPerSecond = 1 << 20; // 1 MiB/s: slow enough to pause in the middle
        request.parallel = 2;
        {
            Downloader d(request);
            d.start();
            QTRY_VERIFY_WITH_TIMEOUT(d.progress().shardsDone >= 2, 20'000);
            d.pause();
            QCOMPARE(d.progress().phase, DownloadProgress::Phase::Paused);
        } // destroyed as if the app quit
        const QByteArray record = test::readAll(dir.filePath(QStringLiteral("arith-rl/v1.partial/progress.json")));
        QVERIFY(!record.isEmpty());
        const qint64 servedBefore = relay.bytesServed();
        request.maxBytesPerSecond = 0;
        Downloader resumed(request);
        QSignalSpy finished(&resumed, &Downloader::finished);
        resumed.start();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 30'000);
        QCOMPARE(test::readAll(finished.first().first().toString()), test::readAll(m_checkpoint));
        // The resumed run fetched less than the whole file: verified shards were not fetched again.
        QVERIFY(relay.bytesServed() - servedBefore <
                m_published->manifest.fileSize - 2 * m_published->manifest.shardSize + 1);
    }

    void bandwidthCapIsObeyed()
    {
        RelayServer relay(m_tree);
        QVERIFY(relay.listenOn(QHostAddress::LocalHost, 0, nullptr));
        QTemporaryDir dir;
        DownloadRequest request = requestFor({relay.url()}, dir.path());
        request.maxBytesPerSecond = 2 << 20;
        Downloader d(request);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(!runDownload(d).isEmpty());
        // 3 MiB at 2 MiB/s with a quarter-second burst cannot take less than about 1.3 s.
        QVERIFY2(clock.elapsed() > 1200, qPrintable(QString::number(clock.elapsed())));
    }

    void piecesTrackTheContiguousPrefix()
    {
        ShardPieces pieces(10, 4, 6); // pieces of 4, 4, 2 bytes; 6 already there
        QCOMPARE(pieces.count(), 3);
        QCOMPARE(pieces.size(2), 2);
        QCOMPARE(pieces.have(0), 4);
        QCOMPARE(pieces.have(1), 2);
        QCOMPARE(pieces.contiguousHave(), 6);
        pieces.setHave(2, 2); // a piece beyond the gap: shown, never recorded
        QCOMPARE(pieces.totalHave(), 8);
        QCOMPARE(pieces.contiguousHave(), 6);
        QVERIFY(!pieces.complete());
        pieces.setHave(1, 4);
        QVERIFY(pieces.complete());
        QCOMPARE(pieces.contiguousHave(), 10);
        pieces.clear();
        QCOMPARE(pieces.totalHave(), 0);
        QCOMPARE(ShardPieces(0, 4, 0).count(), 1); // an empty shard is one empty piece
    }

    void piecesComeFromRelaysThatIgnoreRange()
    {
        // A static server without Range support answers 200 with the whole shard: the piece is cut out of it.
        QTcpServer plain;
        QVERIFY(plain.listen(QHostAddress::LocalHost));
        const QString tree = m_tree;
        connect(&plain, &QTcpServer::newConnection, this, [&plain, tree] {
            while (QTcpSocket *s = plain.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [s, tree] {
                    const QByteArray request = s->readAll();
                    const QByteArray path = request.mid(4, request.indexOf(' ', 4) - 4);
                    const QByteArray body = test::readAll(tree + QString::fromLatin1(path));
                    s->write("HTTP/1.1 200 OK\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" +
                             body);
                    s->disconnectFromHost();
                });
            }
        });
        QTemporaryDir dir;
        DownloadRequest request =
            requestFor({QStringLiteral("http://127.0.0.1:%1").arg(plain.serverPort())}, dir.path());
        request.pieceBytes = 100'000; // three pieces per 256 KiB shard
        Downloader d(request);
        QString error;
        const QString model = runDownload(d, &error);
        QVERIFY2(!model.isEmpty(), qPrintable(error));
        QCOMPARE(test::readAll(model), test::readAll(m_checkpoint));
        QCOMPARE(d.progress().relays[0].failures, 0);
    }

    void aPoisonedShardFetchedInPiecesIsBlamedOnItsRelay()
    {
        const QString bad = copyTree(m_tree, m_dir.filePath(QStringLiteral("badtree3")));
        QFile shard(bad + QStringLiteral("/arith-rl/v1/shard_00002.bin"));
        QVERIFY(shard.open(QIODevice::ReadWrite));
        shard.seek(200'000); // in the last of its pieces
        shard.write("POISON");
        shard.close();
        RelayServer poisoned(bad), good(m_tree);
        QVERIFY(poisoned.listenOn(QHostAddress::LocalHost, 0, nullptr) &&
                good.listenOn(QHostAddress::LocalHost, 0, nullptr));
        QTemporaryDir dir;
        DownloadRequest request = requestFor({poisoned.url()}, dir.path());
        request.pieceBytes = 64 * 1024;
        request.maxAttemptsPerShard = 1;
        {
            Downloader d(request);
            QString error;
            QVERIFY(runDownload(d, &error).isEmpty());
            QVERIFY2(error.contains(QStringLiteral("SHA-256")) && error.contains(poisoned.url()), qPrintable(error));
        }
        // With a good relay next to it, the shard is fetched again there and the file is right.
        request.relays = {poisoned.url(), good.url()};
        request.maxAttemptsPerShard = 6;
        Downloader d(request);
        QString error;
        const QString model = runDownload(d, &error);
        QVERIFY2(!model.isEmpty(), qPrintable(error));
        QCOMPARE(test::readAll(model), test::readAll(m_checkpoint));
    }

    void truncatedAnswersAreRefused()
    {
        // Promises a whole shard, sends 1000 bytes, hangs up.
        QTcpServer truncating;
        QVERIFY(truncating.listen(QHostAddress::LocalHost));
        connect(&truncating, &QTcpServer::newConnection, this, [&truncating] {
            while (QTcpSocket *s = truncating.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [s] {
                    s->readAll();
                    s->write("HTTP/1.1 200 OK\r\nContent-Length: 262144\r\n\r\n" + QByteArray(1000, 'x'));
                    s->disconnectFromHost();
                });
            }
        });
        QTemporaryDir dir;
        DownloadRequest request =
            requestFor({QStringLiteral("http://127.0.0.1:%1").arg(truncating.serverPort())}, dir.path());
        request.maxAttemptsPerShard = 1;
        Downloader d(request);
        QString error;
        QVERIFY(runDownload(d, &error).isEmpty());
        QVERIFY2(error.contains(QStringLiteral("truncated")), qPrintable(error));
        QVERIFY(!isStable(dir.path(), QStringLiteral("arith-rl"), 1));
    }

    void aRebootMakesVerifiedShardsBeRecheckedAndPartialOnesStartOver()
    {
        // The data file is not synced for the progress record: a record from another boot may claim bytes a
        // power cut took back. Here shard 2's bytes "got lost" (overwritten) after it was recorded verified.
        RelayServer relay(m_tree);
        QVERIFY(relay.listenOn(QHostAddress::LocalHost, 0, nullptr));
        QTemporaryDir dir;
        DownloadRequest request = requestFor({relay.url()}, dir.path());
        request.maxBytesPerSecond = 1 << 20;
        request.parallel = 2;
        qputenv("COHORT_TESTING_BOOT_ID", "boot-a");
        {
            Downloader d(request);
            d.start();
            QTRY_VERIFY_WITH_TIMEOUT(d.progress().shardsDone >= 3, 20'000);
            d.pause();
        }
        const QString partial = dir.filePath(QStringLiteral("arith-rl/v1.partial"));
        const QByteArray record = test::readAll(partial + QStringLiteral("/progress.json"));
        QVERIFY(record.contains("\"boot\":\"boot-a\""));
        auto state = DownloadState::parse(record, Sha256::hash(m_published->bytes), shardSizes());
        QVERIFY2(state, qPrintable(state.error()));
        int verifiedBefore = 0;
        for (const ShardState &shard : state->shards)
            verifiedBefore += shard.verified ? 1 : 0;
        QVERIFY(verifiedBefore >= 3);
        const int lost = state->shards[0].verified ? 0 : 1; // a verified shard
        QVERIFY(state->shards[lost].verified);
        {
            QFile data(partial + QStringLiteral("/model.safetensors.part"));
            QVERIFY(data.open(QIODevice::ReadWrite));
            data.seek(m_published->manifest.shardOffset(lost) + 4096);
            data.write(QByteArray(4096, '\0'));
        }

        qputenv("COHORT_TESTING_BOOT_ID", "boot-b");
        const qint64 servedBefore = relay.bytesServed();
        request.maxBytesPerSecond = 0;
        Downloader resumed(request);
        QString error;
        const QString model = runDownload(resumed, &error);
        qunsetenv("COHORT_TESTING_BOOT_ID");
        QVERIFY2(!model.isEmpty(), qPrintable(error));
        QCOMPARE(test::readAll(model), test::readAll(m_checkpoint));
        // Verified shards whose bytes survived were re-hashed, not fetched; the damaged one was fetched again.
        const qint64 refetched = relay.bytesServed() - servedBefore;
        QVERIFY2(refetched <= m_published->manifest.fileSize - (verifiedBefore - 1) * m_published->manifest.shardSize,
                 qPrintable(QString::number(refetched)));
        QCOMPARE(resumed.progress().relays[0].failures, 0); // bytes lost on our disk are not the relay's fault
    }

    void aVersionUsableBeforeItReachedTheDiskIsRecheckedAfterAReboot()
    {
        RelayServer relay(m_tree);
        QVERIFY(relay.listenOn(QHostAddress::LocalHost, 0, nullptr));
        QTemporaryDir dir;
        qputenv("COHORT_TESTING_BOOT_ID", "boot-a");
        {
            Downloader d(requestFor({relay.url()}, dir.path()));
            QVERIFY(!runDownload(d).isEmpty());
        }
        // Usable at once, durable once the background sync is through.
        QThreadPool::globalInstance()->waitForDone();
        const QString version = stableVersionDir(dir.path(), QStringLiteral("arith-rl"), 1);
        QVERIFY(test::readAll(version + QStringLiteral("/stable")).contains("\"durable\":true"));
        qputenv("COHORT_TESTING_BOOT_ID", "boot-b");
        QVERIFY(isStable(dir.path(), QStringLiteral("arith-rl"), 1));

        // What a power cut before that sync leaves: a marker that is not durable, and damaged bytes in shard 3.
        qputenv("COHORT_TESTING_BOOT_ID", "boot-a");
        {
            QFile marker(version + QStringLiteral("/stable"));
            QVERIFY(marker.open(QIODevice::WriteOnly | QIODevice::Truncate));
            marker.write(R"({"boot":"boot-a","durable":false})");
            QFile model(version + QStringLiteral("/model.safetensors"));
            QVERIFY(model.open(QIODevice::ReadWrite));
            model.seek(m_published->manifest.shardOffset(2) + 10);
            model.write("LOST");
        }
        QVERIFY(isStable(dir.path(), QStringLiteral("arith-rl"), 1)); // same boot: the page cache still holds it
        qputenv("COHORT_TESTING_BOOT_ID", "boot-b");
        QVERIFY(!isStable(dir.path(), QStringLiteral("arith-rl"), 1));
        const qint64 servedBefore = relay.bytesServed();
        Downloader again(requestFor({relay.url()}, dir.path()));
        QString error;
        const QString model = runDownload(again, &error);
        QThreadPool::globalInstance()->waitForDone();
        const bool stableAfter = isStable(dir.path(), QStringLiteral("arith-rl"), 1);
        qunsetenv("COHORT_TESTING_BOOT_ID");
        QVERIFY2(!model.isEmpty(), qPrintable(error));
        QCOMPARE(test::readAll(model), test::readAll(m_checkpoint));
        QCOMPARE(relay.bytesServed() - servedBefore, m_published->manifest.shards[2].size); // only the damaged shard
        QVERIFY(stableAfter);
    }

    // A relay that trickles: a few bytes every 100 ms never trips the stall timeout, but the fetch is dropped once a
    // whole window brought less than the minimum rate, and the error says so (the downloader then blames the relay).
    void aTricklingRelayIsDroppedBelowTheMinimumRate()
    {
        QTcpServer trickle;
        QVERIFY(trickle.listen(QHostAddress::LocalHost));
        connect(&trickle, &QTcpServer::newConnection, this, [&trickle] {
            while (QTcpSocket *s = trickle.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [s] {
                    s->readAll();
                    s->write("HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-999999/1000000\r\nContent-Length: "
                             "1000000\r\n\r\n");
                    auto *timer = new QTimer(s);
                    connect(timer, &QTimer::timeout, s, [s] { s->write(QByteArray(10, 'x')); });
                    timer->start(100);
                });
            }
        });
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("checkpoint")));
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.resize(1000000));
        ShardFetch::Spec spec;
        spec.url = QUrl(QStringLiteral("http://127.0.0.1:%1/t/v1/shard-0").arg(trickle.serverPort()));
        spec.file = &file;
        spec.shardSize = 1000000;
        spec.rangeEnd = 1000000;
        spec.stallTimeoutMs = 5000;    // never reached: bytes keep coming
        spec.minBytesPerSecond = 1024; // 100 bytes/s arrive
        spec.rateWindowMs = 700;
        ShardFetch fetch(spec);
        QSignalSpy done(&fetch, &ShardFetch::done);
        fetch.start();
        QVERIFY(done.wait(5000));
        QCOMPARE(done.first().at(0).toBool(), false);
        QVERIFY2(done.first().at(1).toString().contains(QLatin1String("slower than 1 KiB/s")),
                 qPrintable(done.first().at(1).toString()));
        QVERIFY(fetch.received() > 0); // it did trickle: the stall timeout alone would have waited for ever
    }

    void diskFullIsRefusedBeforeWriting()
    {
        RelayServer relay(m_tree);
        QVERIFY(relay.listenOn(QHostAddress::LocalHost, 0, nullptr));
        QTemporaryDir dir;
        DownloadRequest request = requestFor({relay.url()}, dir.path());
        request.reserveBytes = 1LL << 60; // no disk has this much free
        Downloader d(request);
        QString error;
        QVERIFY(runDownload(d, &error).isEmpty());
        QVERIFY(d.progress().diskFull);
        QVERIFY(error.contains(QStringLiteral("disk space")));
        QCOMPARE(relay.requestsServed(), 0);
    }

    // Where the filesystem cannot say how much is free (a chroot without a mount table fooled the old check), the
    // download is refused before a byte is asked for, never let through.
    void unknownFreeSpaceIsRefused()
    {
        RelayServer relay(m_tree);
        QVERIFY(relay.listenOn(QHostAddress::LocalHost, 0, nullptr));
        QTemporaryDir dir;
        qputenv("COHORT_TESTING_FREE_DISK_BYTES", "unknown");
        const auto restore = qScopeGuard([] { qunsetenv("COHORT_TESTING_FREE_DISK_BYTES"); });
        Downloader d(requestFor({relay.url()}, dir.path()));
        QString error;
        QVERIFY(runDownload(d, &error).isEmpty());
        QVERIFY(d.progress().diskFull);
        QVERIFY2(error.contains(QStringLiteral("cannot tell the free space")), qPrintable(error));
        QCOMPARE(relay.requestsServed(), 0);
    }
};

QTEST_GUILESS_MAIN(TestShardcast)
#include "tst_shardcast.moc"
