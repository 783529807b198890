#pragma once
// The hub's task catalogue and the Join/Leave buttons.
#include "core/EngineSnapshot.h"
#include "core/TaskFit.h"

#include <QStringList>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace cohort {

class HeldOutChart;

class TasksPage : public QWidget {
    Q_OBJECT
public:
    explicit TasksPage(QWidget *parent = nullptr);

    int taskCount() const { return m_tasks.size(); }
    QString noteText() const;                   // the message under the table, empty when hidden
    bool selectTask(const QString &taskId);     // for keyboard-free callers and tests
    TaskFit fitOf(const QString &taskId) const; // what the "This computer" column says about a task

public Q_SLOTS:
    void showSnapshot(const cohort::EngineSnapshot &snapshot);
    void joinSelected(); // a task this computer cannot run (or this version: a newer hub's kind) gets a note instead

Q_SIGNALS:
    void joinRequested(const QString &taskId);
    void leaveRequested();

private:
    void rebuildTable();
    void updateJoinedMarks();
    void updateDetails();
    void updateFits();
    void updateProgress(); // the joined task's held-out curve
    QString contributionLine() const;
    int selectedRow() const;

    QTableWidget *m_table = nullptr;
    QLabel *m_details = nullptr;
    QLabel *m_note = nullptr;
    QLabel *m_joinedSummary = nullptr;
    QLabel *m_progressTitle = nullptr;
    HeldOutChart *m_progressChart = nullptr;
    QPushButton *m_joinButton = nullptr;
    QPushButton *m_leaveButton = nullptr;
    QList<TaskInfo> m_tasks;
    QString m_joinedTaskId;
    EngineSnapshot m_snapshot; // the latest, for the fit of each task on this machine
    QList<TaskFit> m_fits;     // per row
};

} // namespace cohort
