#pragma once
// The PRIME-RL work loop of one compute device (a GPU, or the CPU), owned by the node's RolloutFleet (engine thread;
// the model runs on the loop's own compute thread):
//   outbox first (batches from before a crash or an outage) -> ask the hub for work (step + seed) ->
//   make sure the local policy is at most async_level versions behind (else ask the engine for it) ->
//   generate G samples per problem on the compute thread -> write the batch to the outbox (fsync) ->
//   submit, signed -> delete from the outbox only once the hub has answered -> again.
// Pause cancels generation within a token; the half-made batch is dropped, its work item stays in hand. A loop may be
// paused on its own (the user paused its GPU): the node's other loops keep working.
// The outbox and the work items no loop holds are the fleet's (RolloutCommons): any loop submits a waiting batch.
//
// What it may do it asks its host (the engine: the joined task, the gate, the verified policy) at the moment it
// decides; what happened it says through signals, connected directly on the engine thread, so the engine's state
// follows each step in the same order as when the loop was part of Engine.
#include "core/ComputePlan.h"
#include "core/EngineEvent.h"
#include "core/EngineSnapshot.h"
#include "core/OwnedThread.h"
#include "node/RolloutCommons.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <functional>
#include <memory>
#include <optional>

namespace cohort {

class HubClient;
class RolloutWorker;
struct HubReply;
struct RolloutJobResult;

// The engine as the loop sees it. Read each time the loop decides; never cached.
class RolloutHost {
public:
    virtual HubClient *hub() const = 0; // the signed session with the hub (set once rollouts may run)
    virtual const TaskInfo *joinedTask() const = 0;
    virtual bool rolloutsMayRun() const = 0; // a joined RL task, the hub online, nothing pausing the node
    virtual int policyVersion() const = 0;   // the verified checkpoint's version; 0: none yet
    virtual QString policyPath() const = 0;  // its model file
    virtual double dutyCycle() const = 0;    // the scheduler's share of time for compute (1: all)

protected:
    ~RolloutHost() = default;
};

class RolloutLoop : public QObject {
    Q_OBJECT
public:
    using WorkItem = RolloutWorkItem;

    // `standIn`: the worker names a GPU but its policy runs on the CPU (testingGpusOnCpu, tests only).
    RolloutLoop(RolloutHost &host, RolloutCommons &commons, ComputeWorkerSpec spec, bool standIn,
                QObject *parent = nullptr);
    ~RolloutLoop() override; // cancels the batch in hand and stops the compute thread (30 s at most)

    void start();                // starts the compute thread; the policy runs on the spec's device
    void kick();                 // the next step, if the loop is idle, not paused, and the host allows it
    void cancel();               // the batch being generated stops within a token; its work item stays in hand
    void taskLeft();             // cancel, unload the model, forget the trainer's back-pressure
    void stop();                 // engine stopping: no further step; the compute thread is stopped by the destructor
    void setPaused(bool paused); // this loop alone: cancels the batch in hand (kept in hand), or kicks again
    bool paused() const { return m_paused; }
    // Another program uses this loop's GPU (empty: none any more): it waits like a paused one, the others work on.
    void setInUseBy(const QString &program);
    const QString &inUseBy() const { return m_inUseBy; }
    bool waiting() const { return m_paused || !m_inUseBy.isEmpty(); } // paused by the user or for another program
    // A new memory share (the settings changed): the next batch is sized by the new budget.
    void setSpec(const ComputeWorkerSpec &spec, qint64 memoryBudgetBytes);
    const ComputeWorkerSpec &spec() const { return m_spec; }
    qint64 memoryBudgetBytes() const { return m_memoryBudget; }
    ComputeWorkerStatus status() const;

    bool generating() const { return m_generating; }
    // Asking, generating, submitting, or about to start the next batch: the node is at work.
    bool busy() const { return m_generating || m_busy || m_kickQueued; }
    bool atWork() const { return busy() || m_throttled; }
    qint64 generatingForMs() const
    {
        return m_generating && m_generationClock.isValid() ? m_generationClock.elapsed() : -1;
    }
    const RolloutStats &stats() const { return m_stats; }
    qint64 lastBatchAtMs() const { return m_lastBatchAtMs; } // when its last batch was generated (0: none yet)
    std::optional<WorkItem> workInHand() const { return m_workInHand; }
    std::optional<WorkItem> takeWorkInHand(); // cancels the batch in hand; its work item goes to the caller
    QString submissionInFlight() const { return m_submitting; } // the outbox batch sent and not answered yet
    QString activity(const TaskInfo &task) const; // one line for the dashboard while the task is an RL task

Q_SIGNALS:
    void eventOccurred(const cohort::EngineEvent &event);
    void changed();                          // activity or work state moved: refresh the snapshot
    void noteChanged(const QString &note);   // the hub said why there is no work (warming up, flagged)
    void policyNeeded(int version);          // fetch at least this version (-1: whatever is newest)
    void workInHandChanged(const char *why); // the engine bundle must be written now
    void hubUnreachable(const QString &error);
    void batchAccepted(qint64 tokens, double meanReward, double pendingCredit);
    void batchRejected();
    void batchSaved();      // a batch is in the outbox: a safe point to pause at
    void generationEnded(); // the compute thread handed a batch back (done, failed or cancelled)

private:
    void changeWaiting(const std::function<void()> &change); // the user's pause or another program: stop or go on
    void retryLater(int seconds);
    // The work item in the hub's answer to a work request, for `taskId`; nullopt (and *error) when malformed.
    static std::optional<WorkItem> workItemFrom(const HubReply &reply, const QString &taskId, QString *error);
    void onWork(const HubReply &reply);
    void startWork(const WorkItem &work);
    void onGenerated(const RolloutJobResult &result);
    void submit(const OutboxEntry &entry);
    void onSubmitted(const QString &submissionId, const HubReply &reply);

    RolloutHost &m_host;
    RolloutCommons &m_commons;
    ComputeWorkerSpec m_spec;
    QString m_runDevice; // the spec's device, or "cpu" for a stand-in
    qint64 m_memoryBudget = 0;
    OwnedThread m_computeThread;
    RolloutWorker *m_worker = nullptr; // lives in m_computeThread, which deletes it as it ends
    QTimer m_timer;
    RolloutStats m_stats;
    std::optional<WorkItem> m_workInHand;
    QString m_submitting;            // the outbox batch whose submission awaits the hub's answer (claimed by this loop)
    QDateTime m_throttleUntil;       // throttled: no new batch before this (duty cycle)
    QElapsedTimer m_generationClock; // since the batch in hand started
    qint64 m_lastBatchAtMs = 0;
    bool m_busy = false;       // a work request, a generation or a submission is in flight
    bool m_generating = false; // the compute thread is generating a batch
    bool m_throttled = false;  // the hub's trainer asked us to wait (back-pressure)
    bool m_kickQueued = false; // a batch was answered and the next one starts from the event loop
    bool m_stopping = false;
    bool m_paused = false; // the user paused this loop's GPU
    QString m_inUseBy;     // another program uses this loop's GPU
    bool m_started = false;
};

} // namespace cohort
