// Quantized all-reduce keeps the codes a peer passes on in a few cache-resident slots and, when its successor lags
// further behind, in a whole-buffer store (CommunicatorOptions::codeSlotBytes). Where they wait must not change a
// bit: rings with the default room, one block's room and none (every block in the store) reduce the same inputs,
// rank for rank, to identical results. Peers are threads of this process talking TCP over 127.0.0.1.
#include "CollectiveInputs.h"
#include "MasterInThread.h"
#include "RingInProcess.h"
#include "collectives/Communicator.h"
#include "net/Ed25519.h"

#include <QTest>

#include <cstring>
#include <vector>

using namespace cohort;
using namespace cohort::collectives;
using cohort::test::bitIdentical;

namespace {

constexpr size_t kBlock = 4096;

struct RingRun {
    QString error;
    std::vector<std::vector<float>> outputs; // by rank
};

// One ring of `peers` with `codeSlotBytes` each; rank r reduces collectiveInput(r + 1), in place or not.
RingRun reduceOnce(int peers, size_t codeSlotBytes, Quant quant, bool inPlace, size_t count)
{
    test::MasterInThread master;
    RingRun run;
    run.outputs.resize(size_t(peers));
    std::vector<QString> errors(static_cast<size_t>(peers));
    test::onPeers(peers, [&](int p) {
        CommunicatorOptions options;
        options.masterPort = master.port;
        options.secretKey = ed25519::generate().secretKey;
        options.bindAddress = QHostAddress(QHostAddress::LocalHost);
        options.blockElements = kBlock; // many blocks: slots fill up and free again
        options.codeSlotBytes = codeSlotBytes;
        Communicator comm(options);
        if (cohort::Status r = test::joinRing(comm, peers); !r) {
            errors[size_t(p)] = r.error();
            return;
        }
        const int rank = comm.rank();
        const std::vector<float> input = test::collectiveInput(uint64_t(rank + 1), 0, count, false);
        std::vector<float> output = inPlace ? input : std::vector<float>(count, -1.0f);
        const cohort::Status r = inPlace ? comm.allReduce(output, ReduceOp::Sum, quant, 1)
                                         : comm.allReduce(input, output, ReduceOp::Sum, quant, 1);
        if (!r)
            errors[size_t(p)] = r.error();
        else
            run.outputs[size_t(rank)] = std::move(output);
    });
    for (const QString &e : errors)
        if (run.error.isEmpty() && !e.isEmpty())
            run.error = e;
    return run;
}

} // namespace

class TestCollectivesCodes : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void whereCodesWaitChangesNoBit_data()
    {
        QTest::addColumn<int>("quant");
        QTest::addColumn<bool>("inPlace");
        QTest::newRow("uint8, out of place") << int(Quant::U8) << false;
        QTest::newRow("uint16, in place") << int(Quant::U16) << true;
    }

    void whereCodesWaitChangesNoBit()
    {
        QFETCH(int, quant);
        QFETCH(bool, inPlace);
        constexpr int kPeers = 4;
        constexpr size_t kCount = 100'003; // 7 blocks per chunk, the last one short; 35 stored per peer
        const RingRun slotted = reduceOnce(kPeers, CommunicatorOptions{}.codeSlotBytes, Quant(quant), inPlace, kCount);
        QVERIFY2(slotted.error.isEmpty(), qPrintable(slotted.error));
        for (int rank = 1; rank < kPeers; ++rank)
            QVERIFY(bitIdentical(slotted.outputs[size_t(rank)], slotted.outputs[0]));
        const std::vector<float> input = test::collectiveInput(1, 0, kCount, false);
        QVERIFY(!bitIdentical(slotted.outputs[0], input)); // it did reduce
        const size_t oneBlock = kBlock * (Quant(quant) == Quant::U8 ? 1 : 2);
        for (const size_t bytes : {oneBlock, size_t(0)}) {
            const RingRun other = reduceOnce(kPeers, bytes, Quant(quant), inPlace, kCount);
            QVERIFY2(other.error.isEmpty(), qPrintable(other.error));
            for (int rank = 0; rank < kPeers; ++rank)
                QVERIFY2(bitIdentical(other.outputs[size_t(rank)], slotted.outputs[0]),
                         qPrintable(QStringLiteral("%1 bytes of slots, rank %2").arg(bytes).arg(rank)));
        }
    }
};

QTEST_GUILESS_MAIN(TestCollectivesCodes)
#include "tst_collectives_codes.moc"
