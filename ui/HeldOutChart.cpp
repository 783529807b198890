#include "ui/HeldOutChart.h"

#include "ui/EarningsChart.h" // applyChartPalette

#include <QChart>
#include <QEvent>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>

namespace cohort {

HeldOutChart::HeldOutChart(QWidget *parent)
    : QChartView(parent)
{
    auto *chart = new QChart;
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setBackgroundRoundness(0);
    m_greedy = new QLineSeries(chart);
    m_greedy->setName(tr("Correct, most likely answer"));
    m_sampled = new QLineSeries(chart);
    m_sampled->setName(tr("Reward, sampled answers"));
    m_loss = new QLineSeries(chart);
    m_loss->setName(tr("Held-out loss (lower is better)"));
    chart->addSeries(m_greedy);
    chart->addSeries(m_sampled);
    chart->addSeries(m_loss);
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
    m_lossAxis = new QValueAxis(chart);
    m_lossAxis->setLabelFormat(QStringLiteral("%.1f"));
    m_lossAxis->setTitleText(tr("Nats per byte"));
    chart->addAxis(m_lossAxis, Qt::AlignLeft);
    m_loss->attachAxis(m_versions);
    m_loss->attachAxis(m_lossAxis);
    m_loss->setVisible(false);
    m_lossAxis->setVisible(false);
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
    // A DiLoCo task has no versions but outer steps, and a loss instead of shares: the same chart, other series.
    const bool lossMode = progress.heldOut.isEmpty() && !progress.heldOutLoss.isEmpty();
    QList<QPointF> loss;
    double highest = 0;
    for (const HeldOutLossPoint &p : progress.heldOutLoss) {
        loss.append(QPointF(double(p.revision), p.loss));
        highest = std::max(highest, p.loss);
    }
    m_loss->replace(loss);
    m_greedy->setVisible(!lossMode);
    m_sampled->setVisible(!lossMode);
    m_share->setVisible(!lossMode);
    m_loss->setVisible(lossMode);
    m_lossAxis->setVisible(lossMode);
    m_versions->setTitleText(lossMode ? tr("Outer step") : tr("Model version"));
    m_lossAxis->setRange(0, std::max(1.0, highest * 1.1));
    double first = 1, last = 2;
    if (lossMode) {
        first = double(progress.heldOutLoss.first().revision);
        last = double(progress.heldOutLoss.last().revision);
    } else if (!progress.heldOut.isEmpty()) {
        first = progress.heldOut.first().version;
        last = progress.heldOut.last().version;
    }
    m_versions->setRange(first, std::max(last, first + 1));
}

int HeldOutChart::pointCount() const
{
    return int(m_greedy->count() + m_loss->count());
}

void HeldOutChart::changeEvent(QEvent *event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyChartPalette(chart(), palette());
}

} // namespace cohort
