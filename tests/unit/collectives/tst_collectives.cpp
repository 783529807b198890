// engine/collectives without processes: the frame codec (truncated, oversized, unknown and misplaced types, every
// message round trip), the ring schedule for every world size 2..8 (chunks, ownership, and a symbolic run proving
// every rank ends with every contribution), bf16/f16 conversion, and the master refusing connections that break the
// wire format or cannot answer its challenge; the vectorized quantization equal to engine/quant bit for bit; peers
// that disagree on an operation both get an abort (inputs untouched), then go on.
#include "MasterInThread.h"
#include "RingInProcess.h"
#include "collectives/Communicator.h"
#include "collectives/FastQuant.h"
#include "collectives/HalfFloat.h"
#include "collectives/Master.h"
#include "collectives/Ring.h"
#include "collectives/ValueBounds.h"
#include "collectives/Wire.h"
#include "core/Sha256.h"
#include "net/Ed25519.h"
#include "quant/QuantMath.h"

#include <QDeadlineTimer>
#include <QTcpSocket>
#include <QTest>
#include <QThread>

#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <thread>

using namespace cohort::collectives;
using cohort::test::MasterInThread;

class TestCollectives : public QObject {
    Q_OBJECT

private:
    static QByteArray rawFrame(uint32_t length, uint16_t type, QByteArrayView payload = {})
    {
        QByteArray out(6, '\0');
        putU32(reinterpret_cast<uint8_t *>(out.data()), length);
        putU16(reinterpret_cast<uint8_t *>(out.data()) + 4, type);
        out.append(payload);
        return out;
    }

    // Connects a raw socket to the master; returns it connected.
    static std::unique_ptr<QTcpSocket> connectRaw(const MasterInThread &master)
    {
        auto socket = std::make_unique<QTcpSocket>();
        socket->connectToHost(QHostAddress::LocalHost, master.port);
        if (!socket->waitForConnected(5000))
            return {};
        return socket;
    }

    // Reads frames from the master until one arrives or the connection closes.
    static std::optional<Frame> readFrame(QTcpSocket &socket, FrameDecoder &decoder, int timeoutMs = 5000)
    {
        QDeadlineTimer deadline(timeoutMs);
        Frame frame;
        for (;;) {
            const auto r = decoder.next(frame);
            if (r == FrameDecoder::Result::Frame)
                return frame;
            if (r == FrameDecoder::Result::Error || deadline.hasExpired())
                return std::nullopt;
            if (socket.bytesAvailable() == 0 && !socket.waitForReadyRead(int(deadline.remainingTime())))
                return std::nullopt;
            decoder.feed(socket.readAll());
        }
    }

    static bool waitClosed(QTcpSocket &socket, int timeoutMs = 5000)
    {
        if (socket.state() == QAbstractSocket::UnconnectedState)
            return true;
        return socket.waitForDisconnected(timeoutMs) || socket.state() == QAbstractSocket::UnconnectedState;
    }

private Q_SLOTS:
    void framesRoundTrip()
    {
        TopologyMsg topology;
        topology.epoch = 7;
        topology.ringToken = QByteArray(16, 'k');
        topology.pendingPeers = 2;
        topology.ring = {Member{1, QHostAddress(QStringLiteral("127.0.0.1")), 4000, QByteArray(32, 'a')},
                         Member{9, QHostAddress(QStringLiteral("::1")), 4001, QByteArray(32, 'b')}};
        QByteArray stream =
            encode(topology) + encode(OutcomeMsg{5, 3, true, QStringLiteral("peer 4 left")}) + encodeCommitted(7);
        FrameDecoder decoder(Channel::FromMaster);
        // Byte by byte: a truncated frame is simply not ready yet.
        std::vector<Frame> frames;
        Frame frame;
        for (const char c : stream) {
            decoder.feed(&c, 1);
            while (decoder.next(frame) == FrameDecoder::Result::Frame)
                frames.push_back(frame);
        }
        QVERIFY(!decoder.failed());
        QCOMPARE(frames.size(), size_t(3));
        QCOMPARE(frames[0].type, Type::Topology);
        QCOMPARE(frames[1].type, Type::Outcome);
        QCOMPARE(frames[2].type, Type::Committed);
        QCOMPARE(parseEpoch(frames[2].payload)->epoch, uint64_t(7));
    }

    void channelsKeepTheirTypes()
    {
        // Begin belongs to the peer->master direction: a master sending it is an unknown type for the peer.
        FrameDecoder fromMaster(Channel::FromMaster);
        fromMaster.feed(encode(BeginMsg{}));
        Frame frame;
        QCOMPARE(fromMaster.next(frame), FrameDecoder::Result::Error);
        QVERIFY(fromMaster.error().contains(QStringLiteral("unknown")));

        FrameDecoder toMaster(Channel::ToMaster);
        toMaster.feed(encode(BeginMsg{5, 1234567, ReduceOp::Avg, DataType::BF16, Quant::U8, 42, 2.5f, 4096}));
        QCOMPARE(toMaster.next(frame), FrameDecoder::Result::Frame);
        const auto begin = parseBegin(frame.payload);
        QVERIFY(begin);
        QCOMPARE(begin->count, uint64_t(1234567));
        QCOMPARE(begin->dtype, DataType::BF16);
        QCOMPARE(begin->quant, Quant::U8);
        QCOMPARE(begin->op, ReduceOp::Avg);
        QCOMPARE(begin->epoch, uint64_t(42));
        QCOMPARE(begin->normBound, 2.5f);
        QCOMPARE(begin->blockElements, uint32_t(4096));
    }

    void boundsAndBlamesParseStrictly()
    {
        // A bound that is not a finite, non-negative float, or a block size outside 1..kMaxBlockElements: no Begin.
        const auto beginWith = [](float bound, uint32_t block) {
            return parseBegin(
                encode(BeginMsg{1, 10, ReduceOp::Sum, DataType::F32, Quant::None, 1, bound, block}).mid(6));
        };
        QVERIFY(beginWith(0.0f, 1));
        QVERIFY(beginWith(1e30f, uint32_t(kMaxBlockElements)));
        QVERIFY(!beginWith(std::nanf(""), 1024));
        QVERIFY(!beginWith(INFINITY, 1024));
        QVERIFY(!beginWith(-1.0f, 1024));
        QVERIFY(!beginWith(1.0f, 0));
        QVERIFY(!beginWith(1.0f, uint32_t(kMaxBlockElements) + 1));
        // Done's verdict bits: 1 aborted, 2 bad data, 4 starved, 8 blocked; a reason implies the abort bit; no reason
        // without an operation; no other bits.
        const auto done = parseDone(encode(DoneMsg{4, 9, true, true, false, true}).mid(6));
        QVERIFY(done && done->aborted && done->blamePredecessor && !done->starvedByPredecessor &&
                done->blockedBySuccessor);
        constexpr int kVerdictAt = 6 + 16;                                                // frame header, tag, opId
        QCOMPARE(uint8_t(encode(DoneMsg{4, 9, false, true}).at(kVerdictAt)), uint8_t(3)); // a blame is an abort
        QCOMPARE(uint8_t(encode(DoneMsg{4, 9, false, false, true}).at(kVerdictAt)), uint8_t(5));
        QVERIFY(!parseDone(encode(DoneMsg{4, 0, true, true}).mid(6)));
        QByteArray verdict = encode(DoneMsg{4, 9, true}).mid(6);
        for (const uint8_t bad : {uint8_t(2), uint8_t(4), uint8_t(8), uint8_t(0x10), uint8_t(0x81)}) {
            verdict[16] = char(bad);
            QVERIFY2(!parseDone(verdict), qPrintable(QString::number(bad)));
        }
        // How far it received: u16 step, u32 block after the verdict, big-endian like every field (golden bytes).
        DoneMsg starved{4, 9, true, false, true, false};
        starved.receivedStep = 3;
        starved.receivedBlock = 0x01020304;
        const QByteArray starvedFrame = encode(starved);
        QCOMPARE(starvedFrame.mid(kVerdictAt).toHex(), QByteArray("05000301020304"));
        const auto back = parseDone(starvedFrame.mid(6));
        QVERIFY(back && back->starvedByPredecessor && back->receivedStep == 3 && back->receivedBlock == 0x01020304);
        QVERIFY(!parseDone(starvedFrame.mid(6).chopped(1)));               // truncated
        QVERIFY(!parseDone(QByteArray(starvedFrame.mid(6)).append('\0'))); // trailing byte
        // Ready names a neighbour only when it failed.
        QCOMPARE(parseReady(encode(ReadyMsg{3, false, 7}).mid(6))->blamed, uint32_t(7));
        QByteArray ready = encode(ReadyMsg{3, true}).mid(6);
        ready[ready.size() - 1] = 1;
        QVERIFY(!parseReady(ready));
    }

    void valueBoundsCatchWhatTheyPromise()
    {
        // Pinned: a sum of k contributions of norm <= C has values and norm within k * C (5 % slack); no bound: inf.
        QCOMPARE(valueLimit(2.0f, 3), 6.0 * 1.05);
        QVERIFY(std::isinf(valueLimit(0.0f, 3)));
        std::vector<float> v(1000, 0.5f); // norm sqrt(250) = 15.81
        ScanResult r = scanValues(v.data(), v.size(), 1.0);
        QVERIFY(r.withinLimit);
        QVERIFY(std::fabs(r.sumSquares - 250.0) < 1e-3);
        QVERIFY(!scanValues(v.data(), v.size(), 0.49).withinLimit);
        for (const float bad : {std::nanf(""), INFINITY, -INFINITY, 3e38f}) {
            std::vector<float> w = v;
            w[999] = bad; // the scalar tail
            QVERIFY(!scanValues(w.data(), w.size(), valueLimit(0.0f, 1)).withinLimit || bad == 3e38f);
            w[999] = 0.5f;
            w[17] = bad; // a vector lane
            QVERIFY(!scanValues(w.data(), w.size(), 1e30).withinLimit);
        }
        const NormResult n = l2Norm(v.data(), v.size());
        QVERIFY(n.finite && std::fabs(n.norm - std::sqrt(250.0)) < 1e-4);
        v[3] = std::nanf("");
        QVERIFY(!l2Norm(v.data(), v.size()).finite);
    }

    void messagesParseBack()
    {
        TopologyMsg topology;
        topology.epoch = 7;
        topology.ringToken = QByteArray(16, 'k');
        topology.pendingPeers = 2;
        topology.links = 3;
        topology.ring = {Member{1, QHostAddress(QStringLiteral("127.0.0.1")), 4000, QByteArray(32, 'a')},
                         Member{9, QHostAddress(QStringLiteral("::1")), 4001, QByteArray(32, 'b')}};
        FrameDecoder decoder(Channel::FromMaster);
        decoder.feed(QByteArray(encode(topology) + encode(OutcomeMsg{5, 3, true, QStringLiteral("peer 4 left")})));
        Frame frame;
        QCOMPARE(decoder.next(frame), FrameDecoder::Result::Frame);
        QCOMPARE(frame.type, Type::Topology);
        const auto t = parseTopology(frame.payload);
        QVERIFY(t);
        QCOMPARE(t->epoch, uint64_t(7));
        QCOMPARE(t->pendingPeers, uint32_t(2));
        QCOMPARE(t->links, uint16_t(3));
        QCOMPARE(t->ring.size(), size_t(2));
        QCOMPARE(t->ring[1].address, QHostAddress(QStringLiteral("::1")));
        QCOMPARE(t->ring[1].port, uint16_t(4001));
        QCOMPARE(decoder.next(frame), FrameDecoder::Result::Frame);
        const auto o = parseOutcome(frame.payload);
        QVERIFY(o);
        QVERIFY(o->aborted);
        QCOMPARE(o->reason, QStringLiteral("peer 4 left"));
        QCOMPARE(decoder.next(frame), FrameDecoder::Result::NeedMore);

        // Trailing or missing bytes in a payload are refused by the parsers.
        const QByteArray hello = encode(HelloMsg{kProtocolVersion, 5000, QByteArray(32, 'p')}).mid(6);
        QVERIFY(parseHello(hello));
        QVERIFY(!parseHello(hello.left(hello.size() - 1)));
        QVERIFY(!parseHello(QByteArray(hello + 'x')));
        QVERIFY(!parseReady(QByteArray(QByteArray(8, '\0') + char(2)))); // a flag is 0 or 1
        QVERIFY(!parseBegin(QByteArray(QByteArray(16, '\0') + char(0) + char(0) + char(9) +
                                       QByteArray(8, '\0')))); // unknown quantization
        // A Topology naming the same peer twice, or no peer at all.
        TopologyMsg twice = topology;
        twice.ring[1].peerId = 1;
        QVERIFY(!parseTopology(encode(twice).mid(6)));
        TopologyMsg empty = topology;
        empty.ring.clear();
        QVERIFY(!parseTopology(encode(empty).mid(6)));
        // A link pool of 0 or more than kMaxLinks connections; a link index outside the pool.
        for (const uint16_t links : {uint16_t(0), uint16_t(kMaxLinks + 1)}) {
            TopologyMsg bad = topology;
            bad.links = links;
            QVERIFY(!parseTopology(encode(bad).mid(6)));
        }
        const auto commence = parseCommence(encode(CommenceMsg{4, 9, 2, 5}).mid(6));
        QVERIFY(commence);
        QCOMPARE(commence->link, uint16_t(5));
        QVERIFY(!parseCommence(encode(CommenceMsg{4, 9, 2, uint16_t(kMaxLinks)}).mid(6)));
        const auto peerHello =
            parsePeerHello(encode(PeerHelloMsg{3, 8, 9, 2, 2, QByteArray(32, 'e'), QByteArray(64, 's')}).mid(6));
        QVERIFY(peerHello);
        QCOMPARE(peerHello->link, uint16_t(2));
        QCOMPARE(peerHello->fromPeerId, uint32_t(8));
        QCOMPARE(peerHello->toPeerId, uint32_t(9));
        QCOMPARE(peerHello->ephemeral, QByteArray(32, 'e'));
        QCOMPARE(peerHello->signature, QByteArray(64, 's'));
        // An unprotected link's hello carries an all-zero key.
        QCOMPARE(
            parsePeerHello(encode(PeerHelloMsg{3, 8, 9, 2, 0, QByteArray(), QByteArray(64, 's')}).mid(6))->ephemeral,
            QByteArray(32, '\0'));
        // A hello binds the ring token (the epoch's secret), the epoch, both ends, the link and the link's key.
        const QByteArray token(16, 't');
        const QByteArray base = helloMessage(token, 3, 8, 9, 2, 0, {});
        QVERIFY(base != helloMessage(QByteArray(16, 'u'), 3, 8, 9, 2, 0, {}));
        QVERIFY(base != helloMessage(token, 4, 8, 9, 2, 0, {}));
        QVERIFY(base != helloMessage(token, 3, 9, 8, 2, 0, {}));
        QVERIFY(base != helloMessage(token, 3, 8, 9, 1, 0, {}));
        QVERIFY(base != helloMessage(token, 3, 8, 9, 2, 0, QByteArray(32, 'e')));
        QCOMPARE(base, helloMessage(token, 3, 8, 9, 2, 0, QByteArray(32, '\0')));
        QVERIFY(base != helloMessage(token, 3, 8, 9, 2, 1, {})); // the protection is signed too
        QVERIFY(!parsePeerHello(encode(PeerHelloMsg{3, 8, 9, 2, 3, {}, QByteArray(64, 's')}).mid(6))); // no such mode
        const auto request = parseStateRequest(encode(StateRequestMsg{7, 8, {0, 1}, QByteArray(64, 'r')}).mid(6));
        QVERIFY(request && request->fromPeerId == 8 && request->indices == std::vector<uint16_t>({0, 1}));
        QVERIFY(stateRequestMessage(token, 7, 8, {0, 1}) != stateRequestMessage(token, 7, 8, {1}));
        QVERIFY(!parsePeerHello(encode(PeerHelloMsg{3, 8, 9, uint16_t(kMaxLinks), 0, {}, QByteArray(64, 's')}).mid(6)));
    }

    void truncatedFramesWait()
    {
        const QByteArray frame = encode(DoneMsg{1, 2, false});
        for (int cut = 0; cut < frame.size(); ++cut) {
            FrameDecoder decoder(Channel::ToMaster);
            decoder.feed(frame.left(cut));
            Frame out;
            QCOMPARE(decoder.next(out), FrameDecoder::Result::NeedMore);
            decoder.feed(frame.mid(cut));
            QCOMPARE(decoder.next(out), FrameDecoder::Result::Frame);
            QVERIFY(parseDone(out.payload));
        }
    }

    void oversizedAndUnknownFramesFail()
    {
        Frame out;
        {
            // Length below 2 (no room for the type).
            FrameDecoder d(Channel::ToMaster);
            d.feed(rawFrame(1, uint16_t(Type::Vote)));
            QCOMPARE(d.next(out), FrameDecoder::Result::Error);
        }
        {
            // A Hello one byte longer than its cap: refused from the header alone, before any payload arrives.
            FrameDecoder d(Channel::ToMaster);
            d.feed(rawFrame(2 + 36 + 1, uint16_t(Type::Hello)));
            QCOMPARE(d.next(out), FrameDecoder::Result::Error);
            QVERIFY(d.error().contains(QStringLiteral("oversized")));
            // And it stays failed.
            d.feed(encodeVote());
            QCOMPARE(d.next(out), FrameDecoder::Result::Error);
        }
        {
            // 4 GiB announced.
            FrameDecoder d(Channel::Ring);
            d.feed(rawFrame(0xffffffffu, uint16_t(Type::Block)));
            QCOMPARE(d.next(out), FrameDecoder::Result::Error);
        }
        {
            FrameDecoder d(Channel::ToMaster);
            d.feed(rawFrame(2, 999));
            QCOMPARE(d.next(out), FrameDecoder::Result::Error);
            QVERIFY(d.error().contains(QStringLiteral("unknown")));
        }
        // The caps themselves.
        QCOMPARE(payloadCap(Channel::ToMaster, uint16_t(Type::Vote)), std::optional<size_t>(0));
        QVERIFY(!payloadCap(Channel::Ring, uint16_t(Type::Hello)));
        QVERIFY(*payloadCap(Channel::Ring, uint16_t(Type::Block)) >= kBlockHeaderBytes + 8 + kMaxBlockElements * 4);
        QVERIFY(*payloadCap(Channel::FromMaster, uint16_t(Type::Topology)) < 64 * 1024);
    }

    void ringChunks_data()
    {
        QTest::addColumn<int>("world");
        for (int n = 2; n <= 8; ++n)
            QTest::addRow("world %d", n) << n;
    }

    void ringChunks()
    {
        QFETCH(int, world);
        for (const size_t total : {size_t(0), size_t(1), size_t(world - 1), size_t(world), size_t(world + 1),
                                   size_t(1000), size_t(1000003), size_t(7 * world + 3)}) {
            size_t next = 0, smallest = SIZE_MAX, largest = 0;
            for (int c = 0; c < world; ++c) {
                const ring::Range r = ring::chunk(total, world, c);
                QCOMPARE(r.begin, next); // contiguous, in order
                next += r.count;
                smallest = std::min(smallest, r.count);
                largest = std::max(largest, r.count);
            }
            QCOMPARE(next, total); // covers everything
            QVERIFY(largest - smallest <= 1);
            // Blocks of a chunk cover it too.
            const ring::Range last = ring::chunk(total, world, world - 1);
            size_t covered = 0;
            for (size_t b = 0; b < ring::blockCount(last.count, 3); ++b) {
                const ring::Range blk = ring::block(last, 3, b);
                QCOMPARE(blk.begin, last.begin + covered);
                covered += blk.count;
            }
            QCOMPARE(covered, last.count);
        }
    }

    void ringSchedule_data() { ringChunks_data(); }

    void ringSchedule()
    {
        // A symbolic run: each rank's chunk holds the set of ranks whose contribution it contains.
        QFETCH(int, world);
        const size_t n = static_cast<size_t>(world);
        std::vector<std::vector<std::set<int>>> held(n, std::vector<std::set<int>>(n));
        for (int r = 0; r < world; ++r)
            for (int c = 0; c < world; ++c)
                held[size_t(r)][size_t(c)] = {r};
        for (int t = 0; t < ring::steps(world); ++t) {
            std::vector<std::set<int>> sent(n);
            for (int r = 0; r < world; ++r) {
                if (t > 0) // what goes out at step t came in at step t-1
                    QCOMPARE(ring::sendChunk(r, world, t), ring::recvChunk(r, world, t - 1));
                sent[size_t(r)] = held[size_t(r)][size_t(ring::sendChunk(r, world, t))];
            }
            for (int r = 0; r < world; ++r) {
                const int from = (r + world - 1) % world;
                const int c = ring::recvChunk(r, world, t);
                QCOMPARE(ring::sendChunk(from, world, t), c); // sender and receiver agree
                if (ring::isReduceStep(world, t)) {
                    // Never add a contribution twice.
                    for (const int x : sent[size_t(from)])
                        QVERIFY(!held[size_t(r)][size_t(c)].count(x));
                    held[size_t(r)][size_t(c)].insert(sent[size_t(from)].begin(), sent[size_t(from)].end());
                } else {
                    held[size_t(r)][size_t(c)] = sent[size_t(from)];
                }
            }
            if (t == world - 2) // after the reduce-scatter, each rank owns one complete chunk
                for (int r = 0; r < world; ++r)
                    QCOMPARE(int(held[size_t(r)][size_t(ring::ownedChunk(r, world))].size()), world);
        }
        for (int r = 0; r < world; ++r)
            for (int c = 0; c < world; ++c)
                QCOMPARE(int(held[size_t(r)][size_t(c)].size()), world);
    }

    void halfFloats()
    {
        // Every f16 value survives f16 -> f32 -> f16; widening matches the IEEE definition.
        for (uint32_t bits = 0; bits < 0x10000; ++bits) {
            const float f = f16ToFloat(uint16_t(bits));
            if (std::isnan(f))
                QVERIFY(std::isnan(f16ToFloat(floatToF16(f))));
            else
                QCOMPARE(floatToF16(f), uint16_t(bits));
        }
        QCOMPARE(f16ToFloat(0x3c00), 1.0f);
        QCOMPARE(f16ToFloat(0x0001), std::ldexp(1.0f, -24)); // smallest subnormal
        QCOMPARE(f16ToFloat(0x7bff), 65504.0f);
        QCOMPARE(floatToF16(65520.0f), uint16_t(0x7c00)); // rounds to infinity
        QCOMPARE(floatToF16(65519.0f), uint16_t(0x7bff));
        QCOMPARE(floatToF16(1.0f + std::ldexp(1.0f, -11)), uint16_t(0x3c00)); // tie to even
        QCOMPARE(floatToF16(1.0f + 3 * std::ldexp(1.0f, -11)), uint16_t(0x3c02));
        QCOMPARE(floatToF16(std::ldexp(1.0f, -25)), uint16_t(0x0000)); // half the smallest subnormal: tie to 0
        QCOMPARE(floatToF16(std::ldexp(1.5f, -25)), uint16_t(0x0001));
        // bf16: every pattern round-trips; rounding to nearest even.
        for (uint32_t bits = 0; bits < 0x10000; ++bits) {
            const float f = bf16ToFloat(uint16_t(bits));
            if (std::isnan(f))
                QVERIFY(std::isnan(bf16ToFloat(floatToBf16(f))));
            else
                QCOMPARE(floatToBf16(f), uint16_t(bits));
        }
        QCOMPARE(floatToBf16(std::bit_cast<float>(0x3f808000u)), uint16_t(0x3f80)); // tie, even stays
        QCOMPARE(floatToBf16(std::bit_cast<float>(0x3f818000u)), uint16_t(0x3f82)); // tie, odd rounds up
        QCOMPARE(floatToBf16(std::bit_cast<float>(0x3f808001u)), uint16_t(0x3f81));
        QVERIFY(std::isinf(bf16ToFloat(floatToBf16(std::numeric_limits<float>::max()))));
    }

    // fastquant rounds by truncating v + (the largest float below 0.5) where the reference rounds half away from
    // zero: the same code for every float v of the code range from 0.25 up to 65535 (below 0.25 both give 0; the
    // rows of fastQuantMatchesReference cover those). With min 0 and scale 1, v is the input itself.
    void fastQuantRoundsLikeTheReferenceForEveryFloat()
    {
        const cohort::quant::QuantParams unit{0.0f, 1.0f};
        constexpr size_t kBatch = size_t(1) << 20;
        std::vector<float> v(kBatch);
        std::vector<uint16_t> codes(kBatch);
        const uint32_t first = std::bit_cast<uint32_t>(0.25f), last = std::bit_cast<uint32_t>(65535.0f);
        size_t checked = 0;
        for (uint32_t bits = first; bits <= last;) {
            const size_t n = std::min<size_t>(kBatch, size_t(last - bits) + 1);
            for (size_t i = 0; i < n; ++i)
                v[i] = std::bit_cast<float>(bits + uint32_t(i));
            fastquant::quantize<uint16_t>({v.data(), n}, unit, codes.data());
            for (size_t i = 0; i < n; ++i) {
                const uint32_t expected = cohort::quant::math::encode(v[i], 0.0f, 1.0f, 65535);
                if (codes[i] != expected)
                    QFAIL(qPrintable(QStringLiteral("%1: code %2, reference %3")
                                         .arg(double(v[i]), 0, 'g', 9)
                                         .arg(codes[i])
                                         .arg(expected)));
            }
            bits += uint32_t(n);
            checked += n;
        }
        QCOMPARE(checked, size_t(last - first) + 1);
    }

    void fastQuantMatchesReference_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("gaussian") << 0;
        QTest::newRow("ties") << 1;
        QTest::newRow("constant") << 2;
        QTest::newRow("signed zeros and subnormals") << 3;
        QTest::newRow("huge range") << 4;
        QTest::newRow("odd length") << 5;
    }

    void fastQuantMatchesReference()
    {
        QFETCH(int, kind);
        std::mt19937_64 rng(uint64_t(kind) + 11);
        std::normal_distribution<float> normal(0.0f, 3.0f);
        size_t n = kind == 5 ? 1037 : 4096;
        std::vector<float> v(n);
        for (size_t i = 0; i < n; ++i) {
            switch (kind) {
            case 1: v[i] = float(int(i % 511)) * 0.5f; break; // codes land exactly on .5
            case 2: v[i] = 1.25f; break;
            case 3: v[i] = i % 3 == 0 ? -0.0f : i % 3 == 1 ? 0.0f : std::ldexp(float(i % 7) - 3.0f, -140); break;
            case 4: v[i] = normal(rng) * 1e37f; break;
            default: v[i] = normal(rng); break;
            }
        }
        auto check = [&]<typename Q>(Q) {
            const auto reference = cohort::quant::computeParams<Q>(v);
            const auto fast = fastquant::computeParams<Q>(v);
            QCOMPARE(fast.code, reference.code);
            if (!reference)
                return;
            QCOMPARE(std::bit_cast<uint32_t>(fast.params.min), std::bit_cast<uint32_t>(reference.params.min));
            QCOMPARE(std::bit_cast<uint32_t>(fast.params.scale), std::bit_cast<uint32_t>(reference.params.scale));
            std::vector<Q> a(n), b(n);
            QCOMPARE(cohort::quant::quantize<Q>(v, reference.params, a), cohort::ErrorCode::None);
            fastquant::quantize<Q>(v, fast.params, b.data());
            QVERIFY(a == b);
            // De-quantizing around the caches gives the same values, at any alignment of the destination.
            std::vector<float> plain(n + 9), streamed(n + 9);
            for (size_t offset : {size_t(0), size_t(1), size_t(7)}) {
                fastquant::dequantize<Q>(b.data(), fast.params, {plain.data() + offset, n});
                fastquant::dequantizeStreaming<Q>(b.data(), fast.params, {streamed.data() + offset, n});
                QVERIFY(std::memcmp(plain.data() + offset, streamed.data() + offset, n * 4) == 0);
            }
            std::vector<float> x(v), y(v);
            QCOMPARE(cohort::quant::dequantizeAccumulate<Q>(a, reference.params, x), cohort::ErrorCode::None);
            fastquant::dequantizeAccumulate<Q>(b.data(), fast.params, y);
            QVERIFY(std::memcmp(x.data(), y.data(), n * 4) == 0);
            std::vector<float> z(n);
            fastquant::dequantizeAdd<Q>(b.data(), fast.params, v.data(), z); // out of place, same sums
            QVERIFY(std::memcmp(x.data(), z.data(), n * 4) == 0);
            // The same sums with their range tracked, in two pieces as blocks arrive: the params of the result.
            fastquant::RangeKeys keys;
            std::vector<float> t(n);
            const size_t half = n / 3;
            fastquant::dequantizeAddTracked<Q>(b.data(), fast.params, v.data(), {t.data(), half}, keys);
            fastquant::dequantizeAddTracked<Q>(b.data() + half, fast.params, v.data() + half,
                                               {t.data() + half, n - half}, keys);
            QVERIFY(std::memcmp(t.data(), z.data(), n * 4) == 0);
            const auto tracked = fastquant::paramsOf<Q>(keys), direct = cohort::quant::computeParams<Q>(t);
            QCOMPARE(tracked.code, direct.code);
            if (direct) {
                QCOMPARE(std::bit_cast<uint32_t>(tracked.params.min), std::bit_cast<uint32_t>(direct.params.min));
                QCOMPARE(std::bit_cast<uint32_t>(tracked.params.scale), std::bit_cast<uint32_t>(direct.params.scale));
            }
            QCOMPARE(cohort::quant::dequantize<Q>(a, reference.params, x), cohort::ErrorCode::None);
            fastquant::dequantize<Q>(b.data(), fast.params, y);
            QVERIFY(std::memcmp(x.data(), y.data(), n * 4) == 0);
        };
        check(uint8_t{});
        check(uint16_t{});
        // Non-finite input is refused by both.
        v[n / 2] = std::numeric_limits<float>::infinity();
        QCOMPARE(fastquant::computeParams<uint8_t>(v).code, cohort::ErrorCode::NonFinite);
        v[n / 2] = std::numeric_limits<float>::quiet_NaN();
        QCOMPARE(fastquant::computeParams<uint16_t>(v).code, cohort::ErrorCode::NonFinite);
    }

    void mismatchedOperationsAbortForEveryone()
    {
        // Two communicators in threads against an in-process master: a count mismatch aborts the operation for both
        // (never a hang) and leaves both inputs untouched; the next matching call succeeds.
        MasterInThread master;
        QVERIFY(master.port != 0);
        auto run = [&](uint64_t seed, std::vector<std::pair<size_t, float>> calls, std::vector<Code> *codes,
                       std::vector<std::vector<float>> *results) {
            CommunicatorOptions options;
            options.masterPort = master.port;
            options.secretKey = cohort::ed25519::generate().secretKey;
            options.bindAddress = QHostAddress(QHostAddress::LocalHost);
            options.controlTimeoutMs = 5000;
            options.beginTimeoutMs = 5000;
            Communicator comm(options);
            cohort::Status r = comm.connect();
            // Vote until the other peer has joined. A deadline, not a number of rounds: a vote with nobody waiting
            // returns at once, and under load the other thread may take a while to connect and prove its key.
            const QDeadlineTimer deadline(30'000);
            while (r && comm.worldSize() < 2 && !deadline.hasExpired())
                r = comm.updateTopology();
            if (!r || comm.worldSize() != 2) {
                codes->push_back(Code::NotConnected);
                return;
            }
            uint64_t tag = 0;
            for (const auto &[count, value] : calls) {
                std::vector<float> data(count, value + float(seed));
                const std::vector<float> before = data;
                const cohort::Status result = comm.allReduce(data, ReduceOp::Sum, Quant::None, tag++);
                codes->push_back(result.code());
                results->push_back(result ? data : (data == before ? std::vector<float>{} : data));
            }
        };
        std::vector<Code> codesA, codesB;
        std::vector<std::vector<float>> resultsA, resultsB;
        std::thread a(run, 1, std::vector<std::pair<size_t, float>>{{1000, 1.0f}, {10, 2.0f}}, &codesA, &resultsA);
        std::thread b(run, 2, std::vector<std::pair<size_t, float>>{{999, 1.0f}, {10, 2.0f}}, &codesB, &resultsB);
        a.join();
        b.join();
        QCOMPARE(codesA.size(), size_t(2));
        QCOMPARE(codesB.size(), size_t(2));
        QCOMPARE(codesA[0], Code::Aborted);
        QCOMPARE(codesB[0], Code::Aborted);
        QVERIFY(resultsA[0].empty() && resultsB[0].empty()); // inputs restored
        QCOMPARE(codesA[1], Code::None);
        QCOMPARE(codesB[1], Code::None);
        QCOMPARE(resultsA[1], std::vector<float>(10, 7.0f)); // (2 + 1) + (2 + 2)
        QCOMPARE(resultsB[1], resultsA[1]);
    }

    void stateDigestsAreSha256()
    {
        // Pinned to SHA-256's published test vectors (FIPS 180-2): peers compare digests across versions, and a
        // distributor must not be able to serve other bytes under one.
        const auto hex = [](const QByteArray &d) { return QString::fromLatin1(d.toHex()); };
        QCOMPARE(hex(tensorDigest({})),
                 QStringLiteral("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        const QByteArray abc("abc");
        QCOMPARE(hex(tensorDigest({reinterpret_cast<const uint8_t *>(abc.constData()), 3})),
                 QStringLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        // The state digest is SHA-256 over the tensor digests in order: here over the two above.
        QCOMPARE(
            stateDigestOf({tensorDigest({}), tensorDigest({reinterpret_cast<const uint8_t *>(abc.constData()), 3})}),
            cohort::Sha256::hash(tensorDigest({}) +
                                 tensorDigest({reinterpret_cast<const uint8_t *>(abc.constData()), 3})));
        QVERIFY(stateDigestOf({QByteArray(32, 'a'), QByteArray(32, 'b')}) !=
                stateDigestOf({QByteArray(32, 'b'), QByteArray(32, 'a')}));
        QCOMPARE(hex(stateDigestOf({QByteArray(32, 'a'), QByteArray(32, 'b')})),
                 QStringLiteral("fdd2a64d014f2c406d2ece67c23212a92b356314f4deb42b24c395296ee304d2"));
        // Domain tag, NUL, u16 context length, context, u64 revision, digest (big-endian): what hubs sign forever.
        QCOMPARE(hex(recordMessage("task-a", 7, QByteArray(32, 'd'))),
                 QStringLiteral("636f686f72742d636f6c6c656374697665732d73746174652d7265636f72642d763100"
                                "0006"
                                "7461736b2d61"
                                "0000000000000007"
                                "6464646464646464646464646464646464646464646464646464646464646464"));
        // The record a hub signs names the group, the revision and the digest: changing any changes the message.
        const QByteArray d(32, 'd');
        QVERIFY(recordMessage("task-a", 7, d) != recordMessage("task-b", 7, d));
        QVERIFY(recordMessage("task-a", 7, d) != recordMessage("task-a", 8, d));
        QVERIFY(recordMessage("task-a", 7, d) != recordMessage("task-a", 7, QByteArray(32, 'e')));
    }

    void syncMessagesParseBack()
    {
        SyncStateMsg state{42,
                           {TensorDigest{QStringLiteral("w"), 4000, QByteArray(32, 'w')},
                            TensorDigest{QStringLiteral("b"), 8, QByteArray(32, 'b')}}};
        FrameDecoder toMaster(Channel::ToMaster);
        toMaster.feed(encode(state));
        Frame f;
        QCOMPARE(toMaster.next(f), FrameDecoder::Result::Frame);
        const auto parsed = parseSyncState(f.payload);
        QVERIFY(parsed);
        QCOMPARE(parsed->revision, uint64_t(42));
        QVERIFY(parsed->tensors == state.tensors);
        SyncPlanMsg plan{43,
                         QHostAddress(QStringLiteral("127.0.0.1")),
                         5000,
                         {{1, QByteArray(32, 'x')}},
                         QByteArray(32, 's'),
                         QByteArray(64, 'g')};
        FrameDecoder fromMaster(Channel::FromMaster);
        fromMaster.feed(encode(plan));
        QCOMPARE(fromMaster.next(f), FrameDecoder::Result::Frame);
        const auto p = parseSyncPlan(f.payload);
        QVERIFY(p);
        QCOMPARE(p->port, uint16_t(5000));
        QCOMPARE(p->fetch.size(), size_t(1));
        QCOMPARE(p->fetch[0].second, QByteArray(32, 'x'));
        QCOMPARE(p->stateDigest, QByteArray(32, 's'));
        QCOMPARE(p->signature, QByteArray(64, 'g'));
        SyncPlanMsg unsignedPlan{43, QHostAddress(), 0, {}, QByteArray(32, 's'), {}};
        QVERIFY(parseSyncPlan(encode(unsignedPlan).mid(6))->signature.isEmpty());
        // Something to fetch but nobody to fetch it from: refused.
        SyncPlanMsg orphan{43, QHostAddress(), 0, {{1, QByteArray(32, 'x')}}, QByteArray(32, 's'), {}};
        QVERIFY(!parseSyncPlan(encode(orphan).mid(6)));
    }

    void masterClosesBrokenConnections()
    {
        MasterInThread master;
        QVERIFY(master.port != 0);
        const auto cases = {
            rawFrame(2, 999),                                              // unknown type
            rawFrame(2 + 37, uint16_t(Type::Hello)),                       // oversized Hello
            rawFrame(2, uint16_t(Type::Commence)),                         // a master-to-peer type sent to the master
            encode(BeginMsg{}),                                            // Begin before admission
            rawFrame(2 + 36, uint16_t(Type::Hello), QByteArray(36, '\0')), // port 0: malformed Hello
        };
        for (const QByteArray &bytes : cases) {
            auto socket = connectRaw(master);
            QVERIFY(socket);
            socket->write(bytes);
            QVERIFY(socket->waitForBytesWritten(2000));
            QVERIFY2(waitClosed(*socket), bytes.toHex().constData());
        }
    }

    void masterRefusesPeersWithoutTheKey()
    {
        const auto allowed = cohort::ed25519::generate();
        const auto stranger = cohort::ed25519::generate();
        MasterOptions options;
        options.admit = [key = allowed.publicKey](const QByteArray &k) { return k == key; };
        MasterInThread master(options);
        QVERIFY(master.port != 0);

        // Returns the master's last frame to a peer announcing `announced` and signing with `signer`.
        auto attempt = [&](const QByteArray &announced, const QByteArray &signer) -> std::optional<Frame> {
            auto socket = connectRaw(master);
            if (!socket)
                return std::nullopt;
            FrameDecoder decoder(Channel::FromMaster);
            socket->write(encode(HelloMsg{kProtocolVersion, 4000, announced}));
            const auto challenge = readFrame(*socket, decoder);
            if (!challenge || challenge->type != Type::Challenge)
                return std::nullopt;
            const QByteArray nonce = parseChallenge(challenge->payload)->nonce;
            socket->write(encode(ProofMsg{cohort::ed25519::sign(admissionMessage(nonce, announced), signer)}));
            auto reply = readFrame(*socket, decoder);
            if (reply && reply->type == Type::Refused && !waitClosed(*socket))
                return std::nullopt; // a refused peer must be disconnected
            return reply;
        };
        // A key it does not hold.
        auto reply = attempt(allowed.publicKey, stranger.secretKey);
        QVERIFY(reply);
        QCOMPARE(reply->type, Type::Refused);
        QVERIFY(parseRefused(reply->payload)->reason.contains(QStringLiteral("signature")));
        // A key that is not admitted.
        reply = attempt(stranger.publicKey, stranger.secretKey);
        QVERIFY(reply);
        QCOMPARE(reply->type, Type::Refused);
        QVERIFY(parseRefused(reply->payload)->reason.contains(QStringLiteral("not admitted")));
        QCOMPARE(master.refused.load(), 2);
        QCOMPARE(master.admitted.load(), 0);
        // The allowed key: welcomed, then (first peer) a ring of one.
        auto socket = connectRaw(master);
        QVERIFY(socket);
        FrameDecoder decoder(Channel::FromMaster);
        socket->write(encode(HelloMsg{kProtocolVersion, 4000, allowed.publicKey}));
        const auto challenge = readFrame(*socket, decoder);
        QVERIFY(challenge && challenge->type == Type::Challenge);
        socket->write(encode(ProofMsg{cohort::ed25519::sign(
            admissionMessage(parseChallenge(challenge->payload)->nonce, allowed.publicKey), allowed.secretKey)}));
        const auto welcome = readFrame(*socket, decoder);
        QVERIFY(welcome && welcome->type == Type::Welcome);
        const auto topology = readFrame(*socket, decoder);
        QVERIFY(topology && topology->type == Type::Topology);
        QCOMPARE(parseTopology(topology->payload)->ring.size(), size_t(1));
        QCOMPARE(master.admitted.load(), 1);
    }
};

QTEST_GUILESS_MAIN(TestCollectives)
#include "tst_collectives.moc"
