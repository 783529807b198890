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

    QWidget *scheduleBox = buildScheduleBox();

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
    layout->addWidget(scheduleBox);
    layout->addWidget(desktopBox);
    layout->addWidget(restartNote);
    layout->addWidget(withErrorLabel(new QWidget(this), QString())); // failures not tied to one field
    layout->addStretch(1);
    layout->addWidget(m_buttons);

    for (QLineEdit *edit : {m_hubUrl, m_nodeName, m_dataDir, m_schedule})
        connect(edit, &QLineEdit::textChanged, this, &SettingsDialog::onFieldEdited);
    for (QCheckBox *check : {m_startMinimized, m_startAtLogin, m_idleOnly, m_pauseOnBattery})
        connect(check, &QCheckBox::toggled, this, &SettingsDialog::onFieldEdited);
    for (QSpinBox *spin : {m_downloadLimit, m_idleMinutes, m_gpuTempLimit, m_gpuPowerLimit, m_diskCap})
        connect(spin, &QSpinBox::valueChanged, this, &SettingsDialog::onFieldEdited);
    connect(m_idleOnly, &QCheckBox::toggled, m_idleMinutes, &QSpinBox::setEnabled);

    setMinimumWidth(520);
    load();
}

QWidget *SettingsDialog::buildScheduleBox()
{
    const auto spin = [this](const char *name, int min, int max, const QString &suffix, const QString &none) {
        auto *box = new QSpinBox(this);
        box->setObjectName(QLatin1String(name));
        box->setRange(min, max);
        box->setSuffix(suffix);
        if (!none.isEmpty())
            box->setSpecialValueText(none);
        return box;
    };
    m_idleOnly = new QCheckBox(tr("Only when idle for"), this);
    m_idleOnly->setToolTip(tr("Work only after this long without keyboard or mouse input, and stop as soon as you are back."));
    m_idleOnly->setObjectName(QStringLiteral("idleOnlyCheck"));
    m_idleMinutes = spin("idleMinutesSpin", 1, 240, tr(" minutes"), {});
    m_pauseOnBattery = new QCheckBox(tr("Pause on battery power"), this);
    m_pauseOnBattery->setObjectName(QStringLiteral("pauseOnBatteryCheck"));
    m_schedule = new QLineEdit(this);
    m_schedule->setObjectName(QStringLiteral("scheduleEdit"));
    m_schedule->setPlaceholderText(tr("Any time, e.g. mon-fri 22:00-06:00; weekend 00:00-24:00"));
    m_schedule->setToolTip(tr("Time windows when Cohort may work, separated by ';'. Days: mon … sun, ranges (mon-fri), "
                              "daily, weekdays, weekend. A window ending before it starts runs past midnight."));
    m_gpuTempLimit = spin("gpuTempLimitSpin", 0, 100, tr(" °C"), tr("No limit"));
    m_gpuTempLimit->setToolTip(tr("At this GPU temperature Cohort slows down (half, then a quarter of the time); 8 °C above it, "
                                  "it pauses. It speeds up again 5 °C below the limit."));
    m_gpuPowerLimit = spin("gpuPowerLimitSpin", 0, 2000, tr(" W"), tr("No limit"));
    m_gpuPowerLimit->setSingleStep(10);
    m_diskCap = spin("diskCapSpin", 0, 1'000'000, tr(" GiB"), tr("No cap"));
    m_diskCap->setToolTip(tr("The most space Cohort's data folder may use; at the cap it pauses and says so."));

    auto *box = new QGroupBox(tr("When to work"), this);
    auto *form = new QFormLayout(box);
    auto *idleRow = new QWidget(this);
    auto *idleLayout = new QHBoxLayout(idleRow);
    idleLayout->setContentsMargins(0, 0, 0, 0);
    idleLayout->addWidget(m_idleOnly);
    idleLayout->addWidget(m_idleMinutes);
    idleLayout->addStretch(1);
    form->addRow(tr("Idle:"), withErrorLabel(idleRow, QStringLiteral("idleMinutes")));
    form->addRow(tr("Schedule:"), withErrorLabel(m_schedule, QStringLiteral("schedule")));
    form->addRow(tr("Battery:"), m_pauseOnBattery);
    form->addRow(tr("GPU temperature limit:"), withErrorLabel(m_gpuTempLimit, QStringLiteral("gpuTempLimitC")));
    form->addRow(tr("GPU power limit:"), withErrorLabel(m_gpuPowerLimit, QStringLiteral("gpuPowerLimitW")));
    form->addRow(tr("Disk space cap:"), withErrorLabel(m_diskCap, QStringLiteral("diskCapGiB")));
    return box;
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
    v.runOnlyWhenIdle = m_idleOnly->isChecked();
    v.idleMinutes = m_idleMinutes->value();
    v.pauseOnBattery = m_pauseOnBattery->isChecked();
    v.schedule.clear();
    for (const QString &window : m_schedule->text().split(QLatin1Char(';'), Qt::SkipEmptyParts))
        if (!window.trimmed().isEmpty())
            v.schedule.append(window.trimmed());
    v.gpuTempLimitC = m_gpuTempLimit->value();
    v.gpuPowerLimitW = m_gpuPowerLimit->value();
    v.diskCapGiB = m_diskCap->value();
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

void SettingsDialog::setFields(const SettingsValues &v)
{
    m_hubUrl->setText(v.hubUrl);
    m_dataDir->setText(v.dataDir);
    m_nodeName->setText(v.nodeName);
    m_startMinimized->setChecked(v.startMinimized);
    m_downloadLimit->setValue(v.downloadLimitKiBps);
    m_idleOnly->setChecked(v.runOnlyWhenIdle);
    m_idleMinutes->setValue(v.idleMinutes);
    m_idleMinutes->setEnabled(v.runOnlyWhenIdle);
    m_pauseOnBattery->setChecked(v.pauseOnBattery);
    m_schedule->setText(v.schedule.join(QStringLiteral("; ")));
    m_gpuTempLimit->setValue(v.gpuTempLimitC);
    m_gpuPowerLimit->setValue(v.gpuPowerLimitW);
    m_diskCap->setValue(v.diskCapGiB);
}

void SettingsDialog::restoreDefaults()
{
    // Start-at-login is left alone: it is the system's setting, not one of ours.
    setFields(Settings::defaults());
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
