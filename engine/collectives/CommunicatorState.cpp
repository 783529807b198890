// Communicator, shared-state sync: named tensors with a revision and per-tensor hashes; the master elects the
// content, outdated peers fetch the differing tensors from a distributor peer over a direct connection.
#include "collectives/Communicator.h"

#include "collectives/CommunicatorFaults.h"
#include "collectives/Logging.h"
#include "core/Sha256.h"
#include "net/Ed25519.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace cohort::collectives {

// ---- shared state ------------------------------------------------------------------------------------------------

QByteArray tensorDigest(std::span<const uint8_t> bytes)
{
    Sha256 sha;
    // In pieces: QByteArray sizes are qsizetype, a tensor may be larger than one call should take.
    constexpr size_t kPiece = size_t(1) << 30;
    for (size_t at = 0; at < bytes.size(); at += kPiece)
        sha.addData(reinterpret_cast<const char *>(bytes.data() + at), qsizetype(std::min(kPiece, bytes.size() - at)));
    return sha.result();
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

Status Communicator::serveState(std::span<const SharedTensor> tensors, SyncInfo *info)
{
    TcpSocket socket = m_listener.accept();
    if (!socket.valid())
        return Status::success();
    const QDeadlineTimer deadline(m_options.controlTimeoutMs);
    std::array<uint8_t, kFrameHeaderBytes> h{};
    if (!readExactly(socket, h.data(), h.size(), QDeadlineTimer(2000)))
        return Status::success(); // not a peer of ours: drop it
    const auto header = parseHeader(Channel::Ring, h.data());
    if (!header || (header->type != uint16_t(Type::StateRequest) && header->type != uint16_t(Type::PeerHello)))
        return Status::success();
    QByteArray payload(qsizetype(header->payloadBytes), Qt::Uninitialized);
    if (!readExactly(socket, payload.data(), payload.size(), QDeadlineTimer(2000)))
        return Status::success();
    if (header->type == uint16_t(Type::PeerHello)) {
        const auto hello = parsePeerHello(payload);
        if (hello && hello->epoch > m_epoch && m_early.size() < 8)
            m_early.push_back(EarlyLink{*hello, std::move(socket)}); // a link for a ring formed after this sync
        return Status::success();
    }
    // Only a member of the committed ring, by its key: state is not handed to whoever knows an address.
    const auto request = parseStateRequest(payload);
    if (!request)
        return Status::success();
    const auto member =
        std::find_if(m_ring.begin(), m_ring.end(), [&](const Member &m) { return m.peerId == request->fromPeerId; });
    if (member == m_ring.end() ||
        !ed25519::verify(stateRequestMessage(m_ringToken, request->revision, request->fromPeerId, request->indices),
                         request->signature, member->publicKey)) {
        qCWarning(lcCollectives) << "refused a shared-state request not signed by a ring member";
        return Status::success();
    }
    RateLimiter *const limiter = m_options.uploadLimiter.get();
    for (const uint16_t index : request->indices) {
        if (index >= tensors.size())
            return Status::success();
        const std::span<uint8_t> bytes = tensors[index].bytes;
        size_t offset = 0;
        do {
            // Under the upload cap, a piece is at most ~2 s of the rate and gets its own no-progress deadline (the
            // fetcher allows ioTimeoutMs per piece): a capped transfer of big state legitimately outlasts
            // controlTimeoutMs, but never stalls longer than a piece.
            const int64_t cap = limiter ? limiter->rate() : 0;
            const size_t maxPiece =
                cap > 0 ? std::clamp<size_t>(size_t(cap) * 2, 4096, kMaxStateDataBytes) : kMaxStateDataBytes;
            const size_t piece = std::min(maxPiece, bytes.size() - offset);
            auto frameHeader = encodeHeader(Type::StateData, kStateDataHeaderBytes + piece);
            std::array<uint8_t, kFrameHeaderBytes + kStateDataHeaderBytes> head{};
            std::memcpy(head.data(), frameHeader.data(), frameHeader.size());
            putU16(head.data() + kFrameHeaderBytes, index);
            putU64(head.data() + kFrameHeaderBytes + 2, offset);
            QDeadlineTimer sendBy = deadline;
            if (cap > 0) {
                sendBy = QDeadlineTimer(m_options.ioTimeoutMs);
                if (limiter->acquire(int64_t(head.size() + piece), sendBy, m_options.cancel) !=
                    RateLimiter::Wait::Granted)
                    return Status::success(); // cancelled or too slow: the fetcher reports its failure to the master
            }
            const int left = int(std::max<qint64>(sendBy.remainingTime(), 1));
            std::vector<uint8_t> forged;
            const uint8_t *out = bytes.data() + offset;
            if (faults().serveForged && piece > 0) {
                forged.assign(out, out + piece);
                forged[0] ^= 0xff;
                out = forged.data();
            }
            if (!socket.sendAll(head.data(), head.size(), left) ||
                !socket.sendAll(out, piece, int(std::max<qint64>(sendBy.remainingTime(), 1))))
                return Status::success(); // the fetcher reports its failure to the master
            info->txBytes += piece;
            offset += piece;
        } while (offset < bytes.size());
    }
    return Status::success();
}

Status Communicator::fetchState(const SyncPlanMsg &plan, std::span<const SharedTensor> tensors, SyncInfo *info)
{
    for (const auto &[index, hash] : plan.fetch)
        if (index >= tensors.size())
            return fail(Code::Aborted, QStringLiteral("the master named an unknown tensor"));
    auto connected = TcpSocket::connectTo(plan.distributor, plan.port, m_options.controlTimeoutMs);
    if (!connected)
        return fail(Code::Aborted,
                    QStringLiteral("cannot reach the shared-state distributor: %1").arg(connected.error()));
    TcpSocket socket = std::move(connected.value());
    StateRequestMsg request{plan.revision, m_peerId, {}, {}};
    for (const auto &[index, hash] : plan.fetch)
        request.indices.push_back(index);
    request.signature = ed25519::sign(stateRequestMessage(m_ringToken, request.revision, m_peerId, request.indices),
                                      m_options.secretKey);
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
        if (tensorDigest(bytes) != hash)
            return fail(Code::Aborted,
                        QStringLiteral("tensor %1 from the distributor does not match its elected digest")
                            .arg(tensors[index].name));
        ++info->fetched;
    }
    return Status::success();
}

Status Communicator::syncSharedState(uint64_t revision, std::span<const SharedTensor> tensors, SyncInfo *info)
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
    if (Status r = ensureRing(); !r)
        return r;
    SyncStateMsg state{revision, {}};
    for (const SharedTensor &t : tensors)
        state.tensors.push_back(TensorDigest{t.name, uint64_t(t.bytes.size()), tensorDigest(t.bytes)});
    if (Status r = sendToMaster(encode(state)); !r)
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
            return Status::success();
        }
        if (!plan) {
            if (auto f = take(Type::SyncPlan)) {
                plan = parseSyncPlan(f->payload);
                // The record first: with the hub's key, only a state the hub signed for this group and revision.
                QString refused;
                std::vector<QByteArray> digests;
                for (const TensorDigest &t : state.tensors)
                    digests.push_back(t.digest);
                for (const auto &[index, expected] : plan->fetch)
                    if (index < digests.size())
                        digests[index] = expected;
                if (stateDigestOf(digests) != plan->stateDigest)
                    refused = QStringLiteral("the master's plan does not add up to its state digest");
                else if (!m_options.masterKey.isEmpty() &&
                         !ed25519::verify(recordMessage(m_options.recordContext, plan->revision, plan->stateDigest),
                                          plan->signature, m_options.masterKey))
                    refused = QStringLiteral("the shared state's record (revision %1) is not signed by the hub")
                                  .arg(plan->revision);
                bool ok = refused.isEmpty();
                if (ok && !plan->fetch.empty()) {
                    const Status fetched = fetchState(*plan, tensors, info);
                    if (!fetched)
                        qCWarning(lcCollectives) << "shared-state fetch failed:" << fetched.error();
                    ok = fetched.ok();
                }
                if (!refused.isEmpty())
                    qCWarning(lcCollectives) << "shared-state sync refused:" << refused;
                if (Status r = sendToMaster(encodeSyncDone(ok)); !r)
                    return r;
                reported = true;
                continue;
            }
        }
        if (!m_master.valid())
            return fail(Code::Disconnected, QStringLiteral("lost the master during a shared-state sync"));
        if (deadline.hasExpired())
            return fail(Code::Timeout, QStringLiteral("timed out in a shared-state sync"));
        // Serve other peers' requests while waiting.
        PollEntry entries[2] = {{m_master.native(), true, false}, {m_listener.native(), true, false}};
        pollSockets(entries, int(std::clamp<qint64>(deadline.remainingTime(), 0, 500)));
        if (entries[1].readable)
            (void)serveState(tensors, info);
        if (entries[0].readable)
            if (Status r = pumpMaster(0); !r)
                return r;
    }
}

} // namespace cohort::collectives
