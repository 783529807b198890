#include "net/Ed25519.h"
#include "net/Identity.h"
#include "node/HubPins.h"
#include "platform/FilePermissions.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace cohort;

class TestIdentity : public QObject {
    Q_OBJECT
    static QByteArray readAll(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    static void writeAll(const QString &path, const QByteArray &bytes)
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(bytes);
    }

private Q_SLOTS:
    void createdOnceWithOwnerOnlyPermissions()
    {
        QTemporaryDir dir;
        auto first = Identity::loadOrCreate(dir.filePath(QStringLiteral("identity")));
        QVERIFY2(first, qPrintable(first.error()));
        QVERIFY(first->wasCreated());
        QVERIFY(isOwnerOnly(first->filePath()));
        QVERIFY(first->nodeId().startsWith(QStringLiteral("n-")));
        QCOMPARE(first->nodeId().size(), 22);

        auto again = Identity::loadOrCreate(dir.filePath(QStringLiteral("identity")));
        QVERIFY(again);
        QVERIFY(!again->wasCreated());
        QCOMPARE(again->publicKey(), first->publicKey());
        QCOMPARE(again->nodeId(), first->nodeId());
        const QByteArray msg("hello");
        QVERIFY(ed25519::verify(msg, again->sign(msg), first->publicKey()));
    }

    void looseningPermissionsIsRepaired()
    {
        QTemporaryDir dir;
        auto id = Identity::loadOrCreate(dir.path());
        QVERIFY(id);
        QFile::setPermissions(id->filePath(),
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther);
#ifndef Q_OS_WIN
        QVERIFY(!isOwnerOnly(id->filePath()));
#endif
        QVERIFY(Identity::load(id->filePath()));
        QVERIFY(isOwnerOnly(id->filePath()));
    }

    void damagedFilesAreReportedAndKept_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("truncated") << QByteArray("{\"format\":\"cohort-ed25519-v1\",\"public_k");
        QTest::newRow("not json") << QByteArray("\x00\x01\x02garbage", 10);
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("wrong format") << QByteArray("{\"format\":\"pgp\",\"public_key\":\"\",\"secret_key\":\"\"}");
        QTest::newRow("short key") << QByteArray(
            "{\"format\":\"cohort-ed25519-v1\",\"public_key\":\"AAAA\",\"secret_key\":\"AAAA\"}");
        QTest::newRow("huge") << QByteArray(100000, ' ');
    }
    void damagedFilesAreReportedAndKept()
    {
        QFETCH(QByteArray, content);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("node.key"));
        writeAll(path, content);
        auto id = Identity::loadOrCreate(dir.path());
        QVERIFY(!id);
        QVERIFY2(id.error().contains(path), qPrintable(id.error()));
        QCOMPARE(readAll(path), content); // never overwritten: the user decides
    }

    void mismatchedKeyPairIsRefused()
    {
        QTemporaryDir dir;
        auto a = Identity::loadOrCreate(dir.filePath(QStringLiteral("a")));
        auto b = Identity::loadOrCreate(dir.filePath(QStringLiteral("b")));
        QVERIFY(a && b);
        QByteArray text = readAll(a->filePath());
        text.replace(a->publicKey().toBase64(), b->publicKey().toBase64());
        writeAll(a->filePath(), text);
        auto broken = Identity::load(a->filePath());
        QVERIFY(!broken);
        QVERIFY(broken.error().contains(QStringLiteral("inconsistent")));
    }

    void hubKeyIsPinnedOnFirstUse()
    {
        QTemporaryDir dir;
        HubPins pins(dir.filePath(QStringLiteral("hubs.json")));
        const QByteArray k1 = ed25519::generate().publicKey;
        const QByteArray k2 = ed25519::generate().publicKey;
        QVERIFY(pins.pinOrCheck(QStringLiteral("https://hub.example"), k1));
        QVERIFY(pins.pinOrCheck(QStringLiteral("https://hub.example"), k1));
        const Status changed = pins.pinOrCheck(QStringLiteral("https://hub.example"), k2);
        QVERIFY(!changed);
        QVERIFY(changed.error().contains(ed25519::fingerprint(k2)));
        QVERIFY(pins.pinOrCheck(QStringLiteral("https://other.example"), k2));
        QCOMPARE(pins.pinned(QStringLiteral("https://hub.example")), k1);
        QVERIFY(!pins.pinOrCheck(QStringLiteral("x"), QByteArray("short")));

        writeAll(pins.filePath(), "{not json");
        QVERIFY(!pins.pinOrCheck(QStringLiteral("https://third.example"), k1));
        QCOMPARE(readAll(pins.filePath()), QByteArray("{not json"));
    }
};

QTEST_GUILESS_MAIN(TestIdentity)
#include "tst_identity.moc"
