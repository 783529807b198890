#pragma once
// GPU readings over time, in memory: the last 5 minutes at 1 Hz, the last hour in 10 s averages and the last 24 hours
// in 5 min averages, per GPU. Each reading also goes into a minute average; finished minutes are handed back to be
// stored (GpuHistoryStore, one row per GPU per minute), and stored minutes seed the hour and day views after a restart.
// Pure logic on explicit times (seconds since the epoch), so tests feed it tables.
#include "core/EngineSnapshot.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <QtNumeric>
#include <deque>
#include <iterator>

namespace cohort {

// One bucket: averages of the readings in [time, time + bucket seconds). NaN: no reading of that value in it.
struct GpuHistoryPoint {
    qint64 time = 0; // the bucket's start, seconds since the epoch (UTC)
    double utilizationPercent = qQNaN();
    double memoryUsedBytes = qQNaN();
    double memoryTotalBytes = qQNaN();
    double temperatureC = qQNaN();
    double powerW = qQNaN();
    int samples = 0; // readings averaged into it
    static GpuHistoryPoint fromSample(const GpuSample &sample, qint64 time);
};

// A finished minute of one GPU, as stored.
struct GpuHistoryRecord {
    QString gpu; // GpuHistory::keyOf(): the UUID, or "index-N" when NVML gave none
    QString name;
    GpuHistoryPoint point;
};

enum class GpuHistoryRange { FiveMinutes, OneHour, OneDay };

class GpuHistory {
public:
    struct Tier {
        int bucketSeconds;
        int spanSeconds;
    };
    static constexpr Tier kTiers[] = {{1, 5 * 60}, {10, 60 * 60}, {5 * 60, 24 * 60 * 60}}; // by GpuHistoryRange
    static constexpr int kRecordSeconds = 60;

    static QString keyOf(const GpuSample &sample);
    static int bucketSeconds(GpuHistoryRange range) { return kTiers[int(range)].bucketSeconds; }

    // Adds one reading of every GPU taken at `time`. Returns the minutes this reading finished (at most one per GPU).
    QList<GpuHistoryRecord> add(const QList<GpuSample> &gpus, qint64 time);
    // Stored minutes (ascending) fill the hour and day views; call before the first add().
    void seed(const QList<GpuHistoryRecord> &minutes);
    // The minutes not finished yet (at shutdown: store them too, they are averages of what was read).
    QList<GpuHistoryRecord> openMinutes() const;

    QStringList gpus() const; // keys, in the order first seen
    QString nameOf(const QString &gpu) const;
    // Ascending; the last point is the bucket being filled (a partial average).
    QList<GpuHistoryPoint> points(const QString &gpu, GpuHistoryRange range) const;

private:
    struct Accumulator {
        qint64 start = -1; // -1: empty
        double sum[5] = {};
        double weight[5] = {};
        int samples = 0;
        void add(const GpuHistoryPoint &p);
        GpuHistoryPoint point() const;
    };
    static constexpr int kLevels = int(std::size(kTiers)) + 1; // the tiers, then the minute being recorded
    struct Series {
        QString name;
        Accumulator open[kLevels];
        std::deque<GpuHistoryPoint> closed[std::size(kTiers)];
    };
    // Adds p to level `level`; a finished minute goes to *finished.
    void feed(Series &series, const QString &gpu, int level, const GpuHistoryPoint &p,
              QList<GpuHistoryRecord> *finished);

    QHash<QString, Series> m_series;
    QStringList m_order;
};

} // namespace cohort
