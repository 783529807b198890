#include "ui/TasksPage.h"

#include "ui/DisplayFormat.h"
#include "ui/HeldOutChart.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace cohort {

namespace {
enum Column { TitleColumn, KindColumn, RewardColumn, RequirementsColumn, FitColumn, StatusColumn, ColumnCount };
}

TasksPage::TasksPage(QWidget *parent)
    : QWidget(parent)
{
    auto *intro = new QLabel(tr("Tasks offered by the hub. Pick one to lend this computer to it."), this);
    intro->setWordWrap(true);

    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("taskTable"));
    m_table->setHorizontalHeaderLabels(
        {tr("Task"), tr("Kind"), tr("Reward"), tr("Needs"), tr("This computer"), tr("Status")});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(RequirementsColumn, QHeaderView::Stretch);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &TasksPage::updateDetails);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, &TasksPage::joinSelected);

    m_details = new QLabel(this);
    m_details->setObjectName(QStringLiteral("taskDetails"));
    m_details->setWordWrap(true);
    m_details->setTextFormat(Qt::PlainText);

    // Shown inside the page rather than as a modal box: it is information, not a question.
    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("joinNote"));
    m_note->setWordWrap(true);
    m_note->setFrameShape(QFrame::StyledPanel);
    m_note->setContentsMargins(8, 6, 8, 6);
    m_note->hide();

    m_joinedSummary = new QLabel(this);
    m_joinedSummary->setObjectName(QStringLiteral("joinedSummary"));

    // What the network achieves on the joined task (the hub's held-out scores), and what "better" means for it.
    m_progressTitle = new QLabel(this);
    m_progressTitle->setObjectName(QStringLiteral("progressTitle"));
    m_progressTitle->setWordWrap(true);
    m_progressTitle->setTextFormat(Qt::PlainText);
    m_progressChart = new HeldOutChart(this);
    m_progressChart->setObjectName(QStringLiteral("progressChart"));
    m_progressTitle->hide();
    m_progressChart->hide();

    m_joinButton = new QPushButton(tr("Join"), this);
    m_joinButton->setObjectName(QStringLiteral("joinButton"));
    connect(m_joinButton, &QPushButton::clicked, this, &TasksPage::joinSelected);
    m_leaveButton = new QPushButton(tr("Leave"), this);
    m_leaveButton->setObjectName(QStringLiteral("leaveButton"));
    connect(m_leaveButton, &QPushButton::clicked, this, &TasksPage::leaveRequested);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_joinedSummary, 1);
    buttons->addWidget(m_leaveButton);
    buttons->addWidget(m_joinButton);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_details);
    layout->addWidget(m_note);
    layout->addWidget(m_progressTitle);
    layout->addWidget(m_progressChart, 1);
    layout->addLayout(buttons);

    rebuildTable();
}

void TasksPage::showSnapshot(const EngineSnapshot &snapshot)
{
    // Snapshots arrive several times a second; rebuild only when the catalogue really changed so the
    // user's selection and scroll position survive.
    const bool catalogueChanged = snapshot.tasks != m_tasks;
    const bool joinedChanged = snapshot.joinedTaskId != m_joinedTaskId;
    m_joinedTaskId = snapshot.joinedTaskId;
    m_snapshot = snapshot;
    updateProgress();
    if (catalogueChanged) {
        m_tasks = snapshot.tasks;
        rebuildTable();
    } else {
        updateFits(); // the measured speed moves the estimates
        if (joinedChanged)
            updateJoinedMarks();
    }
}

QString TasksPage::contributionLine() const
{
    const TaskContribution &c = m_snapshot.contribution;
    if (c.taskId != m_joinedTaskId || c.contributors == 0)
        return {};
    if (c.acceptedBatches == 0)
        return QLatin1Char('\n') +
               tr("Contributors with accepted work: %1; none of this computer's is accepted yet.").arg(c.contributors);
    return QLatin1Char('\n') + tr("Your part: accepted batches %1 (%2 % of all), rank %3 of %4 contributors.")
                                   .arg(QLocale().toString(c.acceptedBatches))
                                   .arg(QLocale().toString(100 * c.share, 'f', 1))
                                   .arg(c.rank)
                                   .arg(c.contributors);
}

void TasksPage::updateProgress()
{
    const TaskProgress &progress = m_snapshot.progress;
    const bool ours = !progress.taskId.isEmpty() && progress.taskId == m_joinedTaskId;
    const bool shown = ours && (!progress.heldOut.isEmpty() || !progress.heldOutLoss.isEmpty());
    m_progressTitle->setVisible(shown);
    m_progressChart->setVisible(shown);
    if (!shown)
        return;
    if (progress.heldOut.isEmpty()) { // a DiLoCo task: the hub's held-out loss per outer step
        const HeldOutLossPoint &first = progress.heldOutLoss.first(), &last = progress.heldOutLoss.last();
        m_progressTitle->setText(tr("The network's model on %1 held-out sentences (never trained on): loss %2 at outer "
                                    "step %3, %4 at outer step %5.")
                                     .arg(progress.lossSequences)
                                     .arg(QLocale().toString(last.loss, 'f', 2))
                                     .arg(last.revision)
                                     .arg(QLocale().toString(first.loss, 'f', 2))
                                     .arg(first.revision) +
                                 (progress.lossBetter.isEmpty() ? QString() : QLatin1Char('\n') + progress.lossBetter) +
                                 contributionLine());
        m_progressChart->setProgress(progress);
        return;
    }
    const HeldOutPoint &first = progress.heldOut.first(), &last = progress.heldOut.last();
    m_progressTitle->setText(
        tr("The network's model on %1 held-out problems (never trained on): version %2 answers %3 % correctly, "
           "version %4 answered %5 %.")
            .arg(progress.problems)
            .arg(last.version)
            .arg(qRound(100 * last.greedyCorrectness))
            .arg(first.version)
            .arg(qRound(100 * first.greedyCorrectness)) +
        (progress.better.isEmpty() ? QString() : QLatin1Char('\n') + progress.better) + contributionLine());
    m_progressChart->setProgress(progress);
}

TaskFit TasksPage::fitOf(const QString &taskId) const
{
    for (int row = 0; row < m_tasks.size() && row < m_fits.size(); ++row)
        if (m_tasks.at(row).id == taskId)
            return m_fits.at(row);
    return {};
}

void TasksPage::updateFits()
{
    m_fits.clear();
    for (int row = 0; row < m_tasks.size(); ++row) {
        const TaskFit fit = assessTask(m_tasks.at(row), m_snapshot);
        m_fits.append(fit);
        QTableWidgetItem *cell = m_table->item(row, FitColumn);
        if (!cell)
            continue;
        const QString text = fit.summary();
        if (cell->text() != text) {
            cell->setText(text);
            cell->setToolTip(text);
        }
        // Tasks this machine cannot run stay listed, greyed, with the reason in the column.
        const QBrush brush = fit.canRun ? palette().brush(QPalette::Active, QPalette::Text)
                                        : palette().brush(QPalette::Disabled, QPalette::Text);
        for (int column = 0; column < ColumnCount; ++column)
            if (QTableWidgetItem *item = m_table->item(row, column); item && item->foreground() != brush)
                item->setForeground(brush);
    }
}

void TasksPage::rebuildTable()
{
    const int previous = selectedRow();
    const QString previousId =
        previous >= 0 ? m_table->item(previous, TitleColumn)->data(Qt::UserRole).toString() : QString();
    m_table->setRowCount(int(m_tasks.size()));
    for (int row = 0; row < m_tasks.size(); ++row) {
        const TaskInfo &task = m_tasks.at(row);
        const QString requirements = display::taskRequirements(task.requirements);
        const QStringList cells{task.title,
                                display::taskKindShort(task.kind),
                                display::taskReward(task),
                                display::taskRequirementsBrief(task.requirements),
                                QString(),
                                QString()};
        for (int column = 0; column < ColumnCount; ++column) {
            auto *item = new QTableWidgetItem(cells.at(column));
            // Narrow windows elide the wider cells; the tooltip always has the whole text.
            item->setToolTip(column == RequirementsColumn ? requirements
                             : column == KindColumn       ? display::taskKind(task.kind)
                             : column == FitColumn        ? QString()
                                                          : task.description);
            m_table->setItem(row, column, item);
        }
        m_table->item(row, TitleColumn)->setData(Qt::UserRole, task.id);
    }
    updateFits();
    if (!previousId.isEmpty())
        selectTask(previousId);
    else if (!m_tasks.isEmpty())
        m_table->selectRow(0);
    updateJoinedMarks();
    updateDetails();
}

void TasksPage::updateJoinedMarks()
{
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const bool joined = m_tasks.at(row).id == m_joinedTaskId;
        m_table->item(row, StatusColumn)->setText(joined ? tr("Joined") : QString());
        QFont font = m_table->item(row, TitleColumn)->font();
        font.setBold(joined);
        m_table->item(row, TitleColumn)->setFont(font);
    }
    m_joinedSummary->setText(m_joinedTaskId.isEmpty()
                                 ? tr("Not part of any task yet.")
                                 : tr("Joined: %1").arg(display::taskTitle(m_tasks, m_joinedTaskId)));
    m_leaveButton->setEnabled(!m_joinedTaskId.isEmpty());
    updateDetails();
}

void TasksPage::updateDetails()
{
    const int row = selectedRow();
    if (m_tasks.isEmpty())
        m_details->setText(tr("Waiting for the hub's list of tasks…"));
    else if (row < 0)
        m_details->setText(tr("Select a task to read what it does."));
    else {
        const TaskInfo &task = m_tasks.at(row);
        const TaskFit fit = row < m_fits.size() ? m_fits.at(row) : TaskFit{};
        m_details->setText(
            task.description + QStringLiteral("\n") +
            tr("Needs: %1. Reward: %2.").arg(display::taskRequirements(task.requirements), display::taskReward(task)) +
            QStringLiteral("\n") + tr("On this computer: %1").arg(fit.summary()));
    }
    m_joinButton->setEnabled(row >= 0 && m_tasks.at(row).id != m_joinedTaskId &&
                             (row >= m_fits.size() || m_fits.at(row).canRun));
}

int TasksPage::selectedRow() const
{
    const QList<QTableWidgetItem *> selected = m_table->selectedItems();
    return selected.isEmpty() ? -1 : selected.first()->row();
}

bool TasksPage::selectTask(const QString &taskId)
{
    for (int row = 0; row < m_tasks.size(); ++row) {
        if (m_tasks.at(row).id == taskId) {
            m_table->selectRow(row);
            return true;
        }
    }
    return false;
}

QString TasksPage::noteText() const
{
    return m_note->isHidden() ? QString() : m_note->text();
}

void TasksPage::joinSelected()
{
    const int row = selectedRow();
    if (row < 0)
        return;
    const TaskInfo &task = m_tasks.at(row);
    const TaskFit fit = row < m_fits.size() ? m_fits.at(row) : assessTask(task, m_snapshot);
    if (fit.canRun) {
        m_note->hide();
        Q_EMIT joinRequested(task.id);
        return;
    }
    if (!task.isRunnableKind())
        m_note->setText(tr("This hub also offers %1 tasks, which this version of Cohort cannot run. "
                           "A newer version of Cohort may; the other tasks work as they are.")
                            .arg(display::taskKindShort(task.kind)));
    else
        m_note->setText(tr("This computer cannot run %1: %2.").arg(task.title, fit.reasons.join(QStringLiteral("; "))));
    m_note->show();
}

} // namespace cohort
