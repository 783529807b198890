#include "ui/ActivityPage.h"

#include "ui/ActivityModel.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QHBoxLayout>
#include <QScrollBar>
#include <QTableView>
#include <QVBoxLayout>

namespace cohort {

ActivityPage::ActivityPage(QWidget *parent) : QWidget(parent)
{
    m_model = new ActivityModel(ActivityModel::kDefaultCapacity, this);

    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("activityView"));
    m_view->setModel(m_model);
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
    m_view->setColumnWidth(ActivityModel::SeverityColumn, m_view->fontMetrics().horizontalAdvance(QStringLiteral("Warning")) + 48);
    m_view->setColumnWidth(ActivityModel::CategoryColumn, m_view->fontMetrics().horizontalAdvance(QStringLiteral("lifecycle")) + 24);

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
    auto *caption = new QLabel(tr("What the engine has been doing, newest at the bottom."), this);
    auto *top = new QHBoxLayout;
    top->addWidget(caption, 1);
    top->addWidget(clearButton);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
}

void ActivityPage::appendEvent(const EngineEvent &event)
{
    m_model->append(event);
}

} // namespace cohort
