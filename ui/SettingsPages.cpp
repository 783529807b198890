// The settings dialog's pages and the actions that live on them (moving the data folder, exporting the node key).
// The frame, loading and applying are in SettingsDialog.cpp.
#include "ui/SettingsDialog.h"

#include "platform/Autostart.h"
#include "platform/FilePermissions.h"
#include "ui/DataFolderMove.h"
#include "ui/DisplayFormat.h"
#include "ui/InlineErrorLabel.h"
#include "ui/UiLogging.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPointer>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSpinBox>
#include <QSysInfo>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace cohort {

namespace {
QWidget *row(QWidget *parent, std::initializer_list<QWidget *> widgets, bool stretch = true)
{
    auto *box = new QWidget(parent);
    auto *layout = new QHBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    for (QWidget *w : widgets)
        layout->addWidget(w);
    if (stretch)
        layout->addStretch(1);
    return box;
}

// A page: its widgets in a scroll area, so a small screen (or large fonts) never cuts a field off.
QWidget *page(QWidget *content, const char *name)
{
    auto *scroll = new QScrollArea;
    scroll->setObjectName(QLatin1String(name));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(content);
    return scroll;
}

QLabel *note(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true);
    QPalette muted = label->palette();
    muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText));
    label->setPalette(muted);
    return label;
}
} // namespace

QSpinBox *SettingsDialog::spinBox(const char *name, int min, int max, const QString &suffix, const QString &none,
                                  const QString &accessible)
{
    auto *box = new QSpinBox(this);
    box->setObjectName(QLatin1String(name));
    box->setRange(min, max);
    box->setSuffix(suffix);
    box->setAccessibleName(accessible);
    if (!none.isEmpty())
        box->setSpecialValueText(none);
    return box;
}

QWidget *SettingsDialog::buildGeneralPage()
{
    auto *content = new QWidget(this);
    m_language = new QComboBox(content);
    m_bindings.bind(m_language, &SettingsValues::language);
    m_language->setObjectName(QStringLiteral("languageCombo"));
    m_language->setAccessibleName(tr("Language"));
    const QString systemLanguage = QLocale().nativeLanguageName(); // empty for the C locale
    m_language->addItem(systemLanguage.isEmpty() ? tr("System default") : tr("System default (%1)").arg(systemLanguage),
                        QString());
    // Each language in its own name, so whoever cannot read the current one still finds theirs.
    for (const QString &code : Settings::languages())
        m_language->addItem(QLocale(code).nativeLanguageName(), code);
    m_startMinimized = new QCheckBox(tr("Start minimized to the notification area"), content);
    m_bindings.bind(m_startMinimized, &SettingsValues::startMinimized);
    m_startMinimized->setObjectName(QStringLiteral("startMinimizedCheck"));
    m_startMinimized->setAccessibleName(m_startMinimized->text());
    m_startAtLogin = new QCheckBox(tr("Start Cohort when I log in"), content);
    m_startAtLogin->setObjectName(QStringLiteral("startAtLoginCheck"));
    m_startAtLogin->setAccessibleName(m_startAtLogin->text());
    if (!m_autostart || !m_autostart->isSupported()) {
        m_startAtLogin->setEnabled(false);
        m_startAtLogin->setToolTip(tr("Starting at login is not available on this system."));
    } else {
        m_startAtLogin->setToolTip(tr("Managed by the system: %1").arg(m_autostart->location()));
    }
    m_notifications = new QComboBox(content);
    m_bindings.bind(m_notifications, &SettingsValues::notifications);
    m_notifications->setObjectName(QStringLiteral("notificationsCombo"));
    m_notifications->setAccessibleName(tr("Notifications"));
    m_notifications->addItem(tr("Off"), int(NotifyLevel::Off));
    m_notifications->addItem(tr("Errors only"), int(NotifyLevel::Errors));
    m_notifications->addItem(tr("Errors and milestones"), int(NotifyLevel::ErrorsAndMilestones));
    m_notifications->setToolTip(tr("Errors: Cohort stopped, lost its hub, ran out of disk space or had work refused.\n"
                                   "Milestones: your first verified work, a model download finished.\n"
                                   "At most one message of each kind every 15 minutes."));
    m_trayIconStyle = new QComboBox(content);
    m_bindings.bind(m_trayIconStyle, &SettingsValues::trayIconStyle);
    m_trayIconStyle->setObjectName(QStringLiteral("trayIconStyleCombo"));
    m_trayIconStyle->setAccessibleName(tr("Tray icon"));
    m_trayIconStyle->addItem(tr("Colour"), int(TrayIconStyle::Colour));
    m_trayIconStyle->addItem(tr("Monochrome, light (for dark panels)"), int(TrayIconStyle::Light));
    m_trayIconStyle->addItem(tr("Monochrome, dark (for light panels)"), int(TrayIconStyle::Dark));
    m_trayIconStyle->setToolTip(
        tr("Each state keeps its own symbol in every style, so they stay apart without colour."));
    m_trayNote = note(QString(), content);
    m_trayNote->setObjectName(QStringLiteral("trayNote"));
    m_trayNote->hide();

    auto *form = new QFormLayout(content);
    form->addRow(tr("Language:"), withErrorLabel(m_language, QStringLiteral("language")));
    form->addRow(QString(), note(tr("A new language applies the next time Cohort starts."), content));
    form->addRow(tr("Start:"), m_startMinimized);
    form->addRow(QString(), withErrorLabel(m_startAtLogin, QStringLiteral("autostart")));
    form->addRow(tr("Notifications:"), withErrorLabel(m_notifications, QStringLiteral("notifications")));
    form->addRow(tr("Tray icon:"), withErrorLabel(m_trayIconStyle, QStringLiteral("trayIconStyle")));
    form->addRow(QString(), m_trayNote);
    return page(content, "generalPage");
}

QWidget *SettingsDialog::buildComputePage()
{
    auto *content = new QWidget(this);
    m_useAllGpus = new QCheckBox(tr("Use all GPUs, including ones added later"), content);
    m_useAllGpus->setObjectName(QStringLiteral("useAllGpusCheck"));
    m_useAllGpus->setAccessibleName(m_useAllGpus->text());
    m_gpuList = new QTreeWidget(content);
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
    m_gpuNote = note(QString(), content);
    m_gpuNote->setObjectName(QStringLiteral("gpuNote"));
    // What the choice does: a worker per chosen GPU, started or stopped as the choice changes.
    m_gpuNote->setText(gpuChoiceNote());

    m_idleOnly = new QCheckBox(tr("Only when idle for"), content);
    m_bindings.bind(m_idleOnly, &SettingsValues::runOnlyWhenIdle);
    m_idleOnly->setToolTip(
        tr("Work only after this long without keyboard or mouse input, and stop as soon as you are back."));
    m_idleOnly->setObjectName(QStringLiteral("idleOnlyCheck"));
    m_idleOnly->setAccessibleName(tr("Work only when idle"));
    m_idleMinutes = spinBox("idleMinutesSpin", 1, 240, tr(" minutes"), {}, tr("Idle minutes"));
    m_bindings.bind(m_idleMinutes, &SettingsValues::idleMinutes);
    m_pauseOnBattery = new QCheckBox(tr("Pause on battery power"), content);
    m_bindings.bind(m_pauseOnBattery, &SettingsValues::pauseOnBattery);
    m_pauseOnBattery->setObjectName(QStringLiteral("pauseOnBatteryCheck"));
    m_pauseOnBattery->setAccessibleName(m_pauseOnBattery->text());
    m_schedule = new QLineEdit(content);
    m_bindings.bind(m_schedule, &SettingsValues::schedule);
    m_schedule->setObjectName(QStringLiteral("scheduleEdit"));
    m_schedule->setAccessibleName(tr("Schedule"));
    m_schedule->setPlaceholderText(tr("Any time, e.g. mon-fri 22:00-06:00; weekend 00:00-24:00"));
    m_schedule->setToolTip(tr("Time windows when Cohort may work, separated by ';'. Days: mon … sun, ranges (mon-fri), "
                              "daily, weekdays, weekend. A window ending before it starts runs past midnight."));
    // Pause when I play: a game, a film, a render or another trainer comes first; work resumes shortly after it ends.
    m_pauseWhenFullscreen = new QCheckBox(tr("Pause while a program runs full screen"), content);
    m_bindings.bind(m_pauseWhenFullscreen, &SettingsValues::pauseWhenFullscreen);
    m_pauseWhenFullscreen->setObjectName(QStringLiteral("pauseWhenFullscreenCheck"));
    m_pauseWhenFullscreen->setAccessibleName(m_pauseWhenFullscreen->text());
    m_pauseWhenFullscreen->setToolTip(
        tr("A game, a film or a presentation in front pauses Cohort; it works again about "
           "15 seconds after the program leaves full screen."));
    m_pauseForPrograms = new QLineEdit(content);
    m_bindings.bind(m_pauseForPrograms, &SettingsValues::pauseForPrograms);
    m_pauseForPrograms->setObjectName(QStringLiteral("pauseForProgramsEdit"));
    m_pauseForPrograms->setAccessibleName(tr("Pause while these programs run"));
    m_pauseForPrograms->setPlaceholderText(tr("Programs to pause for, e.g. steam; blender; Game.exe"));
    m_pauseForPrograms->setToolTip(
        tr("Program names separated by ';', as the task manager shows them. While one of them "
           "runs, Cohort pauses; it works again about 15 seconds after the last one ends."));
    m_pauseWhenGpuBusy = new QCheckBox(tr("Pause while another program uses the GPU"), content);
    m_bindings.bind(m_pauseWhenGpuBusy, &SettingsValues::pauseWhenGpuBusy);
    m_pauseWhenGpuBusy->setObjectName(QStringLiteral("pauseWhenGpuBusyCheck"));
    m_pauseWhenGpuBusy->setAccessibleName(m_pauseWhenGpuBusy->text());
    m_pauseWhenGpuBusy->setToolTip(tr("Another program computing on an NVIDIA GPU, or drawing there with 1 GiB of its "
                                      "memory or more (a game), pauses Cohort."));
    m_gpuTempLimit = spinBox("gpuTempLimitSpin", 0, 100, tr(" °C"), tr("No limit"), tr("GPU temperature limit"));
    m_bindings.bind(m_gpuTempLimit, &SettingsValues::gpuTempLimitC);
    m_gpuTempLimit->setToolTip(
        tr("At this GPU temperature Cohort slows down (half, then a quarter of the time); 8 °C above it, "
           "it pauses. It speeds up again 5 °C below the limit."));
    m_gpuPowerLimit = spinBox("gpuPowerLimitSpin", 0, 2000, tr(" W"), tr("No limit"), tr("GPU power limit"));
    m_bindings.bind(m_gpuPowerLimit, &SettingsValues::gpuPowerLimitW);
    m_gpuPowerLimit->setSingleStep(10);
    m_gpuPowerLimit->setToolTip(tr("The most power the chosen GPUs may draw together; above it Cohort slows down."));

    m_gpuMemory = spinBox("gpuMemorySpin", 10, 100, tr(" % of each GPU's memory"), {}, tr("GPU memory Cohort may use"));
    m_bindings.bind(m_gpuMemory, &SettingsValues::gpuMemoryPercent);
    m_gpuMemory->setSingleStep(5);
    m_gpuMemory->setToolTip(
        tr("Cohort keeps the rest free for your games and other programs: its batches are generated in "
           "smaller parts to fit, and a task whose model does not fit is shown greyed on the Tasks page."));

    auto *gpuBox = new QGroupBox(tr("GPUs"), content);
    auto *gpuLayout = new QVBoxLayout(gpuBox);
    gpuLayout->addWidget(m_useAllGpus);
    gpuLayout->addWidget(withErrorLabel(withErrorLabel(m_gpuList, QStringLiteral("gpuUuids")),
                                        QStringLiteral("gpuMemoryPercentPerGpu")));
    gpuLayout->addWidget(withErrorLabel(row(content, {new QLabel(tr("Use at most"), content), m_gpuMemory}),
                                        QStringLiteral("gpuMemoryPercent")));
    gpuLayout->addWidget(m_gpuNote);
    auto *whenBox = new QGroupBox(tr("When to work"), content);
    auto *form = new QFormLayout(whenBox);
    form->addRow(tr("Idle:"), withErrorLabel(row(content, {m_idleOnly, m_idleMinutes}), QStringLiteral("idleMinutes")));
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
    return page(content, "computePage");
}

QString SettingsDialog::gpuChoiceNote()
{
    return tr("Cohort computes on each chosen GPU, one worker per GPU; a change applies at once. A GPU's own memory "
              "share replaces the share above for that GPU.");
}

void SettingsDialog::addGpuRow(const QString &uuid, const QString &text, bool chosen, int share)
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
    connect(spin, &QSpinBox::valueChanged, this, &SettingsDialog::onFieldEdited);
    m_gpuList->setItemWidget(item, 1, spin);
}

void SettingsDialog::fillGpuList(const QList<GpuSample> &gpus, const QStringList &chosen,
                                 const QMap<QString, int> &shares)
{
    const bool wasLoading = m_loading;
    m_loading = true; // itemChanged while filling is not an edit
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
    m_loading = wasLoading;
}

void SettingsDialog::updateGpuRows()
{
    const bool wasLoading = m_loading;
    m_loading = true;
    const bool all = m_useAllGpus->isChecked();
    for (int i = 0; i < m_gpuList->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_gpuList->topLevelItem(i);
        item->setFlags(all ? (Qt::ItemIsEnabled | Qt::ItemIsSelectable)
                           : (Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable));
        if (all)
            item->setCheckState(0, Qt::Checked);
    }
    m_loading = wasLoading;
}

QStringList SettingsDialog::chosenGpus() const
{
    if (m_useAllGpus->isChecked())
        return {};
    QStringList chosen;
    for (int i = 0; i < m_gpuList->topLevelItemCount(); ++i)
        if (m_gpuList->topLevelItem(i)->checkState(0) == Qt::Checked)
            chosen.append(m_gpuList->topLevelItem(i)->data(0, Qt::UserRole).toString());
    return chosen; // none ticked: apply() refuses it (pausing is the way to use no GPU)
}

QMap<QString, int> SettingsDialog::gpuShares() const
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

void SettingsDialog::setGpus(const QList<GpuSample> &gpus)
{
    const auto keys = [](const QList<GpuSample> &list) {
        QStringList out;
        for (const GpuSample &g : list)
            out.append(g.uuid + g.name);
        return out;
    };
    if (keys(gpus) == keys(m_gpus))
        return; // snapshots come 4 times a second; the list changes only when GPUs come or go
    const QStringList chosen = chosenGpus();
    const QMap<QString, int> shares = gpuShares();
    const bool wasModified = isModified();
    m_gpus = gpus;
    fillGpuList(m_gpus, chosen, shares);
    if (!wasModified)
        onFieldEdited();
}

void SettingsDialog::showSnapshot(const EngineSnapshot &snapshot)
{
    setGpus(snapshot.gpus);
    setNodeId(snapshot.nodeId);
}

QWidget *SettingsDialog::buildNetworkPage()
{
    auto *content = new QWidget(this);
    m_hubUrl = new QLineEdit(content);
    m_bindings.bind(m_hubUrl, &SettingsValues::hubUrl);
    m_hubUrl->setObjectName(QStringLiteral("hubUrlEdit"));
    m_hubUrl->setAccessibleName(tr("Hub address"));
    m_hubUrl->setPlaceholderText(tr("Empty: run a local network on this computer"));
    m_hubUrl->setToolTip(tr("The address of the hub that hands out work, e.g. https://hub.example.org.\n"
                            "Leave it empty to try Cohort with a small network that runs on this computer."));
    m_hubCertificate = new QLineEdit(content);
    m_bindings.bind(m_hubCertificate, &SettingsValues::hubCertificate);
    m_hubCertificate->setObjectName(QStringLiteral("hubCertificateEdit"));
    m_hubCertificate->setAccessibleName(tr("Hub certificate"));
    m_hubCertificate->setPlaceholderText(tr("Empty: trust the system's certificate authorities"));
    m_hubCertificate->setToolTip(tr("For a hub whose https certificate no public authority signed: a PEM file with the "
                                    "hub's certificate (or its private authority's), from the hub's operator."));
    m_hubKey = new QLineEdit(content);
    m_bindings.bind(m_hubKey, &SettingsValues::hubKey);
    m_hubKey->setObjectName(QStringLiteral("hubKeyEdit"));
    m_hubKey->setAccessibleName(tr("Hub key"));
    m_hubKey->setPlaceholderText(tr("Empty: trust the key the hub presents the first time"));
    m_hubKey->setToolTip(
        tr("The hub's public key, as its operator publishes it (44 characters). With it, this computer "
           "talks only to the real hub, even the first time it connects."));
    m_downloadLimit = spinBox("downloadLimitSpin", 0, Settings::kMaxDownloadLimitKiBps, tr(" KiB/s"), tr("No limit"),
                              tr("Download limit"));
    m_bindings.bind(m_downloadLimit, &SettingsValues::downloadLimitKiBps);
    m_downloadLimit->setSingleStep(512);
    m_downloadLimit->setToolTip(tr("The most bandwidth model downloads may use. 0: no limit."));
    m_uploadLimit =
        spinBox("uploadLimitSpin", 0, Settings::kMaxUploadLimitKiBps, tr(" KiB/s"), tr("No limit"), tr("Upload limit"));
    m_bindings.bind(m_uploadLimit, &SettingsValues::uploadLimitKiBps);
    m_uploadLimit->setSingleStep(128);
    // The bulk uploads are DiLoCo traffic to the other nodes of a training ring (the engine's collectives pace them);
    // signed work batches and heartbeats to the hub are a few KiB and not paced.
    m_uploadLimit->setToolTip(
        tr("The most bandwidth uploads to other computers may use: DiLoCo training traffic to the "
           "other nodes of its ring. Applies at once. 0: no limit."));
    m_proxyMode = new QComboBox(content);
    m_bindings.bind(m_proxyMode, &SettingsValues::proxyMode);
    m_proxyMode->setObjectName(QStringLiteral("proxyModeCombo"));
    m_proxyMode->setAccessibleName(tr("Proxy"));
    m_proxyMode->addItem(tr("No proxy"), int(ProxyMode::None));
    m_proxyMode->addItem(tr("Use the system's proxy settings"), int(ProxyMode::System));
    m_proxyMode->addItem(tr("Manual HTTP proxy"), int(ProxyMode::Manual));
    m_proxy = new QLineEdit(content);
    m_bindings.bind(m_proxy, &SettingsValues::proxy);
    m_proxy->setObjectName(QStringLiteral("proxyEdit"));
    m_proxy->setAccessibleName(tr("Proxy address"));
    m_proxy->setPlaceholderText(tr("host:port, e.g. proxy.example.org:3128"));
    connect(m_proxyMode, &QComboBox::currentIndexChanged, this, &SettingsDialog::updateProxyField);

    auto *form = new QFormLayout(content);
    form->addRow(tr("Hub address:"), withErrorLabel(m_hubUrl, QStringLiteral("hubUrl")));
    form->addRow(tr("Hub certificate:"), withErrorLabel(m_hubCertificate, QStringLiteral("hubCertificate")));
    form->addRow(tr("Hub key:"), withErrorLabel(m_hubKey, QStringLiteral("hubKey")));
    form->addRow(tr("Download limit:"), withErrorLabel(m_downloadLimit, QStringLiteral("downloadLimitKiBps")));
    form->addRow(tr("Upload limit:"), withErrorLabel(m_uploadLimit, QStringLiteral("uploadLimitKiBps")));
    form->addRow(tr("Proxy:"), m_proxyMode);
    form->addRow(tr("Proxy address:"), withErrorLabel(m_proxy, QStringLiteral("proxy")));
    form->addRow(QString(), note(tr("The proxy applies to new connections at once; connections to this computer "
                                    "(the local network) never use it."),
                                 content));
    return page(content, "networkPage");
}

void SettingsDialog::updateProxyField()
{
    m_proxy->setEnabled(ProxyMode(m_proxyMode->currentData().toInt()) == ProxyMode::Manual);
}

QWidget *SettingsDialog::buildStoragePage()
{
    auto *content = new QWidget(this);
    m_dataDir = new QLineEdit(content);
    m_bindings.bind(m_dataDir, &SettingsValues::dataDir);
    m_dataDir->setObjectName(QStringLiteral("dataDirEdit"));
    m_dataDir->setAccessibleName(tr("Data folder"));
    m_dataDir->setPlaceholderText(Settings::defaultDataDir());
    m_dataDir->setToolTip(tr("Where the node keeps its identity key, downloaded models and history. Changing it here "
                             "starts over in that folder; use Move… to take the data along."));
    auto *browse = new QPushButton(tr("Browse…"), content);
    browse->setObjectName(QStringLiteral("browseDataDirButton"));
    browse->setAccessibleName(tr("Choose another data folder"));
    connect(browse, &QPushButton::clicked, this, &SettingsDialog::browseDataDir);
    m_moveButton = new QPushButton(tr("Move…"), content);
    m_moveButton->setObjectName(QStringLiteral("moveDataDirButton"));
    m_moveButton->setAccessibleName(tr("Move the data folder"));
    m_moveButton->setToolTip(
        tr("Copy the data to another folder, check every file, switch to it, then delete the old copy."));
    connect(m_moveButton, &QPushButton::clicked, this, &SettingsDialog::moveDataFolder);
    m_moveStatus = new QLabel(content);
    m_moveStatus->setObjectName(QStringLiteral("moveDataDirStatus"));
    m_moveStatus->setWordWrap(true);
    m_moveStatus->hide();
    m_diskCap = spinBox("diskCapSpin", 0, 1'000'000, tr(" GiB"), tr("No cap"), tr("Disk space cap"));
    m_bindings.bind(m_diskCap, &SettingsValues::diskCapGiB);
    m_diskCap->setToolTip(tr("The most space Cohort's data folder may use; at the cap it pauses and says so."));

    auto *dataRow = new QWidget(content);
    auto *dataLayout = new QHBoxLayout(dataRow);
    dataLayout->setContentsMargins(0, 0, 0, 0);
    dataLayout->addWidget(m_dataDir, 1);
    dataLayout->addWidget(browse);
    dataLayout->addWidget(m_moveButton);
    auto *form = new QFormLayout(content);
    form->addRow(tr("Data folder:"), withErrorLabel(dataRow, QStringLiteral("dataDir")));
    form->addRow(QString(), withErrorLabel(m_moveStatus, QStringLiteral("moveDataDir")));
    form->addRow(QString(), note(tr("Move… takes the node key, models and history along. Typing or browsing to another "
                                    "folder instead starts over there, with a new node key."),
                                 content));
    form->addRow(tr("Disk space cap:"), withErrorLabel(m_diskCap, QStringLiteral("diskCapGiB")));
    return page(content, "storagePage");
}

void SettingsDialog::moveDataFolder()
{
    const QString target = askPath(PathRequest::MoveDataFolder);
    if (!target.isEmpty())
        moveDataFolderTo(target);
}

void SettingsDialog::moveDataFolderTo(const QString &target)
{
    InlineErrorLabel *error = errorLabel(QStringLiteral("moveDataDir"));
    error->clearError();
    showPage(StoragePage);
    if (m_move)
        return;
    const QString from = m_settings->effectiveDataDir();
    if (const QString why = DataFolderMove::checkTarget(from, target); !why.isEmpty()) {
        error->showError(why);
        return;
    }
    if (!confirm(tr("Move the data folder"),
                 tr("Move Cohort's data from\n%1\nto\n%2?\n\nCohort stops working while it copies the files and checks "
                    "every copy, then switches to the new folder. The old files are deleted only after that succeeded.")
                     .arg(QDir::toNativeSeparators(from), QDir::toNativeSeparators(target))))
        return;
    m_move = new DataFolderMove(from, target, this);
    connect(m_move, &DataFolderMove::progress, this, [this](qint64 done, qint64 total) {
        m_moveStatus->setText(tr("Copying and checking: %1 of %2…").arg(display::bytes(done), display::bytes(total)));
    });
    connect(m_move, &DataFolderMove::finished, this, &SettingsDialog::onMoveFinished);
    m_moveButton->setEnabled(false);
    m_buttons->setEnabled(false);
    m_moveStatus->setText(tr("Stopping the engine…"));
    m_moveStatus->show();
    const auto begin = [move = QPointer<DataFolderMove>(m_move), this] {
        if (!move)
            return;
        m_moveStatus->setText(tr("Copying and checking…"));
        move->start();
    };
    if (m_stopEngine)
        m_stopEngine(begin);
    else
        begin();
}

void SettingsDialog::onMoveFinished(bool ok, const QString &copyError)
{
    DataFolderMove *move = m_move;
    QString error = copyError;
    if (ok) {
        // Switch the setting (only the folder: other edits on the pages stay pending), then delete the originals.
        SettingsValues v = m_settings->values();
        v.dataDir = move->to();
        if (const QList<SettingsError> errors = m_settings->apply(v); !errors.isEmpty())
            error = errors.first().message;
    }
    if (error.isEmpty()) {
        const int kept = move->removeOriginals();
        m_moveStatus->setText(kept == 0
                                  ? tr("Moved to %1.").arg(QDir::toNativeSeparators(move->to()))
                                  : tr("Moved to %1. %n item(s) in the old folder were not Cohort's or could not be "
                                       "deleted and were left there.",
                                       nullptr, kept)
                                        .arg(QDir::toNativeSeparators(move->to())));
        m_loadedValues.dataDir = m_settings->values().dataDir;
        const bool wasLoading = m_loading;
        m_loading = true;
        m_dataDir->setText(m_loadedValues.dataDir);
        m_loading = wasLoading;
        qCInfo(lcUi) << "data folder moved from" << move->from() << "to" << move->to();
    } else {
        move->removeCopy();
        m_moveStatus->hide();
        errorLabel(QStringLiteral("moveDataDir"))->showError(tr("The data folder was not moved: %1").arg(error));
        qCWarning(lcUi) << "data folder move failed:" << error;
    }
    const QString from = move->from();
    const QString to = move->to();
    m_move = nullptr;
    move->deleteLater();
    m_moveButton->setEnabled(true);
    m_buttons->setEnabled(true);
    onFieldEdited();
    if (m_startEngine)
        m_startEngine(); // in the new folder, or the old one again after a failure
    if (error.isEmpty())
        Q_EMIT dataFolderMoved(from, to);
    else
        Q_EMIT dataFolderMoveFailed(error);
}

QWidget *SettingsDialog::buildAccountPage()
{
    auto *content = new QWidget(this);
    m_nodeName = new QLineEdit(content);
    m_bindings.bind(m_nodeName, &SettingsValues::nodeName);
    m_nodeName->setObjectName(QStringLiteral("nodeNameEdit"));
    m_nodeName->setAccessibleName(tr("Node name"));
    m_nodeName->setPlaceholderText(QSysInfo::machineHostName());
    m_nodeName->setToolTip(tr("How this computer is shown to the hub's operator. Empty: the computer's name."));
    m_nodeId = new QLineEdit(content);
    m_nodeId->setObjectName(QStringLiteral("nodeIdEdit"));
    m_nodeId->setAccessibleName(tr("Node id"));
    m_nodeId->setReadOnly(true);
    m_nodeId->setPlaceholderText(tr("Known once the engine has started"));
    m_copyNodeId = new QPushButton(tr("Copy"), content);
    m_copyNodeId->setObjectName(QStringLiteral("copyNodeIdButton"));
    m_copyNodeId->setAccessibleName(tr("Copy the node id"));
    m_copyNodeId->setEnabled(false);
    connect(m_copyNodeId, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_nodeId->text()); });
    m_exportKey = new QPushButton(tr("Export key…"), content);
    m_exportKey->setObjectName(QStringLiteral("exportKeyButton"));
    m_exportKey->setAccessibleName(tr("Export the node key"));
    m_exportKey->setToolTip(tr("Save a copy of this node's secret key, e.g. to move the node to another computer."));
    connect(m_exportKey, &QPushButton::clicked, this, &SettingsDialog::exportKey);
    m_exportStatus = new QLabel(content);
    m_exportStatus->setObjectName(QStringLiteral("exportKeyStatus"));
    m_exportStatus->setWordWrap(true);
    m_exportStatus->setTextFormat(Qt::PlainText);
    m_exportStatus->hide();

    m_payoutAddress = new QLineEdit(content);
    m_bindings.bind(m_payoutAddress, &SettingsValues::payoutAddress);
    m_payoutAddress->setObjectName(QStringLiteral("payoutAddressEdit"));
    m_payoutAddress->setAccessibleName(tr("Payout address"));
    m_payoutAddress->setPlaceholderText(QStringLiteral("0x…"));
    m_payoutAddress->setMaxLength(64);
    m_payoutHint = note(QString(), content);
    m_payoutHint->setObjectName(QStringLiteral("payoutAddressHint"));

    m_pricePerKWh = new QDoubleSpinBox(content);
    m_bindings.bind(m_pricePerKWh, &SettingsValues::pricePerKWh);
    m_pricePerKWh->setObjectName(QStringLiteral("pricePerKWhSpin"));
    m_pricePerKWh->setAccessibleName(tr("Electricity price per kWh"));
    m_pricePerKWh->setRange(0, 100);
    m_pricePerKWh->setDecimals(4);
    m_pricePerKWh->setSingleStep(0.01);
    m_pricePerKWh->setSpecialValueText(tr("Not set"));
    m_pricePerKWh->setSuffix(tr(" per kWh"));
    m_currency = new QLineEdit(content);
    m_bindings.bind(m_currency, &SettingsValues::currency);
    m_currency->setObjectName(QStringLiteral("currencyEdit"));
    m_currency->setAccessibleName(tr("Currency"));
    m_currency->setPlaceholderText(tr("e.g. EUR"));
    m_currency->setMaxLength(8);
    m_currency->setMaximumWidth(100);
    m_creditValue = new QDoubleSpinBox(content);
    m_bindings.bind(m_creditValue, &SettingsValues::creditValue);
    m_creditValue->setObjectName(QStringLiteral("creditValueSpin"));
    m_creditValue->setAccessibleName(tr("Value of one credit"));
    m_creditValue->setRange(0, 1e6);
    m_creditValue->setDecimals(4);
    m_creditValue->setSingleStep(0.01);
    m_creditValue->setSpecialValueText(tr("Unknown"));
    m_creditValue->setToolTip(tr("What one credit is worth to you, in the same currency. With it, the Earnings page "
                                 "shows earnings net of electricity; without it, only the electricity cost."));

    auto *nodeBox = new QGroupBox(tr("This node"), content);
    auto *nodeForm = new QFormLayout(nodeBox);
    nodeForm->addRow(tr("Node name:"), withErrorLabel(m_nodeName, QStringLiteral("nodeName")));
    auto *idRow = new QWidget(content);
    auto *idLayout = new QHBoxLayout(idRow);
    idLayout->setContentsMargins(0, 0, 0, 0);
    idLayout->addWidget(m_nodeId, 1);
    idLayout->addWidget(m_copyNodeId);
    idLayout->addWidget(m_exportKey);
    nodeForm->addRow(tr("Node id:"), withErrorLabel(idRow, QStringLiteral("exportKey")));
    nodeForm->addRow(QString(), m_exportStatus);
    auto *payBox = new QGroupBox(tr("Payout and energy"), content);
    auto *payForm = new QFormLayout(payBox);
    payForm->addRow(tr("Payout address:"), withErrorLabel(m_payoutAddress, QStringLiteral("payoutAddress")));
    payForm->addRow(QString(), m_payoutHint);
    // The price and its currency share a row, and their two messages sit under it.
    payForm->addRow(tr("Electricity price:"), withErrorLabel(withErrorLabel(row(content, {m_pricePerKWh, m_currency}),
                                                                            QStringLiteral("pricePerKWh")),
                                                             QStringLiteral("currency")));
    payForm->addRow(tr("One credit is worth:"), withErrorLabel(m_creditValue, QStringLiteral("creditValue")));
    auto *layout = new QVBoxLayout(content);
    layout->addWidget(nodeBox);
    layout->addWidget(payBox);
    layout->addStretch(1);
    return page(content, "accountPage");
}

void SettingsDialog::updatePayoutHint()
{
    const QString address = m_payoutAddress->text().trimmed();
    // The rule, said where it applies; and the checksummed form once the address is valid, for comparing with a wallet.
    if (!address.isEmpty() && Settings::payoutAddressProblem(address).isEmpty())
        m_payoutHint->setText(tr("Valid. With checksum: %1").arg(Settings::checksummedAddress(address)));
    else
        m_payoutHint->setText(tr("An Ethereum-style address: 0x and 40 hexadecimal digits. Mixed upper and lower case "
                                 "must match the address checksum (EIP-55); all lower or all upper case has none."));
}

void SettingsDialog::setNodeId(const QString &nodeId)
{
    if (nodeId.isEmpty() || nodeId == m_nodeId->text())
        return;
    m_nodeId->setText(nodeId);
    m_copyNodeId->setEnabled(true);
}

bool SettingsDialog::exportKey()
{
    if (!QFileInfo::exists(identityFile())) {
        showPage(AccountPage);
        errorLabel(QStringLiteral("exportKey"))
            ->showError(tr("There is no node key yet: it is created when the engine first starts."));
        return false;
    }
    if (!confirm(tr("Export the node key"),
                 tr("The node key is this node's identity: whoever has the file can act as this node and is credited "
                    "its earnings. Keep the copy private (Cohort saves it readable by you only), and never send it to "
                    "anyone, including support.\n\nExport it now?")))
        return false;
    const QString target = askPath(PathRequest::ExportKey);
    return !target.isEmpty() && exportKeyTo(target);
}

bool SettingsDialog::exportKeyTo(const QString &target)
{
    InlineErrorLabel *error = errorLabel(QStringLiteral("exportKey"));
    error->clearError();
    m_exportStatus->hide();
    showPage(AccountPage); // where the outcome is said
    const QString source = identityFile();
    const auto refuse = [&](const QString &why) {
        error->showError(why);
        return false;
    };
    if (QFileInfo(target).absoluteFilePath() == QFileInfo(source).absoluteFilePath())
        return refuse(tr("Choose another place than the key file itself."));
    QFile in(source);
    if (!in.open(QIODevice::ReadOnly))
        return refuse(tr("Could not read the node key %1: %2").arg(QDir::toNativeSeparators(source), in.errorString()));
    const QByteArray key = in.readAll();
    // QSaveFile: an existing file is replaced only once the new one is complete; owner-only before any byte is written.
    QSaveFile out(target);
    if (!out.open(QIODevice::WriteOnly))
        return refuse(tr("Could not save %1: %2").arg(QDir::toNativeSeparators(target), out.errorString()));
    out.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (out.write(key) != key.size() || !out.commit())
        return refuse(tr("Could not save %1: %2").arg(QDir::toNativeSeparators(target), out.errorString()));
    if (const Status restricted = restrictToOwner(target); !restricted.ok())
        return refuse(tr("Saved %1, but could not make it private: %2")
                          .arg(QDir::toNativeSeparators(target), restricted.error()));
    m_exportStatus->setText(
        tr("Saved the node key to %1 (readable by you only).").arg(QDir::toNativeSeparators(target)));
    m_exportStatus->show();
    qCInfo(lcUi) << "node key exported to" << target;
    return true;
}

} // namespace cohort
