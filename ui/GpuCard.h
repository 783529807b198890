#pragma once
// One GPU on the dashboard: its readings now in words, and a chart of utilization, VRAM, temperature and power over
// the last 5 minutes, hour or day (GpuHistory). The chart's series and axes are made once and only refilled.
#include "core/EngineSnapshot.h"
#include "core/GpuHistory.h"

#include <QGroupBox>

class QChartView;
class QLabel;
class QLineSeries;
class QValueAxis;

namespace cohort {

class GpuCard : public QGroupBox {
    Q_OBJECT
public:
    explicit GpuCard(QWidget *parent = nullptr);

    void showSample(const GpuSample &sample);
    // now: seconds since the epoch; the x axis counts minutes (hours for the day) back from now, on the right.
    void showHistory(const QList<GpuHistoryPoint> &points, GpuHistoryRange range, qint64 now);

    static QString readingsText(const GpuSample &sample); // "87% busy · 71 °C · 8.0 GiB of 24.0 GiB · 350 W of 450 W"
    static QString detailsText(const GpuSample &sample);  // clocks, fan, and what could not be read

    QChartView *chartView() const { return m_chart; }
    QLineSeries *series(int i) const { return m_series[i]; } // utilization, VRAM, temperature, power

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyPalette();

    QLabel *m_readings = nullptr;
    QLabel *m_details = nullptr;
    QChartView *m_chart = nullptr;
    QLineSeries *m_series[4] = {};
    QValueAxis *m_time = nullptr;
    QValueAxis *m_percent = nullptr;
    QValueAxis *m_watts = nullptr;
};

} // namespace cohort
