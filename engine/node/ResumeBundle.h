#pragma once
// Engine checkpoints, a part the Engine owns (engine thread): what the node is in the middle of, as an atomic bundle in
// <data>/bundles (store/EngineBundle), written at the safe points (work received, batch saved in the outbox,
// pause/resume, quit) and read back at start. Finished batches live in the outbox and download progress in the
// downloader's own files; the bundle holds the rest: the work items in hand, one per compute device (so a crash
// mid-batch regenerates them, same seeds, instead of letting them expire), the user's pause and snooze and the GPUs
// paused on their own (a paused node stays paused across a reboot), and the task and policy version.
#include "core/EngineEvent.h"
#include "node/RolloutCommons.h"

#include <QDateTime>
#include <QObject>
#include <QTimer>
#include <memory>
#include <optional>

namespace cohort {

class BundleStore;

struct ResumeState {
    QString taskId;        // the joined task, or the one about to be joined (the wish survives a restart)
    int policyVersion = 0; // written for the record; a start takes the verified version from disk
    bool userPaused = false;
    QDateTime snoozedUntil;      // invalid: no snooze
    QList<RolloutWorkItem> work; // issued by the hub and not in the outbox yet (in the workers' hands, or waiting
                                 // for one: a removed or paused GPU's), at most kMaxBundledWork
    QStringList pausedGpus;      // the GPUs the user paused on their own (NVML UUIDs)
};

// The engine as the bundle sees it. Read at each write; never cached.
class ResumeHost {
public:
    virtual ResumeState resumeState() const = 0;

protected:
    ~ResumeHost() = default;
};

class ResumeBundle : public QObject {
    Q_OBJECT
public:
    ResumeBundle(ResumeHost &host, QString dataDir, QObject *parent = nullptr);
    ~ResumeBundle() override;

    // Opens <data>/bundles and reads back the newest bundle that verifies (none: a first start, or nothing valid).
    // `taskNamed`: this start names a task (cohortd --task), which wins over the bundle's (taskId stays empty). The
    // work items come back only if their batch is not in the outbox already.
    std::optional<ResumeState> restore(bool taskNamed);
    void write(const char *why);
    void writeSoon(); // coalesces bursts (pause toggled 100 times) into one write within 250 ms

Q_SIGNALS:
    void eventOccurred(const cohort::EngineEvent &event);

private:
    ResumeHost &m_host;
    QString m_dataDir;
    std::unique_ptr<BundleStore> m_bundles; // <data>/bundles, opened by restore()
    QTimer m_timer;
};

} // namespace cohort
