#pragma once
// Once a minute, what the node's routine work added up to ("38 batches accepted in the last minute: …"), so the
// Activity log and cohortd's terminal show one line a minute instead of one per batch. The first accepted batch
// of a run is a milestone and is said at once. Lives on the engine's thread.
#include "core/EngineEvent.h"

#include <QObject>
#include <QTimer>

namespace cohort {

class ActivitySummary : public QObject {
    Q_OBJECT
public:
    explicit ActivitySummary(QObject *parent = nullptr, int windowMs = 60'000);

    // A batch the hub accepted: its tokens, mean reward 0..1 and the credits it may earn once verified.
    void batchAccepted(qint64 tokens, double meanReward, double pendingCredits);
    void batchRejected();
    // Says what has not been said yet (the engine stops, or leaves the task); nothing when nothing happened.
    void flush();

Q_SIGNALS:
    void summarized(const cohort::EngineEvent &event);

private:
    void startWindow();

    QTimer m_timer;
    int m_windowMs;
    bool m_firstSaid = false;
    int m_accepted = 0;
    int m_rejected = 0;
    qint64 m_tokens = 0;
    double m_rewardSum = 0;
    double m_credits = 0;
};

// The summary's text, as a pure function (tested with golden strings).
QString activitySummaryText(int accepted, int rejected, qint64 tokens, double meanReward, double credits,
                            int windowSeconds);

} // namespace cohort
