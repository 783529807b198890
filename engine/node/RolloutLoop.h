#pragma once
// The PRIME-RL work loop of one compute device, a part the Engine owns (engine thread; the model runs on the loop's
// compute thread):
//   outbox first (batches from before a crash or an outage) -> ask the hub for work (step + seed) ->
//   make sure the local policy is at most async_level versions behind (else ask the engine for it) ->
//   generate G samples per problem on the compute thread -> write the batch to the outbox (fsync) ->
//   submit, signed -> delete from the outbox only once the hub has answered -> again.
// Pause cancels generation within a token; the half-made batch is dropped, its work item stays in hand.
//
// What it may do it asks its host (the engine: the joined task, the gate, the verified policy) at the moment it
// decides; what happened it says through signals, connected directly on the engine thread, so the engine's state
// follows each step in the same order as when the loop was part of Engine.
#include "core/EngineEvent.h"
#include "core/EngineSnapshot.h"
#include "core/OwnedThread.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <memory>
#include <optional>

namespace cohort {

class HubClient;
class Outbox;
class RolloutWorker;
struct HubReply;
struct OutboxEntry;
struct RolloutJobResult;

// The engine as the loop sees it. Read each time the loop decides; never cached.
class RolloutHost {
public:
    virtual HubClient *hub() const = 0;            // the signed session with the hub (set once rollouts may run)
    virtual const TaskInfo *joinedTask() const = 0;
    virtual bool rolloutsMayRun() const = 0;       // a joined RL task, the hub online, nothing pausing the node
    virtual int policyVersion() const = 0;         // the verified checkpoint's version; 0: none yet
    virtual QString policyPath() const = 0;        // its model file
    virtual double dutyCycle() const = 0;          // the scheduler's share of time for compute (1: all)
    virtual qint64 memoryBudgetBytes() const = 0;  // the GPU memory share for generation; 0: not on a GPU

protected:
    ~RolloutHost() = default;
};

class RolloutLoop : public QObject {
    Q_OBJECT
public:
    // A work item the hub issued to this node and that is not in the outbox yet (kept in the engine bundle).
    struct WorkItem {
        QString taskId;
        QString workId;
        int step = 0;
        int minVersion = 0;
        quint64 seed = 0;
        quint64 samplingSeed = 0;
    };

    RolloutLoop(RolloutHost &host, QString dataDir, QObject *parent = nullptr);
    ~RolloutLoop() override; // cancels the batch in hand and stops the compute thread (30 s at most)

    void start(const QString &device); // opens the outbox and starts the compute thread; the policy runs on `device`
    void kick();       // the next step, if the loop is idle and the host allows it
    void cancel();     // the batch being generated stops within a token; its work item stays in hand
    void taskLeft();   // cancel, unload the model, forget the trainer's back-pressure
    void stop();       // engine stopping: no further step; the compute thread is stopped by the destructor

    bool generating() const { return m_generating; }
    // Asking, generating, submitting, or about to start the next batch: the node is at work.
    bool busy() const { return m_generating || m_busy || m_kickQueued; }
    bool atWork() const { return busy() || m_throttled; }
    qint64 generatingForMs() const { return m_generating && m_generationClock.isValid() ? m_generationClock.elapsed() : -1; }
    const RolloutStats &stats() const { return m_stats; }
    std::optional<WorkItem> workInHand() const { return m_workInHand; }
    void restoreWorkInHand(const WorkItem &work) { m_workInHand = work; }
    QString activity(const TaskInfo &task) const; // one line for the dashboard while the task is an RL task

Q_SIGNALS:
    void eventOccurred(const cohort::EngineEvent &event);
    void changed();                           // activity or work state moved: refresh the snapshot
    void noteChanged(const QString &note);    // the hub said why there is no work (warming up, flagged)
    void policyNeeded(int version);           // fetch at least this version (-1: whatever is newest)
    void workInHandChanged(const char *why);  // the engine bundle must be written now
    void hubUnreachable(const QString &error);
    void batchAccepted(qint64 tokens, double meanReward, double pendingCredit);
    void batchRejected();
    void batchSaved();                        // a batch is in the outbox: a safe point to pause at
    void generationEnded();                   // the compute thread handed a batch back (done, failed or cancelled)

private:
    void retryLater(int seconds);
    void onWork(const HubReply &reply);
    void startWork(const WorkItem &work);
    void onGenerated(const RolloutJobResult &result);
    void submit(const OutboxEntry &entry);
    void onSubmitted(const QString &submissionId, const HubReply &reply);

    RolloutHost &m_host;
    QString m_dataDir;
    QString m_device;
    std::unique_ptr<Outbox> m_outbox;
    OwnedThread m_computeThread{QStringLiteral("cohort-compute"), this};
    RolloutWorker *m_worker = nullptr; // lives in m_computeThread, which deletes it as it ends
    QTimer m_timer;
    RolloutStats m_stats;
    std::optional<WorkItem> m_workInHand;
    QDateTime m_throttleUntil;       // throttled: no new batch before this (duty cycle)
    QElapsedTimer m_generationClock; // since the batch in hand started
    bool m_busy = false;             // a work request, a generation or a submission is in flight
    bool m_generating = false;       // the compute thread is generating a batch
    bool m_throttled = false;        // the hub's trainer asked us to wait (back-pressure)
    bool m_kickQueued = false;       // a batch was answered and the next one starts from the event loop
    bool m_stopping = false;
};

} // namespace cohort
