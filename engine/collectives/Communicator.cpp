#include "collectives/Communicator.h"

#include "collectives/FastQuant.h"
#include "collectives/HalfFloat.h"
#include "collectives/Logging.h"
#include "collectives/Ring.h"
#include "net/Ed25519.h"

#include <QElapsedTimer>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>

namespace cohort::collectives {

static_assert(std::endian::native == std::endian::little,
              "ring payloads are little-endian f32/uint16 sent straight from memory (Wire.h)");

const char *codeName(Code code)
{
    switch (code) {
    case Code::Ok: return "ok";
    case Code::Aborted: return "aborted";
    case Code::Timeout: return "timeout";
    case Code::MasterLost: return "master lost";
    case Code::Refused: return "refused";
    case Code::InvalidArgument: return "invalid argument";
    case Code::NotConnected: return "not connected";
    }
    return "?";
}

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

Communicator::Communicator(CommunicatorOptions options) : m_options(std::move(options))
{
    m_options.blockElements = std::clamp<size_t>(m_options.blockElements, 1024, kMaxBlockElements);
    m_publicKey = ed25519::publicKeyOf(m_options.secretKey);
}

Communicator::~Communicator() { close(); }

void Communicator::close()
{
    m_next.close();
    m_prev.close();
    m_master.close();
    m_listener.close();
    m_early.clear();
    m_inbox.clear();
    m_ring.clear();
    m_rank = -1;
    m_nextTopology.reset();
}

std::vector<uint32_t> Communicator::ringPeerIds() const
{
    std::vector<uint32_t> ids;
    for (const Member &m : m_ring)
        ids.push_back(m.peerId);
    return ids;
}

Result Communicator::fail(Code code, QString message)
{
    qCDebug(lcCollectives) << "peer" << m_peerId << codeName(code) << message;
    return Result{code, std::move(message)};
}

// ---- master link -------------------------------------------------------------------------------------------------

Result Communicator::sendToMaster(const QByteArray &frame)
{
    if (!m_master.valid())
        return fail(Code::NotConnected, QStringLiteral("not connected to the master"));
    const Status s = m_master.sendAll(frame.constData(), size_t(frame.size()), m_options.controlTimeoutMs);
    if (!s) {
        m_master.close();
        return fail(Code::MasterLost, QStringLiteral("lost the master: %1").arg(s.error()));
    }
    return Result::success();
}

Result Communicator::pumpMaster(int timeoutMs)
{
    if (!m_master.valid())
        return fail(Code::MasterLost, QStringLiteral("not connected to the master"));
    PollEntry entry{m_master.native(), true, false};
    if (pollSockets({&entry, 1}, timeoutMs) <= 0 || !entry.readable)
        return Result::success();
    std::array<char, 16384> buffer;
    for (;;) {
        const IoResult r = m_master.recv(buffer.data(), buffer.size());
        m_decoder.feed(buffer.data(), r.bytes);
        if (r.closed) {
            m_master.close();
            return fail(Code::MasterLost, r.error.isEmpty() ? QStringLiteral("the master closed the connection")
                                                            : QStringLiteral("lost the master: %1").arg(r.error));
        }
        if (r.wouldBlock || r.bytes < buffer.size())
            break;
    }
    Frame frame;
    for (;;) {
        const FrameDecoder::Result r = m_decoder.next(frame);
        if (r == FrameDecoder::Result::NeedMore)
            break;
        if (r == FrameDecoder::Result::Error) {
            m_master.close();
            return fail(Code::MasterLost, QStringLiteral("the master broke the protocol: %1").arg(m_decoder.error()));
        }
        if (frame.type == Type::Pending) {
            if (const auto m = parsePending(frame.payload))
                m_pendingPeers = m->pendingPeers;
            continue;
        }
        if (frame.type == Type::Topology) {
            auto topology = parseTopology(frame.payload);
            if (!topology) {
                m_master.close();
                return fail(Code::MasterLost, QStringLiteral("malformed Topology from the master"));
            }
            m_pendingPeers = topology->pendingPeers;
            m_nextTopology = std::move(*topology);
            continue;
        }
        if (!parseAny(frame)) {
            m_master.close();
            return fail(Code::MasterLost,
                        QStringLiteral("malformed frame of type %1 from the master").arg(uint16_t(frame.type)));
        }
        m_inbox.push_back(std::move(frame));
    }
    return Result::success();
}

Result Communicator::waitFor(const std::function<bool()> &condition, QDeadlineTimer deadline, const char *what)
{
    for (;;) {
        if (condition())
            return Result::success();
        if (!m_master.valid())
            return fail(Code::MasterLost, QStringLiteral("lost the master while waiting for %1")
                                              .arg(QString::fromLatin1(what)));
        if (deadline.hasExpired())
            return fail(Code::Timeout, QStringLiteral("timed out waiting for %1").arg(QString::fromLatin1(what)));
        const Result r = pumpMaster(int(std::clamp<qint64>(deadline.remainingTime(), 0, 500)));
        if (!r)
            return r;
    }
}

std::optional<Frame> Communicator::take(Type type, const std::function<bool(const Frame &)> &match)
{
    for (auto it = m_inbox.begin(); it != m_inbox.end(); ++it) {
        if (it->type == type && (!match || match(*it))) {
            Frame f = std::move(*it);
            m_inbox.erase(it);
            return f;
        }
    }
    return std::nullopt;
}

void Communicator::purgeInbox()
{
    // Calls are sequential: whatever an earlier call left behind (replies to operations that are over, verdicts on
    // old epochs) is stale. Verdicts on the ring being formed stay.
    const uint64_t forming = m_nextTopology ? m_nextTopology->epoch : 0;
    std::erase_if(m_inbox, [&](const Frame &f) {
        if (f.type == Type::Committed || f.type == Type::Failed) {
            const auto e = parseEpoch(f.payload);
            return !e || e->epoch != forming;
        }
        return f.type == Type::Commence || f.type == Type::Outcome || f.type == Type::SyncPlan ||
               f.type == Type::SyncComplete;
    });
}

// ---- membership --------------------------------------------------------------------------------------------------

Result Communicator::connect()
{
    if (m_master.valid())
        return Result::success();
    if (m_publicKey.size() != ed25519::kPublicKeyBytes)
        return fail(Code::InvalidArgument, QStringLiteral("no ed25519 secret key given"));
    const QDeadlineTimer deadline(m_options.connectTimeoutMs);
    auto listener = TcpListener::listen(m_options.bindAddress, m_options.p2pPort);
    if (!listener)
        return fail(Code::InvalidArgument, listener.error());
    m_listener = std::move(listener.value());
    auto master = TcpSocket::connectTo(m_options.masterAddress, m_options.masterPort, m_options.controlTimeoutMs);
    if (!master)
        return fail(Code::MasterLost, master.error());
    m_master = std::move(master.value());
    m_decoder = FrameDecoder(Channel::FromMaster);
    m_inbox.clear();

    Result r = sendToMaster(encode(HelloMsg{kProtocolVersion, m_listener.port(), m_publicKey}));
    if (!r)
        return r;
    std::optional<Frame> reply;
    const QDeadlineTimer handshake(m_options.controlTimeoutMs);
    auto challengeOrRefusal = [&] {
        reply = take(Type::Challenge);
        if (!reply)
            reply = take(Type::Refused);
        return reply.has_value();
    };
    if (!(r = waitFor(challengeOrRefusal, handshake, "the master's challenge")))
        return r;
    if (reply->type == Type::Refused) {
        const auto reason = parseRefused(reply->payload);
        close();
        return fail(Code::Refused, reason ? reason->reason : QStringLiteral("refused"));
    }
    const auto challenge = parseChallenge(reply->payload);
    const QByteArray &signingKey =
        m_options.challengeKeyOverride.isEmpty() ? m_options.secretKey : m_options.challengeKeyOverride;
    if (!(r = sendToMaster(encode(ProofMsg{ed25519::sign(admissionMessage(challenge->nonce, m_publicKey), signingKey)}))))
        return r;
    auto welcomeOrRefusal = [&] {
        reply = take(Type::Welcome);
        if (!reply)
            reply = take(Type::Refused);
        return reply.has_value();
    };
    r = waitFor(welcomeOrRefusal, handshake, "admission");
    if (!r) {
        // The master closes right after Refused: the refusal may be the last thing it said.
        if (const auto refused = take(Type::Refused)) {
            const auto reason = parseRefused(refused->payload);
            close();
            return fail(Code::Refused, reason ? reason->reason : QStringLiteral("refused"));
        }
        return r;
    }
    if (reply->type == Type::Refused) {
        const auto reason = parseRefused(reply->payload);
        close();
        return fail(Code::Refused, reason ? reason->reason : QStringLiteral("refused"));
    }
    m_peerId = parseWelcome(reply->payload)->peerId;
    qCDebug(lcCollectives) << "admitted as peer" << m_peerId;

    // Pending until the ring's members vote us in (or we form the first ring).
    for (;;) {
        if (!(r = waitFor([this] { return m_nextTopology.has_value(); }, deadline, "admission into the ring")))
            return r;
        r = applyTopology();
        if (r || !r.retryable())
            return r;
    }
}

Result Communicator::ensureRing()
{
    if (Result r = pumpMaster(0); !r)
        return r;
    if (!m_nextTopology && m_ring.empty()) {
        // The last formation failed: the master forms a new ring as soon as it can. Never treat "no ring" as a
        // ring of one.
        Result r = waitFor([this] { return m_nextTopology.has_value(); }, QDeadlineTimer(m_options.beginTimeoutMs),
                           "a new ring");
        if (!r)
            return r;
    }
    if (m_nextTopology)
        return applyTopology();
    return Result::success();
}

Result Communicator::updateTopology()
{
    if (!m_master.valid())
        return fail(Code::NotConnected, QStringLiteral("not connected"));
    purgeInbox();
    if (Result r = pumpMaster(0); !r)
        return r;
    if (m_nextTopology || m_ring.empty())
        return ensureRing();
    if (Result r = sendToMaster(encodeVote()); !r)
        return r;
    const uint64_t current = m_epoch;
    std::optional<Frame> unchanged;
    Result r = waitFor(
        [&] {
            if (m_nextTopology)
                return true;
            unchanged = take(Type::Committed, [current](const Frame &f) { return parseEpoch(f.payload)->epoch == current; });
            return unchanged.has_value();
        },
        QDeadlineTimer(m_options.beginTimeoutMs), "the other peers' votes");
    if (!r)
        return r;
    if (unchanged && !m_nextTopology)
        return Result::success();
    return applyTopology();
}

Result Communicator::acceptPredecessor(const TopologyMsg &topology, uint32_t predecessor, QDeadlineTimer deadline,
                                       TcpSocket *out)
{
    auto matches = [&](const PeerHelloMsg &h) {
        return h.epoch == topology.epoch && h.ringToken == topology.ringToken && h.fromPeerId == predecessor;
    };
    for (auto it = m_early.begin(); it != m_early.end(); ++it) {
        if (matches(it->hello)) {
            *out = std::move(it->socket);
            m_early.erase(it);
            return Result::success();
        }
    }
    std::erase_if(m_early, [&](const EarlyLink &l) { return l.hello.epoch <= topology.epoch; });
    for (;;) {
        if (deadline.hasExpired())
            return fail(Code::Timeout, QStringLiteral("ring predecessor %1 did not connect").arg(predecessor));
        PollEntry entries[2] = {{m_listener.native(), true, false}, {m_master.native(), true, false}};
        pollSockets(entries, int(std::clamp<qint64>(deadline.remainingTime(), 0, 500)));
        if (entries[1].readable) {
            if (Result r = pumpMaster(0); !r)
                return r;
            // A newer ring, or a verdict on this one, means this formation is over.
            if ((m_nextTopology && m_nextTopology->epoch != topology.epoch) ||
                take(Type::Failed, [&](const Frame &f) { return parseEpoch(f.payload)->epoch == topology.epoch; }))
                return fail(Code::Aborted, QStringLiteral("ring formation %1 failed").arg(topology.epoch));
        }
        if (!entries[0].readable)
            continue;
        TcpSocket socket = m_listener.accept();
        if (!socket.valid())
            continue;
        // The dialer sends its PeerHello right away; read exactly that frame.
        std::array<uint8_t, kFrameHeaderBytes + 8 + kRingTokenBytes + 4> hello{};
        size_t got = 0;
        const QDeadlineTimer helloDeadline(std::min<qint64>(2000, std::max<qint64>(deadline.remainingTime(), 1)));
        bool broken = false;
        while (got < hello.size() && !broken) {
            const IoResult r = socket.recv(hello.data() + got, hello.size() - got);
            got += r.bytes;
            if (r.closed || helloDeadline.hasExpired())
                broken = true;
            else if (r.wouldBlock) {
                PollEntry e{socket.native(), true, false};
                pollSockets({&e, 1}, int(std::clamp<qint64>(helloDeadline.remainingTime(), 0, 200)));
            }
        }
        if (broken)
            continue;
        const auto header = parseHeader(Channel::Ring, hello.data());
        if (!header || header->type != uint16_t(Type::PeerHello) ||
            header->payloadBytes != hello.size() - kFrameHeaderBytes)
            continue;
        const auto msg = parsePeerHello(QByteArrayView(reinterpret_cast<const char *>(hello.data()) + kFrameHeaderBytes,
                                                       qsizetype(header->payloadBytes)));
        if (!msg)
            continue;
        if (matches(*msg)) {
            *out = std::move(socket);
            return Result::success();
        }
        if (msg->epoch > topology.epoch && m_early.size() < 8)
            m_early.push_back(EarlyLink{*msg, std::move(socket)}); // for a ring we have not heard of yet
    }
}

Result Communicator::applyTopology()
{
    const TopologyMsg topology = std::move(*m_nextTopology);
    m_nextTopology.reset();
    m_next.close();
    m_prev.close();
    m_ring.clear();
    m_rank = -1;
    const auto self = std::find_if(topology.ring.begin(), topology.ring.end(),
                                   [this](const Member &m) { return m.peerId == m_peerId; });
    if (self == topology.ring.end()) {
        close();
        return fail(Code::MasterLost, QStringLiteral("the master sent a ring without this peer"));
    }
    const int n = int(topology.ring.size());
    const int rank = int(self - topology.ring.begin());
    const QDeadlineTimer deadline(m_options.controlTimeoutMs);
    bool linked = true;
    QString why;
    TcpSocket next, prev;
    if (n >= 2) {
        const Member &successor = topology.ring[size_t((rank + 1) % n)];
        const Member &predecessor = topology.ring[size_t((rank + n - 1) % n)];
        auto dialed = TcpSocket::connectTo(successor.address, successor.port, m_options.controlTimeoutMs);
        if (dialed) {
            next = std::move(dialed.value());
            const QByteArray hello = encode(PeerHelloMsg{topology.epoch, topology.ringToken, m_peerId});
            const Status s = next.sendAll(hello.constData(), size_t(hello.size()), m_options.controlTimeoutMs);
            if (!s) {
                linked = false;
                why = s.error();
            }
        } else {
            linked = false;
            why = dialed.error();
        }
        if (linked) {
            const Result r = acceptPredecessor(topology, predecessor.peerId, deadline, &prev);
            if (!r) {
                if (r.code == Code::MasterLost)
                    return r;
                if (r.code == Code::Aborted)
                    return r; // the master moved on; its next Topology (if any) is queued
                linked = false;
                why = r.message;
            }
        }
    }
    if (Result r = sendToMaster(encode(ReadyMsg{topology.epoch, linked})); !r)
        return r;
    std::optional<Frame> verdict;
    const auto sameEpoch = [&](const Frame &f) { return parseEpoch(f.payload)->epoch == topology.epoch; };
    Result r = waitFor(
        [&] {
            verdict = take(Type::Committed, sameEpoch);
            if (!verdict)
                verdict = take(Type::Failed, sameEpoch);
            return verdict.has_value() || (m_nextTopology && m_nextTopology->epoch > topology.epoch);
        },
        QDeadlineTimer(m_options.beginTimeoutMs), "the ring to form");
    if (!r)
        return r;
    if (!verdict || verdict->type == Type::Failed)
        return fail(Code::Aborted, linked ? QStringLiteral("ring formation %1 failed").arg(topology.epoch)
                                          : QStringLiteral("ring formation %1 failed: %2").arg(topology.epoch).arg(why));
    m_ring = topology.ring;
    m_rank = rank;
    m_epoch = topology.epoch;
    m_ringToken = topology.ringToken;
    m_next = std::move(next);
    m_prev = std::move(prev);
    qCDebug(lcCollectives) << "peer" << m_peerId << "in ring epoch" << m_epoch << "rank" << m_rank << "of" << n;
    return Result::success();
}

// ---- shared state ------------------------------------------------------------------------------------------------

uint64_t stateHash(std::span<const uint8_t> bytes)
{
    constexpr uint64_t k = 0x9e3779b97f4a7c15ull;
    uint64_t lane[4] = {0x243f6a8885a308d3ull, 0x13198a2e03707344ull, 0xa4093822299f31d0ull, 0x082efa98ec4e6c89ull};
    const size_t n = bytes.size();
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        for (int l = 0; l < 4; ++l) {
            uint64_t w;
            std::memcpy(&w, bytes.data() + i + 8 * size_t(l), 8);
            lane[l] = (lane[l] ^ w) * k;
            lane[l] ^= lane[l] >> 29;
        }
    }
    // Fewer than 32 bytes left: whole words, then the last partial one, into lane 0.
    uint64_t tail = 0;
    for (size_t t = 0; i < n; ++i, ++t) {
        tail |= uint64_t(bytes[i]) << (8 * (t % 8));
        if (t % 8 == 7) {
            lane[0] = (lane[0] ^ tail) * k;
            lane[0] ^= lane[0] >> 29;
            tail = 0;
        }
    }
    uint64_t h = uint64_t(n) ^ tail;
    for (int l = 0; l < 4; ++l) {
        h ^= (lane[l] << (13 * l + 7)) | (lane[l] >> (64 - (13 * l + 7)));
        h *= k;
        h ^= h >> 31;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

namespace {

// Reads exactly `size` bytes within the deadline.
Status readExactly(TcpSocket &socket, void *data, size_t size, QDeadlineTimer deadline)
{
    auto *p = static_cast<uint8_t *>(data);
    size_t got = 0;
    while (got < size) {
        const IoResult r = socket.recv(p + got, size - got);
        got += r.bytes;
        if (got == size)
            break;
        if (r.closed)
            return fail(r.error.isEmpty() ? QStringLiteral("connection closed") : r.error);
        if (deadline.hasExpired())
            return fail(QStringLiteral("timed out"));
        if (r.wouldBlock) {
            PollEntry e{socket.native(), true, false};
            pollSockets({&e, 1}, int(std::clamp<qint64>(deadline.remainingTime(), 0, 500)));
        }
    }
    return Status::success();
}

} // namespace

Result Communicator::serveState(std::span<const SharedTensor> tensors, SyncInfo *info)
{
    TcpSocket socket = m_listener.accept();
    if (!socket.valid())
        return Result::success();
    const QDeadlineTimer deadline(m_options.controlTimeoutMs);
    std::array<uint8_t, kFrameHeaderBytes> h{};
    if (!readExactly(socket, h.data(), h.size(), QDeadlineTimer(2000)))
        return Result::success(); // not a peer of ours: drop it
    const auto header = parseHeader(Channel::Ring, h.data());
    if (!header || (header->type != uint16_t(Type::StateRequest) && header->type != uint16_t(Type::PeerHello)))
        return Result::success();
    QByteArray payload(qsizetype(header->payloadBytes), Qt::Uninitialized);
    if (!readExactly(socket, payload.data(), payload.size(), QDeadlineTimer(2000)))
        return Result::success();
    if (header->type == uint16_t(Type::PeerHello)) {
        const auto hello = parsePeerHello(payload);
        if (hello && hello->epoch > m_epoch && m_early.size() < 8)
            m_early.push_back(EarlyLink{*hello, std::move(socket)}); // a link for a ring formed after this sync
        return Result::success();
    }
    const auto request = parseStateRequest(payload);
    if (!request || request->ringToken != m_ringToken)
        return Result::success();
    for (const uint16_t index : request->indices) {
        if (index >= tensors.size())
            return Result::success();
        const std::span<uint8_t> bytes = tensors[index].bytes;
        size_t offset = 0;
        do {
            const size_t piece = std::min(kMaxStateDataBytes, bytes.size() - offset);
            auto frameHeader = encodeHeader(Type::StateData, kStateDataHeaderBytes + piece);
            std::array<uint8_t, kFrameHeaderBytes + kStateDataHeaderBytes> head{};
            std::memcpy(head.data(), frameHeader.data(), frameHeader.size());
            putU16(head.data() + kFrameHeaderBytes, index);
            putU64(head.data() + kFrameHeaderBytes + 2, offset);
            const int left = int(std::max<qint64>(deadline.remainingTime(), 1));
            if (!socket.sendAll(head.data(), head.size(), left) ||
                !socket.sendAll(bytes.data() + offset, piece, int(std::max<qint64>(deadline.remainingTime(), 1))))
                return Result::success(); // the fetcher reports its failure to the master
            info->txBytes += piece;
            offset += piece;
        } while (offset < bytes.size());
    }
    return Result::success();
}

Result Communicator::fetchState(const SyncPlanMsg &plan, std::span<const SharedTensor> tensors, SyncInfo *info)
{
    for (const auto &[index, hash] : plan.fetch)
        if (index >= tensors.size())
            return fail(Code::Aborted, QStringLiteral("the master named an unknown tensor"));
    auto connected = TcpSocket::connectTo(plan.distributor, plan.port, m_options.controlTimeoutMs);
    if (!connected)
        return fail(Code::Aborted, QStringLiteral("cannot reach the shared-state distributor: %1").arg(connected.error()));
    TcpSocket socket = std::move(connected.value());
    StateRequestMsg request{m_ringToken, plan.revision, {}};
    for (const auto &[index, hash] : plan.fetch)
        request.indices.push_back(index);
    const QByteArray frame = encode(request);
    if (!socket.sendAll(frame.constData(), size_t(frame.size()), m_options.controlTimeoutMs))
        return fail(Code::Aborted, QStringLiteral("cannot send the shared-state request"));
    for (const auto &[index, hash] : plan.fetch) {
        const std::span<uint8_t> bytes = tensors[index].bytes;
        size_t offset = 0;
        do {
            QDeadlineTimer idle(m_options.ioTimeoutMs);
            std::array<uint8_t, kFrameHeaderBytes + kStateDataHeaderBytes> head{};
            if (!readExactly(socket, head.data(), head.size(), idle))
                return fail(Code::Aborted, QStringLiteral("shared-state transfer broke off"));
            const auto header = parseHeader(Channel::Ring, head.data());
            const size_t piece = header ? header->payloadBytes - kStateDataHeaderBytes : 0;
            if (!header || header->type != uint16_t(Type::StateData) ||
                getU16(head.data() + kFrameHeaderBytes) != index ||
                getU64(head.data() + kFrameHeaderBytes + 2) != offset || piece > bytes.size() - offset ||
                (piece == 0 && !bytes.empty()))
                return fail(Code::Aborted, QStringLiteral("unexpected shared-state frame"));
            if (!readExactly(socket, bytes.data() + offset, piece, QDeadlineTimer(m_options.ioTimeoutMs)))
                return fail(Code::Aborted, QStringLiteral("shared-state transfer broke off"));
            info->rxBytes += piece;
            offset += piece;
        } while (offset < bytes.size());
        if (stateHash(bytes) != hash)
            return fail(Code::Aborted,
                        QStringLiteral("tensor %1 does not match its elected hash after the transfer").arg(tensors[index].name));
        ++info->fetched;
    }
    return Result::success();
}

Result Communicator::syncSharedState(uint64_t revision, std::span<const SharedTensor> tensors, SyncInfo *info)
{
    SyncInfo local;
    if (!info)
        info = &local;
    *info = SyncInfo{};
    if (!m_master.valid())
        return fail(Code::NotConnected, QStringLiteral("not connected"));
    if (tensors.size() > kMaxSharedTensors)
        return fail(Code::InvalidArgument, QStringLiteral("too many shared tensors"));
    purgeInbox();
    if (Result r = ensureRing(); !r)
        return r;
    SyncStateMsg state{revision, {}};
    for (const SharedTensor &t : tensors)
        state.tensors.push_back(TensorDigest{t.name, uint64_t(t.bytes.size()), stateHash(t.bytes)});
    if (Result r = sendToMaster(encode(state)); !r)
        return r;
    std::optional<SyncPlanMsg> plan;
    bool reported = false;
    const QDeadlineTimer deadline(m_options.beginTimeoutMs);
    for (;;) {
        if (auto done = take(Type::SyncComplete)) {
            const auto complete = parseSyncComplete(done->payload);
            if (!complete->ok || !reported)
                return fail(Code::Aborted, QStringLiteral("shared-state sync failed: %1").arg(complete->reason));
            info->revision = plan->revision;
            return Result::success();
        }
        if (!plan) {
            if (auto f = take(Type::SyncPlan)) {
                plan = parseSyncPlan(f->payload);
                bool ok = true;
                if (!plan->fetch.empty()) {
                    const Result fetched = fetchState(*plan, tensors, info);
                    if (!fetched)
                        qCWarning(lcCollectives) << "shared-state fetch failed:" << fetched.message;
                    ok = fetched.ok();
                }
                if (Result r = sendToMaster(encodeSyncDone(ok)); !r)
                    return r;
                reported = true;
                continue;
            }
        }
        if (!m_master.valid())
            return fail(Code::MasterLost, QStringLiteral("lost the master during a shared-state sync"));
        if (deadline.hasExpired())
            return fail(Code::Timeout, QStringLiteral("timed out in a shared-state sync"));
        // Serve other peers' requests while waiting.
        PollEntry entries[2] = {{m_master.native(), true, false}, {m_listener.native(), true, false}};
        pollSockets(entries, int(std::clamp<qint64>(deadline.remainingTime(), 0, 500)));
        if (entries[1].readable)
            (void)serveState(tensors, info);
        if (entries[0].readable)
            if (Result r = pumpMaster(0); !r)
                return r;
    }
}

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

    QElapsedTimer ringTime;
    ringTime.start();
    while (tx.step < T || rx.step < T || txActive) {
        bool progress = false;
        // Send.
        if (!txActive && txReady()) {
            if (Result r = prepareTx(); !r)
                return r;
        }
        while (txActive) {
            IoResult io;
            if (txHeaderSent < txHeaderLen) {
                io = m_next.send(txHeader.data() + txHeaderSent, txHeaderLen - txHeaderSent);
                txHeaderSent += io.bytes;
            } else {
                io = m_next.send(txPayload + txPayloadSent, txPayloadLen - txPayloadSent);
                txPayloadSent += io.bytes;
            }
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
                                {m_next.native(), false, txActive},
                                {m_master.native(), true, false}};
        QElapsedTimer waited;
        waited.start();
        pollSockets(entries, int(std::clamp<qint64>(idle.remainingTime(), 0, 1000)));
        ++polls;
        pollNs += waited.nsecsElapsed();
        if (entries[2].readable) {
            sinceMasterCheck = 0;
            if (Result r = masterSaysAbort(); !r)
                return r;
        }
    }
    qCDebug(lcCollectives) << "ring op" << opId << "rank" << rank << "of" << n << double(ringTime.nsecsElapsed()) / 1e6
                           << "ms," << polls << "polls waiting" << double(pollNs) / 1e6 << "ms";
    return Result::success();
}

} // namespace cohort::collectives
