#include "ui/EarningsChart.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QEvent>
#include <QGraphicsLayout>
#include <QHash>
#include <QLineSeries>
#include <QLocale>
#include <QValueAxis>

#include <algorithm>

namespace cohort {

namespace {
constexpr qint64 kHourMs = 3600 * 1000;
const QColor kConfirmedColor(0x2e, 0x9d, 0x5b);
const QColor kPendingColor(0xe0, 0xa5, 0x26);

QAreaSeries *addArea(QChart *chart, const QString &name, QLineSeries *upper, QLineSeries *lower, const QColor &color)
{
    auto *area = new QAreaSeries(upper, lower);
    area->setName(name);
    area->setColor(color);
    // No outline: the pending band's lower line would draw an amber rule across the top of every green step.
    area->setPen(Qt::NoPen);
    chart->addSeries(area);
    // An area series owns neither of its lines; make it, so they go with the chart.
    upper->setParent(area);
    lower->setParent(area);
    return area;
}

QDateTime localMidnight(const QDate &date)
{
    return QDateTime(date, QTime(0, 0));
}

// Week and month windows end at the next local midnight, so the grid falls on day boundaries; the day window
// ends at the next full hour. Computed on dates rather than by subtracting hours, so a DST change keeps midnights.
std::pair<QDateTime, QDateTime> timeWindow(const QDateTime &end, EarningsChart::Range range)
{
    if (range == EarningsChart::Range::Day) {
        const QDateTime next = QDateTime::fromMSecsSinceEpoch((end.toMSecsSinceEpoch() / kHourMs + 1) * kHourMs);
        return {next.addSecs(-24 * 3600), next};
    }
    const QDate last = end.toLocalTime().date();
    const int days = range == EarningsChart::Range::Week ? 7 : 30;
    return {localMidnight(last.addDays(1 - days)), localMidnight(last.addDays(1))};
}
} // namespace

EarningsChart::EarningsChart(QWidget *parent)
    : QChartView(parent)
{
    setObjectName(QStringLiteral("earningsChart"));
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(200);
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundVisible(false);
    // The right margin leaves room for half of the last time label, which sits on the plot's edge.
    chart->setMargins(QMargins(4, 0, 28, 0));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    chart->legend()->setAlignment(Qt::AlignTop);
    chart->setLocalizeNumbers(true);
    setChart(chart);

    m_zero = new QLineSeries;
    m_confirmed = new QLineSeries;
    m_confirmedEdge = new QLineSeries;
    m_stacked = new QLineSeries;
    QAreaSeries *confirmed = addArea(chart, tr("Confirmed"), m_confirmed, m_zero, kConfirmedColor);
    QAreaSeries *pending = addArea(chart, tr("Pending"), m_stacked, m_confirmedEdge, kPendingColor);

    m_time = new QCategoryAxis;
    m_amount = new QValueAxis;
    chart->addAxis(m_time, Qt::AlignBottom);
    chart->addAxis(m_amount, Qt::AlignLeft);
    for (QAreaSeries *area : {confirmed, pending}) {
        area->attachAxis(m_time);
        area->attachAxis(m_amount);
    }
    setHistory({}, QDateTime::currentDateTimeUtc(), Range::Week, tr("credits"));
}

void EarningsChart::setHistory(const QList<EarningsBucket> &history, const QDateTime &end, Range range,
                               const QString &unit)
{
    const auto [start, stop] = timeWindow(end.isValid() ? end : QDateTime::currentDateTimeUtc(), range);
    const qint64 startMs = start.toMSecsSinceEpoch();
    const qint64 stopMs = stop.toMSecsSinceEpoch();
    QHash<qint64, EarningsAmounts> byHour;
    for (const EarningsBucket &b : history)
        byHour.insert(b.hourStart.toMSecsSinceEpoch(), b.amounts);

    QList<QPointF> zero, confirmed, stacked;
    double peak = 0;
    // Buckets start on UTC hours; where local midnight is not one (UTC+5:30) the first step starts before the
    // window and is clipped by the axis.
    const qint64 firstHour = startMs - (startMs % kHourMs + kHourMs) % kHourMs;
    for (qint64 from = firstHour; from < stopMs; from += kHourMs) {
        const EarningsAmounts a = byHour.value(from);
        const double top = a.confirmed + a.pending;
        peak = std::max(peak, top);
        for (qint64 x : {from, from + kHourMs}) {
            zero.append(QPointF(double(x), 0));
            confirmed.append(QPointF(double(x), a.confirmed));
            stacked.append(QPointF(double(x), top));
        }
    }
    m_zero->replace(zero);
    m_confirmed->replace(confirmed);
    m_confirmedEdge->replace(confirmed);
    m_stacked->replace(stacked);

    setTimeAxis(start, stop, range);
    // Nice numbers (0, 0.1, 0.2 ...) rather than fifths of the peak.
    m_amount->setRange(0, peak > 0 ? peak : 1);
    m_amount->applyNiceNumbers();
    // As many decimals as the scale needs: "0.25" for cents of a credit, "1200" for large hours.
    const double top = m_amount->max();
    m_amount->setLabelFormat(top >= 10  ? QStringLiteral("%.0f")
                             : top >= 2 ? QStringLiteral("%.1f")
                                        : QStringLiteral("%.2f"));
    m_amount->setTitleText(tr("%1 / hour").arg(unit));
    applyPalette();
}

// Category boundaries are the grid lines. A week names each day in the middle of its band; a day and a month
// have too many units for that and label every 4th hour or 5th midnight at its line instead.
void EarningsChart::setTimeAxis(const QDateTime &start, const QDateTime &end, Range range)
{
    for (const QString &label : m_time->categoriesLabels())
        m_time->remove(label);
    const QLocale locale;
    m_time->setStartValue(double(start.toMSecsSinceEpoch()));
    m_time->setRange(double(start.toMSecsSinceEpoch()), double(end.toMSecsSinceEpoch()));
    switch (range) {
    case Range::Day:
        m_time->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        for (int i = 1; i <= 6; ++i) {
            const QDateTime at = start.addSecs(i * 4 * 3600).toLocalTime();
            m_time->append(locale.toString(at.time(), QStringLiteral("HH:mm")), double(at.toMSecsSinceEpoch()));
        }
        break;
    case Range::Week:
        m_time->setLabelsPosition(QCategoryAxis::AxisLabelsPositionCenter);
        for (QDate day = start.toLocalTime().date(); localMidnight(day) < end; day = day.addDays(1))
            m_time->append(locale.toString(day, QStringLiteral("ddd d")),
                           double(localMidnight(day.addDays(1)).toMSecsSinceEpoch()));
        break;
    case Range::Month:
        m_time->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        for (QDate day = start.toLocalTime().date().addDays(5); localMidnight(day) <= end; day = day.addDays(5))
            m_time->append(locale.toString(day, QStringLiteral("d MMM")),
                           double(localMidnight(day).toMSecsSinceEpoch()));
        break;
    }
}

void EarningsChart::changeEvent(QEvent *event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
}

// QChart has its own light theme; follow the desktop's palette instead so a dark desktop gets a dark chart.
void applyChartPalette(QChart *c, const QPalette &p)
{
    c->legend()->setLabelColor(p.color(QPalette::WindowText));
    for (QAbstractAxis *axis : c->axes()) {
        axis->setLabelsColor(p.color(QPalette::WindowText));
        axis->setTitleBrush(p.color(QPalette::WindowText));
        axis->setGridLineColor(p.color(QPalette::Midlight));
        axis->setLinePenColor(p.color(QPalette::Mid));
    }
}

void EarningsChart::applyPalette()
{
    applyChartPalette(chart(), palette());
}

} // namespace cohort
