#pragma once
// Passes engine snapshots on to a view at most once per interval, always the newest, except that a change the user
// must see at once (state, reason, pause, joined task, last problem) passes immediately. The engine publishes up to
// 4 snapshots a second while it trains; re-laying out word-wrapped labels that often cost the GUI thread ~4% of a
// core (bench_gui), for numbers nobody reads faster than once a second.
#include "core/EngineSnapshot.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <optional>

namespace cohort {

class SnapshotThrottle : public QObject {
    Q_OBJECT
public:
    explicit SnapshotThrottle(int intervalMs = 1000, QObject *parent = nullptr);

    void offer(const cohort::EngineSnapshot &snapshot);
    // Whether `next` differs from `previous` in something shown at once.
    static bool isUrgent(const EngineSnapshot &previous, const EngineSnapshot &next);

Q_SIGNALS:
    void snapshotReady(const cohort::EngineSnapshot &snapshot);

private:
    void emitPending();

    int m_intervalMs;
    QTimer m_timer;
    QElapsedTimer m_sinceEmit;
    std::optional<EngineSnapshot> m_last;    // the last one passed on
    std::optional<EngineSnapshot> m_pending; // the newest held back
};

} // namespace cohort
