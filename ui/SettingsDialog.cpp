#include "ui/SettingsDialog.h"

#include "platform/Autostart.h"
#include "ui/InlineErrorLabel.h"
#include "ui/SettingsAccountPage.h"
#include "ui/SettingsComputePage.h"
#include "ui/SettingsGeneralPage.h"
#include "ui/SettingsNetworkPage.h"
#include "ui/SettingsStoragePage.h"
#include "ui/StateIcons.h"
#include "ui/UiLogging.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QStackedWidget>
#include <QStandardPaths>
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

    // In Page order. Each page is made without a parent and then handed to the stack, which owns it: until the dialog
    // is first laid out a page has a window's default size, not a child's 100x30 that would lay its content out with
    // scroll bars. The pages' own actions come back here: the dialog asks where to and confirms (its providers) and
    // stops and starts the engine (its hooks).
    addPage(m_general = new SettingsGeneralPage(autostart));
    addPage(m_compute = new SettingsComputePage);
    addPage(new SettingsNetworkPage);
    addPage(m_storage = new SettingsStoragePage(settings));
    addPage(m_account = new SettingsAccountPage);
    connect(m_storage, &SettingsStoragePage::moveRequested, this, &SettingsDialog::moveDataFolder);
    connect(m_storage, &SettingsStoragePage::moveStarted, this, [this] { m_buttons->setEnabled(false); });
    connect(m_storage, &SettingsStoragePage::moveFinished, this, &SettingsDialog::onMoveFinished);
    connect(m_account, &SettingsAccountPage::exportRequested, this, &SettingsDialog::exportKey);
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
    // Failures not tied to one field.
    layout->addWidget(withErrorLabel(new QWidget(this), QString(), m_errorLabels, this));
    layout->addWidget(m_buttons);

    // Only now that the buttons exist: an edit enables them.
    for (SettingsPage *page : std::as_const(m_pageList))
        connect(page, &SettingsPage::edited, this, &SettingsDialog::onFieldEdited);

    setMinimumSize(680, 520);
    load();
}

SettingsDialog::~SettingsDialog() = default;

void SettingsDialog::addPage(SettingsPage *page)
{
    const int index = m_pageList.size();
    m_pageList.append(page);
    m_pages->addWidget(page);
    m_navigation->addItem(page->title());
    m_errorLabels.insert(page->errorLabels());
    connect(page, &SettingsPage::revealRequested, this, [this, index] { showPage(index); });
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
    m_general->setTrayAvailable(available);
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

bool SettingsDialog::isMovingDataFolder() const
{
    return m_storage->isMoving();
}

SettingsValues SettingsDialog::fieldValues() const
{
    SettingsValues v = m_loadedValues; // what no page shows (e.g. "welcomed") stays as it is
    for (const SettingsPage *page : m_pageList)
        page->apply(v);
    return v;
}

bool SettingsDialog::isModified() const
{
    return fieldValues() != m_loadedValues || m_general->startAtLogin() != m_loadedAutostart;
}

void SettingsDialog::load()
{
    // Signals from setText would mark the dialog modified; the guard keeps the buttons honest.
    m_loading = true;
    m_loadedValues = m_settings->values();
    m_loadedAutostart = m_autostart && m_autostart->isSupported() && m_autostart->isEnabled();
    setFields(m_loadedValues);
    m_general->setStartAtLogin(m_loadedAutostart);
    m_loading = false;
    clearErrors();
    onFieldEdited();
}

bool SettingsDialog::apply()
{
    clearErrors();
    const SettingsValues requested = fieldValues();
    QList<SettingsError> errors = Settings::validate(requested);
    for (const SettingsPage *page : std::as_const(m_pageList))
        errors.append(page->check(requested));
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
    const bool wantAutostart = m_general->startAtLogin();
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

void SettingsDialog::setFields(const SettingsValues &values)
{
    for (SettingsPage *page : std::as_const(m_pageList))
        page->load(values);
}

void SettingsDialog::restoreDefaults()
{
    // Start-at-login is left alone: it is the system's setting, not one of ours. So is the payout address: an
    // account detail, not a preference, and typing it again would invite a typo.
    SettingsValues defaults = Settings::defaults();
    defaults.welcomed = m_loadedValues.welcomed;
    defaults.payoutAddress = fieldValues().payoutAddress;
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
    if (isMovingDataFolder())
        return;
    if (!isModified() || apply())
        QDialog::accept();
}

void SettingsDialog::reject()
{
    // Closing in the middle of a move would leave the engine stopped with no one to restart it.
    if (isMovingDataFolder())
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

void SettingsDialog::onFieldEdited()
{
    if (m_loading)
        return;
    for (SettingsPage *page : std::as_const(m_pageList))
        page->refresh();
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

void SettingsDialog::showSnapshot(const EngineSnapshot &snapshot)
{
    setGpus(snapshot.gpus);
    setNodeId(snapshot.nodeId);
}

void SettingsDialog::setGpus(const QList<GpuSample> &gpus)
{
    if (!m_compute->isNewGpuList(gpus))
        return;
    const bool wasModified = isModified();
    m_compute->setGpus(gpus);
    if (!wasModified)
        onFieldEdited();
}

void SettingsDialog::setNodeId(const QString &nodeId)
{
    m_account->setNodeId(nodeId);
}

void SettingsDialog::moveDataFolder()
{
    const QString target = askPath(PathRequest::MoveDataFolder);
    if (!target.isEmpty())
        moveDataFolderTo(target);
}

void SettingsDialog::moveDataFolderTo(const QString &target)
{
    m_storage->moveTo(
        target, [this](const QString &title, const QString &text) { return confirm(title, text); }, m_stopEngine);
}

void SettingsDialog::onMoveFinished(const QString &from, const QString &to, const QString &error)
{
    if (error.isEmpty())
        m_loadedValues.dataDir = m_settings->values().dataDir; // stored now: no longer a pending change
    m_buttons->setEnabled(true);
    onFieldEdited();
    if (m_startEngine)
        m_startEngine(); // in the new folder, or the old one again after a failure
    if (error.isEmpty())
        Q_EMIT dataFolderMoved(from, to);
    else
        Q_EMIT dataFolderMoveFailed(error);
}

bool SettingsDialog::exportKey()
{
    return m_account->exportKey(
        identityFile(), [this](const QString &title, const QString &text) { return confirm(title, text); },
        [this] { return askPath(PathRequest::ExportKey); });
}

bool SettingsDialog::exportKeyTo(const QString &target)
{
    return m_account->exportKeyTo(identityFile(), target);
}

} // namespace cohort
