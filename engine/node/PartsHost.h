#pragma once
// What the engine's parts ask, answered in one place (engine thread). Each part sees only its host interface: whether
// it may work now, the hub client, the joined task, the node's identity, a sibling's reading. This class answers every
// one of them from the sibling parts, the engine's rules and the node's identity and compute probe; it decides nothing
// on its own and caches nothing (each answer is read at the question). The engine owns it next to the parts, and keeps
// the lifecycle and the wiring of the parts' signals (what happens when) itself.
#include "node/CheckpointTracker.h"
#include "node/DilocoSession.h"
#include "node/EarningsFeed.h"
#include "node/HubSession.h"
#include "node/ResumeBundle.h"
#include "node/RolloutLoop.h"
#include "node/TaskMembership.h"

#include <memory>

namespace cohort {

class Identity;
class RolloutFleet;
class ScheduleGate;
class SnapshotPublisher;
struct ComputeInfo;
struct EngineOptions;

class PartsHost final : public RolloutHost,
                        public DilocoHost,
                        public CheckpointHost,
                        public HubSessionHost,
                        public EarningsHost,
                        public ResumeHost,
                        public TaskMembershipHost {
public:
    // The parts whose readings answer the questions: siblings of the same engine, set once in its constructor before
    // any part asks (no part's constructor does).
    struct Parts {
        HubSession *hubSession = nullptr;
        TaskMembership *tasks = nullptr;
        ScheduleGate *schedule = nullptr;
        CheckpointTracker *checkpoints = nullptr;
        RolloutFleet *rollouts = nullptr;
        SnapshotPublisher *state = nullptr;
    };
    // The engine's options (the payout address as of now: a live option), its compute probe and its identity (both
    // set by start()); the engine owns all three and outlives this host.
    PartsHost(const EngineOptions &options, const ComputeInfo &compute, const std::unique_ptr<Identity> &identity);
    void setParts(Parts parts) { m_parts = parts; }

    // The rules that join the parts: no work while the engine stops or the hub is not online, and none but the
    // downloads' while a pause reason holds.
    bool checkpointsMayFetch() const override;
    bool rolloutsMayRun() const override; // also no new batch once "pause after this step" is pending
    bool dilocoMayRun() const override;   // also not while the first worker's GPU is paused or in another program's use
    bool earningsMayFetch() const override;
    bool downloadsPaused() const override; // a new download starts paused

    HubClient *hub() const override;
    const TaskInfo *joinedTask() const override;
    QString joinedTaskId() const override;
    const QList<TaskInfo> &catalogue() const override;
    int policyVersion() const override;
    QString policyPath() const override;
    double dutyCycle() const override;
    QString computeDevice() const override;
    QString nodeId() const override;
    QByteArray nodeSecretKey() const override;
    bool failed() const override;
    QJsonObject hardware() const override;
    QString payoutAddress() const override;
    const EngineSnapshot &machine() const override;
    ResumeState resumeState() const override;

private:
    bool stopping() const;
    bool online() const;

    const EngineOptions &m_options;
    const ComputeInfo &m_compute;
    const std::unique_ptr<Identity> &m_identity;
    Parts m_parts;
};

} // namespace cohort
