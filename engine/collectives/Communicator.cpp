// The communicator's core: construction, the link to the master and ring membership (join, topology changes,
// connecting to the ring neighbours). The data paths live beside it: CommunicatorRing.cpp (all-reduce over the ring)
// and CommunicatorState.cpp (shared-state sync).
#include "collectives/Communicator.h"

#include "collectives/CommunicatorFaults.h"
#include "collectives/CommunicatorOps.h"
#include "collectives/Logging.h"
#include "net/Ed25519.h"

#include <QElapsedTimer>

#include <QThread>

#include <algorithm>
#include <array>

namespace cohort::collectives {

const CommunicatorFaults &Communicator::faults() const
{
    static const CommunicatorFaults kNone;
    return m_options.faults ? *m_options.faults : kNone;
}

Communicator::Communicator(CommunicatorOptions options)
    : m_options(std::move(options))
{
    m_options.blockElements = std::clamp<size_t>(m_options.blockElements, 1024, kMaxBlockElements);
    m_options.codeSlotBytes = std::min(m_options.codeSlotBytes, kMaxCodeSlotBytes);
    m_publicKey = ed25519::publicKeyOf(m_options.secretKey);
}

Communicator::~Communicator()
{
    close();
}

void Communicator::close()
{
    stopInFlight();
    m_inFlight.clear();
    m_links.clear();
    dropMaster();
    m_wake.close();
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

Status Communicator::fail(Code code, QString message)
{
    qCDebug(lcCollectives) << "peer" << m_peerId << errorCodeName(code) << message;
    return cohort::fail(std::move(message), code);
}

// ---- master link -------------------------------------------------------------------------------------------------

Status Communicator::sendToMaster(const QByteArray &frame)
{
    std::unique_lock lock(m_masterSend);
    if (!m_master.valid())
        return fail(Code::NotConnected, QStringLiteral("not connected to the master"));
    const Status s = m_master.sendAll(frame.constData(), size_t(frame.size()), m_options.controlTimeoutMs);
    if (!s) {
        m_master.close();
        return fail(Code::Disconnected, QStringLiteral("lost the master: %1").arg(s.error()));
    }
    return Status::success();
}

bool Communicator::sendDone(uint64_t tag, uint64_t opId, bool aborted, const InFlight *why)
{
    // From a worker thread: the owner may be reading the master link meanwhile (that is fine for a socket), but it
    // closes it only under this lock. A failed send is left to the owner to notice.
    DoneMsg done{tag, opId, aborted};
    if (why && aborted) {
        done.blamePredecessor = why->blamePredecessor;
        done.starvedByPredecessor = why->starved;
        done.blockedBySuccessor = why->blocked;
        done.receivedStep = uint16_t(std::min<uint32_t>(why->received.step, 0xffff));
        done.receivedBlock = why->received.block;
    }
    const QByteArray frame = encode(done);
    std::unique_lock lock(m_masterSend);
    return m_master.valid() && m_master.sendAll(frame.constData(), size_t(frame.size()), m_options.controlTimeoutMs);
}

void Communicator::dropMaster()
{
    std::unique_lock lock(m_masterSend);
    m_master.close();
}

Status Communicator::pumpMaster(int timeoutMs)
{
    if (!m_master.valid())
        return fail(Code::Disconnected, QStringLiteral("not connected to the master"));
    PollEntry entry{m_master.native(), true, false};
    if (pollSockets({&entry, 1}, timeoutMs) <= 0 || !entry.readable)
        return Status::success();
    std::array<char, 16384> buffer;
    for (;;) {
        const IoResult r = m_master.recv(buffer.data(), buffer.size());
        m_decoder.feed(buffer.data(), r.bytes);
        if (r.closed) {
            dropMaster();
            return fail(Code::Disconnected, r.error.isEmpty() ? QStringLiteral("the master closed the connection")
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
            dropMaster();
            return fail(Code::Disconnected, QStringLiteral("the master broke the protocol: %1").arg(m_decoder.error()));
        }
        if (frame.type == Type::Pending) {
            if (const auto m = parsePending(frame.payload))
                m_pendingPeers = m->pendingPeers;
            continue;
        }
        if (frame.type == Type::Topology) {
            auto topology = parseTopology(frame.payload);
            if (!topology) {
                dropMaster();
                return fail(Code::Disconnected, QStringLiteral("malformed Topology from the master"));
            }
            m_pendingPeers = topology->pendingPeers;
            m_nextTopology = std::move(*topology);
            continue;
        }
        if (!parseAny(frame)) {
            dropMaster();
            return fail(Code::Disconnected,
                        QStringLiteral("malformed frame of type %1 from the master").arg(uint16_t(frame.type)));
        }
        m_inbox.push_back(std::move(frame));
    }
    return Status::success();
}

Status Communicator::waitFor(const std::function<bool()> &condition, QDeadlineTimer deadline, const char *what,
                             Cancel cancel)
{
    for (;;) {
        if (condition())
            return Status::success();
        if (!m_master.valid())
            return fail(Code::Disconnected,
                        QStringLiteral("lost the master while waiting for %1").arg(QString::fromLatin1(what)));
        if (deadline.hasExpired())
            return fail(Code::Timeout, QStringLiteral("timed out waiting for %1").arg(QString::fromLatin1(what)));
        // The owner stops (a paused or quitting DiLoCo node): waiting on the others' votes or begins could take the
        // whole begin timeout (minutes); leaving now costs them only what a departure costs.
        if (cancel == Cancel::Allowed && cancelled())
            return fail(Code::Aborted, QStringLiteral("cancelled while waiting for %1").arg(QString::fromLatin1(what)));
        const Status r = pumpMaster(int(std::clamp<qint64>(deadline.remainingTime(), 0, 500)));
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
    // old epochs) is stale. Verdicts on the ring being formed and on operations still in flight stay.
    const uint64_t forming = m_nextTopology ? m_nextTopology->epoch : 0;
    std::erase_if(m_inbox, [&](const Frame &f) {
        if (f.type == Type::Committed || f.type == Type::Failed) {
            const auto e = parseEpoch(f.payload);
            return !e || e->epoch != forming;
        }
        if (f.type == Type::Outcome) {
            const auto o = parseOutcome(f.payload);
            const auto it = m_inFlight.find(o->tag);
            return it == m_inFlight.end() || it->second->opId != o->opId;
        }
        return f.type == Type::Commence || f.type == Type::SyncPlan || f.type == Type::SyncComplete;
    });
}

// ---- membership --------------------------------------------------------------------------------------------------

Status Communicator::connect()
{
    if (m_master.valid())
        return Status::success();
    if (m_publicKey.size() != ed25519::kPublicKeyBytes)
        return fail(Code::InvalidArgument, QStringLiteral("no ed25519 secret key given"));
    const QDeadlineTimer deadline(m_options.connectTimeoutMs);
    auto listener = TcpListener::listen(m_options.bindAddress, m_options.p2pPort);
    if (!listener)
        return fail(Code::InvalidArgument, listener.error());
    m_listener = std::move(listener.value());
    auto master = TcpSocket::connectTo(m_options.masterAddress, m_options.masterPort, m_options.controlTimeoutMs);
    if (!master)
        return fail(Code::Disconnected, master.error());
    m_master = std::move(master.value());
    m_decoder = FrameDecoder(Channel::FromMaster);
    m_inbox.clear();

    if (const Status wake = m_wake.open(); !wake)
        return fail(Code::InvalidArgument, wake.error());
    Status r = sendToMaster(encode(HelloMsg{kProtocolVersion, m_listener.port(), m_publicKey}));
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
        faults().challengeKeyOverride.isEmpty() ? m_options.secretKey : faults().challengeKeyOverride;
    if (!(r = sendToMaster(
              encode(ProofMsg{ed25519::sign(admissionMessage(challenge->nonce, m_publicKey), signingKey)}))))
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

Status Communicator::ensureRing()
{
    if (Status r = pumpMaster(0); !r)
        return r;
    if (!m_nextTopology && m_ring.empty()) {
        // The last formation failed: the master forms a new ring as soon as it can. Never treat "no ring" as a
        // ring of one.
        Status r = waitFor([this] { return m_nextTopology.has_value(); }, QDeadlineTimer(m_options.beginTimeoutMs),
                           "a new ring");
        if (!r)
            return r;
    }
    if (m_nextTopology) {
        // A new ring means the master aborted whatever ran on this one; its links are about to close.
        stopInFlight();
        return applyTopology();
    }
    return Status::success();
}

Status Communicator::updateTopology()
{
    if (!m_master.valid())
        return fail(Code::NotConnected, QStringLiteral("not connected"));
    if (!m_inFlight.empty())
        return fail(Code::InvalidArgument, QStringLiteral("await the operations in flight before a topology vote"));
    purgeInbox();
    if (Status r = pumpMaster(0); !r)
        return r;
    if (m_nextTopology || m_ring.empty())
        return ensureRing();
    if (Status r = sendToMaster(encodeVote()); !r)
        return r;
    const uint64_t current = m_epoch;
    std::optional<Frame> unchanged;
    Status r = waitFor(
        [&] {
            if (m_nextTopology)
                return true;
            unchanged =
                take(Type::Committed, [current](const Frame &f) { return parseEpoch(f.payload)->epoch == current; });
            return unchanged.has_value();
        },
        QDeadlineTimer(m_options.beginTimeoutMs), "the other peers' votes");
    if (!r)
        return r;
    if (unchanged && !m_nextTopology)
        return Status::success();
    return applyTopology();
}

namespace {
// What a protected link's key is bound to: the ring, the pair and the link (LinkCipher.h).
QByteArray linkContext(const TopologyMsg &topology, uint32_t from, uint32_t to, uint16_t link)
{
    return helloMessage(topology.ringToken, topology.epoch, from, to, link, 0, {});
}

bool allZero(const QByteArray &bytes)
{
    return std::all_of(bytes.cbegin(), bytes.cend(), [](char c) { return c == 0; });
}
} // namespace

Status Communicator::acceptPredecessor(const TopologyMsg &topology, uint32_t predecessor, QDeadlineTimer deadline,
                                       std::vector<TcpSocket> *out, std::vector<std::optional<LinkCipher>> *ciphers)
{
    out->clear();
    out->resize(topology.links);
    ciphers->clear();
    ciphers->resize(topology.links);
    size_t linked = 0;
    const auto member = std::find_if(topology.ring.begin(), topology.ring.end(),
                                     [&](const Member &m) { return m.peerId == predecessor; });
    const QByteArray predecessorKey = member == topology.ring.end() ? QByteArray() : member->publicKey;
    // Takes a link if it is one of ours that is still missing and the predecessor's key signed its hello for this
    // epoch, this pair and this link (a replayed or forged hello, or one for another ring, is dropped).
    auto offer = [&](const PeerHelloMsg &h, TcpSocket &socket) {
        if (h.epoch != topology.epoch || h.fromPeerId != predecessor || h.toPeerId != m_peerId ||
            h.link >= topology.links)
            return false;
        if (!ed25519::verify(
                helloMessage(topology.ringToken, h.epoch, h.fromPeerId, h.toPeerId, h.link, h.protection, h.ephemeral),
                h.signature, predecessorKey)) {
            qCWarning(lcCollectives) << "dropped a ring link claiming to be peer" << predecessor
                                     << "whose hello is not signed by its key";
            return false;
        }
        if ((*out)[h.link].valid())
            return false;
        std::optional<LinkCipher> cipher;
        const LinkProtection mode = m_options.linkProtection;
        if (h.protection != uint8_t(mode) || (mode == LinkProtection::None) != allZero(h.ephemeral)) {
            qCWarning(lcCollectives) << "dropped a ring link from peer" << predecessor << "protected as"
                                     << linkProtectionName(LinkProtection(std::min<uint8_t>(h.protection, 2)))
                                     << "where this group protects its links as" << linkProtectionName(mode);
            return false;
        }
        if (mode != LinkProtection::None) {
            cipher = LinkCipher::accept(mode, h.ephemeral, m_options.secretKey,
                                        linkContext(topology, h.fromPeerId, h.toPeerId, h.link));
            if (!cipher) {
                qCWarning(lcCollectives) << "dropped a ring link from peer" << predecessor
                                         << "with an unusable link key";
                return false;
            }
        }
        (*out)[h.link] = std::move(socket);
        (*ciphers)[h.link] = std::move(cipher);
        ++linked;
        return true;
    };
    for (EarlyLink &early : m_early)
        offer(early.hello, early.socket);
    std::erase_if(m_early, [&](const EarlyLink &l) { return !l.socket.valid() || l.hello.epoch <= topology.epoch; });
    while (linked < topology.links) {
        if (deadline.hasExpired())
            return fail(Code::Timeout, QStringLiteral("ring predecessor %1 did not connect (%2 of %3 links)")
                                           .arg(predecessor)
                                           .arg(linked)
                                           .arg(topology.links));
        PollEntry entries[2] = {{m_listener.native(), true, false}, {m_master.native(), true, false}};
        pollSockets(entries, int(std::clamp<qint64>(deadline.remainingTime(), 0, 500)));
        if (entries[1].readable) {
            if (Status r = pumpMaster(0); !r)
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
        std::array<uint8_t, kFrameHeaderBytes + 8 + 4 + 4 + 2 + 1 + kEphemeralKeyBytes + kSignatureBytes> hello{};
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
        if (!msg || offer(*msg, socket))
            continue;
        if (msg->epoch > topology.epoch && m_early.size() < 8 * kMaxLinks)
            m_early.push_back(EarlyLink{*msg, std::move(socket)}); // for a ring we have not heard of yet
    }
    return Status::success();
}

Status Communicator::applyTopology()
{
    const TopologyMsg topology = std::move(*m_nextTopology);
    m_nextTopology.reset();
    m_links.clear();
    m_ring.clear();
    m_rank = -1;
    const auto self = std::find_if(topology.ring.begin(), topology.ring.end(),
                                   [this](const Member &m) { return m.peerId == m_peerId; });
    if (self == topology.ring.end()) {
        close();
        return fail(Code::Disconnected, QStringLiteral("the master sent a ring without this peer"));
    }
    const int n = int(topology.ring.size());
    const int rank = int(self - topology.ring.begin());
    const QDeadlineTimer deadline(m_options.controlTimeoutMs);
    bool linked = true;
    QString why;
    uint32_t blamed = 0; // the neighbour that did not link
    std::vector<TcpSocket> next, prev;
    std::vector<std::optional<LinkCipher>> nextCiphers(topology.links), prevCiphers;
    if (n >= 2 && faults().fakeReady) {
        // The test's staller: claims to be linked, links nothing (its neighbours' dials reach the kernel's backlog).
    } else if (n >= 2) {
        const Member &successor = topology.ring[size_t((rank + 1) % n)];
        const Member &predecessor = topology.ring[size_t((rank + n - 1) % n)];
        if (faults().forgeHello && n >= 3) {
            const Member &target = topology.ring[size_t((rank + 2) % n)];
            m_forged.clear();
            for (uint16_t link = 0; link < topology.links; ++link) {
                auto dialed = TcpSocket::connectTo(target.address, target.port, m_options.controlTimeoutMs);
                if (!dialed)
                    break;
                const QByteArray forged =
                    encode(PeerHelloMsg{topology.epoch, successor.peerId, target.peerId, link, 0, QByteArray(),
                                        ed25519::sign(helloMessage(topology.ringToken, topology.epoch, successor.peerId,
                                                                   target.peerId, link, 0, {}),
                                                      m_options.secretKey)});
                (void)dialed.value().sendAll(forged.constData(), size_t(forged.size()), m_options.controlTimeoutMs);
                m_forged.push_back(std::move(dialed.value()));
            }
        }
        if (faults().linkDelayMs > 0)
            QThread::msleep(uint32_t(faults().linkDelayMs));
        for (uint16_t link = 0; link < topology.links && linked; ++link) {
            auto dialed = TcpSocket::connectTo(successor.address, successor.port, m_options.controlTimeoutMs);
            if (!dialed) {
                linked = false;
                why = dialed.error();
                blamed = successor.peerId;
                break;
            }
            QByteArray ephemeral;
            if (m_options.linkProtection != LinkProtection::None) {
                auto dialedKey = LinkCipher::dial(m_options.linkProtection, successor.publicKey,
                                                  linkContext(topology, m_peerId, successor.peerId, link));
                if (!dialedKey) {
                    linked = false;
                    why = QStringLiteral("no link key for the successor's node key");
                    blamed = successor.peerId;
                    break;
                }
                ephemeral = dialedKey->ephemeralPublicKey;
                nextCiphers[link] = std::move(dialedKey->cipher);
            }
            const uint8_t protection = uint8_t(m_options.linkProtection);
            const QByteArray hello =
                encode(PeerHelloMsg{topology.epoch, m_peerId, successor.peerId, link, protection, ephemeral,
                                    ed25519::sign(helloMessage(topology.ringToken, topology.epoch, m_peerId,
                                                               successor.peerId, link, protection, ephemeral),
                                                  m_options.secretKey)});
            const Status s =
                dialed.value().sendAll(hello.constData(), size_t(hello.size()), m_options.controlTimeoutMs);
            if (!s) {
                linked = false;
                why = s.error();
                blamed = successor.peerId;
            }
            next.push_back(std::move(dialed.value()));
        }
        if (linked) {
            const Status r = acceptPredecessor(topology, predecessor.peerId, deadline, &prev, &prevCiphers);
            if (!r) {
                if (r.code() == Code::Disconnected)
                    return r;
                if (r.code() == Code::Aborted)
                    return r; // the master moved on; its next Topology (if any) is queued
                linked = false;
                why = r.error();
                blamed = predecessor.peerId;
            }
        }
    }
    if (Status r = sendToMaster(encode(ReadyMsg{topology.epoch, linked, linked ? 0 : blamed})); !r)
        return r;
    std::optional<Frame> verdict;
    const auto sameEpoch = [&](const Frame &f) { return parseEpoch(f.payload)->epoch == topology.epoch; };
    Status r = waitFor(
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
        return fail(Code::Aborted, linked
                                       ? QStringLiteral("ring formation %1 failed").arg(topology.epoch)
                                       : QStringLiteral("ring formation %1 failed: %2").arg(topology.epoch).arg(why));
    m_ring = topology.ring;
    m_rank = rank;
    m_epoch = topology.epoch;
    m_ringToken = topology.ringToken;
    m_links.resize(topology.links);
    for (size_t i = 0; i < next.size() && i < m_links.size(); ++i) {
        m_links[i].next = std::move(next[i]);
        m_links[i].tx = std::move(nextCiphers[i]);
    }
    for (size_t i = 0; i < prev.size() && i < m_links.size(); ++i) {
        m_links[i].prev = std::move(prev[i]);
        m_links[i].rx = i < prevCiphers.size() ? std::move(prevCiphers[i]) : std::nullopt;
    }
    qCDebug(lcCollectives) << "peer" << m_peerId << "in ring epoch" << m_epoch << "rank" << m_rank << "of" << n
                           << "with" << topology.links << "links per neighbour";
    return Status::success();
}

} // namespace cohort::collectives
