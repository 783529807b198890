#include "core/GpuHistory.h"

#include <cmath>

namespace cohort {

namespace {
template <typename T>
double orNaN(const std::optional<T> &v)
{
    return v ? double(*v) : qQNaN();
}

qint64 bucketStart(qint64 time, int seconds)
{
    const qint64 q = time / seconds;
    return (time % seconds < 0 ? q - 1 : q) * seconds; // floor, also before 1970
}

double *fields(GpuHistoryPoint &p, int i)
{
    double *all[] = {&p.utilizationPercent, &p.memoryUsedBytes, &p.memoryTotalBytes, &p.temperatureC, &p.powerW};
    return all[i];
}
} // namespace

GpuHistoryPoint GpuHistoryPoint::fromSample(const GpuSample &sample, qint64 time)
{
    GpuHistoryPoint p;
    p.time = time;
    p.utilizationPercent = orNaN(sample.utilizationPercent);
    p.memoryUsedBytes = orNaN(sample.memoryUsedBytes);
    p.memoryTotalBytes = orNaN(sample.memoryTotalBytes);
    p.temperatureC = orNaN(sample.temperatureC);
    p.powerW = orNaN(sample.powerW);
    p.samples = 1;
    return p;
}

void GpuHistory::Accumulator::add(const GpuHistoryPoint &p)
{
    // A stored minute counts as the readings it averages, so a day view mixes stored and live data fairly.
    const double w = qMax(1, p.samples);
    GpuHistoryPoint copy = p;
    for (int i = 0; i < 5; ++i) {
        const double v = *fields(copy, i);
        if (std::isfinite(v)) {
            sum[i] += v * w;
            weight[i] += w;
        }
    }
    samples += qMax(1, p.samples);
}

GpuHistoryPoint GpuHistory::Accumulator::point() const
{
    GpuHistoryPoint p;
    p.time = start;
    for (int i = 0; i < 5; ++i)
        *fields(p, i) = weight[i] > 0 ? sum[i] / weight[i] : qQNaN();
    p.samples = samples;
    return p;
}

QString GpuHistory::keyOf(const GpuSample &sample)
{
    return sample.uuid.isEmpty() ? QStringLiteral("index-%1").arg(sample.index) : sample.uuid;
}

void GpuHistory::feed(Series &series, const QString &gpu, int level, const GpuHistoryPoint &p,
                      QList<GpuHistoryRecord> *finished)
{
    const bool recording = level == kLevels - 1;
    const int seconds = recording ? kRecordSeconds : kTiers[level].bucketSeconds;
    const qint64 bucket = bucketStart(p.time, seconds);
    Accumulator &acc = series.open[level];
    if (acc.start != bucket) {
        if (acc.start >= 0 && acc.samples > 0) {
            if (recording) {
                if (finished)
                    finished->append(GpuHistoryRecord{gpu, series.name, acc.point()});
            } else {
                std::deque<GpuHistoryPoint> &ring = series.closed[level];
                ring.push_back(acc.point());
                // Keep what lies in the span ending with the new bucket (the clock may also have jumped).
                const qint64 oldest = bucket - kTiers[level].spanSeconds;
                const size_t capacity = size_t(kTiers[level].spanSeconds / seconds) - 1;
                while (!ring.empty() && (ring.front().time <= oldest || ring.size() > capacity))
                    ring.pop_front();
            }
        }
        acc = Accumulator{};
        acc.start = bucket;
    }
    acc.add(p);
}

QList<GpuHistoryRecord> GpuHistory::add(const QList<GpuSample> &gpus, qint64 time)
{
    QList<GpuHistoryRecord> finished;
    for (const GpuSample &g : gpus) {
        const QString key = keyOf(g);
        auto it = m_series.find(key);
        if (it == m_series.end()) {
            it = m_series.insert(key, Series{});
            m_order.append(key);
        }
        it->name = g.name;
        const GpuHistoryPoint p = GpuHistoryPoint::fromSample(g, time);
        for (int level = 0; level < kLevels; ++level)
            feed(*it, key, level, p, &finished);
    }
    return finished;
}

void GpuHistory::seed(const QList<GpuHistoryRecord> &minutes)
{
    for (const GpuHistoryRecord &r : minutes) {
        auto it = m_series.find(r.gpu);
        if (it == m_series.end()) {
            it = m_series.insert(r.gpu, Series{});
            m_order.append(r.gpu);
        }
        it->name = r.name;
        // Minutes are coarser than the 5-minute view's seconds: they fill the hour and the day only.
        for (GpuHistoryRange range : {GpuHistoryRange::OneHour, GpuHistoryRange::OneDay})
            feed(*it, r.gpu, int(range), r.point, nullptr);
    }
}

QList<GpuHistoryRecord> GpuHistory::openMinutes() const
{
    QList<GpuHistoryRecord> out;
    for (const QString &key : m_order) {
        const Series &s = *m_series.constFind(key);
        const Accumulator &acc = s.open[kLevels - 1];
        if (acc.start >= 0 && acc.samples > 0)
            out.append(GpuHistoryRecord{key, s.name, acc.point()});
    }
    return out;
}

QStringList GpuHistory::gpus() const
{
    return m_order;
}

QString GpuHistory::nameOf(const QString &gpu) const
{
    const auto it = m_series.constFind(gpu);
    return it == m_series.cend() ? QString() : it->name;
}

QList<GpuHistoryPoint> GpuHistory::points(const QString &gpu, GpuHistoryRange range) const
{
    QList<GpuHistoryPoint> out;
    const auto it = m_series.constFind(gpu);
    if (it == m_series.cend())
        return out;
    const int level = int(range);
    const std::deque<GpuHistoryPoint> &ring = it->closed[level];
    out.reserve(qsizetype(ring.size()) + 1);
    out.append(QList<GpuHistoryPoint>(ring.begin(), ring.end()));
    const Accumulator &acc = it->open[level];
    if (acc.start >= 0 && acc.samples > 0) {
        // The open bucket also bounds the span: a point that has just aged out is no longer shown.
        while (!out.isEmpty() && out.first().time <= acc.start - kTiers[level].spanSeconds)
            out.removeFirst();
        out.append(acc.point());
    }
    return out;
}

} // namespace cohort
