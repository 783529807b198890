#pragma once
// The collectives' wire format: every byte a peer or the master reads from the network is parsed here.
//
// Frames (both channels):
//
//     [u32 length][u16 type][payload: length - 2 bytes]
//
// All integers are big-endian; floats travel as their IEEE-754 bits (engine/quant's 8-byte header for min/scale).
// `length` counts the type and the payload, so it is at least 2. Every type has its own payload cap (kTypes below),
// checked as soon as the 6-byte header is in: a frame of an unknown type, of a type not allowed on that channel, or
// longer than its type's cap is never buffered — the receiver closes the connection. Parsers of each payload check
// the exact layout as well (a trailing byte is an error too).
//
// Control channel (peer <-> master, one TCP connection per peer; the master never carries tensor data):
//   C2M Hello      u16 version, u16 p2pPort, u8[32] ed25519 public key
//   M2C Challenge  u8[32] nonce
//   C2M Proof      u8[64] signature over admissionMessage(nonce, public key)
//   M2C Welcome    u32 peerId                       (admitted: the peer is now *pending*)
//   M2C Refused    u16 n, n bytes UTF-8 reason      (then the master closes)
//   C2M Vote       -                                (updateTopology: accept pending peers)
//   M2C Topology   u64 epoch, u8[16] ring token, u32 pendingPeers, u16 links (1..kMaxLinks), u16 n, n x Member
//                  Member = u32 peerId, u8 family (4|6), u8[4|16] address, u16 p2pPort, u8[32] ed25519 public key
//                  (the ring order; the ring token is the epoch's secret, known to its members only)
//   C2M Ready      u64 epoch, u8 ok, u32 blamed     (p2p links to both ring neighbours are up; if not, the
//                                                    neighbour this peer could not link to, 0: none named)
//   M2C Committed  u64 epoch                        (every member is ready: the ring is in use)
//   M2C Failed     u64 epoch                        (formation failed; a new Topology follows when one is possible)
//   M2C Pending    u32 pendingPeers                 (peers waiting for a vote)
//   C2M Begin      u64 tag, u64 count, u8 op, u8 dtype, u8 quant, u64 epoch (the ring the peer begins it on),
//                  u32 norm bound (f32 bits: the L2 norm no peer's contribution may exceed; 0: only finiteness),
//                  u32 block elements (values per ring block: every member must frame the same way)
//   M2C Commence   u64 tag, u64 opId, u64 epoch, u16 link   (the link pair the operation's ring exchange uses)
//   C2M Done       u64 tag, u64 opId, u8 verdict    (bits: 1 aborted; with it, 2 the ring predecessor sent values or
//                                                    quantization parameters outside the bounds, 4 this peer was
//                                                    starved by its predecessor, 8 its successor stopped reading;
//                                                    0: done. opId 0: withdraw the Begin for tag, aborting it),
//                  u16 step, u32 block                (the next ring block it waited for when it stopped)
//   M2C Outcome    u64 tag, u64 opId, u8 aborted, u16 n, n bytes UTF-8 reason   (exactly one per operation per peer;
//                                                    opId 0: the Begin itself was refused)
//   C2M SyncState  u64 revision, u16 n, n x {u16 len, name (UTF-8, <= 128 bytes), u64 bytes, u8[32] SHA-256}
//   M2C SyncPlan   u64 revision (elected), u8 family (0: none, 4, 6), u8[0|4|16] address, u16 port (distributor),
//                  u16 n, n x {u16 index, u8[32] expected SHA-256}     (the tensors this peer must fetch),
//                  u8[32] state digest (stateDigestOf the elected tensors' digests), u8 signed (0|1),
//                  [u8[64] the hub's ed25519 signature over recordMessage(context, revision, state digest)]
//   C2M SyncDone   u8 ok
//   M2C SyncComplete u8 ok, u16 n, n bytes UTF-8 reason
//
// Ring channel (peer -> its ring successor; `links` connections per neighbour and direction, one operation at a
// time on each: the master gives every commenced operation a link no other running operation uses):
//   P2P PeerHello  u64 epoch, u32 fromPeerId, u32 toPeerId, u16 link, u8 protection (LinkProtection: 0 none,
//                  1 integrity, 2 encryption), u8[32] ephemeral X25519 public key (all zero: an unprotected link;
//                  LinkCipher.h), u8[64] signature by the sender's node key over
//                  helloMessage(ring token, epoch, from, to, link, protection, ephemeral)   (the token never goes on a
//                  ring link)
//   P2P StateRequest u64 revision, u32 fromPeerId, u16 n, n x u16 index, u8[64] signature by the sender's node key
//                  over stateRequestMessage(ring token, revision, from, indices)   (shared state: to a distributor)
//   P2P StateData  u16 index, u64 offset, payload (<= 4 MiB of the tensor's bytes; the distributor sends every
//                  requested tensor in order, in pieces, then closes)
//   P2P Block      u64 opId, u16 step, u32 block, [u8[8] quant params when quantized], payload
//                  [, u8[16] tag on a protected link: the payload sealed (ChaCha20-Poly1305), the frame header and
//                  the fields before the payload authenticated]
//                  payload: the block's values as little-endian f32, or one code per value (uint8, or little-endian
//                  uint16) when quantized. The receiver knows the exact length of every (step, block) from the
//                  operation's descriptor and refuses any other length, opId, step or block. (Ring payloads are
//                  little-endian so they can be sent from and received into tensor memory without copies; the ring
//                  code static_asserts a little-endian host.)
#include <QByteArray>
#include <QByteArrayView>
#include <QHostAddress>
#include <QString>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace cohort::collectives {

inline constexpr uint16_t kProtocolVersion =
    5; // 4: ring hellos carry an ephemeral key (protected links); 5: Done says how far it received
inline constexpr size_t kFrameHeaderBytes = 6; // u32 length + u16 type
inline constexpr size_t kPublicKeyBytes = 32;
inline constexpr size_t kSignatureBytes = 64;
inline constexpr size_t kNonceBytes = 32;
inline constexpr size_t kEphemeralKeyBytes = 32; // X25519
inline constexpr size_t kRingTokenBytes = 16;
inline constexpr size_t kDigestBytes = 32;  // SHA-256 of a shared tensor, of the shared state
inline constexpr size_t kMaxMembers = 1024; // a Topology larger than this is refused
inline constexpr size_t kMaxLinks = 16;     // connections per ring neighbour and direction
inline constexpr size_t kMaxReasonBytes = 512;
inline constexpr size_t kMaxBlockElements = 1u << 20;  // a ring block holds at most this many values (4 MiB of f32)
inline constexpr size_t kBlockHeaderBytes = 8 + 2 + 4; // opId, step, block (then params when quantized)
inline constexpr size_t kMaxSharedTensors = 1024;
inline constexpr size_t kMaxNameBytes = 128;
inline constexpr size_t kStateDataHeaderBytes = 2 + 8; // index, offset
inline constexpr size_t kMaxStateDataBytes = 4u << 20;

enum class Channel : uint8_t { ToMaster, FromMaster, Ring };

enum class Type : uint16_t {
    Hello = 1,
    Challenge = 2,
    Proof = 3,
    Welcome = 4,
    Refused = 5,
    Vote = 6,
    Topology = 7,
    Ready = 8,
    Committed = 9,
    Failed = 10,
    Pending = 11,
    Begin = 12,
    Commence = 13,
    Done = 14,
    Outcome = 15,
    SyncState = 16,
    SyncPlan = 17,
    SyncDone = 18,
    SyncComplete = 19,
    PeerHello = 32,
    Block = 33,
    StateRequest = 34,
    StateData = 35,
};

// The largest payload `type` may carry on `channel`; nullopt for a type that does not belong there (or is unknown).
std::optional<size_t> payloadCap(Channel channel, uint16_t type);

struct FrameHeader {
    uint16_t type = 0;
    size_t payloadBytes = 0;
};

// Parses and checks a 6-byte header: nullopt for length < 2, an unknown/foreign type, or a payload over its cap.
std::optional<FrameHeader> parseHeader(Channel channel, const uint8_t *bytes);
std::array<uint8_t, kFrameHeaderBytes> encodeHeader(Type type, size_t payloadBytes);

struct Frame {
    Type type{};
    QByteArray payload;
};

// Incremental frame reader for a byte stream: feed what the socket gave, take frames out. After an error it stays in
// error (the connection is to be closed) and tells why.
class FrameDecoder {
public:
    explicit FrameDecoder(Channel channel)
        : m_channel(channel)
    {}
    void feed(const char *data, size_t size);
    void feed(QByteArrayView bytes) { feed(bytes.data(), size_t(bytes.size())); }
    enum class Result { NeedMore, Frame, Error };
    Result next(Frame &out);
    bool failed() const { return !m_error.isEmpty(); }
    const QString &error() const { return m_error; }
    size_t buffered() const { return size_t(m_buffer.size()) - m_offset; }

private:
    Channel m_channel;
    QByteArray m_buffer;
    size_t m_offset = 0;
    QString m_error;
};

QByteArray encodeFrame(Type type, QByteArrayView payload);

// ---- messages ----------------------------------------------------------------------------------------------------

enum class ReduceOp : uint8_t { Sum = 0, Avg = 1 };
enum class DataType : uint8_t { F32 = 0, BF16 = 1, F16 = 2 };
enum class Quant : uint8_t { None = 0, U8 = 1, U16 = 2 };

struct HelloMsg {
    uint16_t version = kProtocolVersion;
    uint16_t p2pPort = 0;
    QByteArray publicKey; // 32 bytes
};
struct ChallengeMsg {
    QByteArray nonce; // 32 bytes
};
struct ProofMsg {
    QByteArray signature; // 64 bytes
};
struct WelcomeMsg {
    uint32_t peerId = 0;
};
struct ReasonMsg { // Refused
    QString reason;
};
struct Member {
    uint32_t peerId = 0;
    QHostAddress address;
    uint16_t port = 0;
    QByteArray publicKey; // 32 bytes: its ring hellos and state requests are signed with it
    bool operator==(const Member &) const = default;
};
struct TopologyMsg {
    uint64_t epoch = 0;
    QByteArray ringToken; // 16 bytes
    uint32_t pendingPeers = 0;
    uint16_t links = 1; // connections per neighbour and direction
    std::vector<Member> ring;
};
struct EpochMsg { // Committed, Failed
    uint64_t epoch = 0;
};
struct ReadyMsg {
    uint64_t epoch = 0;
    bool ok = false;
    uint32_t blamed = 0; // !ok: the ring neighbour that did not link (0: not known)
};
struct PendingMsg {
    uint32_t pendingPeers = 0;
};
struct BeginMsg {
    uint64_t tag = 0;
    uint64_t count = 0;
    ReduceOp op = ReduceOp::Sum;
    DataType dtype = DataType::F32;
    Quant quant = Quant::None;
    uint64_t epoch = 0;
    float normBound = 0;        // finite, >= 0
    uint32_t blockElements = 0; // 1..kMaxBlockElements
    bool operator==(const BeginMsg &) const = default;
};
struct CommenceMsg {
    uint64_t tag = 0;
    uint64_t opId = 0;
    uint64_t epoch = 0;
    uint16_t link = 0;
};
struct DoneMsg {
    uint64_t tag = 0;
    uint64_t opId = 0;
    bool aborted = false;
    // Why this peer stopped (each implies aborted): what its predecessor sent broke the bounds; it waited on its
    // predecessor's data for long (starved); it waited on its successor to read for long (blocked).
    bool blamePredecessor = false;
    bool starvedByPredecessor = false;
    bool blockedBySuccessor = false;
    // How far it had received when it stopped: the next block it waited for (StallJudge.h weighs it against its
    // predecessor's); past the last step when it received everything.
    uint16_t receivedStep = 0;
    uint32_t receivedBlock = 0;
};
struct OutcomeMsg {
    uint64_t tag = 0;
    uint64_t opId = 0;
    bool aborted = false;
    QString reason;
};
struct TensorDigest {
    QString name;
    uint64_t bytes = 0;
    QByteArray digest; // SHA-256, kDigestBytes
    bool operator==(const TensorDigest &) const = default;
};
struct SyncStateMsg {
    uint64_t revision = 0;
    std::vector<TensorDigest> tensors;
};
struct SyncPlanMsg {
    uint64_t revision = 0;
    QHostAddress distributor; // null when nothing is to be fetched
    uint16_t port = 0;
    std::vector<std::pair<uint16_t, QByteArray>> fetch; // tensor index, expected SHA-256
    QByteArray stateDigest;                             // of the whole elected state (kDigestBytes)
    QByteArray signature; // the hub's over recordMessage; empty: unsigned (a master without a key)
};
struct SyncCompleteMsg {
    bool ok = false;
    QString reason;
};
struct StateRequestMsg {
    uint64_t revision = 0;
    uint32_t fromPeerId = 0;
    std::vector<uint16_t> indices;
    QByteArray signature; // 64 bytes
};
struct PeerHelloMsg {
    uint64_t epoch = 0;
    uint32_t fromPeerId = 0;
    uint32_t toPeerId = 0;
    uint16_t link = 0;
    uint8_t protection = 0; // LinkProtection
    QByteArray ephemeral;   // 32 bytes: the dialer's X25519 key for a protected link; all zero otherwise
    QByteArray signature;   // 64 bytes
};

// What a peer signs to answer a challenge: a fixed context string, the nonce and its own public key.
QByteArray admissionMessage(QByteArrayView nonce, QByteArrayView publicKey);
// What the hub signs for the shared state it recorded: a fixed context string, the group's context (a DiLoCo task's
// id), the revision and the state digest.
QByteArray recordMessage(QByteArrayView context, uint64_t revision, QByteArrayView stateDigest);
// What a ring member signs to open a link, and to ask a distributor for shared state: a fixed context string, the
// epoch's ring token (a secret of the members: a replay into another epoch or ring fails) and the fields.
QByteArray helloMessage(QByteArrayView ringToken, uint64_t epoch, uint32_t from, uint32_t to, uint16_t link,
                        uint8_t protection, QByteArrayView ephemeral);
QByteArray stateRequestMessage(QByteArrayView ringToken, uint64_t revision, uint32_t from,
                               const std::vector<uint16_t> &indices);
// The digest of a whole shared state: SHA-256 over its tensors' SHA-256 digests, in order.
QByteArray stateDigestOf(const std::vector<QByteArray> &tensorDigests);

QByteArray encode(const HelloMsg &m);
QByteArray encode(const ChallengeMsg &m);
QByteArray encode(const ProofMsg &m);
QByteArray encode(const WelcomeMsg &m);
QByteArray encodeRefused(const QString &reason);
QByteArray encodeVote();
QByteArray encode(const TopologyMsg &m);
QByteArray encode(const ReadyMsg &m);
QByteArray encodeCommitted(uint64_t epoch);
QByteArray encodeFailed(uint64_t epoch);
QByteArray encode(const PendingMsg &m);
QByteArray encode(const BeginMsg &m);
QByteArray encode(const CommenceMsg &m);
QByteArray encode(const DoneMsg &m);
QByteArray encode(const OutcomeMsg &m);
QByteArray encode(const PeerHelloMsg &m);
QByteArray encode(const SyncStateMsg &m);
QByteArray encode(const SyncPlanMsg &m);
QByteArray encodeSyncDone(bool ok);
QByteArray encode(const SyncCompleteMsg &m);
QByteArray encode(const StateRequestMsg &m);

// Payload parsers (the frame's type is known already): nullopt for any malformed payload.
std::optional<HelloMsg> parseHello(QByteArrayView p);
std::optional<ChallengeMsg> parseChallenge(QByteArrayView p);
std::optional<ProofMsg> parseProof(QByteArrayView p);
std::optional<WelcomeMsg> parseWelcome(QByteArrayView p);
std::optional<ReasonMsg> parseRefused(QByteArrayView p);
bool parseVote(QByteArrayView p);
std::optional<TopologyMsg> parseTopology(QByteArrayView p);
std::optional<ReadyMsg> parseReady(QByteArrayView p);
std::optional<EpochMsg> parseEpoch(QByteArrayView p); // Committed and Failed
std::optional<PendingMsg> parsePending(QByteArrayView p);
std::optional<BeginMsg> parseBegin(QByteArrayView p);
std::optional<CommenceMsg> parseCommence(QByteArrayView p);
std::optional<DoneMsg> parseDone(QByteArrayView p);
std::optional<OutcomeMsg> parseOutcome(QByteArrayView p);
std::optional<PeerHelloMsg> parsePeerHello(QByteArrayView p);
std::optional<SyncStateMsg> parseSyncState(QByteArrayView p);
std::optional<SyncPlanMsg> parseSyncPlan(QByteArrayView p);
std::optional<bool> parseSyncDone(QByteArrayView p);
std::optional<SyncCompleteMsg> parseSyncComplete(QByteArrayView p);
std::optional<StateRequestMsg> parseStateRequest(QByteArrayView p);

// Parses a frame of any control/ring type with the matching parser; false if the payload is malformed. For the fuzzer
// and for logging.
bool parseAny(const Frame &frame);

// Big-endian helpers shared with the ring code.
inline void putU16(uint8_t *p, uint16_t v)
{
    p[0] = uint8_t(v >> 8);
    p[1] = uint8_t(v);
}
inline void putU32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        p[i] = uint8_t(v >> (24 - 8 * i));
}
inline void putU64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        p[i] = uint8_t(v >> (56 - 8 * i));
}
inline uint16_t getU16(const uint8_t *p)
{
    return uint16_t((uint16_t(p[0]) << 8) | p[1]);
}
inline uint32_t getU32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
        v = (v << 8) | p[i];
    return v;
}
inline uint64_t getU64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
        v = (v << 8) | p[i];
    return v;
}

} // namespace cohort::collectives
