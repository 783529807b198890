// engine/quant: the min-max quantization reference the collectives and the CUDA kernels rest on. Round-trip error
// within half a step (plus float rounding) at odd sizes, constant and empty spans, NaN/inf refused, uint16 tighter
// than uint8, de-quantize-accumulate equal to de-quantize then add, the owner's requantized copy equal to what a
// receiver decodes, the 8-byte wire header and its refusals. Seeded, so every run sees the same numbers.
#include "quant/Quantize.h"

#include <QTest>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using cohort::ErrorCode;
using namespace cohort::quant;

namespace {

std::vector<float> gaussian(size_t n, uint64_t seed, float mean = 0.0f, float sigma = 1.0f)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> normal(mean, sigma);
    std::vector<float> v(n);
    for (float &x : v)
        x = normal(rng);
    return v;
}

// The documented bound: half a step plus the rounding of the subtraction, division and sums.
double bound(const QuantParams &p, float lo, float hi)
{
    return 0.5 * double(p.scale) + std::ldexp(double(std::fabs(lo)) + double(std::fabs(hi)), -21);
}

template <Word Q>
double maxRoundTripError(const std::vector<float> &values, QuantParams *paramsOut = nullptr)
{
    const ParamsResult params = computeParams<Q>(values);
    if (!params)
        return std::numeric_limits<double>::infinity();
    std::vector<Q> codes(values.size());
    std::vector<float> back(values.size());
    if (quantize<Q>(values, params.params, codes) != ErrorCode::None ||
        dequantize<Q>(codes, params.params, back) != ErrorCode::None)
        return std::numeric_limits<double>::infinity();
    double worst = 0;
    for (size_t i = 0; i < values.size(); ++i)
        worst = std::max(worst, std::fabs(double(back[i]) - double(values[i])));
    if (paramsOut)
        *paramsOut = params.params;
    return worst;
}

template <Word Q>
void checkRoundTrip(const std::vector<float> &values)
{
    QuantParams p;
    const double err = maxRoundTripError<Q>(values, &p);
    float lo = values.empty() ? 0.0f : values[0], hi = lo;
    for (const float x : values) {
        lo = std::min(lo, x);
        hi = std::max(hi, x);
    }
    QVERIFY2(err <= bound(p, lo, hi), qPrintable(QStringLiteral("error %1 > bound %2 (n %3, scale %4)")
                                                     .arg(err)
                                                     .arg(bound(p, lo, hi))
                                                     .arg(values.size())
                                                     .arg(double(p.scale))));
    if (!values.empty()) {
        QCOMPARE(p.min, lo == 0.0f ? 0.0f : lo); // code 0 is the minimum itself
        QVERIFY(p.scale >= 0.0f);
    }
}

} // namespace

class TestQuant : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTripWithinHalfStep_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<float>("mean");
        QTest::addColumn<float>("sigma");
        for (const int n : {1, 2, 7, 1023, 4097, 65537}) {
            QTest::addRow("n=%d unit", n) << n << 0.0f << 1.0f;
            QTest::addRow("n=%d offset", n) << n << 1000.0f << 0.01f;
            QTest::addRow("n=%d tiny", n) << n << 0.0f << 1e-30f;
            QTest::addRow("n=%d huge", n) << n << 0.0f << 1e30f;
        }
    }
    void roundTripWithinHalfStep()
    {
        QFETCH(int, n);
        QFETCH(float, mean);
        QFETCH(float, sigma);
        const auto values = gaussian(size_t(n), uint64_t(n) * 31 + 7, mean, sigma);
        checkRoundTrip<uint8_t>(values);
        checkRoundTrip<uint16_t>(values);
    }

    void extremesDecodeExactlyToMin()
    {
        // Code 0 is min itself; the top code lands on max up to the rounding of the scale.
        const std::vector<float> values{-3.0f, 1.5f, 0.25f, 5.0f};
        const ParamsResult p = computeParams<uint8_t>(values);
        QVERIFY(p.ok());
        QCOMPARE(p.params.min, -3.0f);
        QVERIFY(p.params.scale >= 8.0f / 255.0f && p.params.scale <= std::nextafter(8.0f / 255.0f, 1.0f));
        QVERIFY(255.0f * p.params.scale >= 8.0f); // the top code reaches the maximum
        std::vector<uint8_t> codes(values.size());
        QCOMPARE(quantize<uint8_t>(values, p.params, codes), ErrorCode::None);
        QCOMPARE(int(codes[0]), 0);
        QCOMPARE(int(codes[3]), 255);
        std::vector<float> back(values.size());
        QCOMPARE(dequantize<uint8_t>(codes, p.params, back), ErrorCode::None);
        QCOMPARE(back[0], -3.0f);
        QVERIFY(std::fabs(back[3] - 5.0f) <= 1e-6f);
    }

    void roundingIsHalfAwayFromZero()
    {
        // min 0, scale 1 (255 / 255): 1.5 -> 2, 2.5 -> 3 (half away from zero, not to even), 254.5 -> 255.
        const std::vector<float> values{0.0f, 1.5f, 2.5f, 2.4999998f, 254.5f, 255.0f};
        const ParamsResult p = computeParams<uint8_t>(values);
        QVERIFY(p.ok());
        QCOMPARE(p.params.scale, 1.0f);
        std::vector<uint8_t> codes(values.size());
        QCOMPARE(quantize<uint8_t>(values, p.params, codes), ErrorCode::None);
        QCOMPARE(codes, (std::vector<uint8_t>{0, 2, 3, 2, 255, 255}));
    }

    void outOfRangeValuesClamp()
    {
        const QuantParams p{0.0f, 1.0f};
        const std::vector<float> values{-5.0f, 300.0f, 1e30f, -1e30f};
        std::vector<uint8_t> codes(values.size());
        QCOMPARE(quantize<uint8_t>(values, p, codes), ErrorCode::None);
        QCOMPARE(codes, (std::vector<uint8_t>{0, 255, 255, 0}));
    }

    void constantSpans()
    {
        for (const float c : {0.0f, -0.0f, 3.25f, -1e20f}) {
            for (const size_t n : {size_t(1), size_t(7), size_t(4097)}) {
                const std::vector<float> values(n, c);
                const ParamsResult p8 = computeParams<uint8_t>(values);
                const ParamsResult p16 = computeParams<uint16_t>(values);
                QVERIFY(p8.ok() && p16.ok());
                QCOMPARE(p8.params.scale, 0.0f);
                QCOMPARE(std::bit_cast<uint32_t>(p8.params.min), std::bit_cast<uint32_t>(c == 0.0f ? 0.0f : c));
                std::vector<uint8_t> codes(n, 77);
                QCOMPARE(quantize<uint8_t>(values, p8.params, codes), ErrorCode::None);
                std::vector<float> back(n, 1.0f);
                QCOMPARE(dequantize<uint8_t>(codes, p8.params, back), ErrorCode::None);
                for (size_t i = 0; i < n; ++i) {
                    QCOMPARE(int(codes[i]), 0);
                    QCOMPARE(back[i], c);
                }
            }
        }
    }

    void emptySpans()
    {
        const std::vector<float> none;
        const ParamsResult p = computeParams<uint16_t>(none);
        QVERIFY(p.ok());
        QCOMPARE(p.params, (QuantParams{0.0f, 0.0f}));
        std::vector<uint16_t> codes;
        std::vector<float> out;
        QCOMPARE(quantize<uint16_t>(none, p.params, codes), ErrorCode::None);
        QCOMPARE(dequantize<uint16_t>(codes, p.params, out), ErrorCode::None);
        QCOMPARE(dequantizeAccumulate<uint16_t>(codes, p.params, out), ErrorCode::None);
        std::vector<float> values;
        QVERIFY(requantize<uint16_t>(values, codes).ok());
    }

    void nonFiniteRefused()
    {
        const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
        for (const float bad : {nan, -nan, inf, -inf}) {
            for (const size_t at : {size_t(0), size_t(3), size_t(6)}) {
                auto values = gaussian(7, 5);
                values[at] = bad;
                QCOMPARE(computeParams<uint8_t>(values).code, ErrorCode::NonFinite);
                QCOMPARE(computeParams<uint16_t>(values).code, ErrorCode::NonFinite);
                // quantize with a header from elsewhere: every element written, the bad one as 0, and reported.
                std::vector<uint8_t> codes(values.size(), 99);
                QCOMPARE(quantize<uint8_t>(values, QuantParams{-4.0f, 8.0f / 255.0f}, codes), ErrorCode::NonFinite);
                QCOMPARE(int(codes[at]), 0);
                std::vector<float> copy = values;
                std::vector<uint8_t> c2(values.size());
                QCOMPARE(requantize<uint8_t>(copy, c2).code, ErrorCode::NonFinite);
                QCOMPARE(std::memcmp(copy.data(), values.data(), values.size() * sizeof(float)), 0); // untouched
            }
        }
        QCOMPARE(paramsFromRange(0.0f, std::numeric_limits<float>::infinity(), 255).code, ErrorCode::NonFinite);
    }

    void hugeRangeRefused()
    {
        const float big = std::numeric_limits<float>::max();
        const std::vector<float> values{-big, big};
        QCOMPARE(computeParams<uint8_t>(values).code, ErrorCode::RangeTooLarge);
        // Half of it is fine.
        const std::vector<float> quarter{-big / 4, big / 4, 1.0f};
        QVERIFY(computeParams<uint8_t>(quarter).ok());
        checkRoundTrip<uint8_t>(quarter);
        checkRoundTrip<uint16_t>(quarter);
    }

    void uint16TighterThanUint8()
    {
        for (const size_t n : {size_t(7), size_t(1023), size_t(4097)}) {
            const auto values = gaussian(n, n);
            QuantParams p8, p16;
            const double e8 = maxRoundTripError<uint8_t>(values, &p8);
            const double e16 = maxRoundTripError<uint16_t>(values, &p16);
            QVERIFY(p16.scale * 200 < p8.scale); // 65535 / 255 = 257 times finer
            checkRoundTrip<uint16_t>(values);    // within its own (257 times smaller) half step plus rounding
            if (n >= 1023)                       // enough values that uint8's worst error is near half its step
                QVERIFY2(e16 * 100 < e8, qPrintable(QStringLiteral("uint16 %1 vs uint8 %2").arg(e16).arg(e8)));
        }
    }

    void dequantizeAccumulateMatches()
    {
        for (const size_t n : {size_t(1), size_t(7), size_t(1023), size_t(4097)}) {
            const auto values = gaussian(n, n + 1, 2.0f, 3.0f);
            const auto acc0 = gaussian(n, n + 2);
            const ParamsResult p = computeParams<uint8_t>(values);
            QVERIFY(p.ok());
            std::vector<uint8_t> codes(n);
            QCOMPARE(quantize<uint8_t>(values, p.params, codes), ErrorCode::None);
            std::vector<float> decoded(n), acc = acc0;
            QCOMPARE(dequantize<uint8_t>(codes, p.params, decoded), ErrorCode::None);
            QCOMPARE(dequantizeAccumulate<uint8_t>(codes, p.params, acc), ErrorCode::None);
            for (size_t i = 0; i < n; ++i) {
                const float expected = acc0[i] + decoded[i]; // two roundings, bit for bit
                QCOMPARE(std::bit_cast<uint32_t>(acc[i]), std::bit_cast<uint32_t>(expected));
                QVERIFY(std::fabs(double(acc[i]) - (double(acc0[i]) + double(values[i]))) <=
                        bound(p.params, -20.0f, 20.0f) + 1e-5);
            }
        }
    }

    void ownerCopyEqualsReceiverCopy()
    {
        // The owner requantizes its chunk; a receiver decodes the same codes with the same header: same bits.
        auto owner = gaussian(4097, 11);
        std::vector<uint16_t> codes(owner.size());
        const ParamsResult p = requantize<uint16_t>(owner, codes);
        QVERIFY(p.ok());
        const auto wire = encodeParams(p.params);
        const ParamsResult received = decodeParams(wire, kLevels<uint16_t>);
        QVERIFY(received.ok());
        QCOMPARE(received.params, p.params);
        std::vector<float> receiver(owner.size());
        QCOMPARE(dequantize<uint16_t>(codes, received.params, receiver), ErrorCode::None);
        QCOMPARE(std::memcmp(owner.data(), receiver.data(), owner.size() * sizeof(float)), 0);
        // Requantizing an already requantized copy changes nothing (the codes are a fixed point).
        std::vector<uint16_t> again(codes.size());
        auto copy = owner;
        QVERIFY(requantize<uint16_t>(copy, again).ok());
        QCOMPARE(again, codes);
    }

    void sizeMismatchAndBadParams()
    {
        const std::vector<float> values(5, 1.0f);
        std::vector<uint8_t> short4(4);
        std::vector<float> out(4);
        QCOMPARE(quantize<uint8_t>(values, QuantParams{0.0f, 1.0f}, short4), ErrorCode::SizeMismatch);
        std::vector<uint8_t> codes(5);
        QCOMPARE(dequantize<uint8_t>(codes, QuantParams{0.0f, 1.0f}, out), ErrorCode::SizeMismatch);
        QCOMPARE(dequantizeAccumulate<uint8_t>(codes, QuantParams{0.0f, 1.0f}, out), ErrorCode::SizeMismatch);
        const float nan = std::numeric_limits<float>::quiet_NaN();
        for (const QuantParams bad : {QuantParams{nan, 1.0f}, QuantParams{0.0f, -1.0f}, QuantParams{0.0f, nan},
                                      QuantParams{0.0f, std::numeric_limits<float>::max()}}) {
            QCOMPARE(quantize<uint8_t>(values, bad, codes), ErrorCode::BadParams);
            std::vector<float> o(5);
            QCOMPARE(dequantize<uint8_t>(codes, bad, o), ErrorCode::BadParams);
            QCOMPARE(decodeParams(encodeParams(bad), 255).code, ErrorCode::BadParams);
        }
        QCOMPARE(paramsFromRange(2.0f, 1.0f, 255).code, ErrorCode::BadParams);
        QVERIFY(std::string(describe(ErrorCode::NonFinite)).find("NaN") != std::string::npos);
    }

    void wireHeaderIsBigEndian()
    {
        const QuantParams p{1.0f, 0.5f}; // 0x3F800000, 0x3F000000
        const auto bytes = encodeParams(p);
        QCOMPARE(bytes, (std::array<uint8_t, 8>{0x3F, 0x80, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x00}));
        const ParamsResult back = decodeParams(bytes, 255);
        QVERIFY(back.ok());
        QCOMPARE(back.params, p);
    }

    void denormalsAreExact()
    {
        // Subnormal inputs and steps stay exact (no flush-to-zero): a tiny span still round-trips within bound.
        std::vector<float> values;
        for (int i = 0; i < 300; ++i)
            values.push_back(std::ldexp(float(i), -149)); // 0 .. 299 x the smallest subnormal
        checkRoundTrip<uint8_t>(values);
        checkRoundTrip<uint16_t>(values); // the step would underflow to 0; it is the smallest subnormal instead
        const ParamsResult p = computeParams<uint16_t>(values);
        QVERIFY(p.ok());
        QCOMPARE(p.params.scale, std::ldexp(1.0f, -149));
        std::vector<uint16_t> codes(values.size());
        QCOMPARE(quantize<uint16_t>(values, p.params, codes), ErrorCode::None);
        for (size_t i = 0; i < codes.size(); ++i)
            QCOMPARE(size_t(codes[i]), i);
    }
};

QTEST_GUILESS_MAIN(TestQuant)
#include "tst_quant.moc"
