#include "core/KeyedRateLimit.h"
#include "net/HostCheck.h"
#include "net/Identity.h"
#include "net/ReplayGuard.h"
#include "net/RequestSigning.h"

#include <QFile>
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
        const bool ok = verifier.verify(
            method, path.isEmpty() ? m_path : path, [&headers](const QByteArray &n) { return lookup(headers, n); },
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

    // The fuzzers' signed seeds must get past the checks they are meant to reach beyond (a seed refused at the first
    // check would leave the deeper code unfuzzed); the tampered seed must not.
    void signedFuzzSeedsPassTheirChecks()
    {
        const QString corpus = QStringLiteral(COHORT_SOURCE_DIR "/tests/fuzz/corpus/");
        QTemporaryDir dir;
        const QString keyFile = dir.filePath(QStringLiteral("node.key"));
        QVERIFY(QFile::copy(corpus + QStringLiteral("identity_file/valid.json"), keyFile));
        const auto identity = Identity::load(keyFile);
        QVERIFY2(identity, qPrintable(identity.error()));
        QVERIFY(!Identity::load(corpus + QStringLiteral("identity_file/inconsistent.json")));
        const auto verifySeed = [&](const QString &name) {
            QFile f(corpus + QStringLiteral("request_verifier/") + name);
            if (!f.open(QIODevice::ReadOnly))
                return false;
            const QByteArray bytes = f.readAll();
            const QList<QByteArray> parts = bytes.split('\n');
            if (parts.size() < 7)
                return false;
            qsizetype headLength = 6;
            for (int i = 0; i < 6; ++i)
                headLength += parts[i].size();
            const HeaderList headers{{signing::kKeyHeader, parts[0]},
                                     {signing::kTimestampHeader, parts[1]},
                                     {signing::kNonceHeader, parts[2]},
                                     {signing::kSignatureHeader, parts[3]}};
            ReplayGuard replays(signing::kDefaultWindowMs);
            RequestVerifier verifier(replays);
            VerifiedRequest out;
            VerificationError error;
            const bool ok = verifier.verify(
                parts[4], parts[5], [&](const QByteArray &n) { return lookup(headers, n); }, bytes.mid(headLength),
                parts[1].toLongLong(), &out, &error);
            if (ok && out.publicKey != identity->publicKey())
                return false;
            return ok;
        };
        QVERIFY(verifySeed(QStringLiteral("signed_post.txt")));
        QVERIFY(verifySeed(QStringLiteral("signed_get.txt")));
        QVERIFY(!verifySeed(QStringLiteral("tampered_body.txt")));
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
        QTest::newRow("nonce not hex") << QByteArray(signing::kNonceHeader) << QByteArray("zzzzzzzzzzzzzzzzzzzz")
                                       << "bad_header";
        QTest::newRow("short nonce") << QByteArray(signing::kNonceHeader) << QByteArray("abcd") << "bad_header";
        QTest::newRow("timestamp text") << QByteArray(signing::kTimestampHeader) << QByteArray("yesterday")
                                        << "bad_header";
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
        using A = ReplayGuard::Admission;
        ReplayGuard guard(1000, 3);
        QCOMPARE(guard.admit("k", "n1", 0, 0), A::Admitted);
        QCOMPARE(guard.admit("k", "n1", 0, 10), A::Replayed);
        QCOMPARE(guard.admit("other", "n1", 0, 10), A::Admitted); // nonces are per key
        QCOMPARE(guard.admit("k", "n2", 0, 20), A::Admitted);
        QCOMPARE(guard.admit("k", "n3", 0, 30), A::Full); // full: refuse rather than forget
        QCOMPARE(guard.size(), 3);
        QCOMPARE(guard.admit("k", "n3", 0, 5000), A::Admitted); // the old entries expired and were pruned
        QCOMPARE(guard.size(), 1);
        QCOMPARE(guard.sizeOf("k"), 1);
        QCOMPARE(guard.sizeOf("other"), 0);
    }

    // One key sending as fast as it can fills its own share and is refused itself; another key still gets in
    // (the old guard was one global pool: ~3,000 requests/s from one client filled it in minutes, for everyone).
    void replayGuardRefusesTheFloodingKeyOnly()
    {
        using A = ReplayGuard::Admission;
        ReplayGuard guard(300'000, 1000, 100);
        int admitted = 0;
        A last = A::Admitted;
        for (int i = 0; i < 5000 && last == A::Admitted; ++i)
            if ((last = guard.admit("flooder", QByteArray::number(i), 0, 0)) == A::Admitted)
                ++admitted;
        QCOMPARE(admitted, 100);
        QCOMPARE(last, A::KeyFull);
        QCOMPARE(guard.admit("honest", "n1", 0, 0), A::Admitted);
        QCOMPARE(guard.sizeOf("flooder"), 100);
        // The window passes: the flooder's entries are pruned and its share is free again.
        QCOMPARE(guard.admit("flooder", "later", 0, 300'001), A::Admitted);
        QCOMPARE(guard.sizeOf("flooder"), 1);
    }

    // v2 names the hub: valid at that hub, refused at another (a captured request is worthless there), and the
    // hub line cannot be stripped to fall back to v1.
    void requestsNameTheirHub()
    {
        const QByteArray hubA(32, 'A'), hubB(32, 'B');
        ReplayGuard replays(signing::kDefaultWindowMs);
        RequestVerifier atA(replays);
        atA.setHubKey(hubA);
        RequestVerifier atB(replays);
        atB.setHubKey(hubB);
        const HeaderList forA = signRequest(*m_alice, "POST", m_path, m_body, m_now, {}, hubA);
        VerificationError error;
        QVERIFY(!verify(atB, forA, &error));
        QCOMPARE(error.code, QStringLiteral("wrong_hub"));
        QCOMPARE(error.httpStatus, 421);
        HeaderList stripped;
        for (const auto &h : forA)
            if (h.first != signing::kHubHeader)
                stripped.append(h);
        QVERIFY(!verify(atA, stripped, &error));
        QCOMPARE(error.code, QStringLiteral("bad_signature"));
        QVERIFY2(verify(atA, forA, &error), qPrintable(error.message));
        // The canonical strings are protocol: pinned, not recomputed.
        QCOMPARE(canonicalRequest("post", "/p?q=1", 5, "ab", "{}", QByteArray(32, 'A')),
                 QByteArray("cohort-request-v2\nQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE=\nPOST\n/p?q=1\n5\nab\n"
                            "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"));
        QCOMPARE(
            canonicalReply(200, "ab", "{}"),
            QByteArray("cohort-reply-v1\n200\nab\n44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"));
    }

    // A node that pinned the hub's key takes only answers the hub signed for that very request.
    void repliesAreBoundToStatusNonceAndBody()
    {
        const QByteArray body = R"({"ok":true})";
        const QByteArray signature = m_alice->sign(canonicalReply(200, "n1", body)).toBase64();
        QVERIFY(verifyReply(200, "n1", body, signature, m_alice->publicKey()));
        QVERIFY(!verifyReply(200, "n1", R"({"ok":false})", signature, m_alice->publicKey())); // rewritten body
        QVERIFY(!verifyReply(403, "n1", body, signature, m_alice->publicKey()));              // rewritten status
        QVERIFY(!verifyReply(200, "n2", body, signature, m_alice->publicKey())); // another request's answer
        QVERIFY(!verifyReply(200, "n1", body, signature, QByteArray(32, 'k')));  // another key
        QVERIFY(!verifyReply(200, "n1", body, "not base64 at all!", m_alice->publicKey()));
        QVERIFY(!verifyReply(200, "n1", body, QByteArray(300, 'A'), m_alice->publicKey()));
    }

    void hostCheckAnswersOnlyItsNames()
    {
        const HostCheck loopback = HostCheck::loopbackOnly();
        QVERIFY(!loopback.check("127.0.0.1:8420", {}));
        QVERIFY(!loopback.check("LocalHost.", {}));
        QVERIFY(!loopback.check("[::1]:80", {}));
        QCOMPARE(loopback.check("evil.example", {})->status, 421);
        QCOMPARE(loopback.check("127.0.0.1@evil.example", {})->status, 400);
        QCOMPARE(loopback.check("", {})->status, 400);
        QCOMPARE(loopback.check("127.0.0.1:99999", {})->status, 400);
        QCOMPARE(loopback.check("127.0.0.1", "http://evil.example")->status, 403);
        QCOMPARE(loopback.check("127.0.0.1", "null")->status, 403);
        QVERIFY(!loopback.check("127.0.0.1", "http://localhost:3000"));
        const HostCheck any;
        QVERIFY(!any.check("whatever.example", {}));
        QCOMPARE(any.check("whatever.example", "https://whatever.example")->status, 403);
        QCOMPARE(HostCheck::hostOf("Hub.Example.org:443"), QStringLiteral("hub.example.org"));
        QCOMPARE(HostCheck::hostOf("[::1]"), QStringLiteral("::1"));
        QCOMPARE(HostCheck::hostOf("::1"), QString());
    }

    void keyedRateLimitIsPerKeyAndBounded()
    {
        KeyedRateLimit limit(1.0, 3, 2); // 1/s, burst 3, two keys tracked
        qint64 retry = 0;
        for (int i = 0; i < 3; ++i)
            QVERIFY(limit.take("a", 0));
        QVERIFY(!limit.take("a", 0, &retry));
        QCOMPARE(retry, 1000);
        QVERIFY(limit.take("b", 0));    // another key has its own bucket
        QVERIFY(!limit.take("c", 0));   // table full and nobody refilled: the new key waits, no old one is forgotten
        QVERIFY(limit.take("a", 1000)); // one token a second
        QVERIFY(!limit.take("a", 1000));
        QVERIFY(limit.take("c", 10'000)); // a and b refilled and were forgotten: room again
        QCOMPARE(limit.trackedKeys(), 1);
    }
};

QTEST_GUILESS_MAIN(TestSigning)
#include "tst_signing.moc"
