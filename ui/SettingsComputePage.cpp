#include "ui/SettingsComputePage.h"

#include "ui/DisplayFormat.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace cohort {

SettingsComputePage::SettingsComputePage(QWidget *parent)
    : SettingsPage(tr("Compute"), "computePage", parent)
{
    QWidget *content = this->content();
    m_useAllGpus = new QCheckBox(tr("Use all GPUs, including ones added later"), content);
    watch(m_useAllGpus);
    m_useAllGpus->setObjectName(QStringLiteral("useAllGpusCheck"));
    m_useAllGpus->setAccessibleName(m_useAllGpus->text());
    m_gpuList = new QTreeWidget(content);
    connect(m_gpuList, &QTreeWidget::itemChanged, this, [this] { noteEdit(); });
    m_gpuList->setObjectName(QStringLiteral("gpuList"));
    m_gpuList->setAccessibleName(tr("GPUs Cohort may use"));
    m_gpuList->setColumnCount(2);
    m_gpuList->setHeaderLabels({tr("GPU"), tr("Memory share")});
    m_gpuList->setRootIsDecorated(false);
    m_gpuList->setUniformRowHeights(true);
    m_gpuList->header()->setStretchLastSection(false);
    m_gpuList->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_gpuList->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_gpuList->setMaximumHeight(130);
    m_gpuNote = note(QString());
    m_gpuNote->setObjectName(QStringLiteral("gpuNote"));
    // What the choice does: a worker per chosen GPU, started or stopped as the choice changes.
    m_gpuNote->setText(gpuChoiceNote());

    m_idleOnly = new QCheckBox(tr("Only when idle for"), content);
    bind(m_idleOnly, &SettingsValues::runOnlyWhenIdle);
    m_idleOnly->setToolTip(
        tr("Work only after this long without keyboard or mouse input, and stop as soon as you are back."));
    m_idleOnly->setObjectName(QStringLiteral("idleOnlyCheck"));
    m_idleOnly->setAccessibleName(tr("Work only when idle"));
    m_idleMinutes = spinBox("idleMinutesSpin", 1, 240, tr(" minutes"), {}, tr("Idle minutes"));
    bind(m_idleMinutes, &SettingsValues::idleMinutes);
    m_pauseOnBattery = new QCheckBox(tr("Pause on battery power"), content);
    bind(m_pauseOnBattery, &SettingsValues::pauseOnBattery);
    m_pauseOnBattery->setObjectName(QStringLiteral("pauseOnBatteryCheck"));
    m_pauseOnBattery->setAccessibleName(m_pauseOnBattery->text());
    m_schedule = new QLineEdit(content);
    bind(m_schedule, &SettingsValues::schedule);
    m_schedule->setObjectName(QStringLiteral("scheduleEdit"));
    m_schedule->setAccessibleName(tr("Schedule"));
    m_schedule->setPlaceholderText(tr("Any time, e.g. mon-fri 22:00-06:00; weekend 00:00-24:00"));
    m_schedule->setToolTip(tr("Time windows when Cohort may work, separated by ';'. Days: mon … sun, ranges (mon-fri), "
                              "daily, weekdays, weekend. A window ending before it starts runs past midnight."));
    // Pause when I play: a game, a film, a render or another trainer comes first; work resumes shortly after it ends.
    m_pauseWhenFullscreen = new QCheckBox(tr("Pause while a program runs full screen"), content);
    bind(m_pauseWhenFullscreen, &SettingsValues::pauseWhenFullscreen);
    m_pauseWhenFullscreen->setObjectName(QStringLiteral("pauseWhenFullscreenCheck"));
    m_pauseWhenFullscreen->setAccessibleName(m_pauseWhenFullscreen->text());
    m_pauseWhenFullscreen->setToolTip(
        tr("A game, a film or a presentation in front pauses Cohort; it works again about "
           "15 seconds after the program leaves full screen."));
    m_pauseForPrograms = new QLineEdit(content);
    bind(m_pauseForPrograms, &SettingsValues::pauseForPrograms);
    m_pauseForPrograms->setObjectName(QStringLiteral("pauseForProgramsEdit"));
    m_pauseForPrograms->setAccessibleName(tr("Pause while these programs run"));
    m_pauseForPrograms->setPlaceholderText(tr("Programs to pause for, e.g. steam; blender; Game.exe"));
    m_pauseForPrograms->setToolTip(
        tr("Program names separated by ';', as the task manager shows them. While one of them "
           "runs, Cohort pauses; it works again about 15 seconds after the last one ends."));
    m_pauseWhenGpuBusy = new QCheckBox(tr("Pause while another program uses the GPU"), content);
    bind(m_pauseWhenGpuBusy, &SettingsValues::pauseWhenGpuBusy);
    m_pauseWhenGpuBusy->setObjectName(QStringLiteral("pauseWhenGpuBusyCheck"));
    m_pauseWhenGpuBusy->setAccessibleName(m_pauseWhenGpuBusy->text());
    m_pauseWhenGpuBusy->setToolTip(tr("Another program computing on an NVIDIA GPU, or drawing there with 1 GiB of its "
                                      "memory or more (a game), pauses Cohort."));
    m_gpuTempLimit = spinBox("gpuTempLimitSpin", 0, 100, tr(" °C"), tr("No limit"), tr("GPU temperature limit"));
    bind(m_gpuTempLimit, &SettingsValues::gpuTempLimitC);
    m_gpuTempLimit->setToolTip(
        tr("At this GPU temperature Cohort slows down (half, then a quarter of the time); 8 °C above it, "
           "it pauses. It speeds up again 5 °C below the limit."));
    m_gpuPowerLimit = spinBox("gpuPowerLimitSpin", 0, 2000, tr(" W"), tr("No limit"), tr("GPU power limit"));
    bind(m_gpuPowerLimit, &SettingsValues::gpuPowerLimitW);
    m_gpuPowerLimit->setSingleStep(10);
    m_gpuPowerLimit->setToolTip(tr("The most power the chosen GPUs may draw together; above it Cohort slows down."));

    m_gpuMemory = spinBox("gpuMemorySpin", 10, 100, tr(" % of each GPU's memory"), {}, tr("GPU memory Cohort may use"));
    bind(m_gpuMemory, &SettingsValues::gpuMemoryPercent);
    m_gpuMemory->setSingleStep(5);
    m_gpuMemory->setToolTip(
        tr("Cohort keeps the rest free for your games and other programs: its batches are generated in "
           "smaller parts to fit, and a task whose model does not fit is shown greyed on the Tasks page."));

    auto *gpuBox = new QGroupBox(tr("GPUs"), content);
    auto *gpuLayout = new QVBoxLayout(gpuBox);
    gpuLayout->addWidget(m_useAllGpus);
    gpuLayout->addWidget(withErrorLabel(withErrorLabel(m_gpuList, QStringLiteral("gpuUuids")),
                                        QStringLiteral("gpuMemoryPercentPerGpu")));
    gpuLayout->addWidget(
        withErrorLabel(row({new QLabel(tr("Use at most"), content), m_gpuMemory}), QStringLiteral("gpuMemoryPercent")));
    gpuLayout->addWidget(m_gpuNote);
    auto *whenBox = new QGroupBox(tr("When to work"), content);
    auto *form = new QFormLayout(whenBox);
    form->addRow(tr("Idle:"), withErrorLabel(row({m_idleOnly, m_idleMinutes}), QStringLiteral("idleMinutes")));
    form->addRow(tr("Schedule:"), withErrorLabel(m_schedule, QStringLiteral("schedule")));
    form->addRow(tr("Battery:"), m_pauseOnBattery);
    form->addRow(tr("Other programs:"), m_pauseWhenFullscreen);
    form->addRow(QString(), withErrorLabel(m_pauseForPrograms, QStringLiteral("pauseForPrograms")));
    form->addRow(QString(), m_pauseWhenGpuBusy);
    form->addRow(tr("GPU temperature limit:"), withErrorLabel(m_gpuTempLimit, QStringLiteral("gpuTempLimitC")));
    form->addRow(tr("GPU power limit:"), withErrorLabel(m_gpuPowerLimit, QStringLiteral("gpuPowerLimitW")));
    auto *layout = new QVBoxLayout(content);
    layout->addWidget(gpuBox);
    layout->addWidget(whenBox);
    layout->addStretch(1);
    fillGpuList({}, {}, {});
    setWidget(content);
}

void SettingsComputePage::load(const SettingsValues &values)
{
    SettingsPage::load(values);
    fillGpuList(m_gpus, values.gpuUuids, values.gpuMemoryPercentPerGpu);
    m_idleMinutes->setEnabled(values.runOnlyWhenIdle); // what the values enable
}

void SettingsComputePage::apply(SettingsValues &values) const
{
    SettingsPage::apply(values);
    values.gpuUuids = chosenGpus();
    values.gpuMemoryPercentPerGpu = gpuShares();
}

QList<SettingsError> SettingsComputePage::check(const SettingsValues &values) const
{
    // In the values no GPU chosen means all of them; the fields can also say none, which is refused.
    if (!m_useAllGpus->isChecked() && values.gpuUuids.isEmpty())
        return {
            {QStringLiteral("gpuUuids"), tr("Tick at least one GPU, or use all of them. To use none, pause Cohort.")}};
    return {};
}

void SettingsComputePage::refresh()
{
    m_idleMinutes->setEnabled(m_idleOnly->isChecked());
    updateGpuRows();
}

QString SettingsComputePage::gpuChoiceNote()
{
    return tr("Cohort computes on each chosen GPU, one worker per GPU; a change applies at once. A GPU's own memory "
              "share replaces the share above for that GPU.");
}

void SettingsComputePage::addGpuRow(const QString &uuid, const QString &text, bool chosen, int share)
{
    auto *item = new QTreeWidgetItem(m_gpuList, {text});
    item->setData(0, Qt::UserRole, uuid);
    item->setToolTip(0, uuid);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
    item->setCheckState(0, chosen ? Qt::Checked : Qt::Unchecked);
    auto *spin = new QSpinBox(m_gpuList);
    spin->setObjectName(QStringLiteral("gpuShare%1").arg(m_gpuList->topLevelItemCount() - 1));
    spin->setRange(0, 100);
    spin->setSingleStep(5);
    spin->setSuffix(tr(" %"));
    spin->setSpecialValueText(tr("as above"));
    spin->setAccessibleName(tr("Memory share of %1").arg(text));
    spin->setToolTip(
        tr("The share of this GPU's memory Cohort may use, 10 to 100 %; \"as above\" uses the share for every GPU."));
    spin->setValue(share);
    watch(spin);
    m_gpuList->setItemWidget(item, 1, spin);
}

void SettingsComputePage::fillGpuList(const QList<GpuSample> &gpus, const QStringList &chosen,
                                      const QMap<QString, int> &shares)
{
    const Filling filling(this); // itemChanged while filling is not an edit
    // The rows' spin boxes go with their rows, later (one may be sending a signal now): nameless until then, so
    // that a name finds only the new row's.
    for (int i = 0; i < m_gpuList->topLevelItemCount(); ++i)
        if (QWidget *spin = m_gpuList->itemWidget(m_gpuList->topLevelItem(i), 1))
            spin->setObjectName(QString());
    m_gpuList->clear();
    QStringList listed;
    for (const GpuSample &g : gpus) {
        const QString uuid = g.uuid.isEmpty() ? QStringLiteral("index-%1").arg(g.index) : g.uuid;
        QString text = tr("GPU %1: %2").arg(g.index).arg(g.name);
        if (g.memoryTotalBytes)
            text += QStringLiteral(" (%1)").arg(display::bytes(*g.memoryTotalBytes));
        addGpuRow(uuid, text, chosen.isEmpty() || chosen.contains(uuid), shares.value(uuid, 0));
        listed.append(uuid);
    }
    // A chosen GPU that is not here now (removed, or NVML not answering yet) stays chosen, and says so; so does a
    // share of its own.
    QStringList remembered = chosen;
    for (auto it = shares.cbegin(); it != shares.cend(); ++it)
        if (!remembered.contains(it.key()))
            remembered.append(it.key());
    for (const QString &uuid : remembered)
        if (!listed.contains(uuid))
            addGpuRow(uuid, tr("%1 (not detected now)").arg(uuid), chosen.isEmpty() || chosen.contains(uuid),
                      shares.value(uuid, 0));
    m_useAllGpus->setChecked(chosen.isEmpty());
    updateGpuRows();
    m_gpuList->setVisible(m_gpuList->topLevelItemCount() > 0);
    if (m_gpuList->topLevelItemCount() == 0)
        m_gpuNote->setText(tr("No GPUs detected (no NVIDIA driver answered). Cohort computes on the CPU; once GPUs are "
                              "detected they are listed here."));
    else
        m_gpuNote->setText(gpuChoiceNote());
}

void SettingsComputePage::updateGpuRows()
{
    const Filling filling(this);
    const bool all = m_useAllGpus->isChecked();
    for (int i = 0; i < m_gpuList->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_gpuList->topLevelItem(i);
        item->setFlags(all ? (Qt::ItemIsEnabled | Qt::ItemIsSelectable)
                           : (Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable));
        if (all)
            item->setCheckState(0, Qt::Checked);
    }
}

QStringList SettingsComputePage::chosenGpus() const
{
    if (m_useAllGpus->isChecked())
        return {};
    QStringList chosen;
    for (int i = 0; i < m_gpuList->topLevelItemCount(); ++i)
        if (m_gpuList->topLevelItem(i)->checkState(0) == Qt::Checked)
            chosen.append(m_gpuList->topLevelItem(i)->data(0, Qt::UserRole).toString());
    return chosen; // none ticked: check() refuses it (pausing is the way to use no GPU)
}

QMap<QString, int> SettingsComputePage::gpuShares() const
{
    QMap<QString, int> shares;
    for (int i = 0; i < m_gpuList->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_gpuList->topLevelItem(i);
        const auto *spin = qobject_cast<const QSpinBox *>(m_gpuList->itemWidget(item, 1));
        if (spin && spin->value() > 0) // 1..9 are kept, for validate() to refuse next to the list
            shares.insert(item->data(0, Qt::UserRole).toString(), spin->value());
    }
    return shares;
}

bool SettingsComputePage::isNewGpuList(const QList<GpuSample> &gpus) const
{
    const auto keys = [](const QList<GpuSample> &list) {
        QStringList out;
        for (const GpuSample &g : list)
            out.append(g.uuid + g.name);
        return out;
    };
    return keys(gpus) != keys(m_gpus);
}

void SettingsComputePage::setGpus(const QList<GpuSample> &gpus)
{
    const QStringList chosen = chosenGpus();
    const QMap<QString, int> shares = gpuShares();
    m_gpus = gpus;
    fillGpuList(m_gpus, chosen, shares);
}

} // namespace cohort
