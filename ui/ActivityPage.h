#pragma once
// The Activity log: a table of engine events that follows the newest row unless the user scrolled up
// to read something, in which case it stays put until they scroll back to the bottom.
#include "core/EngineEvent.h"

#include <QWidget>

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

public Q_SLOTS:
    void appendEvent(const cohort::EngineEvent &event);

private:
    ActivityModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    bool m_followNewest = true;
};

} // namespace cohort
