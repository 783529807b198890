#include "ui/WelcomeDialog.h"

#include "platform/Autostart.h"
#include "ui/StateIcons.h"
#include "ui/UiLogging.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace cohort {

WelcomeDialog::WelcomeDialog(Settings *settings, Autostart *autostart, QWidget *parent)
    : QDialog(parent),
      m_settings(settings),
      m_autostart(autostart)
{
    setObjectName(QStringLiteral("welcomeDialog"));
    setWindowTitle(tr("Welcome to Cohort"));
    setWindowIcon(appIcon());
    auto *text = new QLabel(
        tr("<p><b>Cohort lends this computer to train AI models together with other people.</b></p>"
           "<p>While it works, it uses your GPU (or CPU) to generate and check training data for the network you "
           "chose, "
           "and shows what it did and what it earned. It reads nothing else on this computer and sends only that work, "
           "the computer's state and its hardware summary.</p>"
           "<p>It works only when you allow it: pause it from the tray at any time, and choose below when it may work. "
           "Every choice can be changed later in Settings.</p>"),
        this);
    text->setWordWrap(true);
    text->setTextFormat(Qt::RichText);

    const SettingsValues v = m_settings->values();
    m_autostartCheck = new QCheckBox(tr("Start Cohort when I log in"), this);
    m_autostartCheck->setObjectName(QStringLiteral("welcomeAutostart"));
    m_autostartCheck->setEnabled(m_autostart && m_autostart->isSupported());
    m_autostartCheck->setChecked(m_autostart && m_autostart->isSupported() && m_autostart->isEnabled());
    m_idleOnly = new QCheckBox(tr("Work only when nobody uses this computer"), this);
    m_idleOnly->setObjectName(QStringLiteral("welcomeIdleOnly"));
    m_idleOnly->setChecked(v.runOnlyWhenIdle);
    m_pauseOnBattery = new QCheckBox(tr("Pause on battery power"), this);
    m_pauseOnBattery->setObjectName(QStringLiteral("welcomePauseOnBattery"));
    m_pauseOnBattery->setChecked(v.pauseOnBattery);
    m_gpuTempLimit = new QSpinBox(this);
    m_gpuTempLimit->setObjectName(QStringLiteral("welcomeGpuTempLimit"));
    m_gpuTempLimit->setRange(0, 100);
    m_gpuTempLimit->setSuffix(tr(" °C"));
    m_gpuTempLimit->setSpecialValueText(tr("No limit"));
    m_gpuTempLimit->setValue(v.gpuTempLimitC == 0 ? 83 : v.gpuTempLimitC); // a cautious default to start from
    m_gpuTempLimit->setToolTip(tr("Cohort slows down at this GPU temperature and pauses 8 °C above it."));

    auto *choices = new QFormLayout;
    choices->addRow(m_autostartCheck);
    choices->addRow(m_idleOnly);
    choices->addRow(m_pauseOnBattery);
    choices->addRow(tr("GPU temperature limit:"), m_gpuTempLimit);

    auto *startNote = new QLabel(tr("“Start” begins with the first of the network's tasks that this computer can run. "
                                    "Choose another on the Tasks page at any time."),
                                 this);
    startNote->setObjectName(QStringLiteral("welcomeStartNote"));
    startNote->setWordWrap(true);

    auto *buttons = new QDialogButtonBox(this);
    QPushButton *startButton = buttons->addButton(tr("Start"), QDialogButtonBox::AcceptRole);
    startButton->setObjectName(QStringLiteral("welcomeStart"));
    startButton->setDefault(true);
    QPushButton *laterButton = buttons->addButton(tr("Not now"), QDialogButtonBox::RejectRole);
    laterButton->setObjectName(QStringLiteral("welcomeNotNow"));
    connect(startButton, &QPushButton::clicked, this, &WelcomeDialog::start);
    connect(laterButton, &QPushButton::clicked, this, &WelcomeDialog::notNow);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(text);
    layout->addLayout(choices);
    layout->addWidget(startNote);
    layout->addWidget(buttons);
    setMinimumWidth(480);
}

SettingsValues WelcomeDialog::chosenValues() const
{
    SettingsValues v = m_settings->values();
    v.welcomed = true;
    v.runOnlyWhenIdle = m_idleOnly->isChecked();
    v.pauseOnBattery = m_pauseOnBattery->isChecked();
    v.gpuTempLimitC = m_gpuTempLimit->value();
    return v;
}

void WelcomeDialog::start()
{
    if (const auto errors = m_settings->apply(chosenValues()); !errors.isEmpty())
        qCWarning(lcUi) << "welcome choices not saved:" << errors.first().message;
    if (m_autostart && m_autostart->isSupported() && m_autostartCheck->isChecked() != m_autostart->isEnabled()) {
        const Status changed = m_autostart->setEnabled(m_autostartCheck->isChecked());
        if (!changed.ok())
            qCWarning(lcUi) << "autostart not changed:" << changed.error();
    }
    accept();
}

void WelcomeDialog::notNow()
{
    SettingsValues v = m_settings->values();
    v.welcomed = true;
    if (const auto errors = m_settings->apply(v); !errors.isEmpty())
        qCWarning(lcUi) << "could not remember the welcome:" << errors.first().message;
    reject();
}

} // namespace cohort
