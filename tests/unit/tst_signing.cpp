#include "net/Identity.h"
#include "net/ReplayGuard.h"
#include "net/RequestSigning.h"

#include <QTemporaryDir>
#include <QTest>

using namespace cohort;

namespace {
QByteArray lookup(const HeaderList &headers, const QByteArray &name)
{
    for (const auto &[k, v] : headers)
        if (k.compare(name, Qt::CaseInsensitive) == 0)
            return v;
    return {};
}
void replace(HeaderList &headers, const QByteArray &name, const QByteArray &value)
{
    for (auto &[k, v] : headers)
        if (k == name)
            v = value;
}
} // namespace

class TestSigning : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::optional<Identity> m_alice;
    std::optional<Identity> m_mallory;
    const qint64 m_now = 1'800'000'000'000;
    const QByteArray m_body = QByteArrayLiteral("{\"state\":\"idle\"}");
    const QByteArray m_path = QByteArrayLiteral("/v1/nodes/heartbeat");

    bool verify(RequestVerifier &verifier, const HeaderList &headers, VerificationError *error,
                const QByteArray &method = "POST", QByteArray path = {}, QByteArray body = {}, qint64 now = 0)
    {
        VerifiedRequest out;
        const bool ok = verifier.verify(method, path.isEmpty() ? m_path : path,
                                        [&headers](const QByteArray &n) { return lookup(headers, n); },
                                        body.isNull() ? m_body : body, now ? now : m_now, &out, error);
        if (ok)
            [&] { QCOMPARE(out.publicKey, m_alice->publicKey()); }();
        return ok;
    }

private Q_SLOTS:
    void initTestCase()
    {
        auto a = Identity::loadOrCreate(m_dir.filePath(QStringLiteral("a")));
        auto m = Identity::loadOrCreate(m_dir.filePath(QStringLiteral("m")));
        QVERIFY2(a, qPrintable(a.error()));
        QVERIFY2(m, qPrintable(m.error()));
        m_alice = *a;
        m_mallory = *m;
        QVERIFY(m_alice->publicKey() != m_mallory->publicKey());
    }

    void validRequestVerifies()
    {
        ReplayGuard replays(signing::kDefaultWindowMs);
        RequestVerifier verifier(replays);
        const HeaderList headers = signRequest(*m_alice, "POST", m_path, m_body, m_now);
        VerificationError error;
        QVERIFY2(verify(verifier, headers, &error), qPrintable(error.message));
        // A second, fresh request from the same node is fine too.
        VerificationError error2;
        QVERIFY(verify(verifier, signRequest(*m_alice, "POST", m_path, m_body, m_now + 10), &error2));
    }

    void forgedRequestsAreRefused_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QByteArray>("path");
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("body changed") << QByteArray("POST") << QByteArray() << QByteArray("{\"state\":\"working\"}");
        QTest::newRow("path changed") << QByteArray("POST") << QByteArray("/v1/nodes/register") << QByteArray();
        QTest::newRow("method changed") << QByteArray("PUT") << QByteArray() << QByteArray();
        QTest::newRow("query added") << QByteArray("POST") << QByteArray("/v1/nodes/heartbeat?x=1") << QByteArray();
    }
    void forgedRequestsAreRefused()
    {
        QFETCH(QByteArray, method);
        QFETCH(QByteArray, path);
        QFETCH(QByteArray, body);
        ReplayGuard replays(signing::kDefaultWindowMs);
        RequestVerifier verifier(replays);
        const HeaderList headers = signRequest(*m_alice, "POST", m_path, m_body, m_now);
        VerificationError error;
        QVERIFY(!verify(verifier, headers, &error, method, path, body));
        QCOMPARE(error.code, QStringLiteral("bad_signature"));
        QCOMPARE(error.httpStatus, 401);
    }

    void signatureFromAnotherKeyIsRefused()
    {
        ReplayGuard replays(signing::kDefaultWindowMs);
        RequestVerifier verifier(replays);
        HeaderList headers = signRequest(*m_mallory, "POST", m_path, m_body, m_now);
        replace(headers, signing::kKeyHeader, m_alice->publicKey().toBase64()); // claim to be alice
        VerificationError error;
        QVERIFY(!verify(verifier, headers, &error));
        QCOMPARE(error.code, QStringLiteral("bad_signature"));

        HeaderList flipped = signRequest(*m_alice, "POST", m_path, m_body, m_now);
        QByteArray sig = QByteArray::fromBase64(lookup(flipped, signing::kSignatureHeader));
        sig[5] = char(sig[5] ^ 0x01);
        replace(flipped, signing::kSignatureHeader, sig.toBase64());
        QVERIFY(!verify(verifier, flipped, &error));
        QCOMPARE(error.code, QStringLiteral("bad_signature"));
    }

    void replayIsRefused()
    {
        ReplayGuard replays(signing::kDefaultWindowMs);
        RequestVerifier verifier(replays);
        const HeaderList headers = signRequest(*m_alice, "POST", m_path, m_body, m_now);
        VerificationError error;
        QVERIFY(verify(verifier, headers, &error));
        QVERIFY(!verify(verifier, headers, &error, "POST", {}, {}, m_now + 1000));
        QCOMPARE(error.code, QStringLiteral("replayed"));
        QCOMPARE(error.httpStatus, 401);
    }

    void staleRequestsAreRefused_data()
    {
        QTest::addColumn<qint64>("skewMs");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("10 min old") << qint64(-10 * 60 * 1000) << false;
        QTest::newRow("10 min ahead") << qint64(10 * 60 * 1000) << false;
        QTest::newRow("just outside") << -(signing::kDefaultWindowMs + 1) << false;
        QTest::newRow("4 min old") << qint64(-4 * 60 * 1000) << true;
        QTest::newRow("4 min ahead") << qint64(4 * 60 * 1000) << true;
    }
    void staleRequestsAreRefused()
    {
        QFETCH(qint64, skewMs);
        QFETCH(bool, accepted);
        ReplayGuard replays(signing::kDefaultWindowMs);
        RequestVerifier verifier(replays);
        const HeaderList headers = signRequest(*m_alice, "POST", m_path, m_body, m_now + skewMs);
        VerificationError error;
        QCOMPARE(verify(verifier, headers, &error), accepted);
        if (!accepted) {
            QCOMPARE(error.code, QStringLiteral("stale"));
            QVERIFY(error.message.contains(QStringLiteral("clock")));
        }
    }

    void unsignedAndMalformedHeaders_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("code");
        QTest::newRow("no signature") << QByteArray(signing::kSignatureHeader) << QByteArray() << "unsigned";
        QTest::newRow("no key") << QByteArray(signing::kKeyHeader) << QByteArray() << "unsigned";
        QTest::newRow("key not base64") << QByteArray(signing::kKeyHeader) << QByteArray("!!!!") << "bad_header";
        QTest::newRow("short key") << QByteArray(signing::kKeyHeader) << QByteArray("AAAA") << "bad_header";
        QTest::newRow("huge key") << QByteArray(signing::kKeyHeader) << QByteArray(5000, 'A') << "bad_header";
        QTest::newRow("nonce not hex") << QByteArray(signing::kNonceHeader) << QByteArray("zzzzzzzzzzzzzzzzzzzz") << "bad_header";
        QTest::newRow("short nonce") << QByteArray(signing::kNonceHeader) << QByteArray("abcd") << "bad_header";
        QTest::newRow("timestamp text") << QByteArray(signing::kTimestampHeader) << QByteArray("yesterday") << "bad_header";
        QTest::newRow("short signature") << QByteArray(signing::kSignatureHeader) << QByteArray("AAAA") << "bad_header";
    }
    void unsignedAndMalformedHeaders()
    {
        QFETCH(QByteArray, header);
        QFETCH(QByteArray, value);
        QFETCH(QString, code);
        ReplayGuard replays(signing::kDefaultWindowMs);
        RequestVerifier verifier(replays);
        HeaderList headers = signRequest(*m_alice, "POST", m_path, m_body, m_now);
        replace(headers, header, value);
        VerificationError error;
        QVERIFY(!verify(verifier, headers, &error));
        QCOMPARE(error.code, code);
        QVERIFY(error.httpStatus == 400 || error.httpStatus == 401);
        QVERIFY(!error.message.isEmpty());
    }

    void replayGuardForgetsAfterWindowAndIsBounded()
    {
        ReplayGuard guard(1000, 3);
        QVERIFY(guard.admit("k", "n1", 0, 0));
        QVERIFY(!guard.admit("k", "n1", 0, 10));
        QVERIFY(guard.admit("other", "n1", 0, 10)); // nonces are per key
        QVERIFY(guard.admit("k", "n2", 0, 20));
        QVERIFY(!guard.admit("k", "n3", 0, 30)); // full: refuse rather than forget
        QCOMPARE(guard.size(), 3);
        QVERIFY(guard.admit("k", "n3", 0, 5000)); // the old entries expired and were pruned
        QCOMPARE(guard.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestSigning)
#include "tst_signing.moc"
