#pragma once
// The first page: what the node is doing and why, who it is, and what this computer is spending on it.
#include "core/EngineSnapshot.h"

#include <QWidget>

class QLabel;
class QFormLayout;
class QPushButton;

namespace cohort {

class DashboardPage : public QWidget {
    Q_OBJECT
public:
    explicit DashboardPage(QWidget *parent = nullptr);

    QString stateTitleText() const;
    QString whyText() const;
    static QString modelText(const cohort::EngineSnapshot &snapshot); // the "Model" row
    static QString rolloutsText(const cohort::EngineSnapshot &snapshot); // the "Rollouts" row

public Q_SLOTS:
    void showSnapshot(const cohort::EngineSnapshot &snapshot);

Q_SIGNALS:
    void pauseRequested();
    void resumeRequested();

private:
    QLabel *addValueRow(QFormLayout *form, const QString &label, const char *objectName);
    void onPauseButtonClicked();

    QLabel *m_stateIcon = nullptr;
    QLabel *m_stateTitle = nullptr;
    QLabel *m_why = nullptr;
    QPushButton *m_pauseButton = nullptr;
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
    QLabel *m_joinedTask = nullptr;
    QLabel *m_model = nullptr;
    QLabel *m_rollouts = nullptr;
    bool m_userPaused = false;
};

} // namespace cohort
