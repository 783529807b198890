#include "diloco/DilocoRunner.h"

#include "collectives/ValueBounds.h"
#include "diloco/DilocoCheckpoint.h"
#include "diloco/DilocoFaults.h"
#include "diloco/DilocoReplay.h"
#include "diloco/Optimizers.h"
#include "diloco/SyntheticText.h"
#include "platform/LargeBuffer.h"
#include "rl/LanguageModel.h"
#include "rl/Policy.h"
#include "store/EngineBundle.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QThread>

#include <cmath>
#include <optional>
#include <random>

Q_LOGGING_CATEGORY(lcDiloco, "cohort.diloco")

namespace cohort::diloco {

using collectives::Code;
using collectives::Communicator;

const char *phaseName(DilocoProgress::Phase phase)
{
    switch (phase) {
    case DilocoProgress::Phase::Connecting: return "connecting";
    case DilocoProgress::Phase::Syncing: return "syncing";
    case DilocoProgress::Phase::Training: return "training";
    case DilocoProgress::Phase::Averaging: return "averaging";
    case DilocoProgress::Phase::Stopped: return "stopped";
    }
    return "?";
}

namespace {

std::span<uint8_t> bytesOf(std::vector<float> &values)
{
    return {reinterpret_cast<uint8_t *>(values.data()), values.size() * sizeof(float)};
}

collectives::Quant quantFor(const QString &name)
{
    if (name == QLatin1String("uint8"))
        return collectives::Quant::U8;
    if (name == QLatin1String("uint16"))
        return collectives::Quant::U16;
    return collectives::Quant::None;
}

// Waits up to `ms`, returning early when cancelled: a back-off between reconnects, not synchronisation.
void pauseCancellable(const std::atomic<bool> &cancel, int ms)
{
    QDeadlineTimer deadline(ms);
    while (!cancel.load() && !deadline.hasExpired())
        QThread::msleep(50);
}

} // namespace

Expected<size_t> modelParameterCount(const DilocoTaskConfig &config)
{
    auto model = rl::Policy::create(policyConfigOf(config), config.seed, "cpu");
    if (!model)
        return fail(QStringLiteral("DiLoCo model: %1").arg(QString::fromStdString(model.error)));
    return rl::flatParameterCount(*model);
}

double pseudoGradientBound(const DilocoTaskConfig &config, size_t parameterCount)
{
    if (config.maxDeltaNorm > 0)
        return config.maxDeltaNorm;
    return 2.0 * config.innerSteps * config.innerLearningRate * std::sqrt(double(parameterCount));
}

class DilocoRunner::Impl {
public:
    Impl(const DilocoRunnerOptions &options, const std::atomic<bool> &cancel,
         const std::function<void(const DilocoProgress &)> &onProgress)
        : o(options),
          cancel(cancel),
          report(onProgress)
    {}

    Status run();

private:
    Status prepare();
    void checkpoint(const char *why);
    // At most one bundle per checkpointIntervalMs: small models finish an outer step every second, and a bundle
    // per step would write gigabytes a day for state that peers can send again anyway (only local inner progress
    // and the AdamW moments are this node's alone).
    void checkpointIfDue(const char *why)
    {
        if (sinceCheckpoint.elapsed() >= o.checkpointIntervalMs)
            checkpoint(why);
    }
    void publish(DilocoProgress::Phase phase, const QString &note = {});
    // One connection to the master: returns when cancelled, done, or the connection is unusable (reconnect).
    Status session(bool *done);
    Status innerSteps(bool *cancelled);
    // *regrouped: alone, it waited for a peer and a vote admitted one; the new ring syncs before it averages.
    Status averageAndStep(Communicator &comm, bool *reconnect, bool *regrouped);
    uint64_t currentHash();

    const DilocoRunnerOptions &o;
    const std::atomic<bool> &cancel;
    const std::function<void(const DilocoProgress &)> &report;
    std::optional<rl::Policy> policy;
    DilocoCheckpoint st;
    std::vector<float> gradient;
    platform::LargeVector<float> delta; // the pseudo-gradient, all-reduced in place
    std::optional<BundleStore> store;
    std::shared_ptr<AuditMaterial> audit; // this outer step's, while it runs (innerSteps)
    QElapsedTimer sinceCheckpoint;
    DilocoProgress progress;
    double lossSum = 0;
    int lossCount = 0;
    uint64_t completedThisRun = 0;
    int refusalsInARow = 0;
};

DilocoRunner::DilocoRunner(DilocoRunnerOptions options)
    : m_options(std::move(options))
{}
DilocoRunner::~DilocoRunner() = default;

Status DilocoRunner::run(const std::atomic<bool> &cancel, const std::function<void(const DilocoProgress &)> &onProgress)
{
    Impl impl(m_options, cancel, onProgress);
    return impl.run();
}

Status DilocoRunner::Impl::prepare()
{
    const DilocoTaskConfig &c = o.config;
    auto created = rl::Policy::create(policyConfigOf(c), c.seed, o.device);
    if (!created)
        return fail(QStringLiteral("DiLoCo model: %1").arg(QString::fromStdString(created.error)));
    policy.emplace(std::move(*created));
    const size_t n = rl::flatParameterCount(*policy);
    st.taskId = o.taskId;
    st.global.assign(n, 0.0f);
    if (Outcome read = rl::readFlatParameters(*policy, st.global); !read)
        return fail(read);
    st.momentum.assign(n, 0.0f);
    st.local = st.global;
    st.adam.reset(n);
    gradient.assign(n, 0.0f);
    delta.assign(n, 0.0f);
    progress.innerSteps = c.innerSteps;
    progress.deltaBound = pseudoGradientBound(c, n);
    if (!o.checkpointDir.isEmpty()) {
        store.emplace(o.checkpointDir);
        QStringList discarded;
        auto newest = store->readNewest(&discarded);
        for (const QString &why : discarded)
            qCWarning(lcDiloco) << "set aside a damaged checkpoint:" << why;
        if (newest) {
            auto restored = DilocoCheckpoint::fromBundle(*newest, o.taskId, n);
            if (restored) {
                st = std::move(restored).value();
                progress.resumed = true;
                progress.outerStep = st.outerStep;
                progress.innerStep = st.innerStep;
                qCInfo(lcDiloco) << "resumed from checkpoint: outer step" << st.outerStep << "inner step"
                                 << st.innerStep;
            } else {
                qCWarning(lcDiloco) << "ignoring checkpoint" << newest->path << ":" << restored.error();
            }
        }
    }
    if (Outcome w = rl::writeFlatParameters(*policy, st.local); !w)
        return fail(w);
    progress.stateHash = currentHash();
    sinceCheckpoint.start();
    return {};
}

uint64_t DilocoRunner::Impl::currentHash()
{
    // The shared state's digest as the sync computes it (global, then momentum), shown by its first 8 bytes.
    const QByteArray d = collectives::stateDigestOf(
        {collectives::tensorDigest(bytesOf(st.global)), collectives::tensorDigest(bytesOf(st.momentum))});
    uint64_t h = 0;
    for (int i = 0; i < 8; ++i)
        h = (h << 8) | uint8_t(d[i]);
    return h;
}

void DilocoRunner::Impl::checkpoint(const char *why)
{
    sinceCheckpoint.restart();
    if (!store)
        return;
    auto written = store->write(st.toBundle());
    if (!written)
        qCWarning(lcDiloco) << "checkpoint (" << why << ") failed:" << written.error();
}

void DilocoRunner::Impl::publish(DilocoProgress::Phase phase, const QString &note)
{
    progress.phase = phase;
    progress.outerStep = st.outerStep;
    progress.innerStep = st.innerStep;
    progress.note = note;
    if (report)
        report(progress);
    progress.outerStepDone = false;
    progress.note.clear();
}

Status DilocoRunner::Impl::run()
{
    if (Status ready = prepare(); !ready)
        return ready;
    bool done = false;
    while (!cancel.load() && !done) {
        Status s = session(&done);
        if (!s) {
            publish(DilocoProgress::Phase::Stopped, s.error());
            return s;
        }
        if (!done && !cancel.load())
            pauseCancellable(cancel, o.reconnectDelayMs);
    }
    checkpoint(cancel.load() ? "cancelled" : "finished");
    publish(DilocoProgress::Phase::Stopped);
    return {};
}

Status DilocoRunner::Impl::session(bool *done)
{
    collectives::CommunicatorOptions options = o.communicator;
    options.cancel = &cancel; // a send held back by the upload cap ends when the run is cancelled
    options.contributionNormBound = float(progress.deltaBound);
    options.checkOwnInput = false; // averageAndStep measures and clips the pseudo-gradient itself
    options.linkProtection = collectives::linkProtectionFromName(o.config.linkProtection.toLatin1())
                                 .value_or(collectives::LinkProtection::Encryption); // the config parser checked it
    Communicator comm(options);
    qCInfo(lcDiloco) << "joining the ring of" << o.taskId
                     << "; its links:" << collectives::linkProtectionName(options.linkProtection);
    progress.worldSize = 0;
    publish(DilocoProgress::Phase::Connecting);
    Status r = comm.connect();
    if (!r) {
        // A refusal is retried too: the hub admits nodes whose last heartbeat named the task, and the heartbeat
        // that follows a join may still be on its way. So the first retry comes after one delay (a heartbeat
        // later), then after 2, 3 and at most 4 (a node the hub keeps refusing asks every 8 s by default).
        if (r.code() == Code::Refused) {
            publish(DilocoProgress::Phase::Connecting,
                    QStringLiteral("the hub refused this node for the task (%1); asking again shortly").arg(r.error()));
            pauseCancellable(cancel, std::min(refusalsInARow++, 3) * o.reconnectDelayMs);
            return {};
        }
        if (!cancel.load()) // cancelled while joining (pause, leaving): nothing went wrong
            publish(DilocoProgress::Phase::Connecting,
                    QStringLiteral("could not join the training ring (%1); trying again").arg(r.error()));
        return {};
    }
    refusalsInARow = 0;
    bool firstRound = true; // connect() was this round's admission vote
    while (!cancel.load()) {
        if (!firstRound) {
            r = comm.updateTopology();
            if (!r) {
                if (r.retryable())
                    continue;
                return {}; // reconnect
            }
        }
        firstRound = false;
        progress.worldSize = comm.worldSize();
        publish(DilocoProgress::Phase::Syncing);
        const collectives::SharedTensor tensors[] = {{QStringLiteral("global"), bytesOf(st.global)},
                                                     {QStringLiteral("momentum"), bytesOf(st.momentum)}};
        collectives::SyncInfo sync;
        r = comm.syncSharedState(st.outerStep, tensors, &sync);
        if (!r) {
            if (r.retryable())
                continue;
            return {};
        }
        progress.lastSyncRxBytes = sync.rxBytes;
        progress.lastSyncTxBytes = sync.txBytes;
        if (sync.fetched > 0 || sync.revision != st.outerStep) {
            // Behind the others (a joiner, or back from a pause): their state replaces ours, local work restarts.
            qCInfo(lcDiloco) << "synced shared state revision" << sync.revision << "(" << sync.rxBytes << "bytes)";
            st.outerStep = sync.revision;
            st.local = st.global;
            st.innerStep = 0;
            if (Outcome w = rl::writeFlatParameters(*policy, st.local); !w)
                return fail(w);
            checkpointIfDue("synced");
        }
        progress.stateHash = currentHash();
        bool cancelled = false;
        if (Status s = innerSteps(&cancelled); !s)
            return s;
        if (cancelled)
            return {};
        bool reconnect = false, regrouped = false;
        if (Status s = averageAndStep(comm, &reconnect, &regrouped); !s)
            return s;
        if (reconnect || cancel.load())
            return {};
        if (regrouped) {
            firstRound = true; // the vote that admitted the peer was this round's: the new ring syncs next
            continue;
        }
        if (o.maxOuterSteps && completedThisRun >= o.maxOuterSteps) {
            *done = true;
            return {};
        }
    }
    return {};
}

Status DilocoRunner::Impl::innerSteps(bool *cancelled)
{
    const DilocoTaskConfig &c = o.config;
    rl::Policy &model = *policy;
    // The audit material of this outer step: only a step trained from the shared state itself (inner step 0) can be
    // replayed from the hub's record, so a step resumed half-way commits nothing (and earns nothing).
    // The material of this very step survives a regroup (alone, the node waited for a peer after its inner steps and
    // comes back here without training more); any other is stale.
    if (audit && (audit->step != st.outerStep + 1 || st.innerStep != c.innerSteps))
        audit.reset();
    if (st.innerStep == 0) {
        audit = std::make_shared<AuditMaterial>();
        audit->step = st.outerStep + 1;
        audit->global = st.global;
        audit->momentumDigest = collectives::tensorDigest(bytesOf(st.momentum));
        audit->adamM = st.adam.m;
        audit->adamV = st.adam.v;
        audit->adamStep = st.adam.step;
    }
    if (testingDilocoCheat() == DilocoCheat::Idle) // trains nothing and averages what it has (tests only)
        st.innerStep = c.innerSteps;
    while (st.innerStep < c.innerSteps) {
        if (cancel.load()) {
            *cancelled = true;
            return {};
        }
        auto loss = innerStep(model, st.local, st.adam, gradient, c, o.dataSeed, st.outerStep, st.innerStep, &cancel);
        if (!loss) {
            if (cancel.load()) {
                *cancelled = true;
                return {};
            }
            return fail(QStringLiteral("inner step: %1").arg(loss.error()));
        }
        ++st.innerStep;
        st.lastLoss = *loss;
        progress.loss = *loss;
        lossSum += *loss;
        ++lossCount;
        checkpointIfDue("interval"); // before reporting the step: what was reported is on disk (when due)
        publish(DilocoProgress::Phase::Training);
    }
    return {};
}

Status DilocoRunner::Impl::averageAndStep(Communicator &comm, bool *reconnect, bool *regrouped)
{
    const DilocoTaskConfig &c = o.config;
    const size_t n = st.global.size();
    for (size_t i = 0; i < n; ++i)
        delta[i] = st.global[i] - st.local[i];
    const double bound = progress.deltaBound;
    const collectives::NormResult own = collectives::l2Norm(delta.data(), n);
    if (!own.finite)
        return fail(QStringLiteral("the local model diverged: its pseudo-gradient is not finite"));
    progress.deltaNorm = own.norm;
    progress.deltaClipped = own.norm > bound;
    if (progress.deltaClipped)
        clipToNorm(delta, own.norm, bound);
    if (testingDilocoCheat() == DilocoCheat::Noise) {
        // A cheater's contribution: noise of the honest norm, sent and committed alike (tests only).
        std::mt19937 random(uint32_t(st.outerStep));
        std::normal_distribution<float> gauss(0.0f, float(std::min(own.norm, bound) / std::sqrt(double(n))));
        for (size_t i = 0; i < n; ++i)
            delta[i] = gauss(random);
    }
    if (audit)
        audit->delta.assign(delta.begin(), delta.end());
    publish(DilocoProgress::Phase::Averaging);
    collectives::ReduceInfo info;
    // Alone in the ring (the others left or were excluded, or none came yet), a node does not step: an average of one
    // never reaches the master, so the step would be recorded nowhere, earn nothing and leave the shared state the hub
    // anchors — and a node that trains nothing (or fast) would make steps in a tight loop, committing each to the hub
    // until it is rate-limited. Unless the task lets a node train alone (min_ring_size 1), the average waits for a
    // peer, asking the master for a new topology every reconnect delay (joiners are admitted by that vote).
    const bool mayStepAlone = c.minRingSize <= 1;
    bool saidWaiting = false;
    for (;;) {
        if (cancel.load()) {
            checkpoint("cancelled before averaging");
            *reconnect = true;
            return {};
        }
        if (comm.worldSize() < 2 && !mayStepAlone) {
            if (!saidWaiting) {
                saidWaiting = true;
                progress.worldSize = comm.worldSize();
                publish(DilocoProgress::Phase::Averaging,
                        QStringLiteral("waiting for a peer to average with (this task averages with at least %1 nodes)")
                            .arg(c.minRingSize));
            }
            pauseCancellable(cancel, o.reconnectDelayMs);
            if (cancel.load())
                continue;
            if (Status t = comm.updateTopology(); !t && !t.retryable()) {
                *reconnect = true;
                return {};
            }
            if (comm.worldSize() >= 2) {
                // A joiner comes in through this vote and syncs the shared state first; so does this node (its
                // inner steps of this outer step stay done, and averaged once the sync is through).
                *regrouped = true;
                return {};
            }
            continue;
        }
        Status r = comm.allReduce(std::span<float>(delta), collectives::ReduceOp::Avg, quantFor(c.quantization),
                                  st.outerStep + 1, &info);
        if (r && info.worldSize < 2 && !mayStepAlone)
            continue; // the others left during the retry: the "average" is our own delta, untouched; wait for a peer
        if (r)
            break;
        if (r.code() == Code::InvalidArgument)
            return fail(QStringLiteral("averaging: %1").arg(r.error())); // non-finite weights: nothing to retry
        if (!r.retryable()) {
            *reconnect = true;
            return {};
        }
        if (cancel.load())
            continue; // aborted by our own cancel (pause, leaving): the top of the loop checkpoints and leaves
        progress.worldSize = comm.worldSize();
        publish(DilocoProgress::Phase::Averaging,
                QStringLiteral("a peer left mid-average (%1); retrying").arg(r.error()));
        // Not in a tight loop: a Begin refused while the group votes or syncs would be sent again at once, hundreds
        // of times a second, for as long as that lasts.
        pauseCancellable(cancel, 100);
    }
    // Whatever reached the average, the step stays finite and bounded: the peers' checks keep every value within
    // what n bounded contributions allow, and the average of contributions within the bound is within it.
    const collectives::NormResult averaged = collectives::l2Norm(delta.data(), n);
    if (!averaged.finite) { // the same on every member (their results are bit-identical): all skip it alike
        qCWarning(lcDiloco) << "the averaged pseudo-gradient is not finite: outer step" << st.outerStep + 1
                            << "applies none";
        std::fill(delta.begin(), delta.end(), 0.0f);
    } else if (averaged.norm > bound * collectives::kBoundSlack) {
        qCWarning(lcDiloco) << "averaged pseudo-gradient of norm" << averaged.norm << "clipped to" << bound;
        clipToNorm(delta, averaged.norm, bound);
    }
    nesterovOuterStep(st.global, st.momentum, delta, float(c.outerLearningRate), float(c.outerMomentum));
    st.local = st.global;
    if (Outcome w = rl::writeFlatParameters(*policy, st.local); !w)
        return fail(w);
    ++st.outerStep;
    st.innerStep = 0;
    ++completedThisRun;
    checkpointIfDue("outer step");
    progress.worldSize = info.worldSize;
    progress.lastReduceWorld = info.worldSize;
    progress.lastReduceTxBytes = info.txBytes;
    progress.lastReduceRxBytes = info.rxBytes;
    progress.lastOpId = info.opId;
    progress.outerLoss = lossCount ? lossSum / lossCount : st.lastLoss;
    lossSum = 0;
    lossCount = 0;
    progress.stateHash = currentHash();
    progress.outerStepDone = true;
    progress.audit = std::move(audit); // the engine commits it to the hub (and uploads it when audited)
    publish(DilocoProgress::Phase::Training);
    progress.audit.reset();
    return {};
}

} // namespace cohort::diloco
