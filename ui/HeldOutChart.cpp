#include "ui/HeldOutChart.h"

#include "ui/EarningsChart.h" // applyChartPalette

#include <QChart>
#include <QEvent>
#include <QLineSeries>
#include <QValueAxis>

namespace cohort {

HeldOutChart::HeldOutChart(QWidget *parent) : QChartView(parent)
{
    auto *chart = new QChart;
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setBackgroundRoundness(0);
    m_greedy = new QLineSeries(chart);
    m_greedy->setName(tr("Correct, most likely answer"));
    m_sampled = new QLineSeries(chart);
    m_sampled->setName(tr("Reward, sampled answers"));
    chart->addSeries(m_greedy);
    chart->addSeries(m_sampled);
    m_versions = new QValueAxis(chart);
    m_versions->setTitleText(tr("Model version"));
    m_versions->setLabelFormat(QStringLiteral("%d"));
    m_share = new QValueAxis(chart);
    m_share->setRange(0, 100);
    m_share->setLabelFormat(QStringLiteral("%d %%"));
    chart->addAxis(m_versions, Qt::AlignBottom);
    chart->addAxis(m_share, Qt::AlignLeft);
    for (QLineSeries *s : {m_greedy, m_sampled}) {
        s->attachAxis(m_versions);
        s->attachAxis(m_share);
    }
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(240);
    applyChartPalette(chart, palette());
    setAccessibleName(tr("Held-out score by model version"));
}

void HeldOutChart::setProgress(const TaskProgress &progress)
{
    if (progress == m_shown)
        return;
    m_shown = progress;
    QList<QPointF> greedy, sampled;
    for (const HeldOutPoint &p : progress.heldOut) {
        greedy.append(QPointF(p.version, 100 * p.greedyCorrectness));
        sampled.append(QPointF(p.version, 100 * p.sampledReward));
    }
    m_greedy->replace(greedy);
    m_sampled->replace(sampled);
    const int first = progress.heldOut.isEmpty() ? 1 : progress.heldOut.first().version;
    const int last = progress.heldOut.isEmpty() ? 2 : progress.heldOut.last().version;
    m_versions->setRange(first, std::max(last, first + 1));
}

int HeldOutChart::pointCount() const { return int(m_greedy->count()); }

void HeldOutChart::changeEvent(QEvent *event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyChartPalette(chart(), palette());
}

} // namespace cohort
