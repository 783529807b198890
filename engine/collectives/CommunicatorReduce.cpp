// Communicator, all-reduce: an operation's life on the owning thread — the public calls, Begin and Commence with the
// master, the worker thread it runs on (CommunicatorRing.cpp: the ring exchange itself), the master's aborts, waiting
// for the outcome.
#include "collectives/Communicator.h"

#include "collectives/CommunicatorFaults.h"
#include "collectives/CommunicatorOps.h"
#include "collectives/HalfFloat.h"
#include "collectives/Logging.h"
#include "collectives/Ring.h"
#include "collectives/ValueBounds.h"

#include <QElapsedTimer>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <thread>
#include <utility>

namespace cohort::collectives {

// ---- all-reduce: starting, awaiting ----------------------------------------------------------------------------

Status Communicator::allReduce(std::span<float> data, ReduceOp op, Quant quant, uint64_t tag, ReduceInfo *info)
{
    if (Status r = startReduce(data, data, op, quant, DataType::F32, tag); !r)
        return r;
    return awaitReduce(tag, info);
}

Status Communicator::allReduce(std::span<const float> input, std::span<float> output, ReduceOp op, Quant quant,
                               uint64_t tag, ReduceInfo *info)
{
    if (Status r = allReduceAsync(input, output, op, quant, tag); !r)
        return r;
    return awaitReduce(tag, info);
}

Status Communicator::allReduce(std::span<uint16_t> data, DataType dtype, ReduceOp op, Quant quant, uint64_t tag,
                               ReduceInfo *info)
{
    if (dtype != DataType::BF16 && dtype != DataType::F16)
        return fail(Code::InvalidArgument, QStringLiteral("16-bit all-reduce needs bf16 or f16"));
    std::vector<float> widened(data.size()), reduced(data.size());
    if (dtype == DataType::BF16)
        bf16ToFloat(data, widened);
    else
        f16ToFloat(data, widened);
    Status r = startReduce(widened, reduced, op, quant, dtype, tag);
    if (r)
        r = awaitReduce(tag, info);
    if (r) {
        if (dtype == DataType::BF16)
            floatToBf16(reduced, data);
        else
            floatToF16(reduced, data);
    }
    return r;
}

Status Communicator::allReduceAsync(std::span<float> data, ReduceOp op, Quant quant, uint64_t tag)
{
    return startReduce(data, data, op, quant, DataType::F32, tag);
}

Status Communicator::allReduceAsync(std::span<const float> input, std::span<float> output, ReduceOp op, Quant quant,
                                    uint64_t tag)
{
    if (input.size() != output.size())
        return fail(Code::InvalidArgument, QStringLiteral("input and output sizes differ"));
    if (input.data() != output.data() && input.data() < output.data() + output.size() &&
        output.data() < input.data() + input.size())
        return fail(Code::InvalidArgument, QStringLiteral("input and output overlap"));
    return startReduce(input, output, op, quant, DataType::F32, tag);
}

Status Communicator::startReduce(std::span<const float> input, std::span<float> data, ReduceOp op, Quant quant,
                                 DataType dtype, uint64_t tag)
{
    if (!m_master.valid())
        return fail(Code::NotConnected, QStringLiteral("not connected"));
    if (m_inFlight.count(tag))
        return fail(Code::InvalidArgument, QStringLiteral("an operation with tag %1 is in flight already").arg(tag));
    purgeInbox();
    const uint64_t epochBefore = m_epoch;
    const bool othersInFlight = !m_inFlight.empty();
    if (Status r = ensureRing(); !r)
        return r;
    if (othersInFlight && m_epoch != epochBefore) // they are aborted; a start now would overtake their retries
        return fail(Code::Aborted, QStringLiteral("the ring changed with operations in flight: await them, then start "
                                                  "again in order"));
    auto flight = std::make_unique<InFlight>();
    InFlight &f = *flight;
    f.tag = tag;
    f.op = op;
    f.quant = quant;
    f.input = input;
    f.data = data;
    f.worldSize = worldSize();
    f.rank = m_rank;
    f.info.worldSize = worldSize();
    f.phase.start();
    f.normBound = m_options.contributionNormBound;
    if (f.normBound > 0 && m_options.checkOwnInput && !faults().unchecked) {
        // An honest peer is never named: its own input is checked before it goes anywhere.
        const NormResult own = l2Norm(input.data(), input.size());
        if (!own.finite)
            return fail(Code::InvalidArgument, QStringLiteral("the input holds NaN or infinity"));
        if (own.norm > double(f.normBound) * (1 + 1e-6))
            return fail(
                Code::InvalidArgument,
                QStringLiteral("the input's norm %1 is above the bound %2").arg(own.norm).arg(double(f.normBound)));
    }
    if (worldSize() <= 1) { // the sum (and mean) of one
        if (input.data() != data.data())
            std::copy(input.begin(), input.end(), data.begin());
        f.trivial = true;
        f.finished = true;
        m_inFlight.emplace(tag, std::move(flight));
        return Status::success();
    }

    if (Status r = sendToMaster(encode(BeginMsg{tag, uint64_t(data.size()), op, dtype, quant, m_epoch, f.normBound,
                                                uint32_t(m_options.blockElements)}));
        !r)
        return r;
    std::optional<Frame> reply;
    Status r = waitFor(
        [&] {
            noteAborts();
            reply = take(Type::Commence, [tag](const Frame &f) { return parseCommence(f.payload)->tag == tag; });
            if (!reply)
                reply = take(Type::Outcome, [tag](const Frame &f) {
                    // Not the verdict on an operation in flight that carries the same tag number (there is none:
                    // tags in flight are distinct), so it answers this Begin.
                    return parseOutcome(f.payload)->tag == tag;
                });
            return reply.has_value();
        },
        QDeadlineTimer(m_options.beginTimeoutMs), "the other peers to begin");
    if (!r) {
        if (r.code() == Code::Timeout) // withdraw, so the master does not start the operation without us
            (void)sendToMaster(encode(DoneMsg{tag, 0, true}));
        return r;
    }
    if (reply->type == Type::Outcome) {
        // Refused (the group is busy with a vote, a formation or a sync): callers retry at once, so the back-off is
        // here — 100 ms listening to the master — not a refusal loop at full speed.
        const QDeadlineTimer backoff(100);
        while (!backoff.hasExpired() && m_master.valid())
            if (!pumpMaster(int(std::max<qint64>(1, backoff.remainingTime()))))
                break;
        return fail(Code::Aborted, QStringLiteral("operation refused: %1").arg(parseOutcome(reply->payload)->reason));
    }
    const CommenceMsg commence = *parseCommence(reply->payload);
    f.opId = commence.opId;
    f.epoch = commence.epoch;
    f.link = commence.link;
    f.info.opId = commence.opId;
    f.info.beginMs = double(f.phase.nsecsElapsed()) / 1e6;
    f.phase.restart();
    if (commence.epoch != m_epoch || commence.link >= m_links.size()) {
        // Cannot take part: say so, and let awaitReduce collect the (aborted) verdict.
        f.ring = fail(Code::Aborted, QStringLiteral("operation began on ring epoch %1 link %2, this peer is on epoch "
                                                    "%3 with %4 links")
                                         .arg(commence.epoch)
                                         .arg(commence.link)
                                         .arg(m_epoch)
                                         .arg(m_links.size()));
        f.doneSent = sendDone(tag, f.opId, true);
        f.finished = true;
        m_inFlight.emplace(tag, std::move(flight));
        return Status::success();
    }
    if (!m_spareBuffers.empty()) {
        f.buffers = std::move(m_spareBuffers.back());
        m_spareBuffers.pop_back();
    } else {
        f.buffers = std::make_unique<RingBuffers>();
    }
    f.buffers->saved.clear();
    if (f.inPlace())
        f.buffers->backup.resize(data.size());
    f.next = &m_links[f.link].next;
    f.prev = &m_links[f.link].prev;
    f.txCipher = m_links[f.link].tx ? &*m_links[f.link].tx : nullptr;
    f.rxCipher = m_links[f.link].rx ? &*m_links[f.link].rx : nullptr;
    f.predecessor = m_ring[size_t((m_rank + int(m_ring.size()) - 1) % int(m_ring.size()))].peerId;
    // The master runs one operation per link at a time, and Done (sent below) comes after the last byte this peer
    // sends or receives on it, so no other worker touches this link pair meanwhile.
    f.worker = std::thread([this, &f] {
        f.ring = runRing(f);
        if (!f.ring && !f.blamePredecessor) // say what this peer was waiting on, so the master can find a staller
            f.noteStall(std::chrono::milliseconds(m_options.ioTimeoutMs / 2));
        if (!f.ring && faults().frameStall) // the framing staller's lie: it never got its predecessor's data
            f.starved = true;
        f.info.ringMs = double(f.phase.nsecsElapsed()) / 1e6;
        // Done first, then the links: a blame should reach the master before the neighbours' "link closed".
        f.doneSent = sendDone(f.tag, f.opId, !f.ring.ok(), &f);
        if (!f.ring) { // the links may hold half a block: close them (the neighbours notice at once)
            f.next->close();
            f.prev->close();
        }
        f.finished.store(true, std::memory_order_release);
        m_wake.notify();
    });
    m_inFlight.emplace(tag, std::move(flight));
    return Status::success();
}

void Communicator::noteAborts()
{
    for (const Frame &frame : m_inbox) {
        if (frame.type != Type::Outcome)
            continue;
        const auto o = parseOutcome(frame.payload);
        const auto it = m_inFlight.find(o->tag);
        if (o->aborted && it != m_inFlight.end() && it->second->opId == o->opId)
            it->second->abort.store(true);
    }
}

void Communicator::stopInFlight()
{
    for (auto &[tag, f] : m_inFlight)
        f->abort.store(true);
    for (auto &[tag, f] : m_inFlight)
        f->join(); // a worker looks at `abort` at least every 50 ms
}

Status Communicator::awaitReduce(uint64_t tag, ReduceInfo *info)
{
    const auto it = m_inFlight.find(tag);
    if (it == m_inFlight.end())
        return fail(Code::InvalidArgument, QStringLiteral("no operation with tag %1 in flight").arg(tag));
    std::unique_ptr<InFlight> flight = std::move(it->second);
    m_inFlight.erase(it);
    InFlight &f = *flight;
    auto finish = [&](Status r) {
        if (info)
            *info = f.info;
        if (f.buffers)
            m_spareBuffers.push_back(std::move(f.buffers));
        return r;
    };
    if (f.trivial)
        return finish(Status::success());

    const auto sameOp = [&](const Frame &frame) {
        const auto o = parseOutcome(frame.payload);
        return o->tag == tag && o->opId == f.opId;
    };
    // The exchange: wait for the worker, listening to the master meanwhile (an abort stops the worker early).
    Status waited = Status::success();
    while (!f.finished.load(std::memory_order_acquire)) {
        if (!m_master.valid()) {
            waited = fail(Code::Disconnected, QStringLiteral("lost the master during operation %1").arg(f.opId));
            f.abort.store(true);
            break;
        }
        PollEntry entries[2] = {{m_wake.native(), true, false}, {m_master.native(), true, false}};
        pollSockets(entries, 500);
        if (entries[0].readable)
            m_wake.drain();
        if (entries[1].readable) {
            if (Status r = pumpMaster(0); !r) {
                waited = r;
                f.abort.store(true);
                break;
            }
            noteAborts(); // the others in flight; this one is out of m_inFlight already:
            for (const Frame &frame : m_inbox)
                if (frame.type == Type::Outcome && sameOp(frame) && parseOutcome(frame.payload)->aborted)
                    f.abort.store(true);
        }
    }
    f.join();
    if (!waited) {
        f.restore();
        return finish(waited);
    }
    const Status ring = f.ring;

    QElapsedTimer outcomeTime;
    outcomeTime.start();
    std::optional<Frame> outcome = take(Type::Outcome, sameOp);
    if (!outcome) {
        Status s = f.doneSent ? Status::success() : sendToMaster(encode(DoneMsg{tag, f.opId, !ring.ok()}));
        if (s)
            s = waitFor([&] { return (outcome = take(Type::Outcome, sameOp)).has_value(); },
                        QDeadlineTimer(m_options.controlTimeoutMs), "the operation's outcome", Cancel::Ignored);
        if (!s) {
            f.restore();
            return finish(s);
        }
    }
    f.info.outcomeMs = double(outcomeTime.nsecsElapsed()) / 1e6;
    const OutcomeMsg verdict = *parseOutcome(outcome->payload);
    if (verdict.aborted || !ring)
        f.restore();
    if (verdict.aborted) {
        if (f.link < m_links.size() && f.epoch == m_epoch) {
            m_links[f.link].next.close(); // the master re-forms the ring: these links may hold half a block
            m_links[f.link].prev.close();
        }
        if (!ring && (ring.code() != Code::Aborted || f.blamePredecessor || f.linkRewritten))
            return finish(ring); // e.g. a timeout, or what the predecessor sent: keep the more precise reason
        return finish(fail(Code::Aborted, QStringLiteral("operation %1 aborted: %2").arg(f.opId).arg(verdict.reason)));
    }
    if (!ring) // cannot happen: the master saw our Done{aborted}
        return finish(ring);
    if (f.op == ReduceOp::Avg) {
        const float n = float(f.worldSize);
        for (float &x : f.data)
            x /= n;
    }
    return finish(Status::success());
}

} // namespace cohort::collectives
