#pragma once
// Hourly earnings as a stacked area: confirmed at the bottom, pending on top, one flat step per hour so a
// quiet hour reads as a gap rather than a slope. Hours missing from the history are drawn as zero.
// The series and axes are made once and only refilled, so redrawing every minute costs no allocations of items.
#include "core/EarningsReport.h"

#include <QChartView>

class QAreaSeries;
class QCategoryAxis;
class QLineSeries;
class QValueAxis;

namespace cohort {

// Colours a chart's legend and axes from a widget palette (QChart's own theme ignores the desktop's dark/light).
void applyChartPalette(QChart *chart, const QPalette &palette);

class EarningsChart : public QChartView {
    Q_OBJECT
public:
    enum class Range { Day, Week, Month };

    explicit EarningsChart(QWidget *parent = nullptr);

    // end: the hub's "now" (the report's generated_at); the window is the range up to it, in local time.
    void setHistory(const QList<EarningsBucket> &history, const QDateTime &end, Range range, const QString &unit);

protected:
    void changeEvent(QEvent *event) override;

private:
    void setTimeAxis(const QDateTime &start, const QDateTime &end, Range range);
    void applyPalette();

    QLineSeries *m_zero = nullptr;
    QLineSeries *m_confirmed = nullptr;
    QLineSeries *m_confirmedEdge = nullptr; // the same line again: each area owns its own two lines
    QLineSeries *m_stacked = nullptr;       // confirmed + pending
    QCategoryAxis *m_time = nullptr;
    QValueAxis *m_amount = nullptr;
};

} // namespace cohort
