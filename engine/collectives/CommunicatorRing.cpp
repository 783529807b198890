// Communicator, all-reduce: the pipelined ring exchange (reduce-scatter then all-gather), with optional min-max
// quantization of what goes over the wire.
#include "collectives/Communicator.h"

#include "collectives/CommunicatorFaults.h"
#include "collectives/CommunicatorOps.h"
#include "collectives/FastQuant.h"
#include "collectives/HalfFloat.h"
#include "collectives/Logging.h"
#include "collectives/Ring.h"
#include "collectives/ValueBounds.h"

#include <QElapsedTimer>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <thread>
#include <utility>

namespace cohort::collectives {

static_assert(std::endian::native == std::endian::little,
              "ring payloads are little-endian f32/uint16 sent straight from memory (Wire.h)");

namespace {

size_t codeBytes(Quant q)
{
    return q == Quant::U8 ? 1 : q == Quant::U16 ? 2 : 4;
}
uint32_t levelsOf(Quant q)
{
    return q == Quant::U8 ? quant::kLevels<uint8_t> : quant::kLevels<uint16_t>;
}

// Quantizes src into codes (uint8 or uint16 at `codes`), returning the header.
// `codes` points into uint16 storage (Communicator::m_codes): uint8 codes use its bytes, uint16 codes its elements.
// FastQuant gives engine/quant's results bit for bit, vectorized.
quant::ParamsResult quantizeInto(Quant q, std::span<const float> src, uint8_t *codes)
{
    if (q == Quant::U8) {
        const auto params = fastquant::computeParams<uint8_t>(src);
        if (params)
            fastquant::quantize<uint8_t>(src, params.params, codes);
        return params;
    }
    const auto params = fastquant::computeParams<uint16_t>(src);
    if (params)
        fastquant::quantize<uint16_t>(src, params.params, reinterpret_cast<uint16_t *>(codes));
    return params;
}

// out[i] = in[i] + decoded code (in may be out): a received quantized chunk reduced into this peer's values, with
// the range of the sums tracked on the way (so sending them on needs no separate min/max pass).
void addDecodedTracked(Quant q, const uint8_t *codes, const quant::QuantParams &params, const float *in,
                       std::span<float> out, fastquant::RangeKeys &range)
{
    if (q == Quant::U8)
        fastquant::dequantizeAddTracked<uint8_t>(codes, params, in, out, range);
    else
        fastquant::dequantizeAddTracked<uint16_t>(reinterpret_cast<const uint16_t *>(codes), params, in, out, range);
}

// quantizeInto for values whose range was tracked while they were summed.
quant::ParamsResult quantizeTracked(Quant q, std::span<const float> src, const fastquant::RangeKeys &range,
                                    uint8_t *codes)
{
    if (q == Quant::U8) {
        const auto params = fastquant::paramsOf<uint8_t>(range);
        if (params)
            fastquant::quantize<uint8_t>(src, params.params, codes);
        return params;
    }
    const auto params = fastquant::paramsOf<uint16_t>(range);
    if (params)
        fastquant::quantize<uint16_t>(src, params.params, reinterpret_cast<uint16_t *>(codes));
    return params;
}

// Params come from decodeParams (validated) or from quantizeInto. `streaming`: the destination is much larger than
// the caches (write around them).
void decodeInto(Quant q, const uint8_t *codes, const quant::QuantParams &params, std::span<float> dst, bool streaming)
{
    if (q == Quant::U8) {
        if (streaming)
            fastquant::dequantizeStreaming<uint8_t>(codes, params, dst);
        else
            fastquant::dequantize<uint8_t>(codes, params, dst);
        return;
    }
    const auto *codes16 = reinterpret_cast<const uint16_t *>(codes);
    if (streaming)
        fastquant::dequantizeStreaming<uint16_t>(codes16, params, dst);
    else
        fastquant::dequantize<uint16_t>(codes16, params, dst);
}

constexpr int kNoSlot = -1;
constexpr size_t kNoBlock = SIZE_MAX;

// Outputs from this size on are written around the caches (a 32 MiB L3 is shared by every process of the machine).
constexpr size_t kStreamingBytes = 16u << 20;

} // namespace

Status Communicator::runRing(InFlight &op)
{
    // Runs on the operation's worker thread: only `op` (its buffers and link pair) and the options are touched.
    const uint64_t opId = op.opId;
    const Quant quant = op.quant;
    ReduceInfo *const info = &op.info;
    RingBuffers &buf = *op.buffers;
    TcpSocket &next = *op.next, &prev = *op.prev;
    const std::span<float> buffer = op.data;
    const std::span<const float> input = op.input;
    const int n = op.worldSize, rank = op.rank, T = ring::steps(n);
    const size_t total = buffer.size(), B = m_options.blockElements;
    const bool quantized = quant != Quant::None;
    const size_t elemBytes = codeBytes(quant);
    const size_t subHeader = kBlockHeaderBytes + (quantized ? quant::kParamsWireBytes : 0);
    // A protected link (LinkCipher.h): each block's payload goes sealed with a tag after it, and a received one is
    // used only once its tag is checked, so it is not summed while it arrives.
    LinkCipher *const sealer = op.txCipher;
    LinkCipher *const opener = op.rxCipher;
    const bool sealed = sealer && opener;
    if (bool(sealer) != bool(opener))
        return fail(
            Code::Aborted,
            QStringLiteral("operation %1: one of this peer's ring links is protected, the other not").arg(opId));
    const size_t tagBytes = sealed ? kLinkTagBytes : 0;
    const bool streaming = total * sizeof(float) >= kStreamingBytes;
    const size_t slotCount = quantized ? m_options.codeSlotBytes / (B * elemBytes) : 0;

    std::vector<ring::Range> chunks(static_cast<size_t>(n));
    std::vector<size_t> blockBase(static_cast<size_t>(n) + 1, 0);
    for (int c = 0; c < n; ++c) {
        chunks[size_t(c)] = ring::chunk(total, n, c);
        blockBase[size_t(c) + 1] = blockBase[size_t(c)] + ring::blockCount(chunks[size_t(c)].count, B);
    }
    buf.scratch.resize(B);
    if (sealed) {
        buf.sealedTx.resize(B * sizeof(float) + kLinkTagBytes);
        buf.sealedRx.resize(B * sizeof(float) + kLinkTagBytes);
    }
    if (quantized) {
        // uint16 storage, a byte per value for uint8. Sized up front even though slots often leave it unused: growing
        // it at the first block that finds no slot put its page faults into that operation (tried: a slow operation
        // in every other bench run).
        buf.codes.resize(quant == Quant::U8 ? (total + 1) / 2 : total);
        buf.slots.resize(slotCount * B);
        buf.txCodes.resize(B);
        buf.rxCodes.resize(B);
        buf.blockParams.assign(blockBase.back(), quant::QuantParams{});
    }
    // Quantized: the range of the block being summed, tracked while summing.
    fastquant::RangeKeys rxKeys;
    // Codes live in uint16 storage; uint8 codes use its bytes.
    auto codeBytesAt = [&](std::span<uint16_t> store, size_t element) -> uint8_t * {
        return quant == Quant::U8 ? reinterpret_cast<uint8_t *>(store.data()) + element
                                  : reinterpret_cast<uint8_t *>(store.data() + element);
    };
    // Codes that wait between arriving (summed and quantized, or as received in the all-gather) and being passed on
    // to the successor live in one of slotCount block slots, which stay in cache, or, when the successor lags
    // so far behind that every slot is taken, at the block's own place in the whole-buffer store. Never a wait:
    // holding the receive back for a slot could close a cycle of waits round the ring, and where each peer has a
    // core of its own it only delays the ring (tried: 2-process uint8 10 % slower). The slot freed last (the
    // warmest) is taken first. With every block in the store, each block's codes came from memory: 4-process uint8
    // all-reduce ~6 % faster with slots (A/B of 45 operations each).
    std::vector<int> codeHome(blockBase.back(), kNoSlot);
    std::vector<int> freeSlots;
    for (int slot = int(slotCount) - 1; slot >= 0; --slot)
        freeSlots.push_back(slot);
    size_t codesOutOfSlots = 0;
    auto storedCodes = [&](size_t index, const ring::Range &range) -> uint8_t * {
        return codeHome[index] == kNoSlot ? codeBytesAt(buf.codes, range.begin)
                                          : codeBytesAt(buf.slots, size_t(codeHome[index]) * B);
    };
    auto storeCodes = [&](size_t index, const ring::Range &range) -> uint8_t * {
        if (freeSlots.empty()) {
            ++codesOutOfSlots;
            codeHome[index] = kNoSlot;
        } else {
            codeHome[index] = freeSlots.back();
            freeSlots.pop_back();
        }
        return storedCodes(index, range);
    };
    auto releaseCodes = [&](size_t index) {
        if (codeHome[index] != kNoSlot)
            freeSlots.push_back(std::exchange(codeHome[index], kNoSlot));
    };
    std::vector<uint8_t> saved(blockBase.back(), 0);
    const bool inPlace = op.inPlace();
    auto protect = [&](int c, size_t b, const ring::Range &range) {
        uint8_t &flag = saved[blockBase[size_t(c)] + b];
        if (flag || !inPlace)
            return;
        flag = 1;
        std::copy_n(buffer.begin() + std::ptrdiff_t(range.begin), range.count,
                    buf.backup.begin() + std::ptrdiff_t(range.begin));
        buf.saved.push_back(range);
    };
    auto blocksAt = [&](int step, bool sending) {
        const int c = sending ? ring::sendChunk(rank, n, step) : ring::recvChunk(rank, n, step);
        return ring::blockCount(chunks[size_t(c)].count, B);
    };
    struct Cursor {
        int step = 0;
        size_t block = 0;
    };
    auto normalize = [&](Cursor &c, bool sending) {
        while (c.step < T && c.block >= blocksAt(c.step, sending)) {
            ++c.step;
            c.block = 0;
        }
    };
    Cursor tx, rx;
    normalize(tx, true);
    normalize(rx, false);
    // Whichever way the ring ends, the master learns how far this peer received (StallJudge.h).
    struct ReportReceived {
        InFlight &op;
        const Cursor &rx;
        bool framing;
        ~ReportReceived() { op.received = framing ? RingCursor{} : RingCursor{uint32_t(rx.step), uint32_t(rx.block)}; }
    } reportReceived{op, rx, faults().frameStall};
    auto txReady = [&] {
        // The test's framing staller passes on nothing it received (only its own step-0 input).
        if (faults().frameStall && tx.step > 0)
            return false;
        return tx.step < T &&
               (tx.step == 0 || rx.step > tx.step - 1 || (rx.step == tx.step - 1 && rx.block > tx.block));
    };

    // The frame being sent: header bytes, then a payload straight from memory.
    std::array<uint8_t, kFrameHeaderBytes + kBlockHeaderBytes + quant::kParamsWireBytes> txHeader{};
    size_t txHeaderLen = 0, txHeaderSent = 0, txPayloadLen = 0, txPayloadSent = 0;
    const uint8_t *txPayload = nullptr;
    bool txActive = false;
    size_t txCodeIndex = kNoBlock; // the block whose stored codes are being sent

    auto prepareTx = [&]() -> Status {
        const int c = ring::sendChunk(rank, n, tx.step);
        const ring::Range range = ring::block(chunks[size_t(c)], B, tx.block);
        // Step 0 sends this peer's own input; later steps send what arrived (and was reduced) at the step before.
        const float *source = tx.step == 0 ? input.data() + range.begin : buffer.data() + range.begin;
        quant::QuantParams params;
        txCodeIndex = kNoBlock;
        if (!quantized) {
            txPayload = reinterpret_cast<const uint8_t *>(source);
        } else if (tx.step == 0) {
            const auto p = quantizeInto(quant, {source, range.count}, codeBytesAt(buf.txCodes, 0));
            if (!p)
                return fail(Code::InvalidArgument,
                            QStringLiteral("cannot quantize: %1").arg(QString::fromLatin1(quant::describe(p.code))));
            params = p.params;
            if (faults().tamperParams)
                faults().tamperParams(params);
            txPayload = codeBytesAt(buf.txCodes, 0);
        } else {
            // Every later step sends codes made when the block arrived (finishRx): partial sums, the owner's final
            // codes, or all-gather codes passed on untouched.
            txCodeIndex = blockBase[size_t(c)] + tx.block;
            params = buf.blockParams[txCodeIndex];
            txPayload = storedCodes(txCodeIndex, range);
        }
        txPayloadLen = range.count * elemBytes;
        const auto frameHeader = encodeHeader(Type::Block, subHeader + txPayloadLen + tagBytes);
        std::memcpy(txHeader.data(), frameHeader.data(), frameHeader.size());
        uint8_t *h = txHeader.data() + kFrameHeaderBytes;
        putU64(h, opId);
        putU16(h + 8, uint16_t(tx.step));
        putU32(h + 10, uint32_t(tx.block));
        if (quantized) {
            const auto wire = quant::encodeParams(params);
            std::memcpy(h + kBlockHeaderBytes, wire.data(), wire.size());
        }
        txHeaderLen = kFrameHeaderBytes + subHeader;
        txHeaderSent = txPayloadSent = 0;
        if (sealed) {
            // The frame header and the block's fields are authenticated with the payload: nothing of it can change.
            sealer->seal(buf.sealedTx.data(), txPayload, txPayloadLen, txHeader.data(), txHeaderLen);
            if (faults().rewriteSealed)
                buf.sealedTx[txPayloadLen / 2] ^= 0x01;
            txPayload = buf.sealedTx.data();
            txPayloadLen += kLinkTagBytes;
        }
        txActive = true;
        return Status::success();
    };

    // The frame being received.
    std::array<uint8_t, kFrameHeaderBytes + kBlockHeaderBytes + quant::kParamsWireBytes> rxHeader{};
    const size_t rxHeaderLen = kFrameHeaderBytes + subHeader;
    size_t rxHeaderGot = 0, rxPayloadLen = 0, rxPayloadGot = 0;
    size_t rxConsumed = 0; // values of the block already added / decoded
    uint8_t *rxDst = nullptr;
    uint8_t *rxInto = nullptr; // where the payload is received: rxDst, or the sealed block's buffer
    quant::QuantParams rxParams;
    ring::Range rxRange;

    auto startRx = [&] {
        const int c = ring::recvChunk(rank, n, rx.step);
        rxRange = ring::block(chunks[size_t(c)], B, rx.block);
        rxPayloadLen = rxRange.count * elemBytes + tagBytes;
        rxHeaderGot = rxPayloadGot = rxConsumed = 0;
        rxKeys = fastquant::RangeKeys{};
        protect(c, rx.block, rxRange);
        const bool reduce = ring::isReduceStep(n, rx.step);
        if (!quantized)
            rxDst = reduce ? reinterpret_cast<uint8_t *>(buf.scratch.data())
                           : reinterpret_cast<uint8_t *>(buffer.data() + rxRange.begin);
        else if (reduce || rx.step == T - 1) // summed at once / the last all-gather block: not passed on
            rxDst = codeBytesAt(buf.rxCodes, 0);
        else
            rxDst = storeCodes(blockBase[size_t(c)] + rx.block, rxRange);
        rxInto = sealed ? buf.sealedRx.data() : rxDst;
    };
    // What the predecessor sent breaks the bounds: name it (Done's blame) and stop.
    auto blame = [&](const QString &what) {
        op.blamePredecessor = true;
        return fail(Code::Aborted, QStringLiteral("ring predecessor (peer %1) sent %2 in operation %3 step %4 block %5")
                                       .arg(op.predecessor)
                                       .arg(what)
                                       .arg(opId)
                                       .arg(rx.step)
                                       .arg(rx.block));
    };
    if (faults().blameAlways)
        return blame(QStringLiteral("nothing wrong (a test's liar)"));
    if (faults().stallRing) { // the test's staller: holds its links, moves nothing, until aborted
        while (!op.abort.load() && !cancelled())
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        return fail(Code::Aborted, QStringLiteral("operation %1 aborted by the master").arg(opId));
    }
    op.rxSince = op.txSince = std::chrono::steady_clock::now();
    // The squares of the values of the chunk arriving at this step (ValueBounds.h's norm check).
    double rxChunkSquares = 0;
    auto checkRxHeader = [&]() -> Status {
        const auto header = parseHeader(Channel::Ring, rxHeader.data());
        const uint8_t *h = rxHeader.data() + kFrameHeaderBytes;
        if (!header || header->type != uint16_t(Type::Block) || header->payloadBytes != subHeader + rxPayloadLen ||
            getU64(h) != opId || getU16(h + 8) != uint16_t(rx.step) || getU32(h + 10) != uint32_t(rx.block))
            return blame(QStringLiteral("a frame this operation has no place for")); // members frame alike (Begin)
        if (quantized) {
            const auto p = quant::decodeParams(
                std::span<const uint8_t, quant::kParamsWireBytes>(h + kBlockHeaderBytes, quant::kParamsWireBytes),
                levelsOf(quant));
            if (!p)
                return blame(QStringLiteral("a malformed quantization header"));
            // Decoded values lie in [min, max]: both ends within what the sum of its contributions allows.
            const double limit = faults().unchecked
                                     ? std::numeric_limits<double>::infinity()
                                     : valueLimit(op.normBound, ring::isReduceStep(n, rx.step) ? rx.step + 1 : n);
            const double lo = double(p.params.min), hi = lo + double(p.params.scale) * double(levelsOf(quant));
            if (!(std::fabs(lo) <= limit && std::fabs(hi) <= limit))
                return blame(QStringLiteral("a quantization header spanning [%1, %2], beyond the bound %3")
                                 .arg(lo)
                                 .arg(hi)
                                 .arg(limit));
            rxParams = p.params;
        }
        return Status::success();
    };
    // Adds (reduce-scatter) or decodes (quantized all-gather) the values that have fully arrived, while the block is
    // still coming in: the bytes are hot in cache right after the kernel copied them.
    auto consumeRx = [&] {
        const size_t ready = rxPayloadGot / elemBytes;
        if (ready <= rxConsumed)
            return;
        const bool reduce = ring::isReduceStep(n, rx.step);
        // Quantized sums go to the block scratch (they are quantized when the block is complete and never need the
        // caller's buffer: a chunk passing through is overwritten by the all-gather anyway). Keeping them in one
        // cache-sized block instead of the whole buffer saves two trips to memory per value and hop.
        float *dst = (quantized && reduce ? buf.scratch.data() : buffer.data() + rxRange.begin) + rxConsumed;
        // Each chunk arrives once in the reduce-scatter: it adds to this peer's input (the same memory in place).
        const float *own = input.data() + rxRange.begin + rxConsumed;
        const size_t count = ready - rxConsumed;
        if (!quantized) {
            if (reduce)
                fastquant::addStreamed(own, buf.scratch.data() + rxConsumed, dst, count);
        } else if (reduce) {
            addDecodedTracked(quant, rxDst + rxConsumed * elemBytes, rxParams, own, {dst, count}, rxKeys);
        } else {
            decodeInto(quant, rxDst + rxConsumed * elemBytes, rxParams, {dst, count}, streaming);
        }
        rxConsumed = ready;
    };
    auto finishRx = [&]() -> Status {
        if (sealed) {
            // Not the predecessor's doing, necessarily: whatever lies between the two rewrote it, or the bytes are
            // not the predecessor's. The operation stops and the link is made afresh; nobody is named.
            const size_t plain = rxPayloadLen - kLinkTagBytes;
            if (!opener->open(rxDst, buf.sealedRx.data(), plain, rxHeader.data(), rxHeaderLen)) {
                op.linkRewritten = true;
                qCWarning(lcCollectives) << "a sealed block from ring predecessor" << op.predecessor
                                         << "fails its tag in operation" << opId
                                         << ": the link was rewritten on the way";
                return fail(Code::Aborted,
                            QStringLiteral("a block from the ring predecessor (peer %1) fails its authentication "
                                           "in operation %2 step %3 block %4: the link was rewritten on the way")
                                .arg(op.predecessor)
                                .arg(opId)
                                .arg(rx.step)
                                .arg(rx.block));
            }
            rxPayloadGot = plain; // consumeRx takes the values that are there
        }
        consumeRx();
        const int c = ring::recvChunk(rank, n, rx.step);
        const size_t index = blockBase[size_t(c)] + rx.block;
        if (!faults().unchecked) {
            // Checked while hot: f32, the values received (a reduce-scatter block is still in the scratch); quantized,
            // the sum they made with this peer's own values (the header check bounded the received ones already) or
            // the final values of the all-gather. This peer's own input was checked before it began, so whatever
            // breaks a bound came from the predecessor.
            const bool reduce = ring::isReduceStep(n, rx.step);
            const int contributions = !reduce ? n : quantized ? rx.step + 2 : rx.step + 1;
            const float *values = reduce ? buf.scratch.data() : buffer.data() + rxRange.begin;
            const double limit = valueLimit(op.normBound, contributions);
            // A quantized all-gather block decodes into [min, max], which its header check bounded already; its
            // values went to the output around the caches (streaming), so a scan would read them back from memory.
            const bool bounded = quantized && !reduce;
            const ScanResult scan = bounded ? ScanResult{} : scanValues(values, rxRange.count, limit);
            if (!scan.withinLimit)
                return blame(QStringLiteral("values that are not finite or beyond the bound %1").arg(limit));
            if (rx.block == 0)
                rxChunkSquares = 0;
            rxChunkSquares += scan.sumSquares;
            if (!bounded && rx.block + 1 == blocksAt(rx.step, false) && !(std::sqrt(rxChunkSquares) <= limit))
                return blame(QStringLiteral("a chunk of norm %1, beyond the bound %2")
                                 .arg(std::sqrt(rxChunkSquares))
                                 .arg(limit));
        }
        if (quantized && !ring::isReduceStep(n, rx.step)) {
            buf.blockParams[index] = rxParams;
        } else if (quantized) {
            // The summed block, quantized now (its range was tracked while summing) into the codes the next step
            // sends. The codes of a chunk passing through are only overwritten by its all-gather codes, which
            // cannot arrive before this peer's sum of that block went round to the owner. The owner (last
            // reduce-scatter step) quantizes its chunk once and keeps the de-quantized copy, as every receiver will.
            uint8_t *at = storeCodes(index, rxRange);
            const auto p = quantizeTracked(quant, {buf.scratch.data(), rxRange.count}, rxKeys, at);
            if (!p)
                return fail(Code::InvalidArgument,
                            QStringLiteral("cannot quantize: %1").arg(QString::fromLatin1(quant::describe(p.code))));
            buf.blockParams[index] = p.params;
            if (rx.step == n - 2)
                decodeInto(quant, at, p.params, {buffer.data() + rxRange.begin, rxRange.count}, streaming);
        }
        ++rx.block;
        normalize(rx, false);
        if (rx.step < T)
            startRx();
        return Status::success();
    };

    if (rx.step < T)
        startRx();
    QDeadlineTimer idle(m_options.ioTimeoutMs);
    int sinceAbortCheck = 0;
    qint64 polls = 0, pollNs = 0;
    // The owner thread sets op.abort when the master aborted the operation or the ring is changing.
    auto abortRequested = [&]() -> Status {
        if (op.abort.load(std::memory_order_relaxed))
            return fail(Code::Aborted, QStringLiteral("operation %1 aborted by the master").arg(opId));
        if (cancelled())
            return fail(Code::Aborted, QStringLiteral("operation %1 cancelled").arg(opId));
        return Status::success();
    };

    RateLimiter *const limiter = m_options.uploadLimiter.get();
    bool txPaced = false; // the cap holds the next send back for paceWait
    std::chrono::nanoseconds paceWait{0};
    qint64 pacedPolls = 0;
    QElapsedTimer ringTime;
    ringTime.start();
    while (tx.step < T || rx.step < T || txActive) {
        bool progress = false;
        // Send.
        if (!txActive && txReady()) {
            if (Status r = prepareTx(); !r)
                return r;
        }
        txPaced = false;
        while (txActive) {
            const bool inHeader = txHeaderSent < txHeaderLen;
            const uint8_t *at = inHeader ? txHeader.data() + txHeaderSent : txPayload + txPayloadSent;
            size_t allowed = inHeader ? txHeaderLen - txHeaderSent : txPayloadLen - txPayloadSent;
            // The upload cap: send what the bucket grants. With nothing granted, wait for it in the poll below rather
            // than in the bucket, so this peer keeps receiving (its predecessor must not stall on it) and keeps
            // listening for the master's abort.
            if (limiter) {
                allowed = size_t(limiter->tryAcquire(int64_t(allowed), &paceWait));
                if (allowed == 0) {
                    if (cancelled())
                        return fail(Code::Aborted, QStringLiteral("cancelled while the upload cap held back the ring"));
                    txPaced = true;
                    break;
                }
            }
            const IoResult io = next.send(at, allowed);
            if (limiter && io.bytes < allowed)
                limiter->release(int64_t(allowed - io.bytes)); // granted, but the socket did not take it
            (inHeader ? txHeaderSent : txPayloadSent) += io.bytes;
            info->txBytes += io.bytes;
            if (io.bytes > 0) {
                progress = true;
                op.txSince = std::chrono::steady_clock::now();
            }
            if (io.closed)
                return fail(Code::Aborted, QStringLiteral("ring successor closed the link%1")
                                               .arg(io.error.isEmpty() ? QString() : QStringLiteral(": ") + io.error));
            if (txHeaderSent == txHeaderLen && txPayloadSent == txPayloadLen) {
                txActive = false;
                if (txCodeIndex != kNoBlock)
                    releaseCodes(txCodeIndex);
                ++tx.block;
                normalize(tx, true);
                if (txReady()) {
                    if (Status r = prepareTx(); !r)
                        return r;
                }
                continue;
            }
            if (io.wouldBlock)
                break;
        }
        // Receive.
        while (rx.step < T) {
            IoResult io;
            if (rxHeaderGot < rxHeaderLen) {
                io = prev.recv(rxHeader.data() + rxHeaderGot, rxHeaderLen - rxHeaderGot);
                rxHeaderGot += io.bytes;
                if (rxHeaderGot == rxHeaderLen) {
                    if (Status r = checkRxHeader(); !r)
                        return r;
                }
            } else {
                io = prev.recv(rxInto + rxPayloadGot, rxPayloadLen - rxPayloadGot);
                rxPayloadGot += io.bytes;
                if (io.bytes > 0 && rxPayloadGot < rxPayloadLen && !sealed)
                    consumeRx();
            }
            info->rxBytes += io.bytes;
            if (io.bytes > 0) {
                progress = true;
                op.rxSince = std::chrono::steady_clock::now();
            }
            if (rxHeaderGot == rxHeaderLen && rxPayloadGot == rxPayloadLen) {
                if (Status r = finishRx(); !r)
                    return r;
                // A new block came in: the sender may be able to go on.
                if (!txActive && txReady())
                    break;
                continue;
            }
            if (io.closed)
                return fail(Code::Aborted, QStringLiteral("ring predecessor closed the link%1")
                                               .arg(io.error.isEmpty() ? QString() : QStringLiteral(": ") + io.error));
            if (io.wouldBlock)
                break;
        }
        if (progress) {
            idle = QDeadlineTimer(m_options.ioTimeoutMs);
            if (++sinceAbortCheck >= 64) {
                sinceAbortCheck = 0;
                if (Status r = abortRequested(); !r)
                    return r;
            }
            continue;
        }
        if (!txActive && txReady())
            continue;
        // Nothing moved: wait for the links, looking at the abort flag at least every 50 ms.
        if (Status r = abortRequested(); !r)
            return r;
        if (idle.hasExpired())
            return fail(Code::Timeout,
                        QStringLiteral("no progress on the ring links for %1 ms").arg(m_options.ioTimeoutMs));
        // The successor never sends on this link: `next` turning readable means it closed (or broke the protocol),
        // which ends the operation at once instead of after a timeout.
        PollEntry entries[2] = {{prev.native(), rx.step < T, false}, {next.native(), true, txActive && !txPaced}};
        // What it waits on now: data from the predecessor (since the last that came), the successor taking what is
        // ready to go (since the last it took, or since there was something to send).
        const bool txWaits = txActive && !txPaced;
        if (txWaits && !op.txWaiting)
            op.txSince = std::max(op.txSince, std::chrono::steady_clock::now());
        op.rxWaiting = rx.step < T;
        op.txWaiting = txWaits;
        int waitMs = int(std::clamp<qint64>(idle.remainingTime(), 0, 50));
        if (txPaced) { // until the bucket holds the next piece (at least 1 ms: a 0 ms poll would spin)
            waitMs = std::min(waitMs, int(std::clamp<int64_t>((paceWait.count() + 999'999) / 1'000'000, 1, 1000)));
            ++pacedPolls;
        }
        QElapsedTimer waited;
        waited.start();
        pollSockets(entries, waitMs);
        ++polls;
        pollNs += waited.nsecsElapsed();
        if (entries[1].readable) {
            uint8_t byte = 0;
            const IoResult io = next.recv(&byte, 1);
            if (io.closed)
                return fail(Code::Aborted, QStringLiteral("ring successor closed the link%1")
                                               .arg(io.error.isEmpty() ? QString() : QStringLiteral(": ") + io.error));
            if (io.bytes > 0)
                return fail(Code::Aborted, QStringLiteral("ring successor sent data on a one-way link"));
        }
    }
    qCDebug(lcCollectives) << "ring op" << opId << "rank" << rank << "of" << n << double(ringTime.nsecsElapsed()) / 1e6
                           << "ms," << polls << "polls waiting" << double(pollNs) / 1e6 << "ms," << pacedPolls
                           << "of them for the upload cap," << codesOutOfSlots << "blocks of codes stored out of slots";
    return Status::success();
}

} // namespace cohort::collectives
