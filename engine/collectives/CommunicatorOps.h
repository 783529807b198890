#pragma once
// Internal to the communicator: one all-reduce between allReduceAsync and awaitReduce, and the working memory of its
// ring exchange. The owner thread creates and collects an InFlight; its worker thread runs the exchange and touches
// nothing else but the operation's link pair.
#include "collectives/Communicator.h"
#include "collectives/StallJudge.h"
#include "platform/LargeBuffer.h"

#include <QElapsedTimer>

#include <atomic>
#include <chrono>
#include <thread>

namespace cohort::collectives {

struct Communicator::RingBuffers {
    // Whole-buffer sized ones are large buffers (platform/LargeBuffer.h): streamed through, so on huge pages.
    platform::LargeVector<float> backup; // the input, to restore an in-place buffer if the operation does not complete
    std::vector<ring::Range> saved;      // the parts of backup that hold a saved copy
    std::vector<float> scratch;          // one received f32 block
    // Codes of quantized operations, in uint16 storage (uint8 codes use its bytes).
    platform::LargeVector<uint16_t> codes;       // codes waiting to be passed on, by position: where slots has no room
    platform::LargeVector<uint16_t> slots;       // a few blocks of codes waiting to be passed on (stay in cache)
    std::vector<uint16_t> txCodes;               // one block of this peer's own codes being sent
    std::vector<uint16_t> rxCodes;               // one block of codes received and used at once
    std::vector<quant::QuantParams> blockParams; // all-gather headers, per block of the whole buffer
    std::vector<uint8_t> sealedTx, sealedRx;     // protected links: one sealed block (payload and tag) each way
};

struct Communicator::InFlight {
    uint64_t tag = 0;
    uint64_t opId = 0;
    uint64_t epoch = 0;
    uint16_t link = 0;
    ReduceOp op = ReduceOp::Sum;
    Quant quant = Quant::None;
    int worldSize = 0;
    int rank = 0;
    std::span<const float> input; // this peer's input: `data` itself in place, the caller's input otherwise
    std::span<float> data;        // what the ring reduces into
    std::unique_ptr<RingBuffers> buffers;
    TcpSocket *next = nullptr; // the link pair (owned by Communicator::m_links)
    TcpSocket *prev = nullptr;
    LinkCipher *txCipher = nullptr; // protected links: sealing for next, opening from prev (with the link pair)
    LinkCipher *rxCipher = nullptr;
    ReduceInfo info;
    QElapsedTimer phase;
    bool trivial = false;     // a ring of one: nothing to exchange, nothing to ask the master
    float normBound = 0;      // CommunicatorOptions::contributionNormBound when it began
    uint32_t predecessor = 0; // the ring predecessor's peer id (named when it sends out-of-bound values)

    // Between the threads.
    std::atomic<bool> abort{false};    // owner -> worker: stop (the master aborted it, the ring is changing)
    std::atomic<bool> finished{false}; // worker -> owner: `ring` and `doneSent` are final
    Status ring;
    // Why `ring` failed, for the master (worker-written before `finished`): what the predecessor sent broke the
    // bounds; this peer had waited on the predecessor's data / on the successor reading for half the I/O timeout.
    bool blamePredecessor = false;
    bool linkRewritten = false; // a sealed block failed its tag: said as such, nobody blamed
    bool starved = false;
    bool blocked = false;
    RingCursor received; // the next block it waited for when the ring stopped (written by runRing as it returns)
    // The worker's own bookkeeping for those: since when it waits on each link, and whether it is waiting on it.
    std::chrono::steady_clock::time_point rxSince{}, txSince{};
    bool rxWaiting = false, txWaiting = false;
    void noteStall(std::chrono::milliseconds stall)
    {
        const auto now = std::chrono::steady_clock::now();
        starved = rxWaiting && now - rxSince >= stall;
        blocked = txWaiting && now - txSince >= stall;
    }
    bool doneSent = false;
    std::thread worker;

    bool inPlace() const { return input.data() == data.data(); }
    void restore()
    {
        if (!buffers)
            return;
        for (const ring::Range &r : buffers->saved)
            std::copy_n(buffers->backup.begin() + std::ptrdiff_t(r.begin), r.count,
                        data.begin() + std::ptrdiff_t(r.begin));
        buffers->saved.clear();
    }
    void join()
    {
        if (worker.joinable())
            worker.join();
    }
};

} // namespace cohort::collectives
