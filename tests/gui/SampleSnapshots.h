#pragma once
// Hand-made engine snapshots and events for the GUI tests and the screenshot tool: no engine needed.
#include "core/EarningsReport.h"
#include "core/EngineEvent.h"
#include "core/EngineSnapshot.h"

#include <cmath>

namespace cohort::samples {

inline TaskInfo task(const QString &id, const QString &kind, const QString &title, double rate)
{
    TaskInfo t;
    t.id = id;
    t.kind = kind;
    t.title = title;
    t.description =
        QStringLiteral("Sample task %1: a description long enough to wrap onto a second line in the details "
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
    if (kind == QLatin1String("rl")) {
        t.rl = RlTaskConfig{};
        t.rl->environments = {QStringLiteral("add-sub")};
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
    s.tasks = {
        task(QStringLiteral("arith-rl"), QStringLiteral("rl"), QStringLiteral("Arithmetic reasoning (RL)"), 1.5),
        task(QStringLiteral("sort-diloco"), QStringLiteral("diloco"), QStringLiteral("Sorting model (DiLoCo)"), 0.2)};
    return s;
}

// Two GPUs `second` seconds into some work: values that wander, so charts have a shape. The second GPU's fan is
// not supported (as on many data-centre cards).
inline EngineSnapshot withGpus(EngineSnapshot s, int second)
{
    s.takenAt = QDateTime::fromSecsSinceEpoch(1'800'000'000 + second, Qt::UTC);
    s.computeDevice = QStringLiteral("CUDA (2 GPU) (LibTorch 2.1.0, 16 threads)");
    for (int i = 0; i < 2; ++i) {
        const double wave = std::sin((second + 97 * i) / 40.0);
        GpuSample g;
        g.index = i;
        g.name = i == 0 ? QStringLiteral("NVIDIA GeForce RTX 4090") : QStringLiteral("NVIDIA RTX A4000");
        g.uuid = i == 0 ? QStringLiteral("GPU-5f1c0a2e-8d7b-4c39-a1e4-2b9f60d3c871")
                        : QStringLiteral("GPU-0b7e44d2-1c55-4f0e-9a63-7d2c8e19f405");
        g.utilizationPercent = int(80 + 15 * wave);
        g.memoryUtilizationPercent = int(35 + 10 * wave);
        g.memoryTotalBytes = (i == 0 ? 24LL : 16LL) << 30;
        g.memoryUsedBytes = qint64(double(*g.memoryTotalBytes) * (0.55 + 0.05 * wave));
        g.temperatureC = int(64 + 6 * wave + second / 60);
        g.powerW = (i == 0 ? 330 : 120) + (i == 0 ? 60 : 15) * wave;
        g.powerLimitW = i == 0 ? 450 : 140;
        g.smClockMHz = int(2400 + 120 * wave);
        g.memoryClockMHz = i == 0 ? 10501 : 7001;
        if (i == 0)
            g.fanPercent = int(55 + 10 * wave);
        else
            g.notes = {QStringLiteral("fan: Not Supported")};
        s.gpus.append(g);
        // Cohort's worker on each: the first generating, the second paused by the user.
        ComputeWorkerStatus w;
        w.gpuUuid = g.uuid;
        w.name = g.name;
        w.device = QStringLiteral("cuda:%1").arg(i);
        w.paused = i == 1;
        w.generating = i == 0;
        w.memoryPercent = i == 0 ? 90 : 50;
        w.memoryBudgetBytes = *g.memoryTotalBytes / 100 * w.memoryPercent;
        w.batchesAccepted = i == 0 ? 412 : 97;
        w.tokensPerSecond = i == 0 ? 8907 : 0;
        s.computeWorkers.append(w);
    }
    return s;
}

inline EngineSnapshot userPaused()
{
    EngineSnapshot s = snapshot(NodeState::Paused, QStringLiteral("Paused by you"));
    s.reason = PauseReason::User;
    s.pauseReasons = {PauseReason::User};
    return s;
}

// The hub advertises Cohort 99.0.0 (never this build's version); with `required`, as its minimum too: the engine
// stopped with the reason, as it does below a hub's minimum.
inline EngineSnapshot withUpdate(EngineSnapshot s, bool required = false)
{
    const ClientRelease release{QStringLiteral("99.0.0"), required ? QStringLiteral("99.0.0") : QString(),
                                QStringLiteral("https://cohort.example/download")};
    s.update = assessUpdate(release, QStringLiteral("0.1.0"));
    if (required) {
        s.state = NodeState::Error;
        s.why = belowMinimumMessage(s.update);
    }
    return s;
}

inline EngineEvent event(EngineEvent::Severity severity, EventCategory category, const QString &message)
{
    EngineEvent e;
    e.time = QDateTime::currentDateTimeUtc();
    e.severity = severity;
    e.category = category;
    e.message = message;
    return e;
}

// A week of hourly earnings ending at `now`: work in the day hours, verified except for the last few hours.
inline EarningsReport earnings(const QDateTime &now = QDateTime::currentDateTimeUtc())
{
    EarningsReport r;
    r.nodeId = QStringLiteral("n-7f3a9c21d4e8b605");
    r.generatedAt = now.toUTC();
    const qint64 hourMs = 3600 * 1000;
    const QDateTime thisHour = QDateTime::fromMSecsSinceEpoch(now.toMSecsSinceEpoch() / hourMs * hourMs, Qt::UTC);
    for (int back = 7 * 24 - 1; back >= 0; --back) {
        const QDateTime hour = thisHour.addSecs(-3600LL * back);
        const int h = hour.toLocalTime().time().hour();
        if (h < 8 || h > 22)
            continue; // the computer is off at night
        const double earned = 0.2 + 0.05 * (h % 5) + 0.02 * (back % 3);
        EarningsBucket b;
        b.hourStart = hour;
        b.tokens = qint64(earned * 10000);
        if (back < 3)
            b.amounts.pending = earned;
        else
            b.amounts.confirmed = earned;
        if (back % 29 == 5)
            b.amounts.refused = 0.1;
        r.history.append(b);
        r.last7Days.pending += b.amounts.pending;
        r.last7Days.confirmed += b.amounts.confirmed;
        r.last7Days.refused += b.amounts.refused;
        if (hour.date() == now.toUTC().date()) {
            r.today.pending += b.amounts.pending;
            r.today.confirmed += b.amounts.confirmed;
            r.today.refused += b.amounts.refused;
        }
    }
    r.total = {r.last7Days.pending, r.last7Days.confirmed + 12.5, r.last7Days.refused};
    r.tasks = {
        TaskEarnings{
            QStringLiteral("arith-rl"), {r.total.pending, r.total.confirmed - 2.25, r.total.refused}, 1234567, 412},
        TaskEarnings{QStringLiteral("sort-diloco"), {0, 2.25, 0}, 45000, 9}};
    return r;
}

} // namespace cohort::samples
