#include "ui/ActivityPage.h"

#include "ui/ActivityModel.h"

#include "core/EnumNames.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMetaEnum>
#include <QPushButton>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace cohort {

namespace {
// Rows at or above a severity, from one subsystem or all.
class EventFilter final : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void set(int minimumSeverity, const QString &subsystem)
    {
        m_minimum = minimumSeverity;
        // The wire name read once here, so each row compares an enum; a name that is no category shows nothing.
        m_allSubsystems = subsystem.isEmpty();
        m_category = enumFromName<EventCategory>(subsystem);
        invalidateFilter();
    }
    void setShowRoutine(bool show)
    {
        m_showRoutine = show;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex &) const override
    {
        const EngineEvent &e = static_cast<const ActivityModel *>(sourceModel())->eventAt(row);
        return (m_showRoutine || !e.routine) && int(e.severity) >= m_minimum &&
               (m_allSubsystems || (m_category && e.category == *m_category));
    }

private:
    bool m_showRoutine = false; // each batch: summarised once a minute by the engine, shown on request
    int m_minimum = 0;
    bool m_allSubsystems = true;
    std::optional<EventCategory> m_category;
};
} // namespace

ActivityPage::ActivityPage(QWidget *parent)
    : QWidget(parent)
{
    m_model = new ActivityModel(ActivityModel::kDefaultCapacity, this);
    m_filter = new EventFilter(this);
    m_filter->setSourceModel(m_model);

    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("activityView"));
    m_view->setModel(m_filter);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setWordWrap(false);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    // Fixed row heights keep a 5,000-row log cheap to lay out.
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    QHeaderView *header = m_view->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(true);
    const int digitWidth = m_view->fontMetrics().horizontalAdvance(QStringLiteral("00:00:00__"));
    m_view->setColumnWidth(ActivityModel::TimeColumn, digitWidth + 16);
    m_view->setColumnWidth(ActivityModel::SeverityColumn,
                           m_view->fontMetrics().horizontalAdvance(QStringLiteral("Warning")) + 48);
    // Wide enough for the longest category in the app's language ("Rechenleistung" in German).
    int categoryWidth = 0;
    const QMetaEnum categories = QMetaEnum::fromType<EventCategory>();
    for (int i = 0; i < categories.keyCount(); ++i)
        categoryWidth = std::max(categoryWidth, m_view->fontMetrics().horizontalAdvance(
                                                    EngineEvent::categoryTitle(EventCategory(categories.value(i)))));
    m_view->setColumnWidth(ActivityModel::CategoryColumn, categoryWidth + 24);

    // Follow the newest row only while the view is scrolled to the bottom. The range grows when rows
    // arrive; if we were at the bottom, move with it, otherwise leave the user where they are reading.
    QScrollBar *scrollBar = m_view->verticalScrollBar();
    connect(scrollBar, &QScrollBar::valueChanged, this,
            [this, scrollBar](int value) { m_followNewest = value >= scrollBar->maximum(); });
    connect(scrollBar, &QScrollBar::rangeChanged, this, [this, scrollBar](int, int maximum) {
        if (m_followNewest)
            scrollBar->setValue(maximum);
    });

    auto *clearButton = new QPushButton(tr("Clear"), this);
    clearButton->setToolTip(tr("Empty this list; the engine keeps running"));
    connect(clearButton, &QPushButton::clicked, m_model, &ActivityModel::clear);
    m_severityBox = new QComboBox(this);
    m_severityBox->setObjectName(QStringLiteral("severityFilter"));
    m_severityBox->addItems({tr("Everything"), tr("Warnings and errors"), tr("Errors only")});
    m_severityBox->setAccessibleName(tr("Show events of this severity"));
    m_subsystemBox = new QComboBox(this);
    m_subsystemBox->setObjectName(QStringLiteral("subsystemFilter"));
    m_subsystemBox->addItem(tr("All subsystems"), QString());
    m_subsystemBox->setAccessibleName(tr("Show events of this subsystem"));
    const auto refilter = [this] {
        setFilter(m_severityBox->currentIndex(), m_subsystemBox->currentData().toString());
    };
    connect(m_severityBox, &QComboBox::currentIndexChanged, this, refilter);
    connect(m_subsystemBox, &QComboBox::currentIndexChanged, this, refilter);
    m_routineBox = new QCheckBox(tr("Each batch"), this);
    m_routineBox->setObjectName(QStringLiteral("routineFilter"));
    m_routineBox->setToolTip(
        tr("Show a row for every batch and download; otherwise the engine sums them up once a minute"));
    connect(m_routineBox, &QCheckBox::toggled, this,
            [this](bool on) { static_cast<EventFilter *>(m_filter)->setShowRoutine(on); });
    auto *copyButton = new QPushButton(tr("Copy"), this);
    copyButton->setToolTip(tr("Copy the selected events (or all shown) as text"));
    connect(copyButton, &QPushButton::clicked, this, &ActivityPage::copyToClipboard);
    auto *diagnosticsButton = new QPushButton(tr("Save diagnostics…"), this);
    diagnosticsButton->setObjectName(QStringLiteral("saveDiagnosticsButton"));
    diagnosticsButton->setToolTip(
        tr("A zip of events, status, settings and versions for a bug report; never your key"));
    connect(diagnosticsButton, &QPushButton::clicked, this, &ActivityPage::saveDiagnosticsRequested);
    auto *caption = new QLabel(tr("What the engine has been doing, newest at the bottom."), this);
    auto *top = new QHBoxLayout;
    top->addWidget(caption, 1);
    top->addWidget(m_severityBox);
    top->addWidget(m_subsystemBox);
    top->addWidget(m_routineBox);
    top->addWidget(copyButton);
    top->addWidget(diagnosticsButton);
    top->addWidget(clearButton);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
}

void ActivityPage::appendEvent(const EngineEvent &event)
{
    m_model->append(event);
    addSubsystem(event.category);
}

void ActivityPage::addSubsystem(EventCategory category)
{
    // Shown as the translated word, kept as the wire name (what setFilter() takes and a saved filter holds).
    const QString name = EngineEvent::categoryName(category);
    if (m_subsystemBox->findData(name) < 0)
        m_subsystemBox->addItem(EngineEvent::categoryTitle(category), name);
}

void ActivityPage::setFilter(int minimumSeverity, const QString &subsystem)
{
    static_cast<EventFilter *>(m_filter)->set(minimumSeverity, subsystem);
    if (m_severityBox->currentIndex() != minimumSeverity)
        m_severityBox->setCurrentIndex(minimumSeverity);
    if (const std::optional<EventCategory> category = enumFromName<EventCategory>(subsystem))
        addSubsystem(*category);
    if (const int at = m_subsystemBox->findData(subsystem); at >= 0 && at != m_subsystemBox->currentIndex())
        m_subsystemBox->setCurrentIndex(at);
}

void ActivityPage::setShowRoutine(bool show)
{
    m_routineBox->setChecked(show); // the box's toggled() sets the filter
}

int ActivityPage::visibleRowCount() const
{
    return m_filter->rowCount();
}

QString ActivityPage::visibleText(bool selectedOnly) const
{
    QStringList lines;
    const QModelIndexList selected =
        m_view->selectionModel() ? m_view->selectionModel()->selectedRows() : QModelIndexList{};
    for (int row = 0; row < m_filter->rowCount(); ++row) {
        if (selectedOnly && !selected.isEmpty() &&
            std::none_of(selected.begin(), selected.end(), [row](const QModelIndex &i) { return i.row() == row; }))
            continue;
        const EngineEvent &e = m_model->eventAt(m_filter->mapToSource(m_filter->index(row, 0)).row());
        lines.append(e.time.toLocalTime().toString(Qt::ISODate) + QLatin1Char('\t') +
                     EngineEvent::severityName(e.severity) + QLatin1Char('\t') + EngineEvent::categoryName(e.category) +
                     QLatin1Char('\t') + e.message);
    }
    return lines.join(QLatin1Char('\n'));
}

void ActivityPage::copyToClipboard()
{
    QApplication::clipboard()->setText(visibleText(true));
}

QList<EngineEvent> ActivityPage::allEvents() const
{
    QList<EngineEvent> events;
    for (int row = 0; row < m_model->rowCount(); ++row)
        events.append(m_model->eventAt(row));
    return events;
}

} // namespace cohort
