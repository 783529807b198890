#include "ui/SettingsDialog.h"

#include "platform/Autostart.h"
#include "ui/InlineErrorLabel.h"
#include "ui/StateIcons.h"
#include "ui/UiLogging.h"

#include <QCheckBox>
#include <QSpinBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSysInfo>
#include <QVBoxLayout>

#include <algorithm>

namespace cohort {

SettingsDialog::SettingsDialog(Settings *settings, Autostart *autostart, QWidget *parent)
    : QDialog(parent), m_settings(settings), m_autostart(autostart)
{
    setWindowTitle(tr("Cohort Settings"));
    setWindowIcon(appIcon());

    m_hubUrl = new QLineEdit(this);
    m_hubUrl->setObjectName(QStringLiteral("hubUrlEdit"));
    m_hubUrl->setPlaceholderText(tr("Empty: run a local network on this computer"));
    m_hubUrl->setToolTip(tr("The address of the hub that hands out work, e.g. https://hub.example.org.\n"
                            "Leave it empty to try Cohort with a small network that runs on this computer."));
    m_nodeName = new QLineEdit(this);
    m_nodeName->setObjectName(QStringLiteral("nodeNameEdit"));
    m_nodeName->setPlaceholderText(QSysInfo::machineHostName());
    m_nodeName->setToolTip(tr("How this computer is shown to the hub's operator. Empty: the computer's name."));
    m_dataDir = new QLineEdit(this);
    m_dataDir->setObjectName(QStringLiteral("dataDirEdit"));
    m_dataDir->setPlaceholderText(Settings::defaultDataDir());
    m_dataDir->setToolTip(tr("Where the node keeps its identity key, downloaded models and history."));
    auto *browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, &SettingsDialog::browseDataDir);
    auto *dataDirRow = new QWidget(this);
    auto *dataDirLayout = new QHBoxLayout(dataDirRow);
    dataDirLayout->setContentsMargins(0, 0, 0, 0);
    dataDirLayout->addWidget(m_dataDir, 1);
    dataDirLayout->addWidget(browse);

    m_downloadLimit = new QSpinBox(this);
    m_downloadLimit->setObjectName(QStringLiteral("downloadLimitSpin"));
    m_downloadLimit->setRange(0, Settings::kMaxDownloadLimitKiBps);
    m_downloadLimit->setSingleStep(512);
    m_downloadLimit->setSuffix(tr(" KiB/s"));
    m_downloadLimit->setSpecialValueText(tr("No limit"));
    m_downloadLimit->setToolTip(tr("The most bandwidth model downloads may use. 0: no limit."));

    m_startMinimized = new QCheckBox(tr("Start minimized to the notification area"), this);
    m_startMinimized->setObjectName(QStringLiteral("startMinimizedCheck"));
    m_startAtLogin = new QCheckBox(tr("Start Cohort when I log in"), this);
    m_startAtLogin->setObjectName(QStringLiteral("startAtLoginCheck"));
    if (!m_autostart || !m_autostart->isSupported()) {
        m_startAtLogin->setEnabled(false);
        m_startAtLogin->setToolTip(tr("Starting at login is not available on this system."));
    } else {
        m_startAtLogin->setToolTip(tr("Managed by the system: %1").arg(m_autostart->location()));
    }

    auto *networkBox = new QGroupBox(tr("Network"), this);
    auto *networkForm = new QFormLayout(networkBox);
    networkForm->addRow(tr("Hub address:"), withErrorLabel(m_hubUrl, QStringLiteral("hubUrl")));
    networkForm->addRow(tr("Download limit:"), withErrorLabel(m_downloadLimit, QStringLiteral("downloadLimitKiBps")));
    auto *nodeBox = new QGroupBox(tr("This node"), this);
    auto *nodeForm = new QFormLayout(nodeBox);
    nodeForm->addRow(tr("Node name:"), withErrorLabel(m_nodeName, QStringLiteral("nodeName")));
    nodeForm->addRow(tr("Data folder:"), withErrorLabel(dataDirRow, QStringLiteral("dataDir")));
    auto *desktopBox = new QGroupBox(tr("Desktop"), this);
    auto *desktopLayout = new QVBoxLayout(desktopBox);
    desktopLayout->addWidget(m_startMinimized);
    desktopLayout->addWidget(withErrorLabel(m_startAtLogin, QStringLiteral("autostart")));

    auto *restartNote = new QLabel(tr("Changing the hub, the node name or the data folder restarts the engine."), this);
    restartNote->setWordWrap(true);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Apply | QDialogButtonBox::Cancel |
                                         QDialogButtonBox::RestoreDefaults,
                                     this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    connect(applyButton(), &QPushButton::clicked, this, &SettingsDialog::apply);
    connect(m_buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
            &SettingsDialog::restoreDefaults);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(networkBox);
    layout->addWidget(nodeBox);
    layout->addWidget(desktopBox);
    layout->addWidget(restartNote);
    layout->addWidget(withErrorLabel(new QWidget(this), QString())); // failures not tied to one field
    layout->addStretch(1);
    layout->addWidget(m_buttons);

    for (QLineEdit *edit : {m_hubUrl, m_nodeName, m_dataDir})
        connect(edit, &QLineEdit::textChanged, this, &SettingsDialog::onFieldEdited);
    for (QCheckBox *check : {m_startMinimized, m_startAtLogin})
        connect(check, &QCheckBox::toggled, this, &SettingsDialog::onFieldEdited);
    connect(m_downloadLimit, &QSpinBox::valueChanged, this, &SettingsDialog::onFieldEdited);

    setMinimumWidth(520);
    load();
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
    m_startMinimized->setToolTip(available ? QString()
                                           : tr("There is no notification area right now, so the window "
                                                "opens at start even when this is ticked."));
}

SettingsValues SettingsDialog::fieldValues() const
{
    SettingsValues v;
    v.hubUrl = m_hubUrl->text().trimmed();
    v.dataDir = m_dataDir->text().trimmed();
    v.nodeName = m_nodeName->text().trimmed();
    v.startMinimized = m_startMinimized->isChecked();
    v.downloadLimitKiBps = m_downloadLimit->value();
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
    m_hubUrl->setText(m_loadedValues.hubUrl);
    m_dataDir->setText(m_loadedValues.dataDir);
    m_nodeName->setText(m_loadedValues.nodeName);
    m_startMinimized->setChecked(m_loadedValues.startMinimized);
    m_downloadLimit->setValue(m_loadedValues.downloadLimitKiBps);
    m_startAtLogin->setChecked(m_loadedAutostart);
    m_loading = false;
    clearErrors();
    onFieldEdited();
}

bool SettingsDialog::apply()
{
    clearErrors();
    const SettingsValues requested = fieldValues();
    if (const QList<SettingsError> errors = Settings::validate(requested); !errors.isEmpty()) {
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

void SettingsDialog::restoreDefaults()
{
    // Start-at-login is left alone: it is the system's setting, not one of ours.
    const SettingsValues defaults = Settings::defaults();
    m_hubUrl->setText(defaults.hubUrl);
    m_dataDir->setText(defaults.dataDir);
    m_nodeName->setText(defaults.nodeName);
    m_startMinimized->setChecked(defaults.startMinimized);
    m_downloadLimit->setValue(defaults.downloadLimitKiBps);
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
    if (!isModified() || apply())
        QDialog::accept();
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
    // Re-check only fields that already show a message, so an error disappears as soon as it is fixed
    // without scolding the user for a half-typed address.
    const QList<SettingsError> errors = Settings::validate(fieldValues());
    for (const QString &key : {QStringLiteral("hubUrl"), QStringLiteral("dataDir"), QStringLiteral("nodeName")}) {
        InlineErrorLabel *label = errorLabel(key);
        if (!label->hasError())
            continue;
        const auto it = std::find_if(errors.begin(), errors.end(), [&key](const SettingsError &e) { return e.key == key; });
        if (it == errors.end())
            label->clearError();
        else
            label->showError(it->message);
    }
    const bool modified = isModified();
    applyButton()->setEnabled(modified);
    okButton()->setEnabled(modified);
}

void SettingsDialog::showErrors(const QList<SettingsError> &errors)
{
    for (const SettingsError &error : errors) {
        InlineErrorLabel *label = m_errorLabels.value(error.key, errorLabel(QString()));
        label->showError(error.message);
    }
    applyButton()->setEnabled(isModified());
    okButton()->setEnabled(isModified());
}

void SettingsDialog::clearErrors()
{
    for (InlineErrorLabel *label : std::as_const(m_errorLabels))
        label->clearError();
}

} // namespace cohort
