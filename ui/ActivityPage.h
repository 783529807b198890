#pragma once
// The Activity log: a table of engine events that follows the newest row unless the user scrolled up
// to read something, in which case it stays put until they scroll back to the bottom.
#include "core/EngineEvent.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QSortFilterProxyModel;
class QTableView;

namespace cohort {

class ActivityModel;

class ActivityPage : public QWidget {
    Q_OBJECT
public:
    explicit ActivityPage(QWidget *parent = nullptr);

    ActivityModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    bool isFollowingNewest() const { return m_followNewest; }
    // Severity filter: 0 everything, 1 warnings and errors, 2 errors only. Subsystem: empty = all.
    void setFilter(int minimumSeverity, const QString &subsystem);
    // Routine events (each batch, each download) are hidden unless this is on (the "Each batch" box).
    void setShowRoutine(bool show);
    int visibleRowCount() const;
    QString visibleText(bool selectedOnly) const; // tab-separated lines, what Copy puts on the clipboard
    QList<EngineEvent> allEvents() const;

public Q_SLOTS:
    void appendEvent(const cohort::EngineEvent &event);
    void copyToClipboard();

Q_SIGNALS:
    void saveDiagnosticsRequested();

private:
    void addSubsystem(EventCategory category); // once per category seen

    ActivityModel *m_model = nullptr;
    QSortFilterProxyModel *m_filter = nullptr;
    QComboBox *m_severityBox = nullptr;
    QComboBox *m_subsystemBox = nullptr;
    QCheckBox *m_routineBox = nullptr; // routine events (each batch) shown too
    QTableView *m_view = nullptr;
    bool m_followNewest = true;
};

} // namespace cohort
