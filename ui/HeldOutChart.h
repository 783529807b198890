#pragma once
// The joined task's held-out curve: greedy correctness (what "better" means) and the sampled reward per published
// version, as the hub scored them on problems no contributor trained on (core/TaskProgress.h); for a DiLoCo task,
// the shared model's held-out loss per outer step instead. Made once, refilled.
#include "core/TaskProgress.h"

#include <QChartView>

class QLineSeries;
class QValueAxis;

namespace cohort {

class HeldOutChart : public QChartView {
    Q_OBJECT
public:
    explicit HeldOutChart(QWidget *parent = nullptr);

    void setProgress(const TaskProgress &progress);
    int pointCount() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    QLineSeries *m_greedy = nullptr;
    QLineSeries *m_sampled = nullptr;
    QLineSeries *m_loss = nullptr;
    QValueAxis *m_versions = nullptr;
    QValueAxis *m_share = nullptr;
    QValueAxis *m_lossAxis = nullptr;
    TaskProgress m_shown;
};

} // namespace cohort
