#include "ui/DashboardPage.h"

#include "ui/DisplayFormat.h"
#include "ui/GpuCard.h"
#include "ui/StateIcons.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QTableWidget>

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>
#include <algorithm>

namespace cohort {

namespace {
constexpr int kStateIconSize = 56;
}

DashboardPage::DashboardPage(QWidget *parent)
    : QWidget(parent)
{
    // The headline: icon, state and the one sentence that explains it. The same words as the tray tooltip.
    m_stateIcon = new QLabel(this);
    m_stateIcon->setFixedSize(kStateIconSize, kStateIconSize);
    m_stateTitle = new QLabel(this);
    m_stateTitle->setObjectName(QStringLiteral("stateTitle"));
    QFont titleFont = m_stateTitle->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.8);
    titleFont.setBold(true);
    m_stateTitle->setFont(titleFont);
    m_why = new QLabel(this);
    m_why->setObjectName(QStringLiteral("stateWhy"));
    m_why->setWordWrap(true);
    m_why->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_why->setTextFormat(Qt::PlainText); // the reason may quote a hub's words: never markup, whatever it looks like

    // A newer Cohort, or a hub that needs one: under the reason, with a link the system's browser opens.
    m_updateNotice = new QLabel(this);
    m_updateNotice->setObjectName(QStringLiteral("updateNotice"));
    m_updateNotice->setWordWrap(true);
    m_updateNotice->setTextFormat(Qt::RichText);
    m_updateNotice->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_updateNotice->setOpenExternalLinks(true);
    m_updateNotice->hide();

    m_pauseButton = new QPushButton(this);
    m_pauseButton->setObjectName(QStringLiteral("pauseButton"));
    m_pauseButton->setMinimumWidth(110);
    connect(m_pauseButton, &QPushButton::clicked, this, &DashboardPage::onPauseButtonClicked);

    auto *headlineText = new QVBoxLayout;
    headlineText->setSpacing(2);
    headlineText->addWidget(m_stateTitle);
    headlineText->addWidget(m_why);
    headlineText->addWidget(m_updateNotice);
    auto *headline = new QHBoxLayout;
    headline->setSpacing(14);
    headline->addWidget(m_stateIcon, 0, Qt::AlignTop);
    headline->addLayout(headlineText, 1);
    // With no task joined, the next step is on another page: say so where people look first.
    m_chooseTaskButton = new QPushButton(tr("Choose a task…"), this);
    m_chooseTaskButton->setObjectName(QStringLiteral("chooseTaskButton"));
    m_chooseTaskButton->setToolTip(tr("Pick what this computer works on, from the tasks the hub offers"));
    m_chooseTaskButton->hide();
    connect(m_chooseTaskButton, &QPushButton::clicked, this, &DashboardPage::chooseTaskRequested);
    auto *buttons = new QVBoxLayout;
    buttons->addWidget(m_pauseButton);
    buttons->addWidget(m_chooseTaskButton);
    headline->addLayout(buttons);

    auto *nodeBox = new QGroupBox(tr("This node"), this);
    auto *nodeForm = new QFormLayout(nodeBox);
    m_nodeId = addValueRow(nodeForm, tr("Node ID"), "nodeId");
    m_nodeName = addValueRow(nodeForm, tr("Name"), "nodeName");
    m_hub = addValueRow(nodeForm, tr("Hub"), "hubUrl");
    m_registeredAt = addValueRow(nodeForm, tr("Registered"), "registeredAt");
    m_lastHeartbeat = addValueRow(nodeForm, tr("Last heartbeat"), "lastHeartbeat");
    m_joinedTask = addValueRow(nodeForm, tr("Joined task"), "joinedTask");
    m_model = addValueRow(nodeForm, tr("Model"), "model");
    m_rollouts = addValueRow(nodeForm, tr("Rollouts"), "rollouts");
    m_diloco = addValueRow(nodeForm, tr("Training"), "diloco");
    nodeForm->setRowVisible(m_diloco, false);
    m_network = addValueRow(nodeForm, tr("Network"), "network");
    nodeForm->setRowVisible(m_network, false);
    m_nodeForm = nodeForm;
    m_lastError = addValueRow(nodeForm, tr("Last problem"), "lastError");

    m_relays = new QTableWidget(0, 6, this);
    m_relays->setObjectName(QStringLiteral("relayTable"));
    m_relays->setHorizontalHeaderLabels(
        {tr("Relay"), tr("Success"), tr("Speed"), tr("Fetched"), tr("In flight"), tr("Last problem")});
    m_relays->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_relays->setSelectionMode(QAbstractItemView::NoSelection);
    m_relays->verticalHeader()->hide();
    m_relays->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_relays->horizontalHeader()->setStretchLastSection(true);
    m_relays->setAccessibleName(tr("Checkpoint relays"));
    m_relays->hide();
    nodeForm->addRow(m_relays);

    auto *machineBox = new QGroupBox(tr("This computer"), this);
    auto *machineForm = new QFormLayout(machineBox);
    m_computeDevice = addValueRow(machineForm, tr("Compute device"), "computeDevice");
    m_cpu = addValueRow(machineForm, tr("CPU use"), "cpuUsage");
    m_memory = addValueRow(machineForm, tr("Memory in use"), "memoryUsage");
    m_processMemory = addValueRow(machineForm, tr("Used by Cohort"), "processMemory");
    m_gpuSummary = addValueRow(machineForm, tr("GPUs"), "gpuSummary");

    // Per-GPU cards with charts, under one range choice; hidden while there is no GPU reading.
    m_gpuSection = new QWidget(this);
    m_gpuSection->setObjectName(QStringLiteral("gpuSection"));
    m_gpuRange = new QComboBox(m_gpuSection);
    m_gpuRange->setObjectName(QStringLiteral("gpuRange"));
    m_gpuRange->addItem(tr("Last 5 minutes"), int(GpuHistoryRange::FiveMinutes));
    m_gpuRange->addItem(tr("Last hour"), int(GpuHistoryRange::OneHour));
    m_gpuRange->addItem(tr("Last 24 hours"), int(GpuHistoryRange::OneDay));
    m_gpuRange->setAccessibleName(tr("GPU chart range"));
    connect(m_gpuRange, &QComboBox::currentIndexChanged, this, [this] { showGpus(m_lastGpus, m_gpuFedAt); });
    auto *gpuHeader = new QHBoxLayout;
    auto *gpuTitle = new QLabel(tr("GPUs"), m_gpuSection);
    QFont sectionFont = gpuTitle->font();
    sectionFont.setBold(true);
    gpuTitle->setFont(sectionFont);
    gpuHeader->addWidget(gpuTitle, 1);
    gpuHeader->addWidget(m_gpuRange);
    auto *gpuLayout = new QVBoxLayout(m_gpuSection);
    gpuLayout->setContentsMargins(0, 0, 0, 0);
    gpuLayout->addLayout(gpuHeader);
    m_gpuCardsLayout = new QVBoxLayout;
    gpuLayout->addLayout(m_gpuCardsLayout);

    // Several GPU cards do not fit a small window: the page scrolls.
    auto *content = new QWidget;
    auto *layout = new QVBoxLayout(content);
    layout->setSpacing(16);
    layout->addLayout(headline);
    layout->addWidget(nodeBox);
    layout->addWidget(machineBox);
    layout->addWidget(m_gpuSection);
    layout->addStretch(1);
    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("dashboardScroll"));
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(content);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    showSnapshot(EngineSnapshot{});
}

void DashboardPage::showRelays(const DownloadProgress &d)
{
    // Shown while a download runs (or stopped): which relays serve it, and how well. Hidden otherwise.
    const bool show =
        !d.relays.isEmpty() && d.phase != DownloadProgress::Phase::None && d.phase != DownloadProgress::Phase::Done;
    m_relays->setVisible(show);
    if (!show)
        return;
    m_relays->setRowCount(int(d.relays.size()));
    for (int row = 0; row < d.relays.size(); ++row) {
        const RelayProgress &r = d.relays.at(row);
        const QStringList cells{
            r.url,
            QStringLiteral("%1%").arg(qRound(100 * r.successRate)),
            r.bandwidthMBps > 0 ? tr("%1 MB/s").arg(r.bandwidthMBps, 0, 'f', 1) : tr("not measured"),
            display::bytes(r.bytes),
            QString::number(r.active),
            r.failures > 0 ? tr("%n failure(s): %1", nullptr, r.failures).arg(r.lastError) : QString()};
        for (int column = 0; column < cells.size(); ++column) {
            QTableWidgetItem *item = m_relays->item(row, column);
            if (!item) {
                item = new QTableWidgetItem;
                m_relays->setItem(row, column, item);
            }
            if (item->text() != cells[column]) {
                item->setText(cells[column]);
                item->setToolTip(cells[column]);
            }
        }
    }
    m_relays->setFixedHeight(m_relays->horizontalHeader()->height() + m_relays->rowHeight(0) * int(d.relays.size()) +
                             4);
}

QLabel *DashboardPage::addValueRow(QFormLayout *form, const QString &label, const char *objectName)
{
    auto *value = new QLabel(form->parentWidget());
    value->setObjectName(QLatin1String(objectName));
    value->setTextInteractionFlags(Qt::TextSelectableByMouse); // node ids and URLs get copied into bug reports
    value->setTextFormat(Qt::PlainText); // values come from the network (errors, names): shown as the text they are
    value->setWordWrap(true);
    form->addRow(label + QLatin1Char(':'), value);
    return value;
}

QString DashboardPage::stateTitleText() const
{
    return m_stateTitle->text();
}

QString DashboardPage::whyText() const
{
    return m_why->text();
}

void DashboardPage::showSnapshot(const EngineSnapshot &s)
{
    m_stateIcon->setPixmap(stateIcon(s.state).pixmap(kStateIconSize, kStateIconSize));
    m_stateTitle->setText(nodeStateTitle(s.state));
    m_why->setText(s.why);
    const QString update = updateNoticeText(s);
    if (m_updateNotice->text() != update)
        m_updateNotice->setText(update);
    m_updateNotice->setVisible(!update.isEmpty());

    m_userPaused = s.userPaused();
    m_pauseButton->setText(m_userPaused ? tr("Resume") : tr("Pause"));
    m_pauseButton->setToolTip(m_userPaused ? tr("Let this computer work again")
                                           : tr("Stop working until you resume; nothing is lost"));
    m_pauseButton->setEnabled(s.state != NodeState::Stopping);

    const QString unknown = tr("not yet");
    m_nodeId->setText(s.nodeId.isEmpty() ? unknown : s.nodeId);
    m_nodeName->setText(s.nodeName.isEmpty() ? unknown : s.nodeName);
    m_hub->setText(display::hubDescription(s));
    m_registeredAt->setText(s.registeredAt.isValid() ? display::moment(s.registeredAt) : unknown);
    QString heartbeat = display::moment(s.lastHeartbeatAt);
    if (s.heartbeatFailures > 0)
        heartbeat +=
            s.heartbeatFailures == 1 ? tr(" (1 failure since)") : tr(" (%1 failures since)").arg(s.heartbeatFailures);
    m_lastHeartbeat->setText(heartbeat);
    m_joinedTask->setText(display::taskTitle(s.tasks, s.joinedTaskId));
    m_chooseTaskButton->setVisible(s.joinedTaskId.isEmpty() && !s.tasks.isEmpty() && s.state != NodeState::Stopping);
    m_model->setText(modelText(s));
    showRelays(s.download);
    m_rollouts->setText(rolloutsText(s));
    // A DiLoCo task trains here instead of generating rollouts: show its progress in place of the rollout row.
    const bool diloco = std::any_of(s.tasks.cbegin(), s.tasks.cend(), [&](const TaskInfo &t) {
        return t.id == s.joinedTaskId && t.kind == QLatin1String("diloco");
    });
    m_nodeForm->setRowVisible(m_diloco, diloco);
    m_nodeForm->setRowVisible(m_rollouts, !diloco || s.rollouts.batchesAccepted > 0);
    m_nodeForm->setRowVisible(m_model, !diloco); // DiLoCo's model comes from the peers, not from a checkpoint download
    m_diloco->setText(dilocoText(s));
    const QString network = networkText(s);
    m_network->setText(network);
    m_nodeForm->setRowVisible(m_network, !network.isEmpty());
    m_lastError->setText(s.lastError.isEmpty() ? tr("none") : s.lastError);

    m_computeDevice->setText(computeDeviceText(s));
    m_cpu->setText(display::cpuUsage(s.system));
    m_memory->setText(display::memoryUsage(s.system));
    m_processMemory->setText(s.system.processRssBytes > 0 ? display::bytes(s.system.processRssBytes) : unknown);
    m_gpuSummary->setText(gpuSummaryText(s));

    // One reading per second into the history: snapshots come up to 4 times a second, GPU readings once.
    const qint64 now = (s.takenAt.isValid() ? s.takenAt : QDateTime::currentDateTimeUtc()).toSecsSinceEpoch();
    const bool newSecond = now != m_gpuFedAt;
    if (!s.gpus.isEmpty() && newSecond)
        m_gpuHistory.add(s.gpus, now);
    m_gpuFedAt = now;
    m_lastGpus = s.gpus;
    const bool workersMoved = s.computeWorkers != m_lastWorkers;
    m_lastWorkers = s.computeWorkers;
    if (newSecond || workersMoved || s.gpus.size() != m_gpuCards.size()) // charts redrawn once a second at most
        showGpus(s.gpus, now);
}

QString DashboardPage::computeDeviceText(const EngineSnapshot &s)
{
    if (s.computeDevice.isEmpty())
        return tr("detecting…");
    QStringList gpus;
    for (const ComputeWorkerStatus &w : s.computeWorkers)
        if (!w.gpuUuid.isEmpty())
            gpus.append(w.paused               ? tr("%1 (%2, paused)").arg(w.name, w.device)
                        : !w.inUseBy.isEmpty() ? tr("%1 (%2, waiting for %3)").arg(w.name, w.device, w.inUseBy)
                                               : tr("%1 (%2)").arg(w.name, w.device));
    if (gpus.isEmpty())
        return s.computeDevice; // "CPU (LibTorch 1.13.1, 2 threads)"
    return tr("%1; %2").arg(gpus.join(QStringLiteral(", ")), s.computeDevice);
}

QString DashboardPage::updateNoticeText(const EngineSnapshot &s)
{
    const UpdateNotice &u = s.update;
    if (!u.available && !u.belowMinimum)
        return {};
    // Every part came from the hub: escaped, and a link only to an address the engine's rules allow (checked again
    // here, so a snapshot from anywhere cannot put a javascript: or file: link under the user's mouse).
    const QString text = u.belowMinimum ? tr("This hub needs Cohort %1 or newer; you have %2.")
                                              .arg(u.minimum.toHtmlEscaped(), u.running.toHtmlEscaped())
                                        : tr("Cohort %1 is available.").arg(u.latest.toHtmlEscaped());
    if (u.downloadUrl.isEmpty() || !downloadUrlProblem(u.downloadUrl).isEmpty())
        return text;
    return text + QStringLiteral(" <a href=\"%1\">%2</a>").arg(u.downloadUrl.toHtmlEscaped(), tr("Download"));
}

QString DashboardPage::gpuSummaryText(const EngineSnapshot &s)
{
    if (s.gpus.isEmpty())
        return s.gpuTelemetryNote.isEmpty() ? tr("not yet") : s.gpuTelemetryNote;
    QStringList names;
    for (const GpuSample &g : s.gpus)
        names << g.name;
    QString text = s.gpus.size() == 1 ? tr("1 GPU: %1").arg(names.first())
                                      : tr("%1 GPUs: %2").arg(s.gpus.size()).arg(names.join(QStringLiteral(", ")));
    if (!s.gpuTelemetryNote.isEmpty())
        text += QStringLiteral(" (") + s.gpuTelemetryNote + QLatin1Char(')');
    return text;
}

GpuHistoryRange DashboardPage::gpuRange() const
{
    return GpuHistoryRange(m_gpuRange->currentData().toInt());
}

void DashboardPage::setGpuRange(GpuHistoryRange range)
{
    m_gpuRange->setCurrentIndex(m_gpuRange->findData(int(range)));
}

void DashboardPage::seedGpuHistory(const QList<GpuHistoryRecord> &minutes)
{
    m_gpuHistory.seed(minutes);
    showGpus(m_lastGpus, m_gpuFedAt >= 0 ? m_gpuFedAt : QDateTime::currentSecsSinceEpoch());
}

void DashboardPage::showGpus(const QList<GpuSample> &gpus, qint64 now)
{
    m_gpuSection->setVisible(!gpus.isEmpty());
    while (m_gpuCards.size() > gpus.size())
        delete m_gpuCards.takeLast();
    while (m_gpuCards.size() < gpus.size()) {
        auto *card = new GpuCard(m_gpuSection);
        card->setObjectName(QStringLiteral("gpuCard%1").arg(m_gpuCards.size()));
        m_gpuCardsLayout->addWidget(card);
        card->show(); // now, not at the next event loop turn (the layout's own show is queued)
        connect(card, &GpuCard::pauseRequested, this, &DashboardPage::gpuPauseRequested);
        m_gpuCards.append(card);
    }
    const GpuHistoryRange range = gpuRange();
    // Charts are refilled only while they can be seen (the window often lives in the tray); showEvent catches up.
    const bool drawCharts = isVisible();
    const bool cpuOnly = std::all_of(m_lastWorkers.cbegin(), m_lastWorkers.cend(),
                                     [](const ComputeWorkerStatus &w) { return w.gpuUuid.isEmpty(); });
    for (qsizetype i = 0; i < gpus.size(); ++i) {
        m_gpuCards[i]->showSample(gpus[i]);
        std::optional<ComputeWorkerStatus> worker;
        for (const ComputeWorkerStatus &w : m_lastWorkers)
            if (!w.gpuUuid.isEmpty() && w.gpuUuid == gpus[i].uuid)
                worker = w;
        m_gpuCards[i]->showWorker(worker, cpuOnly && !m_lastWorkers.isEmpty());
        if (drawCharts)
            m_gpuCards[i]->showHistory(m_gpuHistory.points(GpuHistory::keyOf(gpus[i]), range), range, now);
    }
}

void DashboardPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    showGpus(m_lastGpus, m_gpuFedAt);
}

void DashboardPage::onPauseButtonClicked()
{
    // Ask for the explicit opposite of what is shown rather than "toggle", so a double click before the
    // next snapshot arrives cannot undo itself.
    if (m_userPaused)
        Q_EMIT resumeRequested();
    else
        Q_EMIT pauseRequested();
}

QString DashboardPage::rolloutsText(const EngineSnapshot &s)
{
    // What the RL work loop did in this session, and what is still waiting to be acknowledged.
    const RolloutStats &r = s.rollouts;
    if (r.batchesAccepted == 0 && r.batchesRejected == 0 && r.outboxBatches == 0 && r.tokensGenerated == 0)
        return tr("none yet");
    QString text = r.batchesAccepted == 1 ? tr("1 batch accepted") : tr("%1 batches accepted").arg(r.batchesAccepted);
    if (r.batchesRejected > 0)
        text += tr(", %1 rejected").arg(r.batchesRejected);
    text += tr(", %1 tokens generated").arg(QLocale().toString(r.tokensGenerated));
    if (r.tokensPerSecond > 0)
        text += tr(" (%1 tokens/s)").arg(r.tokensPerSecond, 0, 'f', 0);
    if (r.lastMeanReward >= 0)
        text += tr("; last batch scored %1 of 100 with version %2")
                    .arg(r.lastMeanReward * 100, 0, 'f', 0)
                    .arg(r.policyVersion);
    if (r.outboxBatches > 0)
        text += r.outboxBatches == 1 ? tr("; 1 batch waiting to be sent")
                                     : tr("; %1 batches waiting to be sent").arg(r.outboxBatches);
    if (!r.lastRejection.isEmpty() && r.batchesRejected > 0)
        text += tr("; last rejection: %1").arg(r.lastRejection);
    return text;
}

QString DashboardPage::networkText(const EngineSnapshot &s)
{
    QStringList parts;
    if (s.progress.taskId == s.joinedTaskId && !s.progress.heldOut.isEmpty()) {
        const HeldOutPoint &first = s.progress.heldOut.first(), &last = s.progress.heldOut.last();
        parts << tr("version %1 answers %2 % of held-out problems correctly (%3 % at version %4)")
                     .arg(last.version)
                     .arg(qRound(100 * last.greedyCorrectness))
                     .arg(qRound(100 * first.greedyCorrectness))
                     .arg(first.version);
    }
    if (s.progress.taskId == s.joinedTaskId && !s.progress.heldOutLoss.isEmpty()) {
        const HeldOutLossPoint &first = s.progress.heldOutLoss.first(), &last = s.progress.heldOutLoss.last();
        parts << tr("held-out loss %1 at outer step %2 (%3 at outer step %4)")
                     .arg(QLocale().toString(last.loss, 'f', 2))
                     .arg(last.revision)
                     .arg(QLocale().toString(first.loss, 'f', 2))
                     .arg(first.revision);
    }
    const TaskContribution &c = s.contribution;
    if (c.taskId == s.joinedTaskId && !c.taskId.isEmpty() && c.rank > 0)
        parts << tr("your part %1 % of accepted batches, rank %2 of %3")
                     .arg(QLocale().toString(100 * c.share, 'f', 1))
                     .arg(c.rank)
                     .arg(c.contributors);
    return parts.join(QStringLiteral("; "));
}

QString DashboardPage::dilocoText(const EngineSnapshot &s)
{
    // Where the collective training stands: outer step, ring size, loss, and what the last sync and average moved.
    const DilocoStatus &d = s.diloco;
    if (!d.active && d.outerStepsThisRun == 0)
        return d.note.isEmpty() ? tr("not training") : tr("not training: %1").arg(d.note);
    if (d.phase == QLatin1String("connecting"))
        return tr("joining the training ring…");
    QString text = (d.peers == 1 ? tr("outer step %1, inner step %2 of %3, training alone")
                                 : tr("outer step %1, inner step %2 of %3, %4 peers"))
                       .arg(d.outerStep + 1)
                       .arg(d.innerStep)
                       .arg(d.innerSteps);
    if (d.peers != 1)
        text = text.arg(d.peers);
    if (d.phase == QLatin1String("averaging"))
        text += tr(" — averaging with the others");
    else if (d.phase == QLatin1String("syncing"))
        text += tr(" — syncing the shared model");
    if (d.outerLoss > 0)
        text += tr("; loss %1").arg(d.outerLoss, 0, 'f', 2);
    if (d.outerStepsThisRun > 0)
        text += d.outerStepsThisRun == 1 ? tr("; 1 outer step contributed")
                                         : tr("; %1 outer steps contributed").arg(d.outerStepsThisRun);
    if (d.lastReduceBytes > 0)
        text += tr("; last average moved %1").arg(display::bytes(d.lastReduceBytes));
    text += d.lastSyncBytes > 0 ? tr(", last sync fetched %1").arg(display::bytes(d.lastSyncBytes))
                                : tr(", in step with the others");
    if (!d.active)
        text = tr("stopped after ") + text;
    return text;
}

QString DashboardPage::modelText(const EngineSnapshot &s)
{
    // The checkpoint of the joined task: what is verified, and what is being fetched, from how many relays.
    const DownloadProgress &d = s.download;
    QString text = s.checkpointVersion > 0 ? tr("version %1, verified").arg(s.checkpointVersion) : tr("none yet");
    if (d.active()) {
        const int percent = d.totalBytes > 0 ? int(100 * d.doneBytes / d.totalBytes) : 0;
        QString fetching =
            tr("downloading version %1: %2% of %3").arg(d.version).arg(percent).arg(display::bytes(d.totalBytes));
        if (d.bytesPerSecond > 0)
            fetching += tr(" at %1/s").arg(display::bytes(qint64(d.bytesPerSecond)));
        if (d.etaSeconds >= 0)
            fetching += tr(", %1 s left").arg(d.etaSeconds);
        fetching += tr(" (%n relay(s))", nullptr, int(d.relays.size()));
        // A newer version fetched behind the work: the one in use stays named first.
        text = s.checkpointVersion > 0 ? text + QStringLiteral("; ") + fetching : fetching;
    } else if (d.phase == DownloadProgress::Phase::Paused) {
        text += tr("; download of version %1 paused at %2%")
                    .arg(d.version)
                    .arg(d.totalBytes > 0 ? int(100 * d.doneBytes / d.totalBytes) : 0);
    } else if (d.phase == DownloadProgress::Phase::Failed) {
        text += tr("; download failed: %1").arg(d.error);
    }
    return text;
}

} // namespace cohort
