// Engine checkpoint bundles: atomic zip + manifest with SHA-256 per entry. Round trip, the newest two kept, a torn
// (truncated) newest bundle set aside for the previous one, damaged entries, hostile manifests (sizes, names,
// path traversal), leftovers of an interrupted write.
#include "store/EngineBundle.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>
#include <quazip.h>
#include <quazipfile.h>
#include <quazipnewinfo.h>

using namespace cohort;

namespace {
EngineBundle sample(int step)
{
    EngineBundle b;
    b.state = QJsonObject{{QStringLiteral("task"), QStringLiteral("arith-rl")}, {QStringLiteral("step"), step}};
    QByteArray tensor(100'000, Qt::Uninitialized);
    for (int i = 0; i < tensor.size(); ++i)
        tensor[i] = char((i * 131 + step) & 0xFF);
    b.blobs = {{QStringLiteral("tensors/inner.bin"), tensor},
               {QStringLiteral("optimizer.json"), QByteArray("{\"lr\":0.001}")}};
    return b;
}

// A zip written by hand, for manifests the store itself would never write. Stored like the store's own entries
// unless `deflate`.
void writeZip(const QString &path, const QList<QPair<QString, QByteArray>> &entries, bool deflate = false)
{
    QuaZip zip(path);
    QVERIFY(zip.open(QuaZip::mdCreate));
    for (const auto &[name, data] : entries) {
        QuaZipFile f(&zip);
        QVERIFY(deflate ? f.open(QIODevice::WriteOnly, QuaZipNewInfo(name))
                        : f.open(QIODevice::WriteOnly, QuaZipNewInfo(name), nullptr, 0, 0, 0));
        f.write(data);
        f.close();
    }
    zip.close();
}

QByteArray manifestFor(const QList<QJsonObject> &entries)
{
    QJsonArray a;
    for (const auto &e : entries)
        a.append(e);
    return QJsonDocument(QJsonObject{{QStringLiteral("format"), 1},
                                     {QStringLiteral("written_at"), 1},
                                     {QStringLiteral("entries"), a}})
        .toJson(QJsonDocument::Compact);
}
} // namespace

class TestEngineBundle : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void roundTripAndKeepsTheNewestTwo()
    {
        QTemporaryDir dir;
        BundleStore store(dir.filePath(QStringLiteral("bundles")));
        QString last;
        for (int step = 1; step <= 4; ++step) {
            auto written = store.write(sample(step));
            QVERIFY2(written.ok(), qPrintable(written.error()));
            last = *written;
        }
        QCOMPARE(store.bundleFiles().size(), BundleStore::kKeep);
        QCOMPARE(store.bundleFiles().first(), last);
        auto read = store.readNewest();
        QVERIFY2(read.ok(), qPrintable(read.error()));
        QCOMPARE(read->state.value(QStringLiteral("step")).toInt(), 4);
        QCOMPARE(read->blobs.size(), 2);
        QCOMPARE(read->blobs[0].name, QStringLiteral("tensors/inner.bin"));
        QCOMPARE(read->blobs[0].data, sample(4).blobs[0].data);
        QCOMPARE(read->path, last);
        QVERIFY(QDir(store.dir()).entryList({QStringLiteral("*.part")}, QDir::Files).isEmpty());
    }

    void tornNewestFallsBackToThePrevious()
    {
        QTemporaryDir dir;
        BundleStore store(dir.filePath(QStringLiteral("bundles")));
        QVERIFY(store.write(sample(1)).ok());
        auto newest = store.write(sample(2));
        QVERIFY(newest.ok());
        QFile f(*newest);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(
            f.resize(f.size() / 2)); // a write cut short (the rename makes this a disk fault, but it must not matter)
        f.close();
        QStringList discarded;
        auto read = store.readNewest(&discarded);
        QVERIFY2(read.ok(), qPrintable(read.error()));
        QCOMPARE(read->state.value(QStringLiteral("step")).toInt(), 1);
        QCOMPARE(discarded.size(), 1);
        QVERIFY(QFile::exists(QDir(store.dir()).filePath(QStringLiteral("damaged/") + QFileInfo(*newest).fileName())));
        QVERIFY(!QFile::exists(*newest));
    }

    void flippedByteIsCaught()
    {
        QTemporaryDir dir;
        BundleStore store(dir.filePath(QStringLiteral("bundles")));
        auto path = store.write(sample(7));
        QVERIFY(path.ok());
        QFile f(*path);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray bytes = f.readAll();
        const qsizetype at = bytes.indexOf(sample(7).blobs[0].data.mid(5000, 16));
        QVERIFY(at > 0);
        bytes[at] = char(bytes[at] ^ 0x40);
        f.seek(0);
        f.write(bytes);
        f.close();
        auto read = BundleStore::read(*path);
        QVERIFY(!read.ok());
        QVERIFY2(read.error().contains(QStringLiteral("inner.bin")), qPrintable(read.error()));
    }

    void hostileManifestsAreRefused_data()
    {
        QTest::addColumn<QByteArray>("manifest");
        QTest::addColumn<QString>("expected");
        const QByteArray state = "{}";
        const QString stateHash = QStringLiteral("44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
        const auto entry = [](const QString &name, qint64 size, const QString &hash) {
            return QJsonObject{
                {QStringLiteral("name"), name}, {QStringLiteral("size"), size}, {QStringLiteral("sha256"), hash}};
        };
        QTest::newRow("path traversal") << manifestFor({entry(QStringLiteral("../../etc/passwd"), 2, stateHash)})
                                        << QStringLiteral("not allowed");
        QTest::newRow("absolute path") << manifestFor({entry(QStringLiteral("/etc/passwd"), 2, stateHash)})
                                       << QStringLiteral("not allowed");
        QTest::newRow("hostile size") << manifestFor({entry(QStringLiteral("state.json"), 1LL << 40, stateHash)})
                                      << QStringLiteral("size");
        QTest::newRow("size mismatch") << manifestFor({entry(QStringLiteral("state.json"), 3, stateHash)})
                                       << QStringLiteral("manifest says");
        QTest::newRow("wrong hash") << manifestFor(
                                           {entry(QStringLiteral("state.json"), 2, QString(64, QLatin1Char('0')))})
                                    << QStringLiteral("SHA-256");
        QTest::newRow("missing entry") << manifestFor({entry(QStringLiteral("tensors/x.bin"), 2, stateHash)})
                                       << QStringLiteral("missing");
        QTest::newRow("no state") << manifestFor({}) << QStringLiteral("no state.json");
        QTest::newRow("not json") << QByteArray("{nope") << QStringLiteral("manifest");
        QTest::newRow("other format") << QByteArray("{\"format\":2,\"written_at\":1,\"entries\":[]}")
                                      << QStringLiteral("format 2");
    }

    void hostileManifestsAreRefused()
    {
        QFETCH(QByteArray, manifest);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bundle-00000000000001.zip"));
        writeZip(path, {{QStringLiteral("manifest.json"), manifest}, {QStringLiteral("state.json"), QByteArray("{}")}});
        auto read = BundleStore::read(path);
        QVERIFY(!read.ok());
        QVERIFY2(read.error().contains(expected), qPrintable(read.error()));
    }

    // A deflated entry was not written by the store, and could inflate a few bytes into the size its header
    // claims: refused before anything is read.
    void compressedEntriesAreRefused()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bundle-00000000000001.zip"));
        const QByteArray zeros(4 << 20, '\0'); // 4 MiB that deflate to a few KiB
        const QString zerosHash =
            QString::fromLatin1(QCryptographicHash::hash(zeros, QCryptographicHash::Sha256).toHex());
        const QString stateHash = QStringLiteral("44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
        const auto entry = [](const QString &name, qint64 size, const QString &hash) {
            return QJsonObject{
                {QStringLiteral("name"), name}, {QStringLiteral("size"), size}, {QStringLiteral("sha256"), hash}};
        };
        writeZip(path,
                 {{QStringLiteral("manifest.json"),
                   manifestFor({entry(QStringLiteral("state.json"), 2, stateHash),
                                entry(QStringLiteral("zeros.bin"), zeros.size(), zerosHash)})},
                  {QStringLiteral("state.json"), QByteArray("{}")},
                  {QStringLiteral("zeros.bin"), zeros}},
                 true);
        QVERIFY(QFileInfo(path).size() < zeros.size() / 16);
        auto read = BundleStore::read(path);
        QVERIFY(!read.ok());
        QVERIFY2(read.error().contains(QStringLiteral("compressed")), qPrintable(read.error()));
    }

    void garbageAndLeftovers()
    {
        QTemporaryDir dir;
        BundleStore store(dir.filePath(QStringLiteral("bundles")));
        QVERIFY(!store.readNewest().ok()); // nothing yet: an error, not a crash
        QDir().mkpath(store.dir());
        QFile garbage(QDir(store.dir()).filePath(QStringLiteral("bundle-99999999999999.zip")));
        QVERIFY(garbage.open(QIODevice::WriteOnly));
        garbage.write("not a zip at all");
        garbage.close();
        QFile part(QDir(store.dir()).filePath(QStringLiteral("bundle-99999999999998.zip.part")));
        QVERIFY(part.open(QIODevice::WriteOnly));
        part.write("half");
        part.close();
        QStringList discarded;
        QVERIFY(!store.readNewest(&discarded).ok());
        QCOMPARE(discarded.size(), 1);
        QVERIFY(!part.exists());
        EngineBundle bad = sample(1);
        bad.blobs.append({QStringLiteral("../escape"), QByteArray("x")});
        QVERIFY(!store.write(bad).ok());
    }
};

QTEST_GUILESS_MAIN(TestEngineBundle)
#include "tst_engine_bundle.moc"
