#pragma once
// Hand-made engine snapshots and events for the GUI tests and the screenshot tool: no engine needed.
#include "core/EngineEvent.h"
#include "core/EngineSnapshot.h"

namespace cohort::samples {

inline TaskInfo task(const QString &id, const QString &kind, const QString &title, double rate)
{
    TaskInfo t;
    t.id = id;
    t.kind = kind;
    t.title = title;
    t.description = QStringLiteral("Sample task %1: a description long enough to wrap onto a second line in the details "
                                   "area below the table, as real catalogue entries do.")
                        .arg(title);
    t.rewardRate = rate;
    t.rewardUnit = QStringLiteral("credits");
    t.requirements.minCpuCores = 2;
    t.requirements.minRamMb = 4096;
    t.requirements.diskMb = 512;
    if (kind == QLatin1String("diloco")) {
        t.requirements.gpuRequired = true;
        t.requirements.minVramMb = 8192;
    }
    return t;
}

inline EngineSnapshot snapshot(NodeState state, const QString &why)
{
    EngineSnapshot s;
    s.sequence = 42;
    s.takenAt = QDateTime::currentDateTimeUtc();
    s.state = state;
    s.why = why;
    s.stateSince = s.takenAt.addSecs(-90);
    s.nodeId = QStringLiteral("n-7f3a9c21d4e8b605");
    s.nodeName = QStringLiteral("workshop-pc");
    s.hubUrl = QStringLiteral("http://127.0.0.1:47113");
    s.hubEmbedded = true;
    s.registeredAt = s.takenAt.addSecs(-600);
    s.lastHeartbeatAt = s.takenAt.addSecs(-4);
    s.computeDevice = QStringLiteral("CPU (LibTorch 1.13.1, 2 threads)");
    s.system.cpuPercent = 37.4;
    s.system.cpuCores = 2;
    s.system.memUsedBytes = qint64(3) * 1024 * 1024 * 1024;
    s.system.memTotalBytes = qint64(8) * 1024 * 1024 * 1024;
    s.system.processRssBytes = qint64(180) * 1024 * 1024;
    s.tasks = {task(QStringLiteral("arith-rl"), QStringLiteral("rl"), QStringLiteral("Arithmetic reasoning (RL)"), 1.5),
               task(QStringLiteral("sort-diloco"), QStringLiteral("diloco"), QStringLiteral("Sorting model (DiLoCo)"), 0.2)};
    return s;
}

inline EngineSnapshot userPaused()
{
    EngineSnapshot s = snapshot(NodeState::Paused, QStringLiteral("Paused by you"));
    s.reason = PauseReason::User;
    s.pauseReasons = {PauseReason::User};
    return s;
}

inline EngineEvent event(EngineEvent::Severity severity, const QString &category, const QString &message)
{
    EngineEvent e;
    e.time = QDateTime::currentDateTimeUtc();
    e.severity = severity;
    e.category = category;
    e.message = message;
    return e;
}

} // namespace cohort::samples
