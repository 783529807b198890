// engine/cuda against its CPU references, bit for bit: min-max quantization (uint8 / uint16: params, codes,
// de-quantize, de-quantize-accumulate) and TOPLOC chunk top-k + bf16 packing, on seeded random inputs of odd sizes
// with ties, subnormals, signed zeros, NaN and infinities. Without a GPU the comparisons skip (saying why) and only
// the no-device behaviour is checked: every call returns Code::NoDevice, nothing crashes.
#include "KernelChecks.h"

#include "cuda/CudaKernels.h"
#include "toploc/Proof.h"

#include <QTest>

using namespace cohort;
using kernelchecks::Pattern;

#define REQUIRE_GPU()                                                                                                 \
    do {                                                                                                              \
        if (!cuda::cudaAvailable())                                                                                   \
            QSKIP(qPrintable(QStringLiteral("no CUDA device here (%1); GPU-vs-CPU comparison not run")               \
                                 .arg(QString::fromStdString(cuda::unavailableReason()))));                           \
    } while (false)

class TestCudaKernels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (cuda::cudaAvailable()) {
            for (const cuda::DeviceInfo &d : cuda::devices())
                qInfo("CUDA device %d: %s, compute capability %d.%d, %d SMs, %zu MiB", d.index, d.name.c_str(), d.major,
                      d.minor, d.multiprocessors, d.totalBytes >> 20);
        } else {
            qInfo("no CUDA device: %s", cuda::unavailableReason().c_str());
        }
    }

    void noDeviceIsAnErrorValue()
    {
        if (cuda::cudaAvailable())
            QSKIP("a CUDA device is present; the no-device path is checked on machines without one");
        const std::string failures = kernelchecks::noDeviceIsAnErrorValue();
        QVERIFY2(failures.empty(), failures.c_str());
    }

    void argumentErrorsAreValues()
    {
        REQUIRE_GPU();
        const std::string failures = kernelchecks::argumentErrorsAreValues();
        QVERIFY2(failures.empty(), failures.c_str());
    }

    void quantization_data()
    {
        REQUIRE_GPU(); // skips the whole function (one line instead of one per row)
        QTest::addColumn<qulonglong>("n");
        QTest::addColumn<int>("bits");
        QTest::addColumn<int>("pattern");
        const Pattern patterns[] = {Pattern::Gaussian, Pattern::Offset, Pattern::Ties, Pattern::Special,
                                    Pattern::NonFinite, Pattern::Constant};
        for (const qulonglong n : {1ull, 7ull, 1023ull, 4097ull, 65537ull, (1ull << 22) + 3})
            for (const int bits : {8, 16})
                for (const Pattern p : patterns)
                    QTest::addRow("n=%llu u%d %s", n, bits, kernelchecks::patternName(p)) << n << bits << int(p);
    }
    void quantization()
    {
        REQUIRE_GPU();
        QFETCH(qulonglong, n);
        QFETCH(int, bits);
        QFETCH(int, pattern);
        const std::string diff = kernelchecks::quantMatches(size_t(n), bits, Pattern(pattern), n * 131 + uint64_t(bits));
        QVERIFY2(diff.empty(), diff.c_str());
    }

    void chunkTopK_data()
    {
        REQUIRE_GPU();
        QTest::addColumn<qulonglong>("tokens");
        QTest::addColumn<qulonglong>("dim");
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("pattern");
        const Pattern patterns[] = {Pattern::Gaussian, Pattern::Ties, Pattern::Bf16Grid, Pattern::Special,
                                    Pattern::NonFinite, Pattern::Constant};
        // (tokens, dim): partial last chunks, chunks smaller than k, the reference width, a Llama-8B-like width.
        const std::pair<qulonglong, qulonglong> shapes[] = {{1, 1}, {3, 7}, {33, 5}, {32, 4}, {97, 256}, {64, 4096}, {45, 1023}};
        for (const auto &[tokens, dim] : shapes)
            for (const Pattern p : patterns)
                QTest::addRow("%llux%llu k=128 %s", tokens, dim, kernelchecks::patternName(p))
                    << tokens << dim << toploc::kTopK << int(p);
        QTest::addRow("k=1") << 70ull << 33ull << 1 << int(Pattern::Ties);
        QTest::addRow("k=1000") << 70ull << 33ull << 1000 << int(Pattern::Bf16Grid);
        QTest::addRow("k=1024") << 64ull << 64ull << 1024 << int(Pattern::Ties);
    }
    void chunkTopK()
    {
        REQUIRE_GPU();
        QFETCH(qulonglong, tokens);
        QFETCH(qulonglong, dim);
        QFETCH(int, k);
        QFETCH(int, pattern);
        const std::string diff = kernelchecks::topKMatches(size_t(tokens), size_t(dim), toploc::kChunkTokens, k,
                                                           Pattern(pattern), tokens * 7919 + dim);
        QVERIFY2(diff.empty(), diff.c_str());
    }

    void bf16Packing()
    {
        REQUIRE_GPU();
        for (const size_t n : {size_t(1), size_t(7), size_t(1023), size_t(1) << 20}) {
            const std::string diff = kernelchecks::bf16Matches(n, n);
            QVERIFY2(diff.empty(), diff.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestCudaKernels)
#include "tst_cuda_kernels.moc"
