// Communicator, all-reduce: the pipelined ring exchange (reduce-scatter then all-gather), with optional min-max
// quantization of what goes over the wire.
#include "collectives/Communicator.h"

#include "collectives/FastQuant.h"
#include "collectives/HalfFloat.h"
#include "collectives/Logging.h"
#include "collectives/Ring.h"

#include <QElapsedTimer>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

namespace cohort::collectives {

static_assert(std::endian::native == std::endian::little,
              "ring payloads are little-endian f32/uint16 sent straight from memory (Wire.h)");

namespace {

size_t codeBytes(Quant q) { return q == Quant::U8 ? 1 : q == Quant::U16 ? 2 : 4; }
uint32_t levelsOf(Quant q) { return q == Quant::U8 ? quant::kLevels<uint8_t> : quant::kLevels<uint16_t>; }

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

// Params come from decodeParams (validated) or from quantizeInto.
void decodeInto(Quant q, const uint8_t *codes, const quant::QuantParams &params, std::span<float> dst, bool accumulate)
{
    if (q == Quant::U8) {
        if (accumulate)
            fastquant::dequantizeAccumulate<uint8_t>(codes, params, dst);
        else
            fastquant::dequantize<uint8_t>(codes, params, dst);
        return;
    }
    const auto *codes16 = reinterpret_cast<const uint16_t *>(codes);
    if (accumulate)
        fastquant::dequantizeAccumulate<uint16_t>(codes16, params, dst);
    else
        fastquant::dequantize<uint16_t>(codes16, params, dst);
}

} // namespace

// ---- all-reduce --------------------------------------------------------------------------------------------------

Result Communicator::allReduce(std::span<float> data, ReduceOp op, Quant quant, uint64_t tag, ReduceInfo *info)
{
    return reduceF32(data, data, op, quant, DataType::F32, tag, info);
}

Result Communicator::allReduce(std::span<const float> input, std::span<float> output, ReduceOp op, Quant quant,
                               uint64_t tag, ReduceInfo *info)
{
    if (input.size() != output.size())
        return fail(Code::InvalidArgument, QStringLiteral("input and output sizes differ"));
    if (input.data() != output.data() && input.data() < output.data() + output.size() &&
        output.data() < input.data() + input.size())
        return fail(Code::InvalidArgument, QStringLiteral("input and output overlap"));
    return reduceF32(input, output, op, quant, DataType::F32, tag, info);
}

Result Communicator::allReduce(std::span<uint16_t> data, DataType dtype, ReduceOp op, Quant quant, uint64_t tag,
                               ReduceInfo *info)
{
    if (dtype != DataType::BF16 && dtype != DataType::F16)
        return fail(Code::InvalidArgument, QStringLiteral("16-bit all-reduce needs bf16 or f16"));
    std::vector<float> widened(data.size());
    if (dtype == DataType::BF16)
        bf16ToFloat(data, widened);
    else
        f16ToFloat(data, widened);
    const Result r = reduceF32(widened, widened, op, quant, dtype, tag, info);
    if (r) {
        if (dtype == DataType::BF16)
            floatToBf16(widened, data);
        else
            floatToF16(widened, data);
    }
    return r;
}

Result Communicator::reduceF32(std::span<const float> input, std::span<float> data, ReduceOp op, Quant quant,
                               DataType dtype, uint64_t tag, ReduceInfo *info)
{
    const bool inPlace = input.data() == data.data();
    ReduceInfo local;
    if (!info)
        info = &local;
    *info = ReduceInfo{};
    if (!m_master.valid())
        return fail(Code::NotConnected, QStringLiteral("not connected"));
    purgeInbox();
    if (Result r = ensureRing(); !r)
        return r;
    info->worldSize = worldSize();
    if (worldSize() <= 1) { // the sum (and mean) of one
        if (!inPlace)
            std::copy(input.begin(), input.end(), data.begin());
        return Result::success();
    }

    QElapsedTimer phase;
    phase.start();
    if (Result r = sendToMaster(encode(BeginMsg{tag, uint64_t(data.size()), op, dtype, quant})); !r)
        return r;
    std::optional<Frame> reply;
    Result r = waitFor(
        [&] {
            reply = take(Type::Commence, [tag](const Frame &f) { return parseCommence(f.payload)->tag == tag; });
            if (!reply)
                reply = take(Type::Outcome, [tag](const Frame &f) { return parseOutcome(f.payload)->tag == tag; });
            return reply.has_value();
        },
        QDeadlineTimer(m_options.beginTimeoutMs), "the other peers to begin");
    if (!r) {
        if (r.code == Code::Timeout) // withdraw, so the master does not start the operation without us
            (void)sendToMaster(encode(DoneMsg{tag, 0, true}));
        return r;
    }
    if (reply->type == Type::Outcome)
        return fail(Code::Aborted, QStringLiteral("operation refused: %1").arg(parseOutcome(reply->payload)->reason));
    const CommenceMsg commence = *parseCommence(reply->payload);
    info->opId = commence.opId;
    info->beginMs = double(phase.nsecsElapsed()) / 1e6;
    phase.restart();

    // In place, the ring reduces in the caller's buffer; each block is copied aside right before it is first changed,
    // so the buffer can be restored if the operation does not complete everywhere. Out of place, the input is only
    // read and nothing needs saving.
    if (inPlace)
        m_backup.resize(data.size());
    m_saved.clear();
    m_buffer = data;
    m_input = input;
    const auto restore = [&] {
        for (const ring::Range &r : m_saved)
            std::copy_n(m_backup.begin() + std::ptrdiff_t(r.begin), r.count, data.begin() + std::ptrdiff_t(r.begin));
        m_saved.clear();
    };
    Result ring = commence.epoch == m_epoch
                      ? runRing(commence.opId, tag, quant, info)
                      : fail(Code::Aborted, QStringLiteral("operation began on ring epoch %1, this peer is on %2")
                                                .arg(commence.epoch)
                                                .arg(m_epoch));
    const auto sameOp = [&](const Frame &f) {
        const auto o = parseOutcome(f.payload);
        return o->tag == tag && o->opId == commence.opId;
    };
    info->ringMs = double(phase.nsecsElapsed()) / 1e6;
    phase.restart();
    std::optional<Frame> outcome = take(Type::Outcome, sameOp);
    if (!outcome) {
        if (!ring) {
            m_next.close();
            m_prev.close();
        }
        Result s = sendToMaster(encode(DoneMsg{tag, commence.opId, !ring.ok()}));
        if (s)
            s = waitFor([&] { return (outcome = take(Type::Outcome, sameOp)).has_value(); },
                        QDeadlineTimer(m_options.controlTimeoutMs), "the operation's outcome");
        if (!s) {
            restore();
            return s;
        }
    }
    info->outcomeMs = double(phase.nsecsElapsed()) / 1e6;
    const OutcomeMsg verdict = *parseOutcome(outcome->payload);
    if (verdict.aborted || !ring)
        restore();
    if (verdict.aborted) {
        m_next.close(); // the master re-forms the ring: these links may hold half a block
        m_prev.close();
        if (!ring && ring.code != Code::Aborted)
            return ring; // e.g. a timeout: keep the more precise reason
        return fail(Code::Aborted, QStringLiteral("operation %1 aborted: %2").arg(commence.opId).arg(verdict.reason));
    }
    if (!ring) // cannot happen: the master saw our Done{aborted}
        return ring;
    if (op == ReduceOp::Avg) {
        const float n = float(worldSize());
        for (float &x : data)
            x /= n;
    }
    return Result::success();
}

Result Communicator::runRing(uint64_t opId, uint64_t tag, Quant quant, ReduceInfo *info)
{
    const int n = worldSize(), rank = m_rank, T = ring::steps(n);
    const size_t total = m_buffer.size(), B = m_options.blockElements;
    const bool quantized = quant != Quant::None;
    const size_t elemBytes = codeBytes(quant);
    const size_t subHeader = kBlockHeaderBytes + (quantized ? quant::kParamsWireBytes : 0);

    std::vector<ring::Range> chunks(static_cast<size_t>(n));
    std::vector<size_t> blockBase(static_cast<size_t>(n) + 1, 0);
    for (int c = 0; c < n; ++c) {
        chunks[size_t(c)] = ring::chunk(total, n, c);
        blockBase[size_t(c) + 1] = blockBase[size_t(c)] + ring::blockCount(chunks[size_t(c)].count, B);
    }
    m_scratch.resize(B);
    if (quantized) {
        m_codes.resize(total);   // uint16 storage: room for either code type
        m_txCodes.resize(B);
        m_rxCodes.resize(B);
        m_blockParams.assign(blockBase.back(), quant::QuantParams{});
    }
    // Quantized: the range of every block summed in the reduce-scatter, tracked while summing.
    std::vector<fastquant::RangeKeys> sumRanges(quantized ? blockBase.back() : 0);
    fastquant::RangeKeys rxKeys;
    // Codes live in uint16 storage; uint8 codes use its bytes.
    auto codeBytesAt = [&](std::vector<uint16_t> &store, size_t element) -> uint8_t * {
        return quant == Quant::U8 ? reinterpret_cast<uint8_t *>(store.data()) + element
                                  : reinterpret_cast<uint8_t *>(store.data() + element);
    };
    std::vector<uint8_t> saved(blockBase.back(), 0);
    const bool inPlace = m_input.data() == m_buffer.data();
    auto protect = [&](int c, size_t b, const ring::Range &range) {
        uint8_t &flag = saved[blockBase[size_t(c)] + b];
        if (flag || !inPlace)
            return;
        flag = 1;
        std::copy_n(m_buffer.begin() + std::ptrdiff_t(range.begin), range.count,
                    m_backup.begin() + std::ptrdiff_t(range.begin));
        m_saved.push_back(range);
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
    auto txReady = [&] {
        return tx.step < T && (tx.step == 0 || rx.step > tx.step - 1 || (rx.step == tx.step - 1 && rx.block > tx.block));
    };

    // The frame being sent: header bytes, then a payload straight from memory.
    std::array<uint8_t, kFrameHeaderBytes + kBlockHeaderBytes + quant::kParamsWireBytes> txHeader{};
    size_t txHeaderLen = 0, txHeaderSent = 0, txPayloadLen = 0, txPayloadSent = 0;
    const uint8_t *txPayload = nullptr;
    bool txActive = false;

    auto prepareTx = [&]() -> Result {
        const int c = ring::sendChunk(rank, n, tx.step);
        const ring::Range range = ring::block(chunks[size_t(c)], B, tx.block);
        float *values = m_buffer.data() + range.begin;
        // Step 0 sends this peer's own input; later steps send what arrived (and was reduced) at the step before.
        const float *source = tx.step == 0 ? m_input.data() + range.begin : values;
        quant::QuantParams params;
        if (!quantized) {
            txPayload = reinterpret_cast<const uint8_t *>(source);
        } else if (ring::isReduceStep(n, tx.step)) {
            const auto p = tx.step == 0 ? quantizeInto(quant, {source, range.count}, codeBytesAt(m_txCodes, 0))
                                        : quantizeTracked(quant, {source, range.count},
                                                          sumRanges[blockBase[size_t(c)] + tx.block],
                                                          codeBytesAt(m_txCodes, 0));
            if (!p)
                return fail(Code::InvalidArgument, QStringLiteral("cannot quantize: %1")
                                                       .arg(QString::fromLatin1(quant::describe(p.status))));
            params = p.params;
            txPayload = codeBytesAt(m_txCodes, 0);
        } else {
            uint8_t *at = codeBytesAt(m_codes, range.begin);
            const size_t index = blockBase[size_t(c)] + tx.block;
            if (tx.step == n - 1) { // owner: quantize once, keep the de-quantized copy
                protect(c, tx.block, range);
                // requantize: quantize once (range known from the last sum), keep the de-quantized values.
                const auto p = quantizeTracked(quant, {values, range.count}, sumRanges[index], at);
                if (p) {
                    if (quant == Quant::U8)
                        fastquant::dequantize<uint8_t>(at, p.params, {values, range.count});
                    else
                        fastquant::dequantize<uint16_t>(reinterpret_cast<const uint16_t *>(at), p.params,
                                                        {values, range.count});
                }
                if (!p)
                    return fail(Code::InvalidArgument, QStringLiteral("cannot quantize: %1")
                                                           .arg(QString::fromLatin1(quant::describe(p.status))));
                m_blockParams[index] = p.params;
            }
            params = m_blockParams[index];
            txPayload = at;
        }
        txPayloadLen = range.count * elemBytes;
        const auto frameHeader = encodeHeader(Type::Block, subHeader + txPayloadLen);
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
        txActive = true;
        return Result::success();
    };

    // The frame being received.
    std::array<uint8_t, kFrameHeaderBytes + kBlockHeaderBytes + quant::kParamsWireBytes> rxHeader{};
    const size_t rxHeaderLen = kFrameHeaderBytes + subHeader;
    size_t rxHeaderGot = 0, rxPayloadLen = 0, rxPayloadGot = 0;
    size_t rxConsumed = 0; // values of the block already added / decoded
    uint8_t *rxDst = nullptr;
    quant::QuantParams rxParams;
    ring::Range rxRange;

    auto startRx = [&] {
        const int c = ring::recvChunk(rank, n, rx.step);
        rxRange = ring::block(chunks[size_t(c)], B, rx.block);
        rxPayloadLen = rxRange.count * elemBytes;
        rxHeaderGot = rxPayloadGot = rxConsumed = 0;
        rxKeys = fastquant::RangeKeys{};
        protect(c, rx.block, rxRange);
        const bool reduce = ring::isReduceStep(n, rx.step);
        if (!quantized)
            rxDst = reduce ? reinterpret_cast<uint8_t *>(m_scratch.data())
                           : reinterpret_cast<uint8_t *>(m_buffer.data() + rxRange.begin);
        else if (reduce)
            rxDst = codeBytesAt(m_rxCodes, 0);
        else
            rxDst = codeBytesAt(m_codes, rxRange.begin);
    };
    auto checkRxHeader = [&]() -> Result {
        const auto header = parseHeader(Channel::Ring, rxHeader.data());
        const uint8_t *h = rxHeader.data() + kFrameHeaderBytes;
        if (!header || header->type != uint16_t(Type::Block) || header->payloadBytes != subHeader + rxPayloadLen ||
            getU64(h) != opId || getU16(h + 8) != uint16_t(rx.step) || getU32(h + 10) != uint32_t(rx.block))
            return fail(Code::Aborted, QStringLiteral("unexpected frame from ring predecessor (operation %1 step %2 "
                                                      "block %3)")
                                           .arg(opId)
                                           .arg(rx.step)
                                           .arg(rx.block));
        if (quantized) {
            const auto p = quant::decodeParams(std::span<const uint8_t, quant::kParamsWireBytes>(
                                                   h + kBlockHeaderBytes, quant::kParamsWireBytes),
                                               levelsOf(quant));
            if (!p)
                return fail(Code::Aborted, QStringLiteral("bad quantization header from ring predecessor"));
            rxParams = p.params;
        }
        return Result::success();
    };
    // Adds (reduce-scatter) or decodes (quantized all-gather) the values that have fully arrived, while the block is
    // still coming in: the bytes are hot in cache right after the kernel copied them.
    auto consumeRx = [&] {
        const size_t ready = rxPayloadGot / elemBytes;
        if (ready <= rxConsumed)
            return;
        const bool reduce = ring::isReduceStep(n, rx.step);
        float *dst = m_buffer.data() + rxRange.begin + rxConsumed;
        // Each chunk arrives once in the reduce-scatter: it adds to this peer's input (the same memory in place).
        const float *own = m_input.data() + rxRange.begin + rxConsumed;
        const size_t count = ready - rxConsumed;
        if (!quantized) {
            if (reduce) {
                const float *src = m_scratch.data() + rxConsumed;
                for (size_t i = 0; i < count; ++i)
                    dst[i] = own[i] + src[i];
            }
        } else if (reduce) {
            addDecodedTracked(quant, rxDst + rxConsumed * elemBytes, rxParams, own, {dst, count}, rxKeys);
        } else {
            decodeInto(quant, rxDst + rxConsumed * elemBytes, rxParams, {dst, count}, false);
        }
        rxConsumed = ready;
    };
    auto finishRx = [&]() -> Result {
        consumeRx();
        const size_t index = blockBase[size_t(ring::recvChunk(rank, n, rx.step))] + rx.block;
        if (quantized && !ring::isReduceStep(n, rx.step))
            m_blockParams[index] = rxParams;
        else if (quantized)
            sumRanges[index] = rxKeys;
        ++rx.block;
        normalize(rx, false);
        if (rx.step < T)
            startRx();
        return Result::success();
    };

    if (rx.step < T)
        startRx();
    QDeadlineTimer idle(m_options.ioTimeoutMs);
    int sinceMasterCheck = 0;
    qint64 polls = 0, pollNs = 0;
    auto masterSaysAbort = [&]() -> Result {
        if (Result r = pumpMaster(0); !r)
            return r;
        for (const Frame &f : m_inbox) {
            if (f.type != Type::Outcome)
                continue;
            const auto o = parseOutcome(f.payload);
            if (o->tag == tag && o->opId == opId && o->aborted)
                return fail(Code::Aborted, QStringLiteral("aborted by the master: %1").arg(o->reason));
        }
        return Result::success();
    };

    RateLimiter *const limiter = m_options.uploadLimiter.get();
    bool txPaced = false;                  // the cap holds the next send back for paceWait
    std::chrono::nanoseconds paceWait{0};
    qint64 pacedPolls = 0;
    QElapsedTimer ringTime;
    ringTime.start();
    while (tx.step < T || rx.step < T || txActive) {
        bool progress = false;
        // Send.
        if (!txActive && txReady()) {
            if (Result r = prepareTx(); !r)
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
            const IoResult io = m_next.send(at, allowed);
            if (limiter && io.bytes < allowed)
                limiter->release(int64_t(allowed - io.bytes)); // granted, but the socket did not take it
            (inHeader ? txHeaderSent : txPayloadSent) += io.bytes;
            info->txBytes += io.bytes;
            if (io.bytes > 0)
                progress = true;
            if (io.closed)
                return fail(Code::Aborted, QStringLiteral("ring successor closed the link%1")
                                               .arg(io.error.isEmpty() ? QString() : QStringLiteral(": ") + io.error));
            if (txHeaderSent == txHeaderLen && txPayloadSent == txPayloadLen) {
                txActive = false;
                ++tx.block;
                normalize(tx, true);
                if (txReady()) {
                    if (Result r = prepareTx(); !r)
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
                io = m_prev.recv(rxHeader.data() + rxHeaderGot, rxHeaderLen - rxHeaderGot);
                rxHeaderGot += io.bytes;
                if (rxHeaderGot == rxHeaderLen) {
                    if (Result r = checkRxHeader(); !r)
                        return r;
                }
            } else {
                io = m_prev.recv(rxDst + rxPayloadGot, rxPayloadLen - rxPayloadGot);
                rxPayloadGot += io.bytes;
                if (io.bytes > 0 && rxPayloadGot < rxPayloadLen)
                    consumeRx();
            }
            info->rxBytes += io.bytes;
            if (io.bytes > 0)
                progress = true;
            if (rxHeaderGot == rxHeaderLen && rxPayloadGot == rxPayloadLen) {
                if (Result r = finishRx(); !r)
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
            if (++sinceMasterCheck >= 64) {
                sinceMasterCheck = 0;
                if (Result r = masterSaysAbort(); !r)
                    return r;
            }
            continue;
        }
        if (!txActive && txReady())
            continue;
        // Nothing moved: wait for the links (or the master).
        if (idle.hasExpired())
            return fail(Code::Timeout, QStringLiteral("no progress on the ring links for %1 ms").arg(m_options.ioTimeoutMs));
        PollEntry entries[3] = {{m_prev.native(), rx.step < T, false},
                                {m_next.native(), false, txActive && !txPaced},
                                {m_master.native(), true, false}};
        int waitMs = int(std::clamp<qint64>(idle.remainingTime(), 0, 1000));
        if (txPaced) { // until the bucket holds the next piece (at least 1 ms: a 0 ms poll would spin)
            waitMs = std::min(waitMs, int(std::clamp<int64_t>((paceWait.count() + 999'999) / 1'000'000, 1, 1000)));
            ++pacedPolls;
        }
        QElapsedTimer waited;
        waited.start();
        pollSockets(entries, waitMs);
        ++polls;
        pollNs += waited.nsecsElapsed();
        if (entries[2].readable) {
            sinceMasterCheck = 0;
            if (Result r = masterSaysAbort(); !r)
                return r;
        }
    }
    qCDebug(lcCollectives) << "ring op" << opId << "rank" << rank << "of" << n << double(ringTime.nsecsElapsed()) / 1e6
                           << "ms," << polls << "polls waiting" << double(pollNs) / 1e6 << "ms," << pacedPolls
                           << "of them for the upload cap";
    return Result::success();
}

} // namespace cohort::collectives
