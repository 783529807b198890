#pragma once
// What the rollout loops of one node share (node/RolloutFleet; engine thread only): the outbox, whose batches any
// loop may submit but only one at a time (a batch is claimed while its submission is in flight), and the work items
// no loop holds: restored from the engine bundle, or left by a GPU that was taken out of the choice while it had one.
// The next loop that looks for work finishes them first: the hub issued them to this node, so they would otherwise
// only expire.
#include "node/Outbox.h"

#include <QJsonObject>
#include <QList>
#include <QSet>
#include <QString>
#include <optional>

namespace cohort {

// A work item the hub issued to this node and that is not in the outbox yet (kept in the engine bundle).
struct RolloutWorkItem {
    QString taskId;
    QString workId;
    int step = 0;
    int minVersion = 0;
    quint64 seed = 0;
    quint64 samplingSeed = 0;
    bool operator==(const RolloutWorkItem &) const = default;
};

// The work items and the GPUs paused on their own as the engine bundle's state keeps them (node/ResumeBundle): the
// first item under "work" (as bundles of one-device nodes had it), the rest under "more_work", the GPUs under
// "paused_gpus". Reading is strict and bounded (a damaged or hand-made bundle is fuzzed: fuzz_resume_state): at most
// kMaxBundledWork items and kMaxBundledPausedGpus GPUs come back, malformed entries are dropped.
inline constexpr qsizetype kMaxBundledWork = 64;
inline constexpr qsizetype kMaxBundledPausedGpus = 64;
void writeWorkState(QJsonObject &state, const QList<RolloutWorkItem> &work, const QStringList &pausedGpus);
QList<RolloutWorkItem> workFromState(const QJsonObject &state);
QStringList pausedGpusFromState(const QJsonObject &state);

class RolloutCommons {
public:
    explicit RolloutCommons(const QString &outboxDir)
        : m_outbox(outboxDir)
    {}

    const Outbox &outbox() const { return m_outbox; }
    int outboxCount() const { return m_outbox.count(); }

    // The oldest batch of the task that no loop is submitting, now claimed by the caller; nullopt: none.
    std::optional<OutboxEntry> claimWaiting(const QString &taskId);
    // A batch just generated: saved (fsynced) and claimed by the loop that made it, which submits it at once.
    Status putClaimed(const OutboxEntry &entry);
    void release(const QString &submissionId);          // the submission failed for now: any loop may retry it
    Status removeAnswered(const QString &submissionId); // the hub answered: gone from disk and from the claims
    bool claimed(const QString &submissionId) const { return m_claimed.contains(submissionId); }

    // Kept until a loop takes it (duplicates are dropped; past kMaxBundledWork the oldest goes).
    void adoptWork(const RolloutWorkItem &work);
    std::optional<RolloutWorkItem> takeWork(const QString &taskId);
    const QList<RolloutWorkItem> &spareWork() const { return m_spare; }
    void dropSpareWork() { m_spare.clear(); } // the task was left: its work items are of no use
    void keepWorkOf(const QString &taskId);   // another task was joined: only its items are kept

private:
    Outbox m_outbox;
    QSet<QString> m_claimed;
    QList<RolloutWorkItem> m_spare;
};

} // namespace cohort
