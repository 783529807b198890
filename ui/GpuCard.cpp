#include "ui/GpuCard.h"

#include "ui/EarningsChart.h"

#include "ui/DisplayFormat.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>

namespace cohort {

namespace {
const QColor kColors[4] = {QColor(0x2e, 0x7d, 0xd1), QColor(0x8e, 0x5c, 0xc8), QColor(0xd9, 0x4a, 0x38),
                           QColor(0xe0, 0xa5, 0x26)};

QString percentOf(qint64 used, qint64 total)
{
    return total > 0 ? QStringLiteral(" (%1%)").arg(int(std::lround(100.0 * double(used) / double(total)))) : QString();
}
} // namespace

GpuCard::GpuCard(QWidget *parent)
    : QGroupBox(parent)
{
    m_readings = new QLabel(this);
    m_readings->setObjectName(QStringLiteral("gpuReadings"));
    m_readings->setWordWrap(true);
    m_readings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details = new QLabel(this);
    m_details->setObjectName(QStringLiteral("gpuDetails"));
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setForegroundRole(QPalette::PlaceholderText);
    m_worker = new QLabel(this);
    m_worker->setObjectName(QStringLiteral("gpuWorker"));
    m_worker->setWordWrap(true);
    m_pause = new QPushButton(this);
    m_pause->setObjectName(QStringLiteral("gpuPauseButton"));
    m_pause->hide();
    connect(m_pause, &QPushButton::clicked, this, [this] {
        if (!m_workerGpu.isEmpty())
            Q_EMIT pauseRequested(m_workerGpu, !m_workerPaused);
    });

    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundVisible(false);
    chart->setMargins(QMargins(4, 0, 4, 0));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    chart->legend()->setAlignment(Qt::AlignTop);
    chart->setLocalizeNumbers(true);
    m_chart = new QChartView(chart, this);
    m_chart->setObjectName(QStringLiteral("gpuChart"));
    m_chart->setRenderHint(QPainter::Antialiasing);
    m_chart->setMinimumHeight(180);

    m_time = new QValueAxis;
    m_percent = new QValueAxis;
    m_watts = new QValueAxis;
    m_percent->setRange(0, 100);
    m_percent->setLabelFormat(QStringLiteral("%.0f"));
    m_percent->setTitleText(tr("% · °C"));
    m_watts->setLabelFormat(QStringLiteral("%.0f"));
    m_watts->setTitleText(tr("W"));
    chart->addAxis(m_time, Qt::AlignBottom);
    chart->addAxis(m_percent, Qt::AlignLeft);
    chart->addAxis(m_watts, Qt::AlignRight);
    const QString names[4] = {tr("Utilization %"), tr("VRAM %"), tr("Temperature °C"), tr("Power W")};
    for (int i = 0; i < 4; ++i) {
        m_series[i] = new QLineSeries;
        m_series[i]->setName(names[i]);
        QPen pen(kColors[i]);
        pen.setWidthF(1.5);
        m_series[i]->setPen(pen);
        chart->addSeries(m_series[i]);
        m_series[i]->attachAxis(m_time);
        m_series[i]->attachAxis(i == 3 ? m_watts : m_percent);
    }

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_readings);
    layout->addWidget(m_details);
    auto *workerRow = new QHBoxLayout;
    workerRow->addWidget(m_worker, 1);
    workerRow->addWidget(m_pause);
    layout->addLayout(workerRow);
    layout->addWidget(m_chart, 1);
    showHistory({}, GpuHistoryRange::FiveMinutes, 0);
}

QString GpuCard::readingsText(const GpuSample &s)
{
    const QString unknown = tr("unknown");
    QStringList parts;
    parts << (s.utilizationPercent ? tr("%1% busy").arg(*s.utilizationPercent) : tr("utilization %1").arg(unknown));
    parts << (s.temperatureC ? tr("%1 °C").arg(*s.temperatureC) : tr("temperature %1").arg(unknown));
    if (s.memoryUsedBytes && s.memoryTotalBytes)
        parts << tr("VRAM %1 of %2%3")
                     .arg(display::bytes(*s.memoryUsedBytes), display::bytes(*s.memoryTotalBytes),
                          percentOf(*s.memoryUsedBytes, *s.memoryTotalBytes));
    else
        parts << tr("VRAM %1").arg(unknown);
    if (s.powerW)
        parts << (s.powerLimitW ? tr("%1 W of %2 W").arg(*s.powerW, 0, 'f', 0).arg(*s.powerLimitW, 0, 'f', 0)
                                : tr("%1 W").arg(*s.powerW, 0, 'f', 0));
    else
        parts << tr("power %1").arg(unknown);
    return parts.join(QStringLiteral(" · "));
}

QString GpuCard::detailsText(const GpuSample &s)
{
    QStringList parts;
    if (s.smClockMHz || s.memoryClockMHz)
        parts << tr("clocks: SM %1, memory %2")
                     .arg(s.smClockMHz ? tr("%1 MHz").arg(*s.smClockMHz) : tr("unknown"),
                          s.memoryClockMHz ? tr("%1 MHz").arg(*s.memoryClockMHz) : tr("unknown"));
    if (s.fanPercent)
        parts << tr("fan %1%").arg(*s.fanPercent);
    if (!s.notes.isEmpty())
        parts << tr("not read: %1").arg(s.notes.join(QStringLiteral("; ")));
    return parts.join(QStringLiteral(" · "));
}

void GpuCard::showSample(const GpuSample &s)
{
    setTitle(s.uuid.isEmpty() ? tr("GPU %1: %2").arg(s.index).arg(s.name)
                              : tr("GPU %1: %2 (%3)").arg(s.index).arg(s.name, s.uuid));
    m_readings->setText(readingsText(s));
    const QString details = detailsText(s);
    m_details->setText(details);
    m_details->setVisible(!details.isEmpty());
}

QString GpuCard::workerText(const std::optional<ComputeWorkerStatus> &w, bool cpuOnly)
{
    if (!w)
        return cpuOnly ? tr("Cohort computes on the CPU: its LibTorch cannot use this GPU")
                       : tr("Cohort does not compute on this GPU (Settings › Compute)");
    if (w->paused)
        return tr("Cohort: paused on this GPU by you; the other devices keep working");
    if (!w->inUseBy.isEmpty())
        return tr("Cohort: waiting while %1 uses this GPU; the other devices keep working").arg(w->inUseBy);
    QStringList parts;
    parts << (w->generating ? tr("Cohort: generating") : tr("Cohort: ready"));
    if (w->tokensPerSecond > 0)
        parts << tr("%L1 tokens/s").arg(w->tokensPerSecond, 0, 'f', 0);
    if (w->memoryBudgetBytes > 0)
        parts << tr("may use %1 (%2 %)").arg(display::bytes(w->memoryBudgetBytes)).arg(w->memoryPercent);
    parts << (w->batchesAccepted == 1 ? tr("1 batch accepted") : tr("%L1 batches accepted").arg(w->batchesAccepted));
    return parts.join(QStringLiteral(" · "));
}

void GpuCard::showWorker(const std::optional<ComputeWorkerStatus> &worker, bool cpuOnly)
{
    m_worker->setText(workerText(worker, cpuOnly));
    m_workerGpu = worker ? worker->gpuUuid : QString();
    m_workerPaused = worker && worker->paused;
    m_pause->setVisible(worker.has_value());
    m_pause->setText(m_workerPaused ? tr("Resume this GPU") : tr("Pause this GPU"));
    m_pause->setAccessibleName(m_pause->text());
}

void GpuCard::showHistory(const QList<GpuHistoryPoint> &points, GpuHistoryRange range, qint64 now)
{
    // x: minutes before now (hours for the day view), now on the right; unknown values are left out (the line joins
    // its neighbours).
    const bool hours = range == GpuHistoryRange::OneDay;
    const double unit = hours ? 3600.0 : 60.0;
    const double span = GpuHistory::kTiers[int(range)].spanSeconds / unit;
    QList<QPointF> lines[4];
    double peakWatts = 0;
    for (const GpuHistoryPoint &p : points) {
        // A bucket is drawn at its middle, so averages sit where their readings were.
        const double x = qMax(0.0, (double(now - p.time) - GpuHistory::bucketSeconds(range) / 2.0) / unit);
        if (x > span)
            continue;
        const double vram = p.memoryTotalBytes > 0 ? 100.0 * p.memoryUsedBytes / p.memoryTotalBytes : qQNaN();
        const double values[4] = {p.utilizationPercent, vram, p.temperatureC, p.powerW};
        for (int i = 0; i < 4; ++i)
            if (std::isfinite(values[i]))
                lines[i].append(QPointF(x, values[i]));
        if (std::isfinite(p.powerW))
            peakWatts = qMax(peakWatts, p.powerW);
    }
    for (int i = 0; i < 4; ++i)
        m_series[i]->replace(lines[i]);
    m_time->setReverse(true);
    m_time->setRange(0, span);
    m_time->setTickCount(range == GpuHistoryRange::FiveMinutes ? 6 : 7); // every minute, 10 minutes, 4 hours
    m_time->setLabelFormat(QStringLiteral("%.0f"));
    m_time->setTitleText(hours ? tr("hours ago") : tr("minutes ago"));
    m_watts->setRange(0, peakWatts > 0 ? peakWatts * 1.1 : 100);
    m_watts->applyNiceNumbers();
    applyPalette();
}

void GpuCard::changeEvent(QEvent *event)
{
    QGroupBox::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
}

void GpuCard::applyPalette()
{
    applyChartPalette(m_chart->chart(), palette());
}

} // namespace cohort
