// Protected ring links (engine/collectives/LinkCipher.h, CommunicatorOptions::linkProtection): the key only a link's
// two ends compute, integrity and encryption giving the averages plain links give, a block rewritten on the way
// stopping the operation without blaming the predecessor, and a link whose ends protect differently refused.
#include "MasterInThread.h"
#include "RingInProcess.h"
#include "collectives/Communicator.h"
#include "collectives/CommunicatorFaults.h"
#include "collectives/LinkCipher.h"
#include "net/Ed25519.h"

#include <QDeadlineTimer>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace cohort::collectives;
using cohort::test::MasterInThread;

class TestCollectivesLinks : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void linkCiphersAgreeOnlyBetweenTheLinksEnds()
    {
        const auto listener = cohort::ed25519::generate();
        const QByteArray context("ring 7, peer 1 -> 2, link 0");
        for (const LinkProtection mode : {LinkProtection::Integrity, LinkProtection::Encryption}) {
            auto dialed = LinkCipher::dial(mode, listener.publicKey, context);
            QVERIFY(dialed && dialed->ephemeralPublicKey.size() == 32);
            auto accepted = LinkCipher::accept(mode, dialed->ephemeralPublicKey, listener.secretKey, context);
            QVERIFY(accepted);
            const QByteArray plain("the block's values, as bytes");
            const QByteArray ad("frame header");
            const auto u8 = [](const QByteArray &b) { return reinterpret_cast<const uint8_t *>(b.constData()); };
            QByteArray sealed(plain.size() + qsizetype(kLinkTagBytes), '\0');
            dialed->cipher.seal(reinterpret_cast<uint8_t *>(sealed.data()), u8(plain), size_t(plain.size()), u8(ad),
                                size_t(ad.size()));
            // Encryption hides the payload; integrity leaves it as it was.
            QCOMPARE(sealed.left(plain.size()) == plain, mode == LinkProtection::Integrity);
            QByteArray opened(plain.size(), '\0');
            QVERIFY(accepted->open(reinterpret_cast<uint8_t *>(opened.data()), u8(sealed), size_t(plain.size()), u8(ad),
                                   size_t(ad.size())));
            QCOMPARE(opened, plain);
            // The next block has the next nonce: the same bytes again are refused (a replayed block) ...
            QVERIFY(!accepted->open(reinterpret_cast<uint8_t *>(opened.data()), u8(sealed), size_t(plain.size()),
                                    u8(ad), size_t(ad.size())));
            // ... and a listener with another key, or for another link, cannot open a block at all.
            auto stranger =
                LinkCipher::accept(mode, dialed->ephemeralPublicKey, cohort::ed25519::generate().secretKey, context);
            auto otherLink =
                LinkCipher::accept(mode, dialed->ephemeralPublicKey, listener.secretKey, QByteArray("ring 7, link 1"));
            QVERIFY(stranger && otherLink);
            QVERIFY(!stranger->open(reinterpret_cast<uint8_t *>(opened.data()), u8(sealed), size_t(plain.size()),
                                    u8(ad), size_t(ad.size())));
            QVERIFY(!otherLink->open(reinterpret_cast<uint8_t *>(opened.data()), u8(sealed), size_t(plain.size()),
                                     u8(ad), size_t(ad.size())));
        }
        // An ephemeral key of low order would give everyone the same secret: refused.
        QVERIFY(!LinkCipher::accept(LinkProtection::Encryption, QByteArray(32, '\0'), listener.secretKey, context));
        QVERIFY(!LinkCipher::dial(LinkProtection::Encryption, QByteArray(31, 'k'), context));
        QCOMPARE(linkProtectionFromName("integrity"), std::optional<LinkProtection>(LinkProtection::Integrity));
        QVERIFY(!linkProtectionFromName("rot13"));
    }

    // Protected links (LinkCipher.h): the same results bit for bit, sealed; a path that rewrites a sealed block
    // stops the operation without naming the predecessor (it may not be its doing); a peer whose links are not
    // protected is not linked with.
    void protectedLinksSealEveryBlock_data()
    {
        QTest::addColumn<int>("quant");
        QTest::addColumn<int>("mode");     // LinkProtection
        QTest::addColumn<bool>("rewrite"); // peer 1's blocks are rewritten after sealing
        const int integrity = int(LinkProtection::Integrity), encryption = int(LinkProtection::Encryption);
        QTest::newRow("f32, integrity") << int(Quant::None) << integrity << false;
        QTest::newRow("f32, encryption") << int(Quant::None) << encryption << false;
        QTest::newRow("uint8, integrity") << int(Quant::U8) << integrity << false;
        QTest::newRow("uint8, encryption") << int(Quant::U8) << encryption << false;
        QTest::newRow("uint16, encryption") << int(Quant::U16) << encryption << false;
        QTest::newRow("f32, integrity, rewritten on the way") << int(Quant::None) << integrity << true;
        QTest::newRow("f32, encryption, rewritten on the way") << int(Quant::None) << encryption << true;
        QTest::newRow("uint8, integrity, rewritten on the way") << int(Quant::U8) << integrity << true;
    }

    void protectedLinksSealEveryBlock()
    {
        QFETCH(int, quant);
        QFETCH(int, mode);
        QFETCH(bool, rewrite);
        constexpr int kPeers = 3;
        constexpr size_t kCount = 300'000; // several blocks per chunk
        const auto inputOf = [](int peer) {
            std::vector<float> v(kCount);
            for (size_t i = 0; i < kCount; ++i)
                v[i] = float(std::sin(double(i) * 0.001 + peer)) * 0.5f;
            return v;
        };
        const auto runRing = [&](bool protect, std::vector<std::vector<float>> *out,
                                 std::vector<cohort::Status> *results) {
            MasterInThread master;
            out->assign(kPeers, {});
            results->assign(kPeers, cohort::Status::success());
            cohort::test::onPeers(kPeers, [&](int i) {
                CommunicatorOptions o;
                o.masterPort = master.port;
                o.secretKey = cohort::ed25519::generate().secretKey;
                o.bindAddress = QHostAddress(QHostAddress::LocalHost);
                o.controlTimeoutMs = 5000;
                o.beginTimeoutMs = 5000;
                o.blockElements = 16 * 1024;
                o.linkProtection = protect ? LinkProtection(mode) : LinkProtection::None;
                if (rewrite && i == 1) {
                    auto faults = std::make_shared<CommunicatorFaults>();
                    faults->rewriteSealed = true;
                    o.faults = std::move(faults);
                }
                Communicator comm(o);
                if (cohort::Status r = cohort::test::joinRing(comm, kPeers); !r) {
                    (*results)[size_t(i)] = r;
                    return;
                }
                std::vector<float> data = inputOf(i);
                (*results)[size_t(i)] = comm.allReduce(data, ReduceOp::Sum, Quant(quant), 1);
                (*out)[size_t(i)] = data;
            });
        };
        std::vector<std::vector<float>> plain, sealed;
        std::vector<cohort::Status> plainResults, sealedResults;
        runRing(true, &sealed, &sealedResults);
        if (rewrite) {
            // Peer 1's successor receives its rewritten blocks: the operation stops for everyone, and nobody is blamed.
            QVERIFY(std::any_of(sealedResults.cbegin(), sealedResults.cend(), [](const cohort::Status &r) {
                return r.code() == Code::Aborted && r.error().contains(QStringLiteral("fails its authentication"));
            }));
            for (const cohort::Status &r : sealedResults)
                QVERIFY2(!r && !r.error().contains(QStringLiteral("excluded")), qPrintable(r.error()));
            return;
        }
        for (const cohort::Status &r : sealedResults)
            QVERIFY2(r, qPrintable(r.error()));
        QVERIFY(cohort::test::bitIdentical(sealed[0], sealed[1]) && cohort::test::bitIdentical(sealed[0], sealed[2]));
        // The same average as over plain links (the ring's order may differ between the two runs, and with it the
        // rounding of the sums: within a quantization step, or float rounding).
        runRing(false, &plain, &plainResults);
        for (const cohort::Status &r : plainResults)
            QVERIFY(r);
        const double tolerance = Quant(quant) == Quant::U8 ? 0.1 : Quant(quant) == Quant::U16 ? 1e-3 : 1e-5;
        double worst = 0;
        for (size_t j = 0; j < kCount; ++j)
            worst = std::max(worst, std::fabs(double(sealed[0][j]) - double(plain[0][j])));
        QVERIFY2(worst <= tolerance, qPrintable(QString::number(worst)));
    }

    void aLinkWithoutProtectionIsRefused()
    {
        // One member that does not seal its links, in a group that does: its successor drops its link (and the
        // formation fails and is retried) rather than read unsealed blocks.
        MasterInThread master;
        std::vector<cohort::Status> results(2, cohort::Status::success());
        cohort::test::onPeers(2, [&](int i) {
            CommunicatorOptions o;
            o.masterPort = master.port;
            o.secretKey = cohort::ed25519::generate().secretKey;
            o.bindAddress = QHostAddress(QHostAddress::LocalHost);
            o.controlTimeoutMs = 3000;
            o.beginTimeoutMs = 3000;
            o.connectTimeoutMs = 8000;
            o.linkProtection = i == 0 ? LinkProtection::Encryption : LinkProtection::None;
            Communicator comm(o);
            cohort::Status r = comm.connect();
            const QDeadlineTimer deadline(8000);
            while (r && comm.worldSize() < 2 && !deadline.hasExpired())
                r = comm.updateTopology();
            if (r && comm.worldSize() == 2) {
                std::vector<float> data(1000, 1.0f);
                r = comm.allReduce(data, ReduceOp::Sum, Quant::None, 1);
            }
            results[size_t(i)] = r;
        });
        QVERIFY(!results[0] || !results[1]); // never an average over a link one side does not seal
    }
};

QTEST_GUILESS_MAIN(TestCollectivesLinks)
#include "tst_collectives_links.moc"
