#pragma once
// One GPU on the dashboard: its readings now in words, what Cohort's worker on it does (with a button to pause that
// GPU alone), and a chart of utilization, VRAM, temperature and power over the last 5 minutes, hour or day
// (GpuHistory). The chart's series and axes are made once and only refilled.
#include "core/EngineSnapshot.h"
#include "core/GpuHistory.h"

#include <QGroupBox>
#include <optional>

class QChartView;
class QLabel;
class QPushButton;
class QLineSeries;
class QValueAxis;

namespace cohort {

class GpuCard : public QGroupBox {
    Q_OBJECT
public:
    explicit GpuCard(QWidget *parent = nullptr);

    void showSample(const GpuSample &sample);
    // Cohort's worker on this GPU; nullopt: none (not chosen, or compute on the CPU: `cpuOnly`).
    void showWorker(const std::optional<ComputeWorkerStatus> &worker, bool cpuOnly);
    // now: seconds since the epoch; the x axis counts minutes (hours for the day) back from now, on the right.
    void showHistory(const QList<GpuHistoryPoint> &points, GpuHistoryRange range, qint64 now);

    static QString readingsText(const GpuSample &sample); // "87% busy · 71 °C · 8.0 GiB of 24.0 GiB · 350 W of 450 W"
    static QString detailsText(const GpuSample &sample); // clocks, fan, and what could not be read
    // "Cohort: generating · 1,234 tokens/s · may use 4.0 GiB (50 %) · 12 batches accepted", or why it does not work
    // here.
    static QString workerText(const std::optional<ComputeWorkerStatus> &worker, bool cpuOnly);

    QChartView *chartView() const { return m_chart; }
    QLineSeries *series(int i) const { return m_series[i]; } // utilization, VRAM, temperature, power

Q_SIGNALS:
    void pauseRequested(const QString &gpuUuid, bool paused); // the user pressed "Pause this GPU" or "Resume this GPU"

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyPalette();

    QLabel *m_readings = nullptr;
    QLabel *m_details = nullptr;
    QLabel *m_worker = nullptr;
    QPushButton *m_pause = nullptr;
    QString m_workerGpu; // the GPU the button acts on
    bool m_workerPaused = false;
    QChartView *m_chart = nullptr;
    QLineSeries *m_series[4] = {};
    QValueAxis *m_time = nullptr;
    QValueAxis *m_percent = nullptr;
    QValueAxis *m_watts = nullptr;
};

} // namespace cohort
