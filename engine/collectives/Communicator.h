#pragma once
// The peer side of the collectives (prime-stack.md §1): connects to the master, joins the ring, runs all-reduce as a
// pipelined ring reduce-scatter + all-gather over TCP links to its two ring neighbours, and synchronizes shared state
// (syncSharedState).
//
// Links and operations in flight: the ring has a pool of `links` connections per neighbour and direction (the master
// decides how many, MasterOptions::linksPerNeighbour). Every operation's data exchange runs on one link pair, in a
// worker thread of its own, so several operations (distinct tags) can be in flight: allReduceAsync starts one and
// returns when every member has begun it; awaitReduce collects it. The master gives each commenced operation a link no
// running operation holds; with all links busy, starting one more waits until one finishes (an exchange finishes by
// itself, whether or not its caller awaits it yet). Members must start the same operations in the same order (as with
// NCCL or PCCL), since starting waits for everyone to begin. After a start fails, start nothing more: await the
// operations already started (their verdicts are the same on every member) and retry the failed ones, in order, so
// every member retries the same operations. allReduce is allReduceAsync + awaitReduce.
//
// Threading: a Communicator belongs to one thread — the one that calls it (give it a dedicated QThread in an app).
// Every call blocks that thread; every wait in it has a timeout (CommunicatorOptions), so no call hangs forever.
// The worker threads only touch their operation's buffers and link pair, and tell the master when they are done.
// It uses plain sockets (Socket.h), not Qt's event loop.
//
// All-reduce semantics:
//   * sum or average of f32 values; bf16/f16 inputs are widened to f32, reduced, and rounded back.
//   * optional min-max quantization on the wire (uint8/uint16, engine/quant), one header per block: each hop sends
//     its partial sums quantized; the owner of a fully reduced chunk quantizes it once, replaces its own copy by the
//     de-quantized values, and the codes are forwarded untouched, so every peer ends BIT-IDENTICAL. Without
//     quantization every peer also ends bit-identical (each chunk is summed once, by a fixed order, and copied).
//   * error bound with quantization (tst_collectives_e2e checks it): a value passes n-1 reduce-scatter hops, each
//     adding at most half a step of the block it travelled in, then the owner's quantization adds half a step more:
//       |result - exact sum| <= n * W / (2L) + float rounding,   L = 255 (uint8) or 65535 (uint16),
//     W bounding the width (max - min) of any block of partial sums; W <= 2 n max|x| for inputs x.
//     Blocks (CommunicatorOptions::blockElements values each) have their own min/scale, so W is usually far smaller.
//   * the result stands only when the master reports that every peer completed the operation; on any failure the
//     in-place call's buffer holds its input again, bit for bit (the ring works in it and restores it from a copy
//     made block by block); the out-of-place call never writes its input and needs no copy.
//   * failures: a peer vanishing or a link breaking mid-operation makes the master abort it for everyone; the call
//     returns Code::Aborted (retryable): call again, and the ring re-forms with the peers that are left first. With
//     one peer left the operation completes at once (the sum of one), `ReduceInfo::worldSize` says 1. NaN or infinity
//     with quantization, or an input above CommunicatorOptions::contributionNormBound: Code::InvalidArgument for the
//     peer that holds them, Code::Aborted for the others.
//   * hostile peers: every received block is checked (ValueBounds.h) — non-finite values, values or quantization
//     parameters beyond what the norm bound allows, a chunk whose norm is beyond it — and the operation aborted with
//     the sender named (Done's blame, Wire.h); the master excludes it (Master.h). The receiver's call returns
//     Code::Aborted with the reason, as for a peer that left: retry.
#include "collectives/LinkCipher.h"
#include "collectives/Ring.h"
#include "collectives/Socket.h"
#include "collectives/Wire.h"
#include "core/Expected.h"
#include "core/RateLimiter.h"
#include "quant/Quantize.h"

#include <QByteArray>
#include <QDeadlineTimer>
#include <QHostAddress>
#include <QString>

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

namespace cohort::collectives {

// Every operation returns a cohort::Status (core/Expected.h). Its code is what a caller decides by:
//   Aborted         the operation or ring formation was aborted (a peer left, a link broke): retry
//   Timeout         a wait ran out (peers too slow to begin, no progress on a link): retry or give up
//   Disconnected    the connection to the master is gone: reconnect (a new Communicator)
//   Refused         the master refused this peer
//   InvalidArgument e.g. non-finite values with quantization, a bad dtype
//   NotConnected    connect() has not succeeded
// Status::retryable() is true for the first two.
using Code = ErrorCode;

struct CommunicatorFaults;

struct ReduceInfo {
    int worldSize = 0;    // peers that took part (1: nothing to exchange)
    uint64_t opId = 0;    // the master's id of the operation
    uint64_t txBytes = 0; // ring bytes sent / received, frame headers included
    uint64_t rxBytes = 0;
    double beginMs = 0;   // waiting for every peer to begin (the master's Commence)
    double ringMs = 0;    // the data exchange
    double outcomeMs = 0; // waiting for the master's verdict
};

// One tensor of the shared state: a name and its bytes (the caller's memory; a sync may overwrite it).
struct SharedTensor {
    QString name;
    std::span<uint8_t> bytes;
};

struct SyncInfo {
    uint64_t revision = 0; // the revision every peer holds now
    uint64_t txBytes = 0;  // shared-state bytes this peer sent to others / received
    uint64_t rxBytes = 0;
    int fetched = 0; // tensors this peer fetched
};

// A shared tensor's digest: SHA-256 (OpenSSL), so a distributor cannot serve other bytes under the elected digest
// (the fast non-cryptographic hash before it could be matched by solving 32 bytes; bench_hashing measures both).
QByteArray tensorDigest(std::span<const uint8_t> bytes);

inline constexpr size_t kMaxCodeSlotBytes = 64u << 20; // CommunicatorOptions::codeSlotBytes

struct CommunicatorOptions {
    QHostAddress masterAddress = QHostAddress(QHostAddress::LocalHost);
    uint16_t masterPort = 0;
    QByteArray secretKey; // ed25519 secret key (64 bytes, libsodium layout; its second half is the public key)
    QHostAddress bindAddress = QHostAddress(QHostAddress::AnyIPv4); // where the ring listener listens
    uint16_t p2pPort = 0;                                           // 0: any free port
    int connectTimeoutMs = 60'000;                                  // connect(): until admitted into a ring
    int controlTimeoutMs = 10'000;     // a reply from the master, linking to ring neighbours
    int beginTimeoutMs = 60'000;       // every peer to begin the same operation / vote
    int ioTimeoutMs = 10'000;          // no progress at all on the ring links
    size_t blockElements = 256 * 1024; // values per pipelined block (<= kMaxBlockElements)
    // Quantized: room for codes waiting between arriving and being passed on, kept in cache, in slots of one block
    // (<= kMaxCodeSlotBytes); more wait in a whole-buffer store in memory. Same results either way; 0: all there.
    size_t codeSlotBytes = 2u << 20;
    // The node's upload cap, shared with whoever changes it (its rate may change during an operation). Paces the
    // bytes this peer sends to other peers — ring blocks and served shared state — not the small frames to the
    // master. Null or rate 0: unpaced.
    std::shared_ptr<RateLimiter> uploadLimiter;
    // Set by the owner to stop (then it calls uploadLimiter->interrupt()): a send the cap holds back, and a wait on
    // the master (formation, votes, the others' begins, shared-state sync), end with Code::Aborted within half a
    // second instead of waiting on. A ring exchange in flight, and the wait for its outcome, finish (or fail) on
    // their own: an average that has begun is not thrown away. Null: never cancelled.
    const std::atomic<bool> *cancel = nullptr;
    // The L2 norm no peer's contribution to an all-reduce may exceed (the task's bound; every member must use the same,
    // the master aborts operations whose members disagree). What arrives from the ring is checked against it
    // (collectives/ValueBounds.h): a predecessor that sends more is named to the master, which aborts the operation
    // and excludes it. This peer's own input above it is refused before anything is sent (Code::InvalidArgument).
    // 0: values are only checked to be finite.
    float contributionNormBound = 0;
    // Whether to check this peer's own input against the bound before sending (a pass over it). A caller that clips
    // its input to the bound, and so has measured it already (DiLoCo), turns it off.
    bool checkOwnInput = true;
    // The hub's public key (32 bytes): a shared-state sync then accepts only a state whose record the hub signed
    // (SyncPlan, Wire.h) for `recordContext` (the task's id). Empty: unsigned records are accepted (tests, a master
    // without a key).
    QByteArray masterKey;
    QByteArray recordContext;
    // Protect every ring block (collectives/LinkCipher.h, under a key only the link's two ends know): Integrity, a path
    // between members cannot change what they average unnoticed; Encryption, nor read it. Every member of a group
    // must agree (a task setting): a link whose other end does not is refused when it is made.
    LinkProtection linkProtection = LinkProtection::None;
    // The hostile behaviours of a test peer (collectives/CommunicatorFaults.h); null everywhere but in the tests.
    std::shared_ptr<const CommunicatorFaults> faults;
};

class Communicator {
public:
    explicit Communicator(CommunicatorOptions options);
    ~Communicator();
    Communicator(const Communicator &) = delete;
    Communicator &operator=(const Communicator &) = delete;

    // Registers with the master and waits until admitted into a ring (the ring's members vote with updateTopology).
    Status connect();
    // A collective vote of the ring's members: admit pending peers (re-linking the ring), or nothing when none wait.
    Status updateTopology();
    // In-place all-reduce of `data`. Every ring member must call it with the same tag, count, op and quantization.
    Status allReduce(std::span<float> data, ReduceOp op, Quant quant, uint64_t tag, ReduceInfo *info = nullptr);
    // Out of place: `output` gets the result, `input` is only read (no copy is kept: the cheaper call when the caller
    // has both buffers). On failure `output` holds nothing useful. The two must not overlap (or be the same span,
    // which is the in-place call).
    Status allReduce(std::span<const float> input, std::span<float> output, ReduceOp op, Quant quant, uint64_t tag,
                     ReduceInfo *info = nullptr);
    // bf16 or f16 values given as their 16-bit patterns (dtype BF16 or F16).
    Status allReduce(std::span<uint16_t> data, DataType dtype, ReduceOp op, Quant quant, uint64_t tag,
                     ReduceInfo *info = nullptr);
    // Starts an all-reduce (in place, or input -> output) and returns once every ring member has begun it; the
    // exchange goes on in the background. The buffers must stay valid, and `data`/`output` untouched, until
    // awaitReduce(tag). A failure to start leaves nothing in flight (and the buffers as they were).
    Status allReduceAsync(std::span<float> data, ReduceOp op, Quant quant, uint64_t tag);
    Status allReduceAsync(std::span<const float> input, std::span<float> output, ReduceOp op, Quant quant,
                          uint64_t tag);
    // Waits for the operation started with `tag` and its verdict: the same results and guarantees as allReduce (an
    // in-place buffer holds its input again when it failed).
    Status awaitReduce(uint64_t tag, ReduceInfo *info = nullptr);
    int operationsInFlight() const { return int(m_inFlight.size()); }
    // Shared-state synchronization, a collective of the ring (prime-stack.md §1.3): every member declares the same
    // tensors (names, sizes, order), their SHA-256 digests and its revision; the master elects the content (anchored
    // at its record of the last sync, Master.h: only the members that held that record vote on the next revision,
    // never newcomers), and each peer whose tensors differ fetches them from a peer holding the elected content,
    // checks their digests and the whole state's against the (hub-signed, with masterKey) record, and takes the
    // elected revision. Peers that apply the same updates bit-identically receive 0 bytes after their first sync. On
    // failure the call returns an error; fetched tensors may then be partly overwritten (sync again).
    Status syncSharedState(uint64_t revision, std::span<const SharedTensor> tensors, SyncInfo *info = nullptr);
    void close();

    bool connected() const { return m_master.valid(); }
    uint32_t peerId() const { return m_peerId; }
    int worldSize() const { return int(m_ring.size()); }
    int rank() const { return m_rank; }
    uint64_t epoch() const { return m_epoch; }
    uint32_t pendingPeers() const { return m_pendingPeers; }
    std::vector<uint32_t> ringPeerIds() const;
    uint16_t p2pPort() const { return m_listener.port(); }
    int linksPerNeighbour() const { return int(m_links.size()); }

    struct RingBuffers; // one operation's working memory (CommunicatorRing.cpp)
    struct InFlight;    // an operation between allReduceAsync and awaitReduce

private:
    Status fail(Code code, QString message);
    bool cancelled() const { return m_options.cancel && m_options.cancel->load(); }
    Status sendToMaster(const QByteArray &frame);
    // Reads whatever the master sent (waiting up to timeoutMs for something) into the inbox.
    Status pumpMaster(int timeoutMs);
    // Pumps the master's frames until `condition` holds, the deadline passes or the master is lost. Cancellable
    // waits also end (Aborted) once the owner's cancel flag is set; the wait for an operation's outcome is not:
    // the exchange is done by then, and giving up would throw away an average the others keep.
    enum class Cancel { Allowed, Ignored };
    Status waitFor(const std::function<bool()> &condition, QDeadlineTimer deadline, const char *what,
                   Cancel cancel = Cancel::Allowed);
    std::optional<Frame> take(Type type, const std::function<bool(const Frame &)> &match = {});
    void purgeInbox();
    // Applies a pending Topology, or waits for one when this peer has no ring (after a failed formation).
    Status ensureRing();
    // Links to the ring of m_nextTopology and waits for the master's verdict on it.
    Status applyTopology();
    // Accepts the predecessor's `topology.links` connections into `out` (indexed by link).
    Status acceptPredecessor(const TopologyMsg &topology, uint32_t predecessor, QDeadlineTimer deadline,
                             std::vector<TcpSocket> *out, std::vector<std::optional<LinkCipher>> *ciphers);
    Status serveState(std::span<const SharedTensor> tensors, SyncInfo *info);
    Status fetchState(const SyncPlanMsg &plan, std::span<const SharedTensor> tensors, SyncInfo *info);
    Status startReduce(std::span<const float> input, std::span<float> data, ReduceOp op, Quant quant, DataType dtype,
                       uint64_t tag);
    // The data exchange of one operation, on a worker thread: Ok, or why it stopped.
    Status runRing(InFlight &op);
    // Tells in-flight operations to stop and waits for their workers (their awaitReduce then reports them).
    void stopInFlight();
    // Marks in-flight operations whose verdict (an abort) is in the inbox, so their workers stop early.
    void noteAborts();
    // Sends Done for an operation (any thread): whether the master got it.
    // `why`: the operation's reasons for stopping (blame, starved, blocked) go with an abort.
    bool sendDone(uint64_t tag, uint64_t opId, bool aborted, const InFlight *why = nullptr);
    void dropMaster();                        // closes the master link (owner thread)
    const CommunicatorFaults &faults() const; // the options' faults, or none

    CommunicatorOptions m_options;
    QByteArray m_publicKey;
    TcpSocket m_master;
    FrameDecoder m_decoder{Channel::FromMaster};
    std::deque<Frame> m_inbox;
    TcpListener m_listener;
    struct EarlyLink {
        PeerHelloMsg hello;
        TcpSocket socket;
    };
    std::vector<EarlyLink> m_early;  // links for a ring epoch this peer has not seen yet
    std::vector<TcpSocket> m_forged; // the forgeHello fault's links, kept open
    struct LinkPair {
        TcpSocket next, prev;
        std::optional<LinkCipher> tx, rx; // linkProtection: sealing what goes to next, opening what comes from prev
    };
    std::vector<LinkPair> m_links; // of the committed ring, by link index
    uint32_t m_peerId = 0;
    uint64_t m_epoch = 0;
    QByteArray m_ringToken; // of the committed ring: shared-state requests must show it
    std::vector<Member> m_ring;
    int m_rank = -1;
    uint32_t m_pendingPeers = 0;
    std::optional<TopologyMsg> m_nextTopology;

    std::mutex m_masterSend; // the workers send Done themselves; also held to close the master link
    WakeSignal m_wake;       // a worker finished
    std::map<uint64_t, std::unique_ptr<InFlight>> m_inFlight; // by tag
    std::vector<std::unique_ptr<RingBuffers>> m_spareBuffers; // kept between operations (no fresh pages each time)
};

} // namespace cohort::collectives
