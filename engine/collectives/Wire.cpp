#include "collectives/Wire.h"

#include "collectives/WireCodec.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace cohort::collectives {

using wire::Reader;
using wire::Writer;

namespace {

constexpr size_t kMemberMaxBytes = 4 + 1 + 16 + 2 + kPublicKeyBytes;

template <typename T>
std::optional<T> finish(const Reader &r, T value)
{
    if (!r.done())
        return std::nullopt;
    return value;
}

std::optional<bool> flag(uint8_t v)
{
    if (v > 1)
        return std::nullopt;
    return v == 1;
}

} // namespace

std::optional<size_t> payloadCap(Channel channel, uint16_t type)
{
    switch (channel) {
    case Channel::ToMaster:
        switch (Type(type)) {
        case Type::Hello: return 2 + 2 + kPublicKeyBytes;
        case Type::Proof: return kSignatureBytes;
        case Type::Vote: return 0;
        case Type::Ready: return 13;
        case Type::Begin: return 35;
        case Type::Done: return 23;
        case Type::SyncState: return 8 + 2 + kMaxSharedTensors * (2 + kMaxNameBytes + 8 + kDigestBytes);
        case Type::SyncDone: return 1;
        default: return std::nullopt;
        }
    case Channel::FromMaster:
        switch (Type(type)) {
        case Type::Challenge: return kNonceBytes;
        case Type::Welcome: return 4;
        case Type::Refused: return 2 + kMaxReasonBytes;
        case Type::Topology: return 8 + kRingTokenBytes + 4 + 2 + 2 + kMaxMembers * kMemberMaxBytes;
        case Type::Committed:
        case Type::Failed: return 8;
        case Type::Pending: return 4;
        case Type::Commence: return 26;
        case Type::Outcome: return 8 + 8 + 1 + 2 + kMaxReasonBytes;
        case Type::SyncPlan:
            return 8 + 1 + 16 + 2 + 2 + kMaxSharedTensors * (2 + kDigestBytes) + kDigestBytes + 1 + kSignatureBytes;
        case Type::SyncComplete: return 1 + 2 + kMaxReasonBytes;
        default: return std::nullopt;
        }
    case Channel::Ring:
        switch (Type(type)) {
        case Type::PeerHello: return 8 + 4 + 4 + 2 + 1 + kEphemeralKeyBytes + kSignatureBytes;
        case Type::Block: return kBlockHeaderBytes + 8 + kMaxBlockElements * sizeof(float);
        case Type::StateRequest: return 8 + 4 + 2 + kMaxSharedTensors * 2 + kSignatureBytes;
        case Type::StateData: return kStateDataHeaderBytes + kMaxStateDataBytes;
        default: return std::nullopt;
        }
    }
    return std::nullopt;
}

std::optional<FrameHeader> parseHeader(Channel channel, const uint8_t *bytes)
{
    const uint32_t length = getU32(bytes);
    const uint16_t type = getU16(bytes + 4);
    if (length < 2)
        return std::nullopt;
    const std::optional<size_t> cap = payloadCap(channel, type);
    if (!cap || size_t(length) - 2 > *cap)
        return std::nullopt;
    return FrameHeader{type, size_t(length) - 2};
}

std::array<uint8_t, kFrameHeaderBytes> encodeHeader(Type type, size_t payloadBytes)
{
    std::array<uint8_t, kFrameHeaderBytes> h{};
    putU32(h.data(), uint32_t(payloadBytes + 2));
    putU16(h.data() + 4, uint16_t(type));
    return h;
}

QByteArray encodeFrame(Type type, QByteArrayView payload)
{
    const auto h = encodeHeader(type, size_t(payload.size()));
    QByteArray out;
    out.reserve(qsizetype(kFrameHeaderBytes) + payload.size());
    out.append(reinterpret_cast<const char *>(h.data()), qsizetype(h.size()));
    out.append(payload);
    return out;
}

void FrameDecoder::feed(const char *data, size_t size)
{
    if (failed() || size == 0)
        return;
    // Drop consumed bytes now and then so the buffer does not grow without bound.
    if (m_offset > 0 && m_offset * 2 >= size_t(m_buffer.size())) {
        m_buffer.remove(0, qsizetype(m_offset));
        m_offset = 0;
    }
    m_buffer.append(data, qsizetype(size));
}

FrameDecoder::Result FrameDecoder::next(Frame &out)
{
    if (failed())
        return Result::Error;
    const size_t available = size_t(m_buffer.size()) - m_offset;
    if (available < kFrameHeaderBytes)
        return Result::NeedMore;
    const auto *base = reinterpret_cast<const uint8_t *>(m_buffer.constData()) + m_offset;
    const std::optional<FrameHeader> header = parseHeader(m_channel, base);
    if (!header) {
        const uint16_t type = getU16(base + 4);
        m_error = payloadCap(m_channel, type) ? QStringLiteral("oversized or malformed frame of type %1").arg(type)
                                              : QStringLiteral("unknown frame type %1").arg(type);
        m_buffer.clear();
        m_offset = 0;
        return Result::Error;
    }
    if (available - kFrameHeaderBytes < header->payloadBytes)
        return Result::NeedMore;
    out.type = Type(header->type);
    out.payload = QByteArray(reinterpret_cast<const char *>(base + kFrameHeaderBytes), qsizetype(header->payloadBytes));
    m_offset += kFrameHeaderBytes + header->payloadBytes;
    if (m_offset == size_t(m_buffer.size())) {
        m_buffer.clear();
        m_offset = 0;
    }
    return Result::Frame;
}

// ---- encoders ----------------------------------------------------------------------------------------------------

QByteArray encode(const HelloMsg &m)
{
    Writer w;
    w.u16(m.version);
    w.u16(m.p2pPort);
    w.bytes(m.publicKey);
    return encodeFrame(Type::Hello, w.take());
}

QByteArray encode(const ChallengeMsg &m)
{
    return encodeFrame(Type::Challenge, m.nonce);
}
QByteArray encode(const ProofMsg &m)
{
    return encodeFrame(Type::Proof, m.signature);
}

QByteArray encode(const WelcomeMsg &m)
{
    Writer w;
    w.u32(m.peerId);
    return encodeFrame(Type::Welcome, w.take());
}

QByteArray encodeRefused(const QString &reason)
{
    Writer w;
    w.text(reason);
    return encodeFrame(Type::Refused, w.take());
}

QByteArray encodeVote()
{
    return encodeFrame(Type::Vote, {});
}

QByteArray encode(const TopologyMsg &m)
{
    Writer w;
    w.u64(m.epoch);
    w.bytes(m.ringToken);
    w.u32(m.pendingPeers);
    w.u16(m.links);
    w.u16(uint16_t(m.ring.size()));
    for (const Member &member : m.ring) {
        w.u32(member.peerId);
        bool isV4 = false;
        const quint32 v4 = member.address.toIPv4Address(&isV4);
        if (isV4) {
            w.u8(4);
            w.u32(v4);
        } else {
            w.u8(6);
            const Q_IPV6ADDR v6 = member.address.toIPv6Address();
            w.raw(v6.c, 16);
        }
        w.u16(member.port);
        w.bytes(member.publicKey.left(qsizetype(kPublicKeyBytes)).leftJustified(qsizetype(kPublicKeyBytes), '\0'));
    }
    return encodeFrame(Type::Topology, w.take());
}

QByteArray encode(const ReadyMsg &m)
{
    Writer w;
    w.u64(m.epoch);
    w.u8(m.ok ? 1 : 0);
    w.u32(m.ok ? 0 : m.blamed);
    return encodeFrame(Type::Ready, w.take());
}

QByteArray encodeCommitted(uint64_t epoch)
{
    Writer w;
    w.u64(epoch);
    return encodeFrame(Type::Committed, w.take());
}

QByteArray encodeFailed(uint64_t epoch)
{
    Writer w;
    w.u64(epoch);
    return encodeFrame(Type::Failed, w.take());
}

QByteArray encode(const PendingMsg &m)
{
    Writer w;
    w.u32(m.pendingPeers);
    return encodeFrame(Type::Pending, w.take());
}

QByteArray encode(const BeginMsg &m)
{
    Writer w;
    w.u64(m.tag);
    w.u64(m.count);
    w.u8(uint8_t(m.op));
    w.u8(uint8_t(m.dtype));
    w.u8(uint8_t(m.quant));
    w.u64(m.epoch);
    w.u32(std::bit_cast<uint32_t>(m.normBound));
    w.u32(m.blockElements);
    return encodeFrame(Type::Begin, w.take());
}

QByteArray encode(const CommenceMsg &m)
{
    Writer w;
    w.u64(m.tag);
    w.u64(m.opId);
    w.u64(m.epoch);
    w.u16(m.link);
    return encodeFrame(Type::Commence, w.take());
}

QByteArray encode(const DoneMsg &m)
{
    Writer w;
    w.u64(m.tag);
    w.u64(m.opId);
    const bool why = m.blamePredecessor || m.starvedByPredecessor || m.blockedBySuccessor;
    w.u8(uint8_t((m.aborted || why ? 1 : 0) | (m.blamePredecessor ? 2 : 0) | (m.starvedByPredecessor ? 4 : 0) |
                 (m.blockedBySuccessor ? 8 : 0)));
    w.u16(m.receivedStep);
    w.u32(m.receivedBlock);
    return encodeFrame(Type::Done, w.take());
}

QByteArray encode(const OutcomeMsg &m)
{
    Writer w;
    w.u64(m.tag);
    w.u64(m.opId);
    w.u8(m.aborted ? 1 : 0);
    w.text(m.reason);
    return encodeFrame(Type::Outcome, w.take());
}

QByteArray encode(const PeerHelloMsg &m)
{
    Writer w;
    w.u64(m.epoch);
    w.u32(m.fromPeerId);
    w.u32(m.toPeerId);
    w.u16(m.link);
    w.u8(m.protection);
    w.bytes(m.ephemeral.left(qsizetype(kEphemeralKeyBytes)).leftJustified(qsizetype(kEphemeralKeyBytes), '\0'));
    w.bytes(m.signature.left(qsizetype(kSignatureBytes)).leftJustified(qsizetype(kSignatureBytes), '\0'));
    return encodeFrame(Type::PeerHello, w.take());
}

QByteArray encode(const SyncStateMsg &m)
{
    Writer w;
    w.u64(m.revision);
    w.u16(uint16_t(m.tensors.size()));
    for (const TensorDigest &t : m.tensors) {
        QByteArray name = t.name.toUtf8();
        name.truncate(qsizetype(kMaxNameBytes));
        w.u16(uint16_t(name.size()));
        w.bytes(name);
        w.u64(t.bytes);
        w.bytes(t.digest.left(qsizetype(kDigestBytes)).leftJustified(qsizetype(kDigestBytes), '\0'));
    }
    return encodeFrame(Type::SyncState, w.take());
}

namespace {
void writeAddress(Writer &w, const QHostAddress &address)
{
    bool isV4 = false;
    const quint32 v4 = address.toIPv4Address(&isV4);
    if (address.isNull()) {
        w.u8(0);
    } else if (isV4) {
        w.u8(4);
        w.u32(v4);
    } else {
        w.u8(6);
        const Q_IPV6ADDR v6 = address.toIPv6Address();
        w.raw(v6.c, 16);
    }
}

std::optional<QHostAddress> readAddress(Reader &r)
{
    const uint8_t family = r.u8();
    if (family == 0)
        return QHostAddress();
    if (family == 4)
        return QHostAddress(r.u32());
    if (family == 6) {
        const QByteArray raw = r.bytes(16);
        if (raw.size() != 16)
            return std::nullopt;
        Q_IPV6ADDR v6;
        std::memcpy(v6.c, raw.constData(), 16);
        return QHostAddress(v6);
    }
    return std::nullopt;
}
} // namespace

QByteArray encode(const SyncPlanMsg &m)
{
    Writer w;
    w.u64(m.revision);
    writeAddress(w, m.distributor);
    w.u16(m.port);
    w.u16(uint16_t(m.fetch.size()));
    const auto digest = [&](const QByteArray &d) {
        w.bytes(d.left(qsizetype(kDigestBytes)).leftJustified(qsizetype(kDigestBytes), '\0'));
    };
    for (const auto &[index, expected] : m.fetch) {
        w.u16(index);
        digest(expected);
    }
    digest(m.stateDigest);
    const bool signedRecord = m.signature.size() == qsizetype(kSignatureBytes);
    w.u8(signedRecord ? 1 : 0);
    if (signedRecord)
        w.bytes(m.signature);
    return encodeFrame(Type::SyncPlan, w.take());
}

QByteArray encodeSyncDone(bool ok)
{
    Writer w;
    w.u8(ok ? 1 : 0);
    return encodeFrame(Type::SyncDone, w.take());
}

QByteArray encode(const SyncCompleteMsg &m)
{
    Writer w;
    w.u8(m.ok ? 1 : 0);
    w.text(m.reason);
    return encodeFrame(Type::SyncComplete, w.take());
}

QByteArray encode(const StateRequestMsg &m)
{
    Writer w;
    w.u64(m.revision);
    w.u32(m.fromPeerId);
    w.u16(uint16_t(m.indices.size()));
    for (const uint16_t i : m.indices)
        w.u16(i);
    w.bytes(m.signature.left(qsizetype(kSignatureBytes)).leftJustified(qsizetype(kSignatureBytes), '\0'));
    return encodeFrame(Type::StateRequest, w.take());
}

// ---- parsers -----------------------------------------------------------------------------------------------------

std::optional<HelloMsg> parseHello(QByteArrayView p)
{
    Reader r(p);
    HelloMsg m;
    m.version = r.u16();
    m.p2pPort = r.u16();
    m.publicKey = r.bytes(kPublicKeyBytes);
    if (m.p2pPort == 0)
        return std::nullopt;
    return finish(r, m);
}

std::optional<ChallengeMsg> parseChallenge(QByteArrayView p)
{
    Reader r(p);
    ChallengeMsg m{r.bytes(kNonceBytes)};
    return finish(r, m);
}

std::optional<ProofMsg> parseProof(QByteArrayView p)
{
    Reader r(p);
    ProofMsg m{r.bytes(kSignatureBytes)};
    return finish(r, m);
}

std::optional<WelcomeMsg> parseWelcome(QByteArrayView p)
{
    Reader r(p);
    WelcomeMsg m{r.u32()};
    if (m.peerId == 0)
        return std::nullopt;
    return finish(r, m);
}

std::optional<ReasonMsg> parseRefused(QByteArrayView p)
{
    Reader r(p);
    const std::optional<QString> text = r.text();
    if (!text)
        return std::nullopt;
    return finish(r, ReasonMsg{*text});
}

bool parseVote(QByteArrayView p)
{
    return p.isEmpty();
}

std::optional<TopologyMsg> parseTopology(QByteArrayView p)
{
    Reader r(p);
    TopologyMsg m;
    m.epoch = r.u64();
    m.ringToken = r.bytes(kRingTokenBytes);
    m.pendingPeers = r.u32();
    m.links = r.u16();
    const size_t n = r.u16();
    if (r.bad() || n == 0 || n > kMaxMembers || m.links == 0 || m.links > kMaxLinks)
        return std::nullopt;
    m.ring.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        Member member;
        member.peerId = r.u32();
        const uint8_t family = r.u8();
        if (family == 4) {
            member.address = QHostAddress(r.u32());
        } else if (family == 6) {
            const QByteArray raw = r.bytes(16);
            if (raw.size() != 16)
                return std::nullopt;
            Q_IPV6ADDR v6;
            std::memcpy(v6.c, raw.constData(), 16);
            member.address = QHostAddress(v6);
        } else {
            return std::nullopt;
        }
        member.port = r.u16();
        member.publicKey = r.bytes(kPublicKeyBytes);
        if (r.bad() || member.peerId == 0 || member.port == 0)
            return std::nullopt;
        for (const Member &seen : m.ring)
            if (seen.peerId == member.peerId)
                return std::nullopt;
        m.ring.push_back(member);
    }
    return finish(r, m);
}

std::optional<ReadyMsg> parseReady(QByteArrayView p)
{
    Reader r(p);
    ReadyMsg m;
    m.epoch = r.u64();
    const std::optional<bool> ok = flag(r.u8());
    m.blamed = r.u32();
    if (!ok || (*ok && m.blamed != 0))
        return std::nullopt;
    m.ok = *ok;
    return finish(r, m);
}

std::optional<EpochMsg> parseEpoch(QByteArrayView p)
{
    Reader r(p);
    EpochMsg m{r.u64()};
    return finish(r, m);
}

std::optional<PendingMsg> parsePending(QByteArrayView p)
{
    Reader r(p);
    PendingMsg m{r.u32()};
    return finish(r, m);
}

std::optional<BeginMsg> parseBegin(QByteArrayView p)
{
    Reader r(p);
    BeginMsg m;
    m.tag = r.u64();
    m.count = r.u64();
    const uint8_t op = r.u8(), dtype = r.u8(), quant = r.u8();
    m.epoch = r.u64();
    m.normBound = std::bit_cast<float>(r.u32());
    m.blockElements = r.u32();
    if (op > uint8_t(ReduceOp::Avg) || dtype > uint8_t(DataType::F16) || quant > uint8_t(Quant::U16) ||
        !std::isfinite(m.normBound) || m.normBound < 0 || m.blockElements == 0 || m.blockElements > kMaxBlockElements)
        return std::nullopt;
    m.op = ReduceOp(op);
    m.dtype = DataType(dtype);
    m.quant = Quant(quant);
    return finish(r, m);
}

std::optional<CommenceMsg> parseCommence(QByteArrayView p)
{
    Reader r(p);
    CommenceMsg m;
    m.tag = r.u64();
    m.opId = r.u64();
    m.epoch = r.u64();
    m.link = r.u16();
    if (m.opId == 0 || m.link >= kMaxLinks)
        return std::nullopt;
    return finish(r, m);
}

std::optional<DoneMsg> parseDone(QByteArrayView p)
{
    Reader r(p);
    DoneMsg m;
    m.tag = r.u64();
    m.opId = r.u64();
    const uint8_t verdict = r.u8();
    // Reasons only with the abort bit, and only about an operation that began (opId != 0).
    if ((verdict & ~0x0f) || ((verdict & 0x0e) && (!(verdict & 1) || m.opId == 0)))
        return std::nullopt;
    m.aborted = verdict & 1;
    m.blamePredecessor = verdict & 2;
    m.starvedByPredecessor = verdict & 4;
    m.blockedBySuccessor = verdict & 8;
    m.receivedStep = r.u16();
    m.receivedBlock = r.u32();
    return finish(r, m);
}

std::optional<OutcomeMsg> parseOutcome(QByteArrayView p)
{
    Reader r(p);
    OutcomeMsg m;
    m.tag = r.u64();
    m.opId = r.u64();
    const std::optional<bool> aborted = flag(r.u8());
    const std::optional<QString> reason = r.text();
    if (!aborted || !reason)
        return std::nullopt;
    m.aborted = *aborted;
    m.reason = *reason;
    return finish(r, m);
}

std::optional<PeerHelloMsg> parsePeerHello(QByteArrayView p)
{
    Reader r(p);
    PeerHelloMsg m;
    m.epoch = r.u64();
    m.fromPeerId = r.u32();
    m.toPeerId = r.u32();
    m.link = r.u16();
    m.protection = r.u8();
    m.ephemeral = r.bytes(kEphemeralKeyBytes);
    m.signature = r.bytes(kSignatureBytes);
    if (m.link >= kMaxLinks || m.protection > 2)
        return std::nullopt;
    return finish(r, m);
}

std::optional<SyncStateMsg> parseSyncState(QByteArrayView p)
{
    Reader r(p);
    SyncStateMsg m;
    m.revision = r.u64();
    const size_t n = r.u16();
    if (r.bad() || n > kMaxSharedTensors)
        return std::nullopt;
    for (size_t i = 0; i < n; ++i) {
        TensorDigest t;
        const size_t len = r.u16();
        if (r.bad() || len > kMaxNameBytes)
            return std::nullopt;
        const QByteArray name = r.bytes(len);
        t.name = QString::fromUtf8(name);
        t.bytes = r.u64();
        t.digest = r.bytes(kDigestBytes);
        if (r.bad())
            return std::nullopt;
        m.tensors.push_back(t);
    }
    return finish(r, m);
}

std::optional<SyncPlanMsg> parseSyncPlan(QByteArrayView p)
{
    Reader r(p);
    SyncPlanMsg m;
    m.revision = r.u64();
    const auto address = readAddress(r);
    if (!address)
        return std::nullopt;
    m.distributor = *address;
    m.port = r.u16();
    const size_t n = r.u16();
    if (r.bad() || n > kMaxSharedTensors || (n > 0 && (m.distributor.isNull() || m.port == 0)))
        return std::nullopt;
    for (size_t i = 0; i < n; ++i) {
        const uint16_t index = r.u16();
        m.fetch.emplace_back(index, r.bytes(kDigestBytes));
    }
    m.stateDigest = r.bytes(kDigestBytes);
    const std::optional<bool> signedRecord = flag(r.u8());
    if (!signedRecord)
        return std::nullopt;
    if (*signedRecord)
        m.signature = r.bytes(kSignatureBytes);
    return finish(r, m);
}

std::optional<bool> parseSyncDone(QByteArrayView p)
{
    Reader r(p);
    const std::optional<bool> ok = flag(r.u8());
    if (!ok || !r.done())
        return std::nullopt;
    return ok;
}

std::optional<SyncCompleteMsg> parseSyncComplete(QByteArrayView p)
{
    Reader r(p);
    SyncCompleteMsg m;
    const std::optional<bool> ok = flag(r.u8());
    const std::optional<QString> reason = r.text();
    if (!ok || !reason)
        return std::nullopt;
    m.ok = *ok;
    m.reason = *reason;
    return finish(r, m);
}

std::optional<StateRequestMsg> parseStateRequest(QByteArrayView p)
{
    Reader r(p);
    StateRequestMsg m;
    m.revision = r.u64();
    m.fromPeerId = r.u32();
    const size_t n = r.u16();
    if (r.bad() || n > kMaxSharedTensors)
        return std::nullopt;
    for (size_t i = 0; i < n; ++i)
        m.indices.push_back(r.u16());
    m.signature = r.bytes(kSignatureBytes);
    return finish(r, m);
}

bool parseAny(const Frame &frame)
{
    const QByteArrayView p = frame.payload;
    switch (frame.type) {
    case Type::Hello: return parseHello(p).has_value();
    case Type::Challenge: return parseChallenge(p).has_value();
    case Type::Proof: return parseProof(p).has_value();
    case Type::Welcome: return parseWelcome(p).has_value();
    case Type::Refused: return parseRefused(p).has_value();
    case Type::Vote: return parseVote(p);
    case Type::Topology: return parseTopology(p).has_value();
    case Type::Ready: return parseReady(p).has_value();
    case Type::Committed:
    case Type::Failed: return parseEpoch(p).has_value();
    case Type::Pending: return parsePending(p).has_value();
    case Type::Begin: return parseBegin(p).has_value();
    case Type::Commence: return parseCommence(p).has_value();
    case Type::Done: return parseDone(p).has_value();
    case Type::Outcome: return parseOutcome(p).has_value();
    case Type::PeerHello: return parsePeerHello(p).has_value();
    case Type::Block: return p.size() >= qsizetype(kBlockHeaderBytes);
    case Type::SyncState: return parseSyncState(p).has_value();
    case Type::SyncPlan: return parseSyncPlan(p).has_value();
    case Type::SyncDone: return parseSyncDone(p).has_value();
    case Type::SyncComplete: return parseSyncComplete(p).has_value();
    case Type::StateRequest: return parseStateRequest(p).has_value();
    case Type::StateData: return p.size() >= qsizetype(kStateDataHeaderBytes);
    }
    return false;
}

} // namespace cohort::collectives
