#pragma once
// GPU telemetry history on disk: one row per GPU per minute (averages) in <dataDir>/cohort.sqlite, table gpu_history
// (see NodeDatabase), kept for 7 days. Written by the engine thread once a minute; read there too (GpuTelemetry): at
// start to fill the hour and day views, once a minute for the week's energy. Own connection (NodeDatabase), so it
// never shares one with the earnings cache.
#include "core/Expected.h"
#include "core/GpuHistory.h"

#include <QList>
#include <QString>
#include <memory>

namespace cohort {

class NodeDatabase;

class GpuHistoryStore {
public:
    static constexpr int kKeepDays = 7;

    static Expected<std::unique_ptr<GpuHistoryStore>> open(const QString &path);
    ~GpuHistoryStore();
    GpuHistoryStore(const GpuHistoryStore &) = delete;
    GpuHistoryStore &operator=(const GpuHistoryStore &) = delete;

    // Upserts: a minute written twice (at shutdown, then again after a quick restart) keeps the later average.
    Status save(const QList<GpuHistoryRecord> &minutes);
    // Minutes at or after `since` (seconds since the epoch), ascending by time.
    Expected<QList<GpuHistoryRecord>> load(qint64 since) const;
    // Energy the GPUs drew in [since, until) (minutes by their start), in watt-hours: each minute's mean power times
    // the seconds it was read (1 Hz). Minutes without a power reading, and time Cohort did not run, count nothing.
    Expected<double> energyWattHours(qint64 since, qint64 until) const;
    // Deletes minutes older than kKeepDays before `now`; returns how many rows went.
    Expected<int> prune(qint64 now);

    QString path() const;

private:
    explicit GpuHistoryStore(std::unique_ptr<NodeDatabase> database);
    std::unique_ptr<NodeDatabase> m_db;
};

} // namespace cohort
