#pragma once
// The engine's state and the snapshot views see. The parts' readings are gathered here: updateState() turns the
// state's inputs into one state (logging each change) and publish() copies what the parts report into the
// snapshot and sends it, at most every kMinPublishIntervalMs however often something moves (markDirty()).
// The engine fills the inputs that are events rather than readings (a fatal error, a download starting, the
// activity line) through inputs(). Lives on the engine thread with the parts it reads.
#include "core/EngineSnapshot.h"
#include "core/NodeState.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace cohort {

class CheckpointTracker;
class DilocoSession;
class HubSession;
class RolloutFleet;
class ScheduleGate;
class TaskMembership;

class SnapshotPublisher : public QObject {
    Q_OBJECT
public:
    static constexpr int kMinPublishIntervalMs = 250; // snapshots at most 4 per second

    // What the snapshot is read from; all outlive the publisher (siblings under the engine).
    struct Sources {
        const HubSession *hub;
        const ScheduleGate *schedule;
        const RolloutFleet *rollouts;
        const CheckpointTracker *checkpoints;
        const DilocoSession *diloco;
        const TaskMembership *tasks;
    };
    SnapshotPublisher(Sources sources, QObject *parent);

    EngineSnapshot &snapshot() { return m_snapshot; }
    const EngineSnapshot &snapshot() const { return m_snapshot; }
    StateInputs &inputs() { return m_inputs; }
    const StateInputs &inputs() const { return m_inputs; }

    void updateState(); // the readings into the inputs, the inputs into a state; then markDirty()
    void markDirty();   // a snapshot goes out within kMinPublishIntervalMs
    void publish();     // now
    // The dashboard's activity line for the joined task: the download when the node waits for it, else what the
    // task's kind of work is doing (the next updateState() or publish() sends it).
    void refreshActivity();

Q_SIGNALS:
    void published(const cohort::EngineSnapshot &snapshot);

private:
    Sources m_sources;
    StateInputs m_inputs;
    EngineSnapshot m_snapshot;
    QTimer m_publishTimer;
    QElapsedTimer m_sinceLastPublish;
};

} // namespace cohort
