#include "ui/ActivityModel.h"

#include "ui/DisplayFormat.h"

#include <QApplication>
#include <QBrush>
#include <QColor>
#include <QIcon>
#include <QStyle>

#include <algorithm>

namespace cohort {

ActivityModel::ActivityModel(int capacity, QObject *parent)
    : QAbstractTableModel(parent),
      m_capacity(qMax(1, capacity))
{}

int ActivityModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_events.size());
}

int ActivityModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ActivityModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_events.size())
        return {};
    const EngineEvent &event = m_events.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn: return display::moment(event.time);
        case SeverityColumn:
            switch (event.severity) {
            case EngineEvent::Severity::Info: return tr("Info");
            case EngineEvent::Severity::Warning: return tr("Warning");
            case EngineEvent::Severity::Error: return tr("Error");
            }
            break;
        case CategoryColumn: return EngineEvent::categoryTitle(event.category);
        case MessageColumn: return event.message;
        }
        break;
    case Qt::ToolTipRole:
        if (index.column() == TimeColumn)
            return event.time.toLocalTime().toString(Qt::ISODateWithMs);
        if (index.column() == MessageColumn)
            return event.message; // long messages are elided in the cell
        break;
    case Qt::DecorationRole:
        // An icon besides the colour so warnings and errors stand out for everyone.
        if (index.column() == SeverityColumn && event.severity != EngineEvent::Severity::Info) {
            const auto icon = event.severity == EngineEvent::Severity::Error ? QStyle::SP_MessageBoxCritical
                                                                             : QStyle::SP_MessageBoxWarning;
            return QApplication::style()->standardIcon(icon);
        }
        break;
    case Qt::ForegroundRole:
        if (event.severity == EngineEvent::Severity::Error)
            return QBrush(QColor(0xb9, 0x1c, 0x1c));
        if (event.severity == EngineEvent::Severity::Warning)
            return QBrush(QColor(0x92, 0x40, 0x0e));
        break;
    default: break;
    }
    return {};
}

QVariant ActivityModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn: return tr("Time");
    case SeverityColumn: return tr("Severity");
    case CategoryColumn: return tr("Category");
    case MessageColumn: return tr("Message");
    }
    return {};
}

void ActivityModel::append(const EngineEvent &event)
{
    // Make room first so the row count never passes the cap, even for a moment: the oldest routine row goes
    // before any other, so a week of batches does not push out the milestones and warnings between them.
    while (m_events.size() >= m_capacity) {
        const auto routine =
            std::find_if(m_events.cbegin(), m_events.cend(), [](const EngineEvent &e) { return e.routine; });
        const int at = routine == m_events.cend() ? 0 : int(routine - m_events.cbegin());
        beginRemoveRows({}, at, at);
        m_events.remove(at);
        endRemoveRows();
    }
    const int row = int(m_events.size());
    beginInsertRows({}, row, row);
    m_events.append(event);
    endInsertRows();
}

void ActivityModel::clear()
{
    beginResetModel();
    m_events.clear();
    endResetModel();
}

} // namespace cohort
