#include "ui/DesktopApp.h"

#include "core/Scheduler.h"

#include "api/Diagnostics.h"
#include "platform/Autostart.h"
#include "platform/TerminationSignals.h"
#include "settings/NetworkProxy.h"
#include "ui/ActivityPage.h"
#include "ui/DoctorDialog.h"
#include "ui/EarningsPage.h"
#include "ui/EngineBinding.h"
#include "ui/MainWindow.h"
#include "ui/Notifier.h"
#include "ui/SettingsDialog.h"
#include "ui/StateIcons.h"
#include "ui/TrayIcon.h"
#include "ui/UiLogging.h"
#include "ui/WelcomeDialog.h"

#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QLocale>
#include <QMessageBox>
#include <QPointer>
#include <QSessionManager>
#include <QStandardPaths>
#include <QSystemTrayIcon>
#include <QTimer>
#include <QTranslator>
#include <QWindow>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>

namespace cohort {

namespace {
// At login the panel may come up after us (KeePassXC #5943); look for a tray a few more times.
constexpr int kTrayChecks = 6;
constexpr auto kTrayCheckInterval = std::chrono::seconds(5);
// A clean stop takes well under a second; past this the engine is considered hung.
constexpr auto kStopTimeout = std::chrono::seconds(15);
} // namespace

DesktopApp::DesktopApp(LaunchOptions launch, QObject *parent)
    : QObject(parent),
      m_launch(std::move(launch)),
      m_settings(std::make_unique<Settings>()),
      m_autostart(createAutostart(QCoreApplication::applicationFilePath()))
{
    qRegisterMetaType<cohort::EngineSnapshot>();
    qRegisterMetaType<cohort::EngineEvent>();
    qRegisterMetaType<cohort::EarningsReport>();
    m_controller = std::make_unique<EngineController>(engineOptions());
    connect(m_settings.get(), &Settings::changed, this, &DesktopApp::onSettingsChanged);
    m_trayRetry.setInterval(kTrayCheckInterval);
    connect(&m_trayRetry, &QTimer::timeout, this, &DesktopApp::checkForTray);
    // Before the engine opens its first connection.
    applyNetworkProxy(m_settings->values());
}

DesktopApp::~DesktopApp() = default;

void DesktopApp::describeApplication(const QString &version)
{
    QApplication::setApplicationName(QStringLiteral("Cohort"));
    QApplication::setApplicationDisplayName(QStringLiteral("Cohort"));
    QApplication::setApplicationVersion(version);
    // Lets Wayland compositors and task bars match the window to the installed .desktop file and icon.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.cohort.Cohort"));
    QApplication::setWindowIcon(appIcon());
}

EngineOptions DesktopApp::engineOptions() const
{
    EngineOptions options;
    options.hubUrl = m_launch.hubUrl ? Settings::normalizedHubUrl(*m_launch.hubUrl) : m_settings->values().hubUrl;
    options.dataDir = m_launch.dataDir ? *m_launch.dataDir : m_settings->effectiveDataDir();
    options.nodeName = m_settings->effectiveNodeName();
    options.hubCertificateFile = m_settings->values().hubCertificate;
    options.hubKey = Settings::hubKeyFromText(m_settings->values().hubKey);
    options.maxDownloadBytesPerSecond = qint64(m_settings->values().downloadLimitKiBps) * 1024;
    options.scheduler = Settings::schedulerPolicy(m_settings->values());
    // These reach a running engine without a restart (EngineController::reconfigure): a worker per chosen GPU.
    options.gpuUuids = m_settings->values().gpuUuids;
    options.gpuMemoryPercent = m_settings->values().gpuMemoryPercent;
    options.gpuMemoryPercentPerGpu = m_settings->values().gpuMemoryPercentPerGpu;
    options.maxUploadBytesPerSecond = qint64(m_settings->values().uploadLimitKiBps) * 1024;
    options.payoutAddress = m_settings->values().payoutAddress;
    return options;
}

int DesktopApp::run()
{
    start();
    const int code = QApplication::exec();
    if (m_engineHung) {
        // The controller's destructor would wait for the hung engine thread for ever. Settings are already
        // on disk and the engine keeps its own state crash-safe, so leaving now loses nothing.
        qCCritical(lcUi) << "the engine did not stop in time; exiting without waiting for it";
        std::fflush(nullptr);
        std::_Exit(code);
    }
    return code;
}

void DesktopApp::start()
{
    // The system language's translation, when one is shipped (ui/translations); otherwise English as written.
    // The language chosen in Settings wins over the system's; it applies from the next start (widgets are built once).
    auto *translator = new QTranslator(this);
    const QString language = m_settings->values().language;
    const QLocale locale = language.isEmpty() ? QLocale() : QLocale(language);
    if (translator->load(locale, QStringLiteral("cohort"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(translator);

    // Quitting always goes through quit() so the engine can stop first; never as a side effect of
    // the last window closing.
    QApplication::setQuitOnLastWindowClosed(false);
    // Logging out or `kill` sends SIGTERM: take the same clean path as Quit.
    m_termination = std::make_unique<TerminationSignals>();
    connect(m_termination.get(), &TerminationSignals::terminationRequested, this, &DesktopApp::quit);
    // Logging out or shutting down through the desktop's session manager: the same clean stop, which writes the
    // engine bundle first, so the work item in hand and the pause survive the reboot.
    connect(qApp, &QGuiApplication::commitDataRequest, this, [this](QSessionManager &) { quit(); });

    m_window = std::make_unique<MainWindow>();
    bindWindowToEngine(m_window.get(), m_controller.get());
    connect(m_window.get(), &MainWindow::settingsRequested, this, &DesktopApp::showSettings);
    connect(m_window.get(), &MainWindow::doctorRequested, this, &DesktopApp::showDoctor);
    connect(m_window->activityPage(), &ActivityPage::saveDiagnosticsRequested, this, &DesktopApp::saveDiagnostics);
    connect(m_window.get(), &MainWindow::quitRequested, this, &DesktopApp::quit);
    connect(m_window.get(), &MainWindow::hiddenToTray, this, &DesktopApp::onWindowHiddenToTray);
    // Notifications: rules from the engine's snapshots and earnings; the tray shows them once it exists.
    m_notifier = new Notifier(this);
    m_notifier->setLevel(m_settings->values().notifications);
    connect(m_controller.get(), &EngineController::snapshotChanged, m_notifier, &Notifier::onSnapshot);
    connect(m_controller.get(), &EngineController::earningsChanged, m_notifier, &Notifier::onEarnings);
    connect(m_notifier, &Notifier::notificationReady, this, [this](const Notification &n) {
        if (!m_tray)
            return; // no notification area: the window and the Activity page say it already
        if (n.isMilestone())
            m_tray->showMessage(n.title, n.text);
        else
            m_tray->showWarning(n.title, n.text);
    });
    const SettingsValues &v = m_settings->values();
    m_window->earningsPage()->setTariff(v.pricePerKWh, v.currency, v.creditValue);
    m_window->earningsPage()->setLocalPayoutAddress(v.payoutAddress);

    const bool trayNow = QSystemTrayIcon::isSystemTrayAvailable();
    if (trayNow)
        createTray();
    // Start hidden only when there is a tray to come back through; otherwise the user would see nothing.
    const bool minimized = m_launch.minimized || m_settings->values().startMinimized;
    if (!trayNow || !minimized)
        m_window->show();
    if (!trayNow) {
        qCInfo(lcUi) << "no system tray yet; the window stays open and closing it quits";
        m_trayChecksLeft = kTrayChecks;
        m_trayRetry.start();
    }
    startEngineOnceShown();
    if (!m_settings->values().welcomed)
        showWelcome();
}

namespace {
// Calls `then` once, at the first Expose of `window` (or after `fallbackMs` if none comes).
class FirstExpose : public QObject {
public:
    FirstExpose(QWindow *window, std::function<void()> then, int fallbackMs)
        : QObject(window),
          m_then(std::move(then))
    {
        window->installEventFilter(this);
        QTimer::singleShot(fallbackMs, this, [this] { fire(); });
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Expose && static_cast<QWindow *>(watched)->isExposed())
            QTimer::singleShot(0, this, [this] { fire(); }); // after this first frame is painted
        return false;
    }

private:
    void fire()
    {
        if (!m_then)
            return;
        const auto then = std::move(m_then);
        m_then = nullptr;
        then();
        deleteLater();
    }
    std::function<void()> m_then;
};
} // namespace

void DesktopApp::startEngineOnceShown()
{
    // The engine may first have to load its module (LibTorch: most of a second on a small machine); the window
    // comes first, then the engine, so the app is on screen at once and says "Starting" meanwhile.
    if (!m_window->isVisible() || !m_window->windowHandle()) {
        m_controller->start();
        return;
    }
    new FirstExpose(
        m_window->windowHandle(),
        [controller = QPointer<EngineController>(m_controller.get())] {
            if (controller)
                controller->start();
        },
        2000);
}

void DesktopApp::showWelcome()
{
    // Non-modal and on top of the main window: the first run explains itself, and nothing waits on the answer.
    auto *welcome = new WelcomeDialog(m_settings.get(), m_autostart.get(), m_window.get());
    welcome->setAttribute(Qt::WA_DeleteOnClose);
    bindWelcomeToEngine(welcome, m_controller.get());
    welcome->show();
    welcome->raise();
}

void DesktopApp::stopEngineThen(std::function<void()> continuation)
{
    if (!m_controller->isRunning()) {
        continuation();
        return;
    }
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = connect(m_controller.get(), &EngineController::stopped, this, [connection, continuation] {
        QObject::disconnect(*connection);
        continuation();
    });
    m_controller->stop();
}

void DesktopApp::checkForTray()
{
    if (m_tray || m_quitting) {
        m_trayRetry.stop();
        return;
    }
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        qCInfo(lcUi) << "a system tray appeared; closing the window now hides it there";
        m_trayRetry.stop();
        createTray();
        return;
    }
    if (--m_trayChecksLeft <= 0) {
        qCInfo(lcUi) << "no system tray on this desktop; running as a normal window";
        m_trayRetry.stop();
    }
}

void DesktopApp::createTray()
{
    m_tray = new TrayIcon(this);
    m_tray->setIconStyle(m_settings->values().trayIconStyle);
    bindTrayToEngine(m_tray, m_controller.get());
    connect(m_tray, &TrayIcon::openRequested, m_window.get(), &MainWindow::bringToFront);
    connect(m_tray, &TrayIcon::settingsRequested, this, &DesktopApp::showSettings);
    connect(m_tray, &TrayIcon::quitRequested, this, &DesktopApp::quit);
    m_tray->show();
    m_window->setCloseHidesToTray(true);
    if (m_settingsDialog)
        m_settingsDialog->setTrayAvailable(true);
}

void DesktopApp::onWindowHiddenToTray()
{
    // Say once where the app went, so closing the window does not look like quitting.
    if (m_toldAboutTray || !m_tray)
        return;
    m_toldAboutTray = true;
    m_tray->showMessage(tr("Cohort is still running"),
                        tr("It keeps working in the notification area. Use Quit in its menu to stop it."));
}

void DesktopApp::showDoctor()
{
    // The engine in use: the settings file and the data folder this app runs on.
    QStringList arguments{QStringLiteral("--settings"), m_settings->filePath(), QStringLiteral("--data-dir"),
                          m_controller->options().dataDir};
    if (!m_controller->options()
             .hubUrl.isEmpty()) // a hub given at launch wins over the settings file, as in the engine
        arguments << QStringLiteral("--hub") << m_controller->options().hubUrl;
    auto *dialog = new DoctorDialog(DoctorDialog::findCohortd(), arguments, m_window.get());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    dialog->run();
}

void DesktopApp::showSettings()
{
    if (!m_settingsDialog) {
        m_settingsDialog = new SettingsDialog(m_settings.get(), m_autostart.get(), m_window.get());
        m_settingsDialog->setTrayAvailable(m_tray != nullptr);
        m_settingsDialog->setIdentityFile(
            QDir(m_controller->options().dataDir).filePath(QStringLiteral("identity/node.key")));
        m_settingsDialog->showSnapshot(m_controller->snapshot());
        connect(m_controller.get(), &EngineController::snapshotChanged, m_settingsDialog,
                &SettingsDialog::showSnapshot);
        // Moving the data folder: the engine stops while the files are copied, and starts again in the new folder
        // (the settings change reconfigures it first) or, after a failure, in the old one.
        m_settingsDialog->setEngineHooks(
            [this](std::function<void()> continuation) { stopEngineThen(std::move(continuation)); },
            [this] {
                if (!m_quitting)
                    m_controller->start();
            });
        connect(m_settingsDialog, &SettingsDialog::dataFolderMoved, this, [this] {
            m_settingsDialog->setIdentityFile(
                QDir(m_controller->options().dataDir).filePath(QStringLiteral("identity/node.key")));
        });
    }
    m_settingsDialog->openAndRaise();
}

void DesktopApp::onSettingsChanged(const SettingsValues &values, const Settings::Changes &changes)
{
    // These take effect at once, without the engine.
    if (changes.contains(Settings::Change::Proxy))
        applyNetworkProxy(values);
    if (changes.contains(Settings::Change::Notifications) && m_notifier)
        m_notifier->setLevel(values.notifications);
    if (changes.contains(Settings::Change::TrayIconStyle) && m_tray)
        m_tray->setIconStyle(values.trayIconStyle);
    if (changes.contains(Settings::Change::Energy) && m_window)
        m_window->earningsPage()->setTariff(values.pricePerKWh, values.currency, values.creditValue);
    if (changes.contains(Settings::Change::PayoutAddress) && m_window)
        m_window->earningsPage()->setLocalPayoutAddress(values.payoutAddress);

    // A value the user has just chosen in Settings wins over the command line from now on.
    if (changes.contains(Settings::Change::HubUrl))
        m_launch.hubUrl.reset();
    if (changes.contains(Settings::Change::DataDir))
        m_launch.dataDir.reset();

    // The controller compares the options itself and restarts the engine only if they differ (it keeps
    // the joined task), so a change of "start minimized" alone costs nothing.
    if (!Settings::reachesEngine(changes))
        return;
    qCInfo(lcUi) << "engine settings changed:" << Settings::changeNames(changes);
    m_controller->reconfigure(engineOptions());
}

void DesktopApp::saveDiagnostics()
{
    const QString suggested =
        QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
            .filePath(QStringLiteral("cohort-diagnostics-%1.zip")
                          .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmm"))));
    const QString path =
        QFileDialog::getSaveFileName(m_window.get(), tr("Save diagnostics"), suggested, tr("Zip archives (*.zip)"));
    if (path.isEmpty())
        return;
    DiagnosticsInput input;
    input.events = m_window->activityPage()->allEvents();
    input.snapshot = m_controller->snapshot().toJson();
    input.settingsFile = m_settings->filePath();
    input.dataDir = m_controller->options().dataDir;
    const auto written = writeDiagnostics(path, input);
    if (!written) {
        QMessageBox::warning(m_window.get(), tr("Save diagnostics"),
                             tr("The diagnostics were not saved: %1").arg(written.error()));
        return;
    }
    qCInfo(lcUi) << "diagnostics saved to" << path << "(" << written->join(QStringLiteral(", ")) << ")";
    QMessageBox::information(
        m_window.get(), tr("Save diagnostics"),
        tr("Saved %1.\nIt contains the recent events, the status, your settings and the names of the files in "
           "the data folder; never your node key.")
            .arg(QDir::toNativeSeparators(path)));
}

void DesktopApp::quit()
{
    if (m_quitting)
        return;
    m_quitting = true;
    qCInfo(lcUi) << "quitting: stopping the engine";
    // Disappear at once; the engine finishes its clean stop in the background.
    m_window->setQuitting();
    m_window->hide();
    if (m_settingsDialog)
        m_settingsDialog->hide();
    if (m_tray)
        m_tray->hide();
    m_trayRetry.stop();

    if (!m_controller->isRunning()) {
        finishQuit();
        return;
    }
    connect(m_controller.get(), &EngineController::stopped, this, &DesktopApp::finishQuit);
    QTimer::singleShot(kStopTimeout, this, [this] {
        if (m_finished)
            return;
        qCWarning(lcUi) << "the engine has not stopped after" << kStopTimeout.count() << "s";
        m_engineHung = true;
        finishQuit();
    });
    m_controller->stop();
}

void DesktopApp::finishQuit()
{
    if (m_finished)
        return;
    m_finished = true;
    QCoreApplication::exit(0);
}

} // namespace cohort
