#pragma once
// Every compute device the node lends, a part the Engine owns (engine thread): one RolloutLoop per worker of the
// compute plan (core/ComputePlan: each GPU the user allows, or the CPU), sharing one outbox and the work items no
// loop holds (RolloutCommons). The engine talks to the fleet as it talked to its one loop: kick, cancel, pause, the
// node's figures (the loops' sums); the fleet adds what is per GPU: a worker's own pause, its memory share, and a
// new plan applied while the engine runs (a GPU taken out of the choice hands its work item to the others; one
// added starts its own compute thread).
#include "core/ComputePlan.h"
#include "core/EngineEvent.h"
#include "core/EngineSnapshot.h"
#include "node/RolloutCommons.h"
#include "node/RolloutLoop.h"

#include <QDateTime>
#include <QHash>
#include <QMap>
#include <QObject>
#include <QSet>
#include <memory>
#include <vector>

namespace cohort {

class RolloutFleet : public QObject {
    Q_OBJECT
public:
    using WorkItem = RolloutWorkItem;

    RolloutFleet(RolloutHost &host, const QString &dataDir, QObject *parent = nullptr);
    ~RolloutFleet() override; // each loop cancels its batch and stops its compute thread (30 s at most each)

    // Makes the running loops those of the compute plan (core/ComputePlan) for these CUDA devices, NVML's GPUs and the
    // user's choice: keeps a worker whose GPU stays (with its new memory share), stops one whose GPU left (its work
    // item goes to the others), starts the new ones. Tests without CUDA let NVML's (fake) GPUs stand in for CUDA
    // devices, computing on the CPU (testingGpusOnCpu).
    void plan(const QStringList &cudaUuids, const QList<GpuSample> &gpus, const QStringList &chosen, int memoryPercent,
              const QMap<QString, int> &memoryPercentPerGpu);

    void kick();
    void cancel();
    void taskJoined(const QString &taskId); // cancels the batches in hand; work items of other tasks are dropped
    void taskLeft();
    void stop();

    // The user's pause of one GPU (by NVML UUID). False: no worker computes on it.
    bool setGpuPaused(const QString &gpuUuid, bool paused);
    QStringList pausedGpus() const; // for the engine bundle
    // The GPUs another program uses now (UUID -> program), read once a second: their workers wait, and work again
    // once the program has been gone for `holdSeconds` (a game between two levels does not get its GPU taken).
    // `programByIndex` as NVML's process lists give it (GPU index -> program), `gpus` to find each index's UUID.
    void setGpusInUse(const QMap<int, QString> &programByIndex, const QList<GpuSample> &gpus, int holdSeconds);
    QList<int> gpuIndexes(const QList<GpuSample> &gpus) const; // NVML's indexes of the GPUs the workers compute on
    void restorePausedGpus(const QStringList &gpuUuids);       // applied to the workers of the next plan too

    bool generating() const;
    bool busy() const;
    bool atWork() const;
    qint64 generatingForMs() const; // the longest-running batch's; -1: none
    RolloutStats stats() const;     // the loops' sums (rates too: the node's throughput); outbox from disk
    QList<ComputeWorkerStatus> workers() const;
    qint64 memoryBudgetBytes() const;    // the largest worker's share: what decides whether a task's policy fits
    bool primaryWaiting() const;         // the first worker (DiLoCo's device) is paused or its GPU in use
    QString primaryDevice() const;       // where one-device work runs (DiLoCo): the first worker's device
    QList<WorkItem> worksInHand() const; // every loop's and the spare ones: what the engine bundle keeps
    void restoreWork(const QList<WorkItem> &work); // from the engine bundle: the first loops to ask take them
    QString activity(const TaskInfo &task) const;

Q_SIGNALS:
    // The loops' signals (RolloutLoop), each passed on as it comes.
    void eventOccurred(const cohort::EngineEvent &event);
    void changed();
    void noteChanged(const QString &note);
    void policyNeeded(int version);
    void workInHandChanged(const char *why);
    void hubUnreachable(const QString &error);
    void batchAccepted(qint64 tokens, double meanReward, double pendingCredit);
    void batchRejected();
    void generationEnded();  // a loop's compute thread handed a batch back (done, failed or cancelled)
    void safePointReached(); // no loop generates: every batch in hand is in the outbox, or ended

private:
    void applyPlan(const ComputePlan &plan, bool standIns);
    void setGpusInUse(const QMap<QString, QString> &programByGpu, int holdSeconds);
    RolloutLoop *addLoop(const ComputeWorkerSpec &spec, bool standIn);
    void removeLoop(RolloutLoop *loop);
    void handOnWork(RolloutLoop *loop); // a waiting loop's work item goes to the others

    RolloutHost &m_host;
    RolloutCommons m_commons;
    std::vector<std::unique_ptr<RolloutLoop>> m_loops; // in the plan's order
    QSet<QString> m_pausedGpus;
    QHash<QString, QDateTime> m_inUseSeen;        // when another program was last seen on each GPU
    QHash<QString, RolloutStats> m_departedByGpu; // what removed loops did, by GPU: figures never go back
    bool m_standIns = false;
    bool m_stopping = false;
};

} // namespace cohort
