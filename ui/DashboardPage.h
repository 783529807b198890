#pragma once
// The first page: what the node is doing and why, who it is, and what this computer is spending on it.
#include "core/EngineSnapshot.h"
#include "core/GpuHistory.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QTableWidget;
class QFormLayout;
class QPushButton;
class QVBoxLayout;

namespace cohort {

class GpuCard;

class DashboardPage : public QWidget {
    Q_OBJECT
public:
    explicit DashboardPage(QWidget *parent = nullptr);

    QString stateTitleText() const;
    QString whyText() const;
    static QString modelText(const cohort::EngineSnapshot &snapshot);    // the "Model" row
    static QString rolloutsText(const cohort::EngineSnapshot &snapshot); // the "Rollouts" row
    static QString dilocoText(const cohort::EngineSnapshot &snapshot);   // the "Training" row (DiLoCo tasks)
    // The "Network" row: the joined task's model on its held-out problems, and this computer's part; empty when the
    // hub reported neither.
    static QString networkText(const cohort::EngineSnapshot &snapshot);
    static QString gpuSummaryText(const cohort::EngineSnapshot &snapshot); // the "GPUs" row
    // The "Compute device" row: the GPUs Cohort computes on (each worker, paused ones said so), then the LibTorch
    // runtime.
    static QString computeDeviceText(const cohort::EngineSnapshot &snapshot);
    // The update notice under the headline (rich text): "Cohort x.y is available" with a download link, or why this
    // hub no longer works with this version; empty when the hub advertises nothing newer. Links only to http(s).
    static QString updateNoticeText(const cohort::EngineSnapshot &snapshot);

    // GPU cards: one per GPU in the last snapshot, charts over the chosen range. The history is built from the
    // snapshots (one reading per second); seedGpuHistory() adds minutes stored by earlier runs, which the engine reads
    // and hands over once (EngineController::gpuHistoryLoaded).
    QList<GpuCard *> gpuCards() const { return m_gpuCards; }
    GpuHistoryRange gpuRange() const;
    void setGpuRange(GpuHistoryRange range);
    void seedGpuHistory(const QList<GpuHistoryRecord> &minutes);

public Q_SLOTS:
    void showSnapshot(const cohort::EngineSnapshot &snapshot);

Q_SIGNALS:
    void pauseRequested();
    void resumeRequested();
    void chooseTaskRequested(); // "Choose a task…", shown while the hub's tasks are known and none is joined
    void gpuPauseRequested(const QString &gpuUuid, bool paused); // a GPU card's "Pause this GPU" / "Resume this GPU"

protected:
    void showEvent(QShowEvent *event) override;

private:
    void showRelays(const DownloadProgress &download);
    QLabel *addValueRow(QFormLayout *form, const QString &label, const char *objectName);
    void onPauseButtonClicked();
    void showGpus(const QList<GpuSample> &gpus, qint64 now);

    QLabel *m_stateIcon = nullptr;
    QLabel *m_stateTitle = nullptr;
    QLabel *m_why = nullptr;
    QLabel *m_updateNotice = nullptr; // updateNoticeText(); hidden when empty
    QPushButton *m_pauseButton = nullptr;
    QPushButton *m_chooseTaskButton = nullptr;
    QLabel *m_nodeId = nullptr;
    QLabel *m_nodeName = nullptr;
    QLabel *m_hub = nullptr;
    QLabel *m_registeredAt = nullptr;
    QLabel *m_lastHeartbeat = nullptr;
    QLabel *m_lastError = nullptr;
    QLabel *m_computeDevice = nullptr;
    QLabel *m_cpu = nullptr;
    QLabel *m_memory = nullptr;
    QLabel *m_processMemory = nullptr;
    QLabel *m_gpuSummary = nullptr;
    QWidget *m_gpuSection = nullptr;
    QComboBox *m_gpuRange = nullptr;
    QVBoxLayout *m_gpuCardsLayout = nullptr;
    QList<GpuCard *> m_gpuCards;
    GpuHistory m_gpuHistory;
    QList<GpuSample> m_lastGpus;
    QList<ComputeWorkerStatus> m_lastWorkers; // Cohort's workers, shown on their GPUs' cards
    qint64 m_gpuFedAt = -1;                   // the second of the last reading added to m_gpuHistory
    QLabel *m_joinedTask = nullptr;
    QLabel *m_model = nullptr;
    QLabel *m_rollouts = nullptr;
    QLabel *m_network = nullptr; // the held-out curve's newest point and this computer's part
    QLabel *m_diloco = nullptr;  // DiLoCo progress; its row shows instead of Rollouts for diloco tasks
    QFormLayout *m_nodeForm = nullptr;
    QTableWidget *m_relays =
        nullptr; // the download's relays: score, speed, bytes, failures (hidden without a download)
    bool m_userPaused = false;
};

} // namespace cohort
