// cohort-collective-peer: the collectives as real processes, for tst_collectives and bench_allreduce.
//
//   cohort-collective-peer master [--port P] [--allow FILE] [--exclusion-ms MS] [--vote-timeout-ms MS]
//                                 [--begin-timeout-ms MS] [--sync-timeout-ms MS] [--formation-timeout-ms MS]
//       Runs a master on 127.0.0.1; prints "master listening <port>". FILE: one base64 ed25519 public key per line
//       (only those may join); without it every key that answers the challenge may. Prints "master excluded peer N:
//       reason" when it excludes one, "master split revision R elected E others O" when voters disagree.
//       --audited-work FILE: "<base64 public key> <work>" per line, each member's audited work, which weighs its
//       votes on shared state and its accusations (MasterOptions::auditedWork; keys not listed weigh 0).
//   cohort-collective-peer peer --master-port P --key FILE --seed S --world N --count C --ops K
//                               [--quant none|u8|u16] [--dtype f32|bf16|f16] [--op sum|avg] [--ints] [--out FILE]
//                               [--io-timeout MS] [--block ELEMENTS] [--bad-proof] [--bench] [--out-of-place]
//                               [--depth D] [--code-slot-bytes BYTES] [--bound NORM] [--attack KIND]
//       Joins, votes until the ring has N peers, then runs K all-reduces of `collectiveInput(S, op, C)`, retrying each
//       after an abort with whoever is left; checks after every failure that its buffer still holds the input.
//       --depth D (f32): D operations in flight at once (allReduceAsync, then awaitReduce of each), in waves of D;
//       the operations of a wave that fail are retried together. --die-after-start K: the peer kills itself
//       (SIGKILL, as kill -9 would) the moment operation K has begun on every member — its operations are in flight
//       on every peer, by construction rather than by the millisecond a kill from outside lands.
//       --bound: every contribution's L2 norm bound (CommunicatorOptions::contributionNormBound).
//       --attack makes it the hostile peer: it sends, in every operation, values that are nan, inf, huge (1e38),
//       overbound (finite, 10x the bound), or (quantized) quantization headers spanning +-1.7e38 (params) or NaN
//       (nan-params), past its own checks (the communicator's test hooks); or honest values, accusing its
//       predecessor of sending bad ones every time (liar); or it stalls: answers Ready without linking
//       (stall-ready), takes part in operations without moving a byte (stall-op) or passing anything on while it
//       says it starved (stall-op-frame: it frames its predecessor), goes quiet once in the ring
//       (silent), or only votes (vote-only); or it forges ring hellos (forge-hello: opens links to the member two
//       places on, claiming to be its predecessor, then behaves).
//       Prints one line per event ("op 3 ok world 4 ring 1,2,3,4 hash ... ms ..."); writes the last result to FILE
//       (raw little-endian values). Exit codes: 0 ok, 2 usage, 3 refused, 4 buffer not restored, 5 gave up.
//   cohort-collective-peer diloco-attacker --master-port P --count N --bound B --attack nan|inf|huge|overbound
//                                          [--quant none|u8] [--attempts K]
//       The hostile member of a DiLoCo ring (cohort-diloco-peer nodes): joins, syncs their shared state (global and
//       momentum, N floats each), then sends a hostile pseudo-gradient in the outer step's average, K times at most.
//       Prints "attacker peer N admitted", "attack revision r: <result>"; exits 0 when it was excluded or refused.
//   cohort-collective-peer state --master-port P --seed S --world N --steps K [--join] [--step-ms MS] [--attack KIND]
//   [--key FILE]
//                                [--io-timeout MS]
//       A DiLoCo-shaped loop over a shared state (see runState); prints "step k revision r ... rx B ... hash H".
#include "CollectiveInputs.h"
#include "collectives/Communicator.h"
#include "collectives/CommunicatorFaults.h"
#include "collectives/HalfFloat.h"
#include "collectives/Master.h"
#include "net/Ed25519.h"
#include "platform/LargeBuffer.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QSet>
#include <QThread>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <vector>

#ifdef Q_OS_WIN
#  include <windows.h>
#endif

using namespace cohort::collectives;

namespace {

void say(const QString &line)
{
    std::fputs(line.toUtf8().constData(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

// FNV-1a over 8-byte words (then the tail bytes): a fingerprint of a result, cheap enough between operations.
uint64_t fnv1a(const void *data, size_t size)
{
    uint64_t h = 1469598103934665603ull;
    const auto *p = static_cast<const uint8_t *>(data);
    size_t i = 0;
    for (; i + 8 <= size; i += 8) {
        uint64_t w;
        std::memcpy(&w, p + i, 8);
        h = (h ^ w) * 1099511628211ull;
    }
    for (; i < size; ++i)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

// --key FILE (a base64 ed25519 secret key), or a fresh key; empty when the file cannot be read.
QByteArray secretKeyFrom(const QCommandLineParser &parser)
{
    if (!parser.isSet(QStringLiteral("key")))
        return cohort::ed25519::generate().secretKey;
    QFile file(parser.value(QStringLiteral("key")));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QByteArray::fromBase64(file.readAll().trimmed());
}

int runMaster(const QStringList &args)
{
    QCommandLineParser parser;
    parser.addOption({QStringLiteral("port"), QStringLiteral("port"), QStringLiteral("port"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("allow"), QStringLiteral("allowed keys"), QStringLiteral("file")});
    parser.addOption({QStringLiteral("audited-work"), QStringLiteral("members' audited work"), QStringLiteral("file")});
    parser.addOption(
        {QStringLiteral("exclusion-ms"), QStringLiteral("exclusion"), QStringLiteral("ms"), QStringLiteral("600000")});
    for (const char *name : {"vote-timeout-ms", "begin-timeout-ms", "sync-timeout-ms", "formation-timeout-ms"})
        parser.addOption({QString::fromLatin1(name), QString::fromLatin1(name), QStringLiteral("ms")});
    parser.process(args);
    MasterOptions options;
    options.exclusionMs = parser.value(QStringLiteral("exclusion-ms")).toInt();
    for (const auto &[name, field] : {std::pair{"vote-timeout-ms", &MasterOptions::voteTimeoutMs},
                                      std::pair{"begin-timeout-ms", &MasterOptions::beginTimeoutMs},
                                      std::pair{"sync-timeout-ms", &MasterOptions::syncTimeoutMs},
                                      std::pair{"formation-timeout-ms", &MasterOptions::formationTimeoutMs}})
        if (parser.isSet(QString::fromLatin1(name)))
            options.*field = parser.value(QString::fromLatin1(name)).toInt();
    if (parser.isSet(QStringLiteral("allow"))) {
        QFile file(parser.value(QStringLiteral("allow")));
        if (!file.open(QIODevice::ReadOnly)) {
            say(QStringLiteral("cannot read %1").arg(file.fileName()));
            return 2;
        }
        QSet<QByteArray> keys;
        for (const QByteArray &line : file.readAll().split('\n'))
            if (!line.trimmed().isEmpty())
                keys.insert(QByteArray::fromBase64(line.trimmed()));
        options.admit = [keys](const QByteArray &key) { return keys.contains(key); };
    }
    if (parser.isSet(QStringLiteral("audited-work"))) {
        QFile file(parser.value(QStringLiteral("audited-work")));
        if (!file.open(QIODevice::ReadOnly)) {
            say(QStringLiteral("cannot read %1").arg(file.fileName()));
            return 2;
        }
        QHash<QByteArray, double> weights;
        for (const QByteArray &line : file.readAll().split('\n'))
            if (const QList<QByteArray> fields = line.simplified().split(' '); fields.size() == 2)
                weights.insert(QByteArray::fromBase64(fields[0]), fields[1].toDouble());
        options.auditedWork = [weights](const QByteArray &key) { return weights.value(key, 0.0); };
    }
    Master master(options);
    if (const auto s = master.listen(QHostAddress::LocalHost, uint16_t(parser.value(QStringLiteral("port")).toUInt()));
        !s) {
        say(s.error());
        return 2;
    }
    QObject::connect(&master, &Master::topologyCommitted, &master, [](quint64 epoch, int size) {
        say(QStringLiteral("master ring epoch %1 size %2").arg(epoch).arg(size));
    });
    QObject::connect(&master, &Master::peerExcluded, &master, [](quint32 id, const QByteArray &, const QString &why) {
        say(QStringLiteral("master excluded peer %1: %2").arg(id).arg(why));
    });
    QObject::connect(&master, &Master::stateSplit, &master, [](quint64 revision, int elected, int others) {
        say(QStringLiteral("master split revision %1 elected %2 others %3").arg(revision).arg(elected).arg(others));
    });
    QObject::connect(&master, &Master::peerRefused, &master,
                     [](const QString &reason) { say(QStringLiteral("master refused: %1").arg(reason)); });
    say(QStringLiteral("master listening %1").arg(master.port()));
    return QCoreApplication::exec();
}

// Nanoseconds on the machine-wide monotonic clock (CLOCK_MONOTONIC on Linux, as Python's time.monotonic_ns()): the
// benchmark compares when processes began and ended an operation.
qint64 monotonicNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void sayOk(Communicator &comm, int op, const ReduceInfo &info, uint64_t hash, double ms, int attempts, qint64 t0 = 0,
           qint64 t1 = 0)
{
    QStringList ids;
    for (const uint32_t id : comm.ringPeerIds())
        ids << QString::number(id);
    say(QStringLiteral("op %1 ok world %2 ring %3 hash %4 ms %5 attempts %6 tx %7 rx %8 begin %9 ring %10 outcome %11 "
                       "t0 %12 t1 %13")
            .arg(op)
            .arg(info.worldSize)
            .arg(ids.join(QLatin1Char(',')))
            .arg(hash, 16, 16, QLatin1Char('0'))
            .arg(ms, 0, 'f', 2)
            .arg(attempts)
            .arg(info.txBytes)
            .arg(info.rxBytes)
            .arg(info.beginMs, 0, 'f', 2)
            .arg(info.ringMs, 0, 'f', 2)
            .arg(info.outcomeMs, 0, 'f', 2)
            .arg(t0)
            .arg(t1));
}

struct WaveSpec {
    uint64_t seed;
    size_t count;
    int ops;
    int depth;
    bool ints;
    bool bench;
    bool outOfPlace;
    Quant quant;
    ReduceOp reduceOp;
    int dieAfterStart = -1;
};

// Dies as `kill -9` would: no destructor runs, the kernel closes the sockets.
[[noreturn]] void killSelf()
{
#ifdef Q_OS_WIN
    TerminateProcess(GetCurrentProcess(), 9);
#else
    ::raise(SIGKILL);
#endif
    std::abort();
}

// --depth: operations k .. k+D-1 in flight together; the failed ones of a wave are retried (every survivor sees the
// same verdicts, so they retry the same operations in the same order). Prints "wave w ok ops A-B ms T" per wave.
int runWaves(Communicator &comm, const WaveSpec &spec, const QString &outPath)
{
    std::vector<std::vector<float>> inputs(size_t(spec.depth)), outputs(size_t(spec.depth));
    std::vector<float> last;
    for (int first = 0; first < spec.ops; first += spec.depth) {
        const int n = std::min(spec.depth, spec.ops - first);
        for (int j = 0; j < n; ++j) {
            if (!spec.bench || inputs[size_t(j)].empty())
                inputs[size_t(j)] = cohort::test::collectiveInput(spec.seed, first + j, spec.count, spec.ints);
            say(QStringLiteral("op %1 start").arg(first + j));
        }
        std::vector<int> pending(static_cast<size_t>(n));
        for (int j = 0; j < n; ++j)
            pending[size_t(j)] = j;
        QElapsedTimer total;
        total.start();
        for (int attempt = 1; !pending.empty(); ++attempt) {
            QElapsedTimer wave;
            wave.start();
            std::vector<int> started, failed;
            cohort::Status r;
            for (const int j : pending) {
                // Members must begin operations in the same order: after a start fails, the later ones wait for the
                // retry (the verdicts on the started ones are the same on every member, so all retry the same set).
                if (!failed.empty()) {
                    failed.push_back(j);
                    continue;
                }
                const uint64_t tag = uint64_t(first + j);
                std::vector<float> &out = outputs[size_t(j)];
                if (spec.outOfPlace) {
                    out.resize(spec.count);
                    r = comm.allReduceAsync(inputs[size_t(j)], out, spec.reduceOp, spec.quant, tag);
                } else {
                    out.assign(inputs[size_t(j)].begin(), inputs[size_t(j)].end());
                    r = comm.allReduceAsync(out, spec.reduceOp, spec.quant, tag);
                }
                if (!r) {
                    say(QStringLiteral("op %1 error %2 at start world %3: %4")
                            .arg(first + j)
                            .arg(QString::fromLatin1(errorCodeName(r.code())))
                            .arg(comm.worldSize())
                            .arg(r.error()));
                    failed.push_back(j);
                    if (!r.retryable())
                        return 5;
                    continue;
                }
                started.push_back(j);
                if (first + j == spec.dieAfterStart)
                    killSelf();
            }
            for (const int j : started) {
                ReduceInfo info;
                r = comm.awaitReduce(uint64_t(first + j), &info);
                const std::vector<float> &out = outputs[size_t(j)];
                if (r) {
                    const uint64_t hash = spec.bench ? 0 : fnv1a(out.data(), out.size() * 4);
                    sayOk(comm, first + j, info, hash, double(wave.nsecsElapsed()) / 1e6, attempt);
                    continue;
                }
                say(QStringLiteral("op %1 error %2 world %3: %4")
                        .arg(first + j)
                        .arg(QString::fromLatin1(errorCodeName(r.code())))
                        .arg(comm.worldSize())
                        .arg(r.error()));
                if (!spec.outOfPlace && std::memcmp(out.data(), inputs[size_t(j)].data(), spec.count * 4) != 0) {
                    say(QStringLiteral("op %1 input not restored").arg(first + j));
                    return 4;
                }
                if (!r.retryable())
                    return 5;
                failed.push_back(j);
            }
            if (total.hasExpired(60'000))
                return 5;
            std::sort(failed.begin(), failed.end());
            pending = failed;
        }
        say(QStringLiteral("wave %1 ok ops %2-%3 ms %4")
                .arg(first / spec.depth)
                .arg(first)
                .arg(first + n - 1)
                .arg(double(total.nsecsElapsed()) / 1e6, 0, 'f', 2));
        last = outputs[size_t(n - 1)];
    }
    if (!outPath.isEmpty()) {
        QFile out(outPath);
        if (!out.open(QIODevice::WriteOnly))
            return 5;
        out.write(reinterpret_cast<const char *>(last.data()), qint64(last.size() * 4));
    }
    say(QStringLiteral("done"));
    return 0;
}

int runPeer(const QStringList &args)
{
    QCommandLineParser parser;
    const auto opt = [&](const char *name, const char *def = nullptr) {
        parser.addOption({QString::fromLatin1(name), QString::fromLatin1(name), QStringLiteral("value"),
                          def ? QString::fromLatin1(def) : QString()});
    };
    opt("master-port");
    opt("key");
    opt("seed", "1");
    opt("world", "1");
    opt("count", "1000");
    opt("ops", "1");
    opt("quant", "none");
    opt("dtype", "f32");
    opt("op", "sum");
    opt("out");
    opt("io-timeout", "10000");
    opt("block", "262144");
    opt("depth", "1");
    opt("code-slot-bytes", "2097152");
    opt("bound", "0");
    opt("link-delay-ms", "0");
    opt("attack");
    opt("die-after-start", "-1");
    parser.addOption({QStringLiteral("ints"), QStringLiteral("integer-valued inputs")});
    parser.addOption({QStringLiteral("bad-proof"), QStringLiteral("answer the challenge with another key")});
    parser.addOption(
        {QStringLiteral("bench"), QStringLiteral("reuse the first input, no result hash (bench_allreduce)")});
    parser.addOption({QStringLiteral("out-of-place"), QStringLiteral("f32: reduce input into a separate output")});
    parser.addOption(
        {QStringLiteral("unchecked"), QStringLiteral("check nothing received (bench_allreduce's baseline)")});
    parser.addOption(
        {QStringLiteral("protect"),
         QStringLiteral("protect every ring block: integrity or encryption (CommunicatorOptions::linkProtection)"),
         QStringLiteral("mode"), QStringLiteral("none")});
    parser.process(args);

    CommunicatorOptions options;
    CommunicatorFaults faults; // what this peer does wrong (collectives/CommunicatorFaults.h)
    options.masterPort = uint16_t(parser.value(QStringLiteral("master-port")).toUInt());
    options.bindAddress = QHostAddress(QHostAddress::LocalHost);
    options.ioTimeoutMs = parser.value(QStringLiteral("io-timeout")).toInt();
    options.controlTimeoutMs = 10'000;
    options.beginTimeoutMs = 30'000;
    options.connectTimeoutMs = 30'000;
    options.blockElements = parser.value(QStringLiteral("block")).toULongLong();
    options.codeSlotBytes = parser.value(QStringLiteral("code-slot-bytes")).toULongLong();
    options.secretKey = secretKeyFrom(parser);
    if (options.secretKey.isEmpty())
        return 2;
    if (parser.isSet(QStringLiteral("bad-proof")))
        faults.challengeKeyOverride = cohort::ed25519::generate().secretKey;
    options.contributionNormBound = parser.value(QStringLiteral("bound")).toFloat();
    faults.unchecked = parser.isSet(QStringLiteral("unchecked"));
    options.linkProtection =
        cohort::collectives::linkProtectionFromName(parser.value(QStringLiteral("protect")).toLatin1())
            .value_or(cohort::collectives::LinkProtection::None);
    faults.linkDelayMs = parser.value(QStringLiteral("link-delay-ms")).toInt();
    const QString attack = parser.value(QStringLiteral("attack"));
    if (!attack.isEmpty()) {
        faults.unchecked = true;
        faults.blameAlways = attack == QLatin1String("liar");
        faults.fakeReady = attack == QLatin1String("stall-ready");
        faults.stallRing = attack == QLatin1String("stall-op");
        faults.frameStall = attack == QLatin1String("stall-op-frame");
        faults.forgeHello = attack == QLatin1String("forge-hello");
        if (attack == QLatin1String("params"))
            faults.tamperParams = [](cohort::quant::QuantParams &p) {
                p.min = -1.7e38f;
                p.scale = 3.4e38f / 255.0f / 1.0001f;
            };
        else if (attack == QLatin1String("nan-params"))
            faults.tamperParams = [](cohort::quant::QuantParams &p) { p.min = std::nanf(""); };
    }
    // The hostile input: the honest one with every 97th value replaced (or all of it scaled past the bound).
    const auto poison = [&](std::span<float> values) {
        if (attack == QLatin1String("overbound")) {
            const float norm = std::sqrt(std::inner_product(values.begin(), values.end(), values.begin(), 0.0f));
            const float factor = norm > 0 ? 10.0f * options.contributionNormBound / norm : 0.0f;
            for (float &x : values)
                x *= factor;
            return;
        }
        const float bad = attack == QLatin1String("nan")    ? std::nanf("")
                          : attack == QLatin1String("inf")  ? INFINITY
                          : attack == QLatin1String("huge") ? 1e38f
                                                            : 0.0f;
        if (bad == 0.0f)
            return;
        for (size_t i = 0; i < values.size(); i += 97)
            values[i] = bad;
    };
    const uint64_t seed = parser.value(QStringLiteral("seed")).toULongLong();
    const int world = parser.value(QStringLiteral("world")).toInt();
    const size_t count = parser.value(QStringLiteral("count")).toULongLong();
    const int ops = parser.value(QStringLiteral("ops")).toInt();
    const bool ints = parser.isSet(QStringLiteral("ints"));
    const bool bench = parser.isSet(QStringLiteral("bench"));
    const bool outOfPlace = parser.isSet(QStringLiteral("out-of-place"));
    const QString quantName = parser.value(QStringLiteral("quant"));
    const Quant quant = quantName == QLatin1String("u8")    ? Quant::U8
                        : quantName == QLatin1String("u16") ? Quant::U16
                                                            : Quant::None;
    const QString dtypeName = parser.value(QStringLiteral("dtype"));
    const DataType dtype = dtypeName == QLatin1String("bf16")  ? DataType::BF16
                           : dtypeName == QLatin1String("f16") ? DataType::F16
                                                               : DataType::F32;
    const ReduceOp reduceOp =
        parser.value(QStringLiteral("op")) == QLatin1String("avg") ? ReduceOp::Avg : ReduceOp::Sum;

    options.faults = std::make_shared<const CommunicatorFaults>(std::move(faults));
    Communicator comm(options);
    cohort::Status r = comm.connect();
    if (!r) {
        say(QStringLiteral("%1: %2").arg(QString::fromLatin1(errorCodeName(r.code())), r.error()));
        return r.code() == Code::Refused ? 3 : 5;
    }
    say(QStringLiteral("peer %1 admitted seed %2").arg(comm.peerId()).arg(seed));
    QElapsedTimer joining;
    joining.start();
    while (comm.worldSize() < world) {
        if (joining.hasExpired(60'000)) {
            say(QStringLiteral("ring never reached %1 peers").arg(world));
            return 5;
        }
        r = comm.updateTopology();
        if (!r && !r.retryable()) {
            say(QStringLiteral("update failed: %1").arg(r.error()));
            return 5;
        }
    }
    say(QStringLiteral("ring size %1 rank %2").arg(comm.worldSize()).arg(comm.rank()));
    if (attack == QLatin1String("silent") || attack == QLatin1String("vote-only")) {
        // A member that goes quiet (never votes, begins or syncs again), or only ever votes: until the master drops it.
        QElapsedTimer quiet;
        quiet.start();
        while (!quiet.hasExpired(100'000)) {
            if (attack == QLatin1String("vote-only")) {
                r = comm.updateTopology();
                if (!r && !r.retryable())
                    break;
            } else {
                QThread::msleep(200);
            }
        }
        say(QStringLiteral("quiet member done: %1").arg(r.error()));
        return 0;
    }
    const int depth = parser.value(QStringLiteral("depth")).toInt();
    if (depth > 1) {
        if (dtype != DataType::F32)
            return 2;
        WaveSpec spec{seed,  count,      ops,   depth,    ints,
                      bench, outOfPlace, quant, reduceOp, parser.value(QStringLiteral("die-after-start")).toInt()};
        return runWaves(comm, spec, parser.value(QStringLiteral("out")));
    }

    // Allocated as DiLoCo allocates the buffer it reduces (platform/LargeBuffer.h).
    cohort::platform::LargeVector<float> input, buffer, result;
    std::vector<uint16_t> buffer16, result16;
    for (int k = 0; k < ops; ++k) {
        // Buffers are reused from one operation to the next (no fresh pages to fault in while the others reduce).
        if (!bench || k == 0) {
            std::vector<float> values = cohort::test::collectiveInput(seed, k, count, ints);
            poison(values);
            input.assign(values.begin(), values.end());
        }
        static std::vector<uint16_t> input16;
        if (dtype != DataType::F32) {
            input16.resize(count);
            if (dtype == DataType::BF16)
                floatToBf16(input, input16);
            else
                floatToF16(input, input16);
        }
        say(QStringLiteral("op %1 start").arg(k));
        QElapsedTimer attemptTime;
        QElapsedTimer total;
        total.start();
        for (int attempt = 0;; ++attempt) {
            if (outOfPlace)
                buffer.resize(input.size()); // the output: nothing to copy in
            else
                buffer.assign(input.begin(), input.end());
            buffer16.assign(input16.begin(), input16.end());
            ReduceInfo info;
            const qint64 t0 = monotonicNs();
            attemptTime.start();
            if (dtype != DataType::F32)
                r = comm.allReduce(buffer16, dtype, reduceOp, quant, uint64_t(k), &info);
            else if (outOfPlace)
                r = comm.allReduce(std::span<const float>(input), std::span<float>(buffer), reduceOp, quant,
                                   uint64_t(k), &info);
            else
                r = comm.allReduce(buffer, reduceOp, quant, uint64_t(k), &info);
            const double ms = double(attemptTime.nsecsElapsed()) / 1e6;
            const qint64 t1 = monotonicNs();
            if (r) {
                const uint64_t hash = bench                    ? 0
                                      : dtype == DataType::F32 ? fnv1a(buffer.data(), buffer.size() * 4)
                                                               : fnv1a(buffer16.data(), buffer16.size() * 2);
                sayOk(comm, k, info, hash, ms, attempt + 1, t0, t1);
                // Benchmarks keep reusing the same output buffer (as the Gloo peer reuses its tensor): a swap would
                // hand every other operation fresh pages to fault in.
                if (!bench) {
                    result.swap(buffer);
                    result16.swap(buffer16);
                }
                break;
            }
            // In place, a failed call must leave the input in the buffer; out of place it never writes the input.
            bool restored = true;
            if (!outOfPlace)
                restored = dtype == DataType::F32 ? std::memcmp(buffer.data(), input.data(), count * 4) == 0
                                                  : std::memcmp(buffer16.data(), input16.data(), count * 2) == 0;
            say(QStringLiteral("op %1 error %2 after %3 ms world %4: %5")
                    .arg(k)
                    .arg(QString::fromLatin1(errorCodeName(r.code())))
                    .arg(ms, 0, 'f', 1)
                    .arg(comm.worldSize())
                    .arg(r.error()));
            if (!restored) {
                say(QStringLiteral("op %1 input not restored").arg(k));
                return 4;
            }
            if (!r.retryable() || total.hasExpired(60'000))
                return 5;
        }
    }
    if (parser.isSet(QStringLiteral("out"))) {
        QFile out(parser.value(QStringLiteral("out")));
        if (!out.open(QIODevice::WriteOnly))
            return 5;
        if (dtype == DataType::F32)
            out.write(reinterpret_cast<const char *>(result.data()), qint64(result.size() * 4));
        else
            out.write(reinterpret_cast<const char *>(result16.data()), qint64(result16.size() * 2));
    }
    say(QStringLiteral("done"));
    return 0;
}

// `state` mode: a DiLoCo-shaped loop over a shared state of two tensors. Each step: updateTopology (admits joiners),
// syncSharedState (revision = step + 1), all-reduce (average) of this peer's "gradient", state += 0.01 x average.
// Members start from the same content; a --join peer starts from zeros and must fetch it, then stays identical.
int runState(const QStringList &args)
{
    QCommandLineParser parser;
    for (const char *name : {"master-port", "seed", "world", "steps", "step-ms", "attack", "io-timeout", "key"})
        parser.addOption({QString::fromLatin1(name), QString::fromLatin1(name), QStringLiteral("value")});
    parser.addOption({QStringLiteral("join"), QStringLiteral("start empty and catch up")});
    parser.process(args);
    CommunicatorOptions options;
    CommunicatorFaults faults; // what this peer does wrong (collectives/CommunicatorFaults.h)
    options.masterPort = uint16_t(parser.value(QStringLiteral("master-port")).toUInt());
    options.bindAddress = QHostAddress(QHostAddress::LocalHost);
    options.secretKey = secretKeyFrom(parser);
    if (options.secretKey.isEmpty())
        return 2;
    options.beginTimeoutMs = 30'000;
    options.connectTimeoutMs = 30'000;
    if (parser.isSet(QStringLiteral("io-timeout")))
        options.ioTimeoutMs = parser.value(QStringLiteral("io-timeout")).toInt();
    const uint64_t seed = parser.value(QStringLiteral("seed")).toULongLong();
    const int world = parser.value(QStringLiteral("world")).toInt();
    const int steps = parser.value(QStringLiteral("steps")).toInt();
    const int stepMs = parser.value(QStringLiteral("step-ms")).toInt(); // "inner steps" between rounds
    // A staller (joining a running group): stall-ready, silent, vote-only, no-begin, stall-op, stall-op-frame (see the
    // peer mode); or
    // a sybil that, once in, declares forged weights (forge-state: several of them outnumber the members); or a member
    // that computes honestly but serves forged bytes under the elected digest (serve-forged).
    const QString attack = parser.value(QStringLiteral("attack"));
    const bool join =
        parser.isSet(QStringLiteral("join")) || (!attack.isEmpty() && attack != QLatin1String("serve-forged"));
    faults.fakeReady = attack == QLatin1String("stall-ready");
    faults.stallRing = attack == QLatin1String("stall-op");
    faults.frameStall = attack == QLatin1String("stall-op-frame");
    faults.serveForged = attack == QLatin1String("serve-forged");

    std::vector<float> weights(1'000'003, 0.0f), bias(1001, 0.0f);
    if (!join) {
        weights = cohort::test::collectiveInput(777, 0, weights.size(), false);
        bias = cohort::test::collectiveInput(778, 0, bias.size(), false);
    }
    const SharedTensor tensors[] = {
        {QStringLiteral("weights"), {reinterpret_cast<uint8_t *>(weights.data()), weights.size() * 4}},
        {QStringLiteral("bias"), {reinterpret_cast<uint8_t *>(bias.data()), bias.size() * 4}},
    };
    options.faults = std::make_shared<const CommunicatorFaults>(std::move(faults));
    Communicator comm(options);
    cohort::Status r = comm.connect();
    if (!r) {
        say(QStringLiteral("connect: %1").arg(r.error()));
        return 5;
    }
    say(QStringLiteral("peer %1 admitted").arg(comm.peerId()));
    QElapsedTimer clock;
    clock.start();
    if (attack == QLatin1String("silent")) {
        while (!clock.hasExpired(100'000))
            QThread::msleep(200);
        return 0;
    }
    if (attack == QLatin1String("vote-only")) // never declares its state: only ever votes
        for (;;)
            if (cohort::Status v = comm.updateTopology(); !v && !v.retryable())
                return 0;
    while (!join && comm.worldSize() < world) {
        if (clock.hasExpired(60'000))
            return 5;
        (void)comm.updateTopology();
    }
    uint64_t revision = 0;
    int step = 0;
    bool first = true;
    while (step < steps) {
        if (clock.hasExpired(120'000))
            return 5;
        if (!first || !join) { // a joiner was admitted by the others' updateTopology: it starts with the sync
            r = comm.updateTopology();
            if (!r) {
                say(QStringLiteral("step %1 update error: %2").arg(step).arg(r.error()));
                if (!r.retryable())
                    return 5;
                continue;
            }
        }
        SyncInfo sync;
        r = comm.syncSharedState(join && first ? 0 : uint64_t(step + 1), tensors, &sync);
        if (!r) {
            say(QStringLiteral("step %1 sync error: %2").arg(step).arg(r.error()));
            if (!r.retryable())
                return 5;
            continue;
        }
        first = false;
        revision = sync.revision;
        step = int(revision) - 1;
        if (attack == QLatin1String("no-begin")) {
            for (;;) { // votes and syncs, never begins
                if (cohort::Status v = comm.updateTopology(); !v && !v.retryable())
                    return 0;
                if (cohort::Status v = comm.syncSharedState(revision, tensors, &sync); !v && !v.retryable())
                    return 0;
            }
        }
        if (attack == QLatin1String("forge-state")) { // a sybil: from now on it declares other weights
            std::fill(weights.begin(), weights.end(), 1000.0f);
            std::fill(bias.begin(), bias.end(), 1000.0f);
        }
        if (stepMs > 0)
            QThread::msleep(stepMs);
        std::vector<float> gradient = cohort::test::collectiveInput(seed, step, weights.size(), false);
        // As DiLoCo does: a failed average is retried (with whoever is left), not the sync before it.
        while (!(r = comm.allReduce(gradient, ReduceOp::Avg, Quant::None, uint64_t(step)))) {
            say(QStringLiteral("step %1 all-reduce error: %2").arg(step).arg(r.error()));
            if (!r.retryable() || clock.hasExpired(120'000))
                return 5;
            QThread::msleep(100); // as DiLoCo does: a refused Begin is not hammered at the master
        }
        for (size_t i = 0; i < weights.size(); ++i)
            weights[i] += 0.01f * gradient[i];
        for (size_t i = 0; i < bias.size(); ++i)
            bias[i] += 0.01f * gradient[i];
        const QByteArray digest = stateDigestOf({tensorDigest(tensors[0].bytes), tensorDigest(tensors[1].bytes)});
        const uint64_t hash = fnv1a(digest.constData(), size_t(digest.size()));
        say(QStringLiteral("step %1 revision %2 world %3 rx %4 tx %5 fetched %6 hash %7")
                .arg(step)
                .arg(revision)
                .arg(comm.worldSize())
                .arg(sync.rxBytes)
                .arg(sync.txBytes)
                .arg(sync.fetched)
                .arg(hash, 16, 16, QLatin1Char('0')));
        ++step;
    }
    say(QStringLiteral("done"));
    return 0;
}

int runDilocoAttacker(const QStringList &args)
{
    QCommandLineParser parser;
    for (const char *name : {"master-port", "count", "bound", "attack", "quant", "attempts"})
        parser.addOption({QString::fromLatin1(name), QString::fromLatin1(name), QStringLiteral("value")});
    parser.process(args);
    CommunicatorOptions options;
    CommunicatorFaults faults; // what this peer does wrong (collectives/CommunicatorFaults.h)
    options.masterPort = uint16_t(parser.value(QStringLiteral("master-port")).toUInt());
    options.bindAddress = QHostAddress(QHostAddress::LocalHost);
    options.secretKey = cohort::ed25519::generate().secretKey;
    options.contributionNormBound = parser.value(QStringLiteral("bound")).toFloat();
    faults.unchecked = parser.isSet(QStringLiteral("unchecked"));
    faults.linkDelayMs = parser.value(QStringLiteral("link-delay-ms")).toInt();
    faults.unchecked = true;
    // It speaks the whole protocol, links included: protected as a DiLoCo task's are by default.
    options.linkProtection = cohort::collectives::LinkProtection::Integrity;
    options.ioTimeoutMs = 5'000;
    const size_t count = parser.value(QStringLiteral("count")).toULongLong();
    const QString attack = parser.value(QStringLiteral("attack"));
    const Quant quant = parser.value(QStringLiteral("quant")) == QLatin1String("u8") ? Quant::U8 : Quant::None;
    const int attempts =
        parser.isSet(QStringLiteral("attempts")) ? parser.value(QStringLiteral("attempts")).toInt() : 20;
    std::vector<float> global(count, 0.0f), momentum(count, 0.0f), delta(count);
    const SharedTensor tensors[] = {
        {QStringLiteral("global"), {reinterpret_cast<uint8_t *>(global.data()), count * 4}},
        {QStringLiteral("momentum"), {reinterpret_cast<uint8_t *>(momentum.data()), count * 4}},
    };
    options.faults = std::make_shared<const CommunicatorFaults>(std::move(faults));
    Communicator comm(options);
    cohort::Status r = comm.connect();
    if (!r) {
        say(QStringLiteral("connect: %1").arg(r.error()));
        return r.code() == Code::Refused ? 0 : 5;
    }
    say(QStringLiteral("attacker peer %1 admitted").arg(comm.peerId()));
    uint64_t revision = 0;
    for (int attempt = 0; attempt < attempts; ++attempt) {
        if (attempt > 0 && !(r = comm.updateTopology()) && !r.retryable())
            break;
        SyncInfo sync;
        r = comm.syncSharedState(revision, tensors, &sync);
        if (!r) {
            if (!r.retryable())
                break;
            continue;
        }
        revision = sync.revision;
        const float bad = attack == QLatin1String("nan")    ? std::nanf("")
                          : attack == QLatin1String("inf")  ? INFINITY
                          : attack == QLatin1String("huge") ? 1e38f
                                                            : 0.0f;
        // overbound: every value at the bound, a norm sqrt(N) times it.
        std::fill(delta.begin(), delta.end(), bad == 0.0f ? options.contributionNormBound : bad);
        r = comm.allReduce(std::span<float>(delta), ReduceOp::Avg, quant, revision + 1);
        say(QStringLiteral("attack revision %1: %2 %3")
                .arg(revision)
                .arg(QString::fromLatin1(errorCodeName(r.code())), r.error()));
        if (r)
            ++revision; // it got through: go on as a member
        else if (!r.retryable())
            break;
    }
    say(QStringLiteral("attacker done: %1 %2").arg(QString::fromLatin1(errorCodeName(r.code())), r.error()));
    return r.code() == Code::Disconnected || r.code() == Code::Refused ? 0 : 5;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments();
    if (args.size() < 2) {
        say(QStringLiteral("usage: cohort-collective-peer master|peer [options]"));
        return 2;
    }
    const QString mode = args.takeAt(1);
    if (mode == QLatin1String("master"))
        return runMaster(args);
    if (mode == QLatin1String("peer"))
        return runPeer(args);
    if (mode == QLatin1String("state"))
        return runState(args);
    if (mode == QLatin1String("diloco-attacker"))
        return runDilocoAttacker(args);
    say(QStringLiteral("unknown mode %1").arg(mode));
    return 2;
}
