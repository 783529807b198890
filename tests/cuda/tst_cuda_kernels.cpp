// engine/cuda against its CPU references, bit for bit: min-max quantization (uint8 / uint16: params, codes,
// de-quantize, de-quantize-accumulate) and TOPLOC chunk top-k + bf16 packing, on seeded random inputs of odd sizes
// with ties, subnormals, signed zeros, NaN and infinities. Without a GPU the comparisons skip (saying why) and only
// the no-device behaviour is checked: every call returns Code::NoDevice, nothing crashes.
#include "KernelChecks.h"

#include "cuda/CudaKernels.h"
#include "toploc/Proof.h"

#include <QTest>

using namespace cohort;

#define REQUIRE_GPU()                                                                                                  \
  do {                                                                                                                 \
    if (!cuda::cudaAvailable())                                                                                        \
      QSKIP(qPrintable(QStringLiteral("no CUDA device here (%1); GPU-vs-CPU comparison not run")                       \
                           .arg(QString::fromStdString(cuda::unavailableReason()))));                                  \
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
        QTest::addColumn<int>("index");
        const auto cases = kernelchecks::quantCases();
        for (size_t i = 0; i < cases.size(); ++i)
            QTest::newRow(cases[i].name().c_str()) << int(i);
    }
    void quantization()
    {
        REQUIRE_GPU();
        QFETCH(int, index);
        const std::string diff = kernelchecks::run(kernelchecks::quantCases()[size_t(index)]);
        QVERIFY2(diff.empty(), diff.c_str());
    }

    void chunkTopK_data()
    {
        REQUIRE_GPU();
        QTest::addColumn<int>("index");
        const auto cases = kernelchecks::topKCases();
        for (size_t i = 0; i < cases.size(); ++i)
            QTest::newRow(cases[i].name().c_str()) << int(i);
    }
    void chunkTopK()
    {
        REQUIRE_GPU();
        QFETCH(int, index);
        const std::string diff = kernelchecks::run(kernelchecks::topKCases()[size_t(index)]);
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
