#pragma once
// The DiLoCo training loop of one node (prime-stack.md §1.9), run on a thread of its own: every call blocks.
//
//   connect to the master (admitted into the ring at the members' next outer boundary)
//   loop:
//     updateTopology            admit peers that wait (not on the first round: connect() was that round)
//     syncSharedState(outer)    global weights + outer momentum; a joiner or a node that fell behind fetches them,
//                               everyone else receives 0 bytes (the outer step is bit-identical everywhere)
//     H inner AdamW steps       on `local`, batches from the node's own seed; checkpoint at most once a minute
//     all-reduce (avg)          pseudo-gradient delta = global - local, clipped to the task's norm bound
//                               (pseudoGradientBound), uint8-quantized by default; retried with the smaller ring
//                               when a peer vanishes or is excluded for out-of-bound values; a ring of one completes
//                               at once
//     guard                     the averaged delta must be finite and within the bound (clipped if not): the model
//                               never takes a non-finite or out-of-bound step, whatever a peer sent
//     outer Nesterov step       global -= lr (delta + mu buf); local = global; outer + 1
//
// Cancellation (pause, leave, quit) is checked between inner steps and before every collective; the state is
// checkpointed and the communicator closed, which the master treats as the peer leaving. A collective already in
// flight finishes (or times out) first: pausing in the averaging phase waits for it.
#include "collectives/Communicator.h"
#include "core/DilocoTaskConfig.h"
#include "core/Expected.h"
#include "diloco/DilocoAudit.h"

#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <string>

namespace cohort::diloco {

// The norm bound of a pseudo-gradient in this task: DilocoTaskConfig::maxDeltaNorm, or when 0 the most H AdamW steps
// can move the weights — AdamW's step is at most about lr per coordinate (|m| / sqrt(v) <= 1 after bias correction,
// plus a weight decay of lr x wd x |w|), so H steps move at most H x lr x sqrt(n) in norm; twice that leaves room.
double pseudoGradientBound(const DilocoTaskConfig &config, size_t parameterCount);
// The number of weights of the task's model (what the pseudo-gradient and the shared state hold).
Expected<size_t> modelParameterCount(const DilocoTaskConfig &config);

struct DilocoRunnerOptions {
    QString taskId;
    DilocoTaskConfig config;
    collectives::CommunicatorOptions communicator; // master address/port and the node's key
    QString checkpointDir;                         // engine bundles of this task's state; empty: none (tests)
    uint64_t dataSeed = 0;                         // this node's batches (differs per node)
    int checkpointIntervalMs =
        60'000;                 // at most one bundle per interval (inner or outer step), and always when stopping
    uint64_t maxOuterSteps = 0; // stop after this many completed outer steps of this run; 0: never (tests)
    int reconnectDelayMs = 2'000;
    std::string device = "cpu"; // where the model trains (a LibTorch device string)
};

struct DilocoProgress {
    enum class Phase { Connecting, Syncing, Training, Averaging, Stopped };
    Phase phase = Phase::Connecting;
    uint64_t outerStep = 0; // completed outer steps of the task (the shared state's revision)
    int innerStep = 0;
    int innerSteps = 0;     // H
    int worldSize = 0;      // peers in the ring now
    double loss = 0;        // the last inner step's training loss (nats per token)
    double outerLoss = 0;   // mean inner loss of the last completed outer step
    uint64_t stateHash = 0; // of global weights + momentum after the last outer step / sync
    uint64_t lastSyncRxBytes = 0, lastSyncTxBytes = 0;
    uint64_t lastReduceTxBytes = 0, lastReduceRxBytes = 0;
    int lastReduceWorld = 0;
    uint64_t lastOpId = 0;
    double deltaNorm = 0;       // this node's pseudo-gradient norm before clipping, last outer step
    double deltaBound = 0;      // pseudoGradientBound
    bool deltaClipped = false;  // deltaNorm was above the bound
    bool outerStepDone = false; // this report is the one right after an outer step
    bool resumed = false;       // the run started from a checkpoint
    QString note;               // what just happened, for the activity log ("peer left, retrying with 2")
    // With outerStepDone, for a step trained from the shared state itself: what the node commits to the hub and
    // uploads when the hub audits the step (diloco/DilocoAudit.h). Null otherwise.
    std::shared_ptr<const AuditMaterial> audit;
};

const char *phaseName(DilocoProgress::Phase phase);

class DilocoRunner {
public:
    explicit DilocoRunner(DilocoRunnerOptions options);
    ~DilocoRunner();

    // Runs until *cancel, maxOuterSteps, or an error that retrying cannot fix (bad config, refused by the master).
    Status run(const std::atomic<bool> &cancel, const std::function<void(const DilocoProgress &)> &onProgress);

private:
    class Impl;
    DilocoRunnerOptions m_options;
};

} // namespace cohort::diloco
