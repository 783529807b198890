#pragma once
// The Activity log's rows: engine events, oldest first, capped so a node that runs for weeks does not
// grow without bound (the oldest routine rows are dropped first, then the oldest of the rest).
#include "core/EngineEvent.h"

#include <QAbstractTableModel>
#include <QList>

namespace cohort {

class ActivityModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TimeColumn, SeverityColumn, CategoryColumn, MessageColumn, ColumnCount };
    static constexpr int kDefaultCapacity = 5000;

    explicit ActivityModel(int capacity = kDefaultCapacity, QObject *parent = nullptr);

    int capacity() const { return m_capacity; }
    const EngineEvent &eventAt(int row) const { return m_events.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

public Q_SLOTS:
    void append(const cohort::EngineEvent &event);
    void clear();

private:
    QList<EngineEvent> m_events;
    int m_capacity;
};

} // namespace cohort
