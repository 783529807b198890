// engine/toploc: the field arithmetic and interpolation a proof rests on, the modulus search, bf16 rounding, the
// 258-byte wire format with every malformed input the decoder must refuse, and the verifier's verdicts on honest,
// slightly noisy, very noisy and unrelated hidden states (seeded, so every run sees the same numbers).
#include "toploc/Gf65497.h"
#include "toploc/Proof.h"
#include "toploc/Verify.h"

#include <QCryptographicHash>
#include <QTest>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <thread>

using namespace cohort::toploc;

namespace {

std::vector<float> gaussian(size_t n, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> v(n);
    for (float &x : v)
        x = normal(rng);
    return v;
}

// Each value times (1 + relative * N(0,1)): models kernel / reduction-order differences when relative is tiny.
std::vector<float> perturbed(const std::vector<float> &v, double relative, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<float> out(v.size());
    for (size_t i = 0; i < v.size(); ++i)
        out[i] = float(double(v[i]) * (1.0 + relative * normal(rng)));
    return out;
}

// k distinct field elements and k arbitrary ones.
std::pair<std::vector<uint32_t>, std::vector<uint32_t>> randomPoints(size_t k, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<uint32_t> element(0, gf::kP - 1);
    std::set<uint32_t> seen;
    std::vector<uint32_t> xs, ys;
    while (xs.size() < k) {
        const uint32_t x = element(rng);
        if (seen.insert(x).second) {
            xs.push_back(x);
            ys.push_back(element(rng));
        }
    }
    return {xs, ys};
}

bool injective(const std::vector<size_t> &indices, uint32_t m)
{
    std::set<size_t> residues;
    for (const size_t i : indices)
        if (!residues.insert(i % m).second)
            return false;
    return true;
}

} // namespace

class TestToploc : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fieldArithmetic()
    {
        QCOMPARE(gf::add(gf::kP - 1, 1), 0u);
        QCOMPARE(gf::sub(0, 1), gf::kP - 1);
        QCOMPARE(gf::mul(gf::kP - 1, gf::kP - 1), 1u); // (-1)^2
        QCOMPARE(gf::reduce(uint64_t(gf::kP) * 7 + 5), 5u);
    }

    void inverseOfEveryElement()
    {
        QVERIFY(!gf::inverse(0));
        QVERIFY(!gf::inverse(gf::kP)); // 0 mod p
        for (uint32_t a = 1; a < gf::kP; ++a) {
            const auto inv = gf::inverse(a);
            QVERIFY2(inv && *inv < gf::kP && gf::mul(a, *inv) == 1, qPrintable(QString::number(a)));
        }
        QCOMPARE(*gf::inverse(gf::kP + 2), *gf::inverse(2)); // reduced first
    }

    void interpolationRoundTrip_data()
    {
        QTest::addColumn<int>("k");
        for (int k : {1, 2, 3, 17, 64, 127, 128})
            QTest::addRow("k=%d", k) << k;
    }
    void interpolationRoundTrip()
    {
        QFETCH(int, k);
        for (uint64_t seed = 1; seed <= 5; ++seed) {
            const auto [xs, ys] = randomPoints(size_t(k), seed * 1000 + uint64_t(k));
            const auto coefficients = gf::interpolate(xs, ys);
            QVERIFY(coefficients);
            QCOMPARE(coefficients->size(), size_t(k));
            for (const uint32_t c : *coefficients)
                QVERIFY(c < gf::kP);
            for (size_t i = 0; i < xs.size(); ++i)
                QCOMPARE(gf::evaluate(*coefficients, xs[i]), ys[i]);
        }
    }

    // A polynomial of degree < k sampled at k points comes back coefficient for coefficient (monomial basis).
    void interpolationRecoversKnownPolynomial()
    {
        std::mt19937_64 rng(7);
        std::uniform_int_distribution<uint32_t> element(0, gf::kP - 1);
        for (size_t k : {1u, 5u, 128u}) {
            std::vector<uint32_t> truth(k);
            for (uint32_t &c : truth)
                c = element(rng);
            auto [xs, unused] = randomPoints(k, 99 + k);
            std::vector<uint32_t> ys;
            for (const uint32_t x : xs)
                ys.push_back(gf::evaluate(truth, x));
            const auto coefficients = gf::interpolate(xs, ys);
            QVERIFY(coefficients);
            QVERIFY(*coefficients == truth);
        }
        // 3 + 2x + x^2 by hand, through x = 0, 1, 2 (values 3, 6, 11).
        const std::vector<uint32_t> xs{0, 1, 2}, ys{3, 6, 11};
        QCOMPARE(*gf::interpolate(xs, ys), (std::vector<uint32_t>{3, 2, 1}));
    }

    void interpolationRefusesBadPoints()
    {
        const std::vector<uint32_t> none;
        QVERIFY(!gf::interpolate(none, none));
        const std::vector<uint32_t> two{1, 2}, one{1};
        QVERIFY(!gf::interpolate(two, one));
        const std::vector<uint32_t> same{3, 3 + gf::kP}; // equal mod p
        QVERIFY(!gf::interpolate(same, two));
    }

    void modulusByHand()
    {
        QCOMPARE(findInjectiveModulus({}), 65497u);
        QCOMPARE(findInjectiveModulus({123456789}), 65497u);
        QCOMPARE(findInjectiveModulus({1, 2, 3}), 65497u);
        QCOMPARE(findInjectiveModulus({5, 5}), 0u);                       // duplicates collide for every m
        QCOMPARE(findInjectiveModulus({0, 65497}), 65496u);               // 0 and 0 mod p; 0 and 1 mod p-1
        QCOMPARE(findInjectiveModulus({0, 130994}), 65496u);              // 2p = 2(p-1) + 2
        QCOMPARE(findInjectiveModulus({0, 65497, 65496}), 65495u);        // p: 0,0; p-1: 0,1,0; p-2: 0,2,1
        QCOMPARE(findInjectiveModulus({0, 65497, 65496, 65495}), 65494u); // ... p-2: 0,2,1,0; p-3: 0,3,2,1
    }

    void modulusProperty()
    {
        std::mt19937_64 rng(11);
        for (int round = 0; round < 20; ++round) {
            // Top-128 of a 32 x 4096 chunk: indices up to 131072 > p, so the search has real work.
            std::uniform_int_distribution<size_t> index(0, 32 * 4096 - 1);
            std::set<size_t> unique;
            while (unique.size() < 128)
                unique.insert(index(rng));
            std::vector<size_t> indices(unique.begin(), unique.end());
            std::shuffle(indices.begin(), indices.end(), rng);
            const uint32_t m = findInjectiveModulus(indices);
            QVERIFY(m > 0 && m <= 65497);
            QVERIFY(injective(indices, m));
            for (uint32_t larger = m + 1; larger <= 65497; ++larger)
                QVERIFY2(!injective(indices, larger), qPrintable(QString::number(larger)));
        }
    }

    void bf16Rounding()
    {
        QCOMPARE(bf16Bits(1.0f), uint16_t(0x3F80));
        QCOMPARE(bf16Bits(-2.5f), uint16_t(0xC020));
        QCOMPARE(bf16Bits(0.0f), uint16_t(0x0000));
        QCOMPARE(bf16Bits(-0.0f), uint16_t(0x8000));
        // Exactly halfway between two bf16 values: ties go to the even mantissa.
        QCOMPARE(bf16Bits(std::bit_cast<float>(0x3F808000u)), uint16_t(0x3F80)); // 1 + 2^-8: down to even ...80
        QCOMPARE(bf16Bits(std::bit_cast<float>(0x3F818000u)), uint16_t(0x3F82)); // 1 + 3*2^-8: up to even ...82
        QCOMPARE(bf16Bits(std::bit_cast<float>(0x3F808001u)), uint16_t(0x3F81)); // just above half: up
        QCOMPARE(bf16Bits(std::bit_cast<float>(0x3F807FFFu)), uint16_t(0x3F80)); // just below half: down
        QCOMPARE(bf16Bits(std::bit_cast<float>(0xBF818000u)), uint16_t(0xBF82)); // sign does not matter
        QCOMPARE(bf16Bits(std::numeric_limits<float>::infinity()), uint16_t(0x7F80));
        QCOMPARE(bf16Bits(std::numeric_limits<float>::max()), uint16_t(0x7F80)); // rounds up past bf16's max
        // NaN stays NaN, even one whose payload lives only in the dropped low bits.
        for (const uint32_t nan : {0x7FC00000u, 0x7F800001u, 0xFF800001u, 0xFFFFFFFFu}) {
            const uint16_t b = bf16Bits(std::bit_cast<float>(nan));
            QVERIFY((b & 0x7F80) == 0x7F80 && (b & 0x007F) != 0);
            QCOMPARE(b & 0x8000, int((nan >> 16) & 0x8000));
        }
    }

    void topKOrderAndTies()
    {
        const float v[] = {1.0f, -3.0f, 2.0f, 3.0f, -1.0f, std::nanf(""), 0.5f};
        QCOMPARE(topK(v, 7, 4), (std::vector<size_t>{1, 3, 2, 0}));          // |-3| = |3|: lower index first
        QCOMPARE(topK(v, 7, 7), (std::vector<size_t>{1, 3, 2, 0, 4, 6, 5})); // NaN last
        QCOMPARE(topK(v, 3, 128), (std::vector<size_t>{1, 2, 0}));           // fewer values than k: all of them
        QVERIFY(topK(v, 7, 0).empty());
        QVERIFY(topK(nullptr, 7, 3).empty());
    }

    // The one-pass heap selection agrees with a full stable sort by magnitude, ties and NaNs included.
    void topKMatchesFullSort()
    {
        std::mt19937_64 rng(21);
        std::uniform_int_distribution<int> level(-40, 40); // few distinct magnitudes: many ties
        for (size_t n : {1u, 127u, 128u, 129u, 5000u}) {
            std::vector<float> v(n);
            for (float &x : v)
                x = level(rng) == 40 ? std::nanf("") : float(level(rng)) / 8.0f;
            std::vector<size_t> reference(n);
            for (size_t i = 0; i < n; ++i)
                reference[i] = i;
            auto magnitude = [&v](size_t i) { return std::isnan(v[i]) ? -1.0f : std::fabs(v[i]); };
            std::stable_sort(reference.begin(), reference.end(),
                             [&](size_t a, size_t b) { return magnitude(a) > magnitude(b); });
            reference.resize(std::min<size_t>(n, 128));
            QCOMPARE(topK(v.data(), n, 128), reference);
        }
    }

    // Proofs for a batch are the per-completion proofs, whatever order or threads the runner uses.
    void batchProofsDoNotDependOnTheRunner()
    {
        const size_t dim = 48;
        std::vector<std::vector<float>> states;
        std::vector<CompletionStates> completions;
        for (size_t i = 0; i < 9; ++i)
            states.push_back(gaussian((1 + 13 * i) * dim, 40 + i));
        for (size_t i = 0; i < states.size(); ++i)
            completions.push_back({states[i].data(), 1 + 13 * i});
        completions.push_back({nullptr, 0}); // an empty completion: no chunks
        const auto inTurn = buildProofsForAll(completions, dim);
        QCOMPARE(inTurn.size(), completions.size());
        for (size_t i = 0; i < states.size(); ++i)
            QCOMPARE(inTurn[i], buildProofs(states[i].data(), 1 + 13 * i, dim));
        QVERIFY(inTurn.back().empty());
        // Backwards, each on its own thread.
        const ParallelFor threads = [](size_t n, const std::function<void(size_t)> &body) {
            std::vector<std::thread> running;
            for (size_t i = n; i-- > 0;)
                running.emplace_back(body, i);
            for (std::thread &t : running)
                t.join();
        };
        QCOMPARE(buildProofsForAll(completions, dim, threads), inTurn);
    }

    // Proof bytes are a protocol value: a node and a hub of different builds, compilers and platforms must produce
    // the same bytes for the same hidden states forever. The input is integer arithmetic (no library RNG, whose
    // normal distribution differs between standard libraries); the output is pinned by its SHA-256.
    void proofBytesArePinned()
    {
        std::vector<float> hidden(70 * 64);
        for (size_t i = 0; i < hidden.size(); ++i)
            hidden[i] = float(int((uint32_t(i) * 2654435761u) % 2001u) - 1000) / 250.0f;
        const std::string bytes = serialize(buildProofs(hidden.data(), 70, 64));
        QCOMPARE(bytes.size(), size_t(3 * 258));
        const QByteArray digest =
            QCryptographicHash::hash(QByteArrayView(bytes.data(), qsizetype(bytes.size())), QCryptographicHash::Sha256);
        QCOMPARE(QString::fromLatin1(digest.toHex()),
                 QStringLiteral("bc04a0bf4abc8c404a3da99f43f866b83e91ed8bee6ca76a12473bc04cf192a1"));
    }

    void serializationIs258BytesPerChunkAndRoundTrips()
    {
        const auto hidden = gaussian(70 * 64, 1);
        const auto proofs = buildProofs(hidden.data(), 70, 64);
        QCOMPARE(proofs.size(), size_t(3));
        const std::string bytes = serialize(proofs);
        QCOMPARE(bytes.size(), size_t(3 * 258));
        QCOMPARE(kProofBytes, size_t(258));
        // Big-endian modulus first.
        QCOMPARE(uint16_t((uint8_t(bytes[0]) << 8) | uint8_t(bytes[1])), proofs[0].modulus);
        QCOMPARE(uint16_t((uint8_t(bytes[2]) << 8) | uint8_t(bytes[3])), proofs[0].coefficients[0]);
        const auto decoded = decode(bytes, 3);
        QVERIFY2(decoded.ok(), decoded.error.c_str());
        QVERIFY(*decoded == proofs);
        QCOMPARE(serialize(*decoded), bytes);
        // No chunks, no bytes.
        QVERIFY(serialize({}).empty());
        QVERIFY(decode({}, 0).ok());
    }

    void decodeRefusesWithReason()
    {
        const auto hidden = gaussian(64 * 32, 2);
        const std::string good = serialize(buildProofs(hidden.data(), 64, 32));
        QCOMPARE(good.size(), size_t(2 * 258));
        QVERIFY(decode(good, 2).ok());

        auto refused = [](std::string_view bytes, size_t chunks, const char *needle) {
            const auto r = decode(bytes, chunks);
            if (r.ok() || r.error.find(needle) == std::string::npos) {
                qWarning("expected a refusal mentioning '%s', got ok=%d error='%s'", needle, int(r.ok()),
                         r.error.c_str());
                return false;
            }
            return true;
        };
        QVERIFY(refused(good.substr(0, 257), 1, "multiple of 258"));
        QVERIFY(refused(good + "x", 2, "multiple of 258"));
        QVERIFY(refused(good, 3, "chunks"));
        QVERIFY(refused(good, 1, "chunks"));
        QVERIFY(refused({}, 1, "no proof bytes"));

        std::string zeroModulus = good;
        zeroModulus[258] = zeroModulus[259] = '\0';
        QVERIFY(refused(zeroModulus, 2, "modulus 0"));
        std::string bigModulus = good;
        bigModulus[0] = char(0xFF), bigModulus[1] = char(0xDA); // 65498
        QVERIFY(refused(bigModulus, 2, "above 65497"));
        std::string bigCoefficient = good;
        bigCoefficient[258 + 2 + 2 * 5] = char(0xFF), bigCoefficient[258 + 2 + 2 * 5 + 1] = char(0xD9); // 65497 = p
        QVERIFY(refused(bigCoefficient, 2, "coefficient 5"));
        // The largest legal values pass.
        std::string edge = good;
        edge[0] = char(0xFF), edge[1] = char(0xD9); // m = 65497
        edge[2] = char(0xFF), edge[3] = char(0xD8); // coefficient p - 1
        QVERIFY(decode(edge, 2).ok());
    }

    void honestProofVerifies()
    {
        for (size_t dim : {64u, 128u, 1024u}) {
            const auto hidden = gaussian(32 * dim, dim);
            const ChunkProof proof = buildChunkProof(hidden.data(), 32, dim);
            QVERIFY(!proof.isNull());
            const ChunkVerdict v = verifyChunk(proof, hidden.data(), 32, dim);
            QVERIFY(v.accepted);
            QCOMPARE(v.points, 128);
            QCOMPARE(v.expMatches, 128);
            QCOMPARE(v.mantissaMean, 0.0);
            QCOMPARE(v.mantissaMedian, 0.0);
        }
    }

    // A one-token chunk (64 values: all of them are its "top 128") holds values near zero whose bf16 mantissas are
    // float rounding noise: an honest verifier that summed in another order sees a few of them several units off (seen
    // in tst_rl_e2e: "64/64 exponent matches, mantissa error mean 0.73 (max 0.05)" on a one-token completion). Those
    // are not compared; a change of a value that matters still fails the chunk.
    void shortChunksIgnoreNoiseNearZero()
    {
        const size_t dim = 64;
        std::vector<float> prover = gaussian(dim, 7);
        prover[5] = 3.0e-4f; // about 1e-4 of the largest value
        prover[40] = -2.0e-4f;
        const ChunkProof proof = buildChunkProof(prover.data(), 1, dim);
        std::vector<float> verifier = prover;
        verifier[5] = 3.4e-4f; // +13 %, the same exponent: 13 bf16 mantissa units (rounding noise at that size)
        verifier[40] = -2.2e-4f;
        const VerifyThresholds fp32{126, 0.05, 0};
        const ChunkVerdict honest = verifyChunk(proof, verifier.data(), 1, dim, fp32);
        QVERIFY2(honest.accepted,
                 qPrintable(QStringLiteral("mean %1 over %2 points").arg(honest.mantissaMean).arg(honest.points)));
        // The values near zero (the two set above, and any Gaussian draw below 2^-10 of the largest) are left out.
        float largestAbs = 0;
        for (const float v : verifier)
            largestAbs = std::max(largestAbs, std::fabs(v));
        const auto significant =
            std::count_if(verifier.begin(), verifier.end(), [&](float v) { return std::fabs(v) >= largestAbs / 1024; });
        QVERIFY(significant <= 62);
        QCOMPARE(honest.points, int(significant));
        QCOMPARE(honest.mantissaMean, 0.0);
        std::vector<float> forged = prover;
        const auto largest = std::max_element(forged.begin(), forged.end(),
                                              [](float a, float b) { return std::fabs(a) < std::fabs(b); });
        *largest *= 1.1f; // a value that matters, 10 % off
        QVERIFY(!verifyChunk(proof, forged.data(), 1, dim, fp32).accepted);
    }

    // Reordering-level noise (relative 1e-3, about a quarter of a bf16 ulp) must not cost an honest node its credit;
    // relative noise of 2e-1 and unrelated hidden states must fail. (Measured: the default thresholds still accept
    // about 5e-2 relative noise on Gaussian states, and reject from about 1e-1; see the report / bench.)
    void noiseAndForgery_data()
    {
        QTest::addColumn<size_t>("dim");
        for (size_t dim : {64u, 128u, 1024u})
            QTest::addRow("dim=%zu", dim) << dim;
    }
    void noiseAndForgery()
    {
        QFETCH(size_t, dim);
        for (uint64_t seed = 1; seed <= 20; ++seed) {
            const auto hidden = gaussian(32 * dim, seed);
            const ChunkProof proof = buildChunkProof(hidden.data(), 32, dim);

            const auto slightly = perturbed(hidden, 1e-3, seed + 100);
            const ChunkVerdict near = verifyChunk(proof, slightly.data(), 32, dim);
            QVERIFY2(near.accepted, qPrintable(QStringLiteral("seed %1: exp %2 mean %3 median %4")
                                                   .arg(seed)
                                                   .arg(near.expMatches)
                                                   .arg(near.mantissaMean)
                                                   .arg(near.mantissaMedian)));

            const auto very = perturbed(hidden, 2e-1, seed + 200);
            QVERIFY(!verifyChunk(proof, very.data(), 32, dim).accepted);

            const auto other = gaussian(32 * dim, seed + 1000);
            const ChunkVerdict forged = verifyChunk(proof, other.data(), 32, dim);
            QVERIFY(!forged.accepted);
            QVERIFY(forged.expMatches < 90);
        }
    }

    void seventyTokensAreThreeChunks()
    {
        const size_t dim = 96;
        const auto hidden = gaussian(70 * dim, 70);
        QCOMPARE(chunkCount(70), size_t(3));
        QCOMPARE(chunkCount(64), size_t(2));
        QCOMPARE(chunkCount(0), size_t(0));
        const auto proofs = buildProofs(hidden.data(), 70, dim);
        QCOMPARE(proofs.size(), size_t(3));
        // 32 + 32 + 6: each chunk is the proof of exactly its rows.
        QVERIFY(proofs[0] == buildChunkProof(hidden.data(), 32, dim));
        QVERIFY(proofs[1] == buildChunkProof(hidden.data() + 32 * dim, 32, dim));
        QVERIFY(proofs[2] == buildChunkProof(hidden.data() + 64 * dim, 6, dim));
        QVERIFY(!(proofs[2] == buildChunkProof(hidden.data() + 64 * dim, 5, dim)));

        const VerifyReport report = verifyProofs(proofs, hidden.data(), 70, dim);
        QVERIFY(report.error.empty());
        QVERIFY(report.accepted);
        QCOMPARE(report.chunks.size(), size_t(3));

        // One tampered chunk fails the completion, and only that chunk.
        auto tampered = proofs;
        tampered[1].coefficients[0] = uint16_t((tampered[1].coefficients[0] + 1000) % gf::kP);
        const VerifyReport bad = verifyProofs(tampered, hidden.data(), 70, dim);
        QVERIFY(!bad.accepted);
        QVERIFY(bad.chunks[0].accepted && !bad.chunks[1].accepted && bad.chunks[2].accepted);

        // A proof for 64 tokens does not cover 70.
        const VerifyReport shortProof = verifyProofs({proofs[0], proofs[1]}, hidden.data(), 70, dim);
        QVERIFY(!shortProof.accepted);
        QVERIFY(shortProof.error.find("chunks") != std::string::npos);
    }

    // Under 128 values in a chunk: all of them are proven, the coefficients after k_eff are zero, and the verifier
    // asks for the same fraction of exponent matches (90/128, rounded up).
    void smallChunkProvesEveryValue()
    {
        const auto hidden = gaussian(50, 5);
        const ChunkProof proof = buildChunkProof(hidden.data(), 1, 50);
        QVERIFY(!proof.isNull());
        for (size_t i = 50; i < proof.coefficients.size(); ++i)
            QCOMPARE(proof.coefficients[i], uint16_t(0));
        const ChunkVerdict v = verifyChunk(proof, hidden.data(), 1, 50);
        QVERIFY(v.accepted);
        QCOMPARE(v.points, 50);
        QCOMPARE(v.expMatches, 50);
        const auto other = gaussian(50, 6);
        QVERIFY(!verifyChunk(proof, other.data(), 1, 50).accepted);
    }

    void nullProofsAndBadInputs()
    {
        QVERIFY(buildChunkProof(nullptr, 32, 64).isNull());
        const auto hidden = gaussian(32 * 64, 3);
        QVERIFY(buildChunkProof(hidden.data(), 0, 64).isNull());
        QVERIFY(buildChunkProof(hidden.data(), 32, 0).isNull());
        QVERIFY(buildChunkProof(hidden.data(), std::numeric_limits<size_t>::max(), 2).isNull()); // overflow
        QVERIFY(buildProofs(hidden.data(), 10, 64, 0).empty());

        const ChunkVerdict nullVerdict = verifyChunk(ChunkProof{}, hidden.data(), 32, 64);
        QVERIFY(!nullVerdict.accepted);
        QCOMPARE(nullVerdict.expMatches, 0);
        QCOMPARE(nullVerdict.mantissaMean, kNoMatchError);
        const ChunkProof proof = buildChunkProof(hidden.data(), 32, 64);
        QVERIFY(!verifyChunk(proof, nullptr, 32, 64).accepted);
        QVERIFY(!verifyProofs({}, hidden.data(), 0, 64).accepted);

        // Thresholds are the caller's: demanding all 128 with zero error still accepts an honest chunk.
        QVERIFY(verifyChunk(proof, hidden.data(), 32, 64, {128, 0, 0}).accepted);
    }
};

QTEST_GUILESS_MAIN(TestToploc)
#include "tst_toploc.moc"
