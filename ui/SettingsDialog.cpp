#include "ui/SettingsDialog.h"

#include "platform/Autostart.h"
#include "ui/DataFolderMove.h"
#include "ui/InlineErrorLabel.h"
#include "ui/StateIcons.h"
#include "ui/UiLogging.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace cohort {

SettingsDialog::SettingsDialog(Settings *settings, Autostart *autostart, QWidget *parent)
    : QDialog(parent),
      m_settings(settings),
      m_autostart(autostart)
{
    setWindowTitle(tr("Cohort Settings"));
    setWindowIcon(appIcon());

    m_navigation = new QListWidget(this);
    m_navigation->setObjectName(QStringLiteral("settingsNavigation"));
    m_navigation->setAccessibleName(tr("Settings pages"));
    m_navigation->setSelectionMode(QAbstractItemView::SingleSelection);
    m_navigation->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_navigation->setSpacing(3);
    m_pages = new QStackedWidget(this);
    m_pages->setObjectName(QStringLiteral("settingsPages"));
    connect(m_navigation, &QListWidget::currentRowChanged, m_pages, &QStackedWidget::setCurrentIndex);

    addPage(buildGeneralPage(), tr("General"));
    addPage(buildComputePage(), tr("Compute"));
    addPage(buildNetworkPage(), tr("Network"));
    addPage(buildStoragePage(), tr("Storage"));
    addPage(buildAccountPage(), tr("Account"));
    m_navigation->setCurrentRow(GeneralPage);
    m_navigation->setFixedWidth(m_navigation->sizeHintForColumn(0) + 4 * m_navigation->frameWidth() + 24);

    auto *restartNote = new QLabel(
        tr("Changing the hub, the node name, the data folder or the download limit restarts the engine."), this);
    restartNote->setObjectName(QStringLiteral("restartNote"));
    restartNote->setWordWrap(true);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Apply | QDialogButtonBox::Cancel |
                                         QDialogButtonBox::RestoreDefaults,
                                     this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    connect(applyButton(), &QPushButton::clicked, this, &SettingsDialog::apply);
    connect(m_buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
            &SettingsDialog::restoreDefaults);

    auto *body = new QHBoxLayout;
    body->addWidget(m_navigation);
    body->addWidget(m_pages, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(body, 1);
    layout->addWidget(restartNote);
    layout->addWidget(withErrorLabel(new QWidget(this), QString())); // failures not tied to one field
    layout->addWidget(m_buttons);

    for (QLineEdit *edit : {m_hubUrl, m_nodeName, m_dataDir, m_schedule, m_pauseForPrograms, m_proxy, m_payoutAddress,
                            m_currency, m_hubCertificate, m_hubKey})
        connect(edit, &QLineEdit::textChanged, this, &SettingsDialog::onFieldEdited);
    for (QCheckBox *check : {m_startMinimized, m_startAtLogin, m_idleOnly, m_pauseOnBattery, m_pauseWhenFullscreen,
                             m_pauseWhenGpuBusy, m_useAllGpus})
        connect(check, &QCheckBox::toggled, this, &SettingsDialog::onFieldEdited);
    for (QSpinBox *spin :
         {m_downloadLimit, m_uploadLimit, m_idleMinutes, m_gpuTempLimit, m_gpuPowerLimit, m_gpuMemory, m_diskCap})
        connect(spin, &QSpinBox::valueChanged, this, &SettingsDialog::onFieldEdited);
    for (QDoubleSpinBox *spin : {m_pricePerKWh, m_creditValue})
        connect(spin, &QDoubleSpinBox::valueChanged, this, &SettingsDialog::onFieldEdited);
    for (QComboBox *combo : {m_language, m_notifications, m_trayIconStyle, m_proxyMode})
        connect(combo, &QComboBox::currentIndexChanged, this, &SettingsDialog::onFieldEdited);
    connect(m_gpuList, &QTreeWidget::itemChanged, this, &SettingsDialog::onFieldEdited);

    setMinimumSize(680, 520);
    load();
}

SettingsDialog::~SettingsDialog() = default;

void SettingsDialog::addPage(QWidget *page, const QString &title)
{
    page->setAccessibleName(title);
    m_pages->addWidget(page);
    m_navigation->addItem(title);
}

int SettingsDialog::currentPage() const
{
    return m_pages->currentIndex();
}

QString SettingsDialog::pageTitle(int page) const
{
    const QListWidgetItem *item = m_navigation->item(page);
    return item ? item->text() : QString();
}

void SettingsDialog::showPage(int page)
{
    if (page >= 0 && page < m_pages->count())
        m_navigation->setCurrentRow(page);
}

void SettingsDialog::keyPressEvent(QKeyEvent *event)
{
    // Ctrl+Tab / Ctrl+PgDown and back, as in tabbed dialogs, from wherever the focus is.
    const bool ctrl = event->modifiers() & Qt::ControlModifier;
    if (ctrl && (event->key() == Qt::Key_Tab || event->key() == Qt::Key_PageDown)) {
        showPage((currentPage() + 1) % PageCount);
        return;
    }
    if (ctrl && (event->key() == Qt::Key_Backtab || event->key() == Qt::Key_PageUp)) {
        showPage((currentPage() + PageCount - 1) % PageCount);
        return;
    }
    QDialog::keyPressEvent(event);
}

QWidget *SettingsDialog::withErrorLabel(QWidget *field, const QString &key)
{
    auto *box = new QWidget(this);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(field);
    auto *error = new InlineErrorLabel(box);
    error->setObjectName(key.isEmpty() ? QStringLiteral("generalError") : key + QStringLiteral("Error"));
    layout->addWidget(error);
    m_errorLabels.insert(key, error);
    return box;
}

InlineErrorLabel *SettingsDialog::errorLabel(const QString &key) const
{
    return m_errorLabels.value(key);
}

QPushButton *SettingsDialog::applyButton() const
{
    return m_buttons->button(QDialogButtonBox::Apply);
}

QPushButton *SettingsDialog::okButton() const
{
    return m_buttons->button(QDialogButtonBox::Ok);
}

void SettingsDialog::setTrayAvailable(bool available)
{
    const QString why = tr("There is no notification area right now, so the window opens at start even when this is "
                           "ticked, and notifications cannot be shown.");
    m_startMinimized->setToolTip(available ? QString() : why);
    m_trayNote->setText(why);
    m_trayNote->setVisible(!available);
}

void SettingsDialog::setEngineHooks(std::function<void(std::function<void()>)> stop, std::function<void()> start)
{
    m_stopEngine = std::move(stop);
    m_startEngine = std::move(start);
}

QString SettingsDialog::identityFile() const
{
    if (!m_identityFile.isEmpty())
        return m_identityFile;
    return QDir(m_settings->effectiveDataDir()).filePath(QStringLiteral("identity/node.key"));
}

SettingsValues SettingsDialog::fieldValues() const
{
    SettingsValues v = m_loadedValues; // what no page shows (e.g. "welcomed") stays as it is
    m_bindings.read(v);
    v.gpuUuids = chosenGpus();
    v.gpuMemoryPercentPerGpu = gpuShares();
    return v;
}

bool SettingsDialog::isModified() const
{
    return fieldValues() != m_loadedValues || m_startAtLogin->isChecked() != m_loadedAutostart;
}

void SettingsDialog::load()
{
    // Signals from setText would mark the dialog modified; the guard keeps the buttons honest.
    m_loading = true;
    m_loadedValues = m_settings->values();
    m_loadedAutostart = m_autostart && m_autostart->isSupported() && m_autostart->isEnabled();
    setFields(m_loadedValues);
    m_startAtLogin->setChecked(m_loadedAutostart);
    m_loading = false;
    clearErrors();
    onFieldEdited();
}

bool SettingsDialog::apply()
{
    clearErrors();
    const SettingsValues requested = fieldValues();
    QList<SettingsError> errors = Settings::validate(requested);
    if (!m_useAllGpus->isChecked() && requested.gpuUuids.isEmpty())
        errors.append(
            {QStringLiteral("gpuUuids"), tr("Tick at least one GPU, or use all of them. To use none, pause Cohort.")});
    if (!errors.isEmpty()) {
        showErrors(errors);
        return false;
    }
    if (requested != m_settings->values()) {
        if (const QList<SettingsError> errors = m_settings->apply(requested); !errors.isEmpty()) {
            showErrors(errors);
            return false;
        }
    }
    bool ok = true;
    const bool wantAutostart = m_startAtLogin->isChecked();
    if (m_autostart && m_autostart->isSupported() && wantAutostart != m_autostart->isEnabled()) {
        if (const Status status = m_autostart->setEnabled(wantAutostart); !status.ok()) {
            qCWarning(lcUi) << "start at login:" << status.error();
            errorLabel(QStringLiteral("autostart"))->showError(status.error());
            showPage(GeneralPage);
            ok = false;
        }
    }
    // Remember what is stored now. After a partial failure the fields keep what the user chose, so the
    // part that failed still counts as a change and can be retried.
    m_loadedValues = m_settings->values();
    m_loadedAutostart = m_autostart && m_autostart->isSupported() && m_autostart->isEnabled();
    if (ok)
        load(); // show the stored, normalised form (e.g. no trailing slash on the hub address)
    else
        onFieldEdited();
    return ok;
}

void SettingsDialog::setFields(const SettingsValues &v)
{
    m_bindings.fill(v);
    fillGpuList(m_gpus, v.gpuUuids, v.gpuMemoryPercentPerGpu);
    // What the values enable or explain.
    m_idleMinutes->setEnabled(v.runOnlyWhenIdle);
    updateProxyField();
    updatePayoutHint();
}

void SettingsDialog::restoreDefaults()
{
    // Start-at-login is left alone: it is the system's setting, not one of ours. So is the payout address: an
    // account detail, not a preference, and typing it again would invite a typo.
    SettingsValues defaults = Settings::defaults();
    defaults.welcomed = m_loadedValues.welcomed;
    defaults.payoutAddress = m_payoutAddress->text().trimmed();
    setFields(defaults);
}

void SettingsDialog::openAndRaise()
{
    if (!isVisible())
        load();
    show();
    raise();
    activateWindow();
}

void SettingsDialog::accept()
{
    if (m_move)
        return;
    if (!isModified() || apply())
        QDialog::accept();
}

void SettingsDialog::reject()
{
    // Closing in the middle of a move would leave the engine stopped with no one to restart it.
    if (m_move)
        return;
    QDialog::reject();
}

bool SettingsDialog::confirm(const QString &title, const QString &text)
{
    if (m_confirmProvider)
        return m_confirmProvider(title, text);
    return QMessageBox::question(this, title, text, QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel) ==
           QMessageBox::Yes;
}

QString SettingsDialog::askPath(PathRequest request)
{
    if (m_pathProvider)
        return m_pathProvider(request);
    if (request == PathRequest::MoveDataFolder)
        return QFileDialog::getExistingDirectory(this, tr("Move the data folder to"), QDir::homePath());
    const QString suggested = QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                                  .filePath(QStringLiteral("cohort-node.key"));
    return QFileDialog::getSaveFileName(this, tr("Export the node key"), suggested,
                                        tr("Key files (*.key);;All files (*)"));
}

void SettingsDialog::browseDataDir()
{
    const QString start = m_dataDir->text().isEmpty() ? m_settings->effectiveDataDir() : m_dataDir->text();
    const QString chosen = QFileDialog::getExistingDirectory(this, tr("Choose the data folder"), start);
    if (!chosen.isEmpty())
        m_dataDir->setText(chosen);
}

void SettingsDialog::onFieldEdited()
{
    if (m_loading)
        return;
    m_idleMinutes->setEnabled(m_idleOnly->isChecked());
    updateGpuRows();
    updateProxyField();
    updatePayoutHint();
    // Re-check only fields that already show a message, so an error disappears as soon as it is fixed
    // without scolding the user for a half-typed address.
    const QList<SettingsError> errors = Settings::validate(fieldValues());
    for (auto it = m_errorLabels.cbegin(); it != m_errorLabels.cend(); ++it) {
        const QString &key = it.key();
        InlineErrorLabel *label = it.value();
        if (key.isEmpty() || !label->hasError() || key == QLatin1String("autostart") ||
            key == QLatin1String("moveDataDir") || key == QLatin1String("exportKey"))
            continue;
        const auto found =
            std::find_if(errors.begin(), errors.end(), [&key](const SettingsError &e) { return e.key == key; });
        if (found == errors.end())
            label->clearError();
        else
            label->showError(found->message);
    }
    const bool modified = isModified();
    applyButton()->setEnabled(modified);
    okButton()->setEnabled(modified);
}

void SettingsDialog::showErrors(const QList<SettingsError> &errors)
{
    int firstPage = -1;
    for (const SettingsError &error : errors) {
        InlineErrorLabel *label = m_errorLabels.value(error.key, errorLabel(QString()));
        label->showError(error.message);
        for (int page = 0; page < m_pages->count() && firstPage < 0; ++page)
            if (m_pages->widget(page)->isAncestorOf(label))
                firstPage = page;
    }
    // The first message may be on another page than the one in view: turn to it.
    if (firstPage >= 0)
        showPage(firstPage);
    applyButton()->setEnabled(isModified());
    okButton()->setEnabled(isModified());
}

void SettingsDialog::clearErrors()
{
    for (InlineErrorLabel *label : std::as_const(m_errorLabels))
        label->clearError();
}

} // namespace cohort
