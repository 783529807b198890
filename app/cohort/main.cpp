// cohort: the desktop app. Parses the command line and hands over to DesktopApp; nothing else.
#include "settings/Settings.h"
#include "ui/DesktopApp.h"
#ifdef COHORT_LINKED_ENGINE
#  include "assembly/BuiltinEngineParts.h"
#endif

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QEvent>
#include <QWindow>

#include <cstdio>

namespace {

// --report-startup: one line on stderr when the first window is exposed (mapped and drawable), for bench_gui's
// launch-to-first-window figure. Removes itself after that.
class FirstExposeReporter : public QObject {
public:
    explicit FirstExposeReporter(QObject *parent)
        : QObject(parent)
    {
        m_sinceMain.start();
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Expose && watched->isWindowType() &&
            static_cast<QWindow *>(watched)->isExposed()) {
            std::fprintf(stderr, "cohort: first window exposed %lld ms after main()\n", qint64(m_sinceMain.elapsed()));
            std::fflush(stderr);
            qApp->removeEventFilter(this);
        }
        return false;
    }

private:
    QElapsedTimer m_sinceMain;
};

// Exits with a message for --help, --version and anything that cannot be used.
cohort::LaunchOptions parseCommandLine(const QApplication &app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Lend this computer to decentralized AI training."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption hub(
        QStringLiteral("hub"),
        QStringLiteral("Use the hub at URL for this run (empty: a local network on this computer). Not saved."),
        QStringLiteral("URL"));
    const QCommandLineOption dataDir(
        QStringLiteral("data-dir"), QStringLiteral("Keep identity, models and history in DIR for this run. Not saved."),
        QStringLiteral("DIR"));
    const QCommandLineOption minimized(
        QStringLiteral("minimized"),
        QStringLiteral("Start in the notification area (the window opens anyway if there is none)."));
    QCommandLineOption reportStartup(QStringLiteral("report-startup"),
                                     QStringLiteral("Print when the first window is on screen (bench_gui)."));
    reportStartup.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions({hub, dataDir, minimized, reportStartup});
    parser.process(app);
    if (parser.isSet(reportStartup))
        qApp->installEventFilter(new FirstExposeReporter(qApp));

    cohort::LaunchOptions launch;
    cohort::SettingsValues check; // reuse the settings rules so the command line cannot smuggle in bad values
    if (parser.isSet(hub))
        launch.hubUrl = check.hubUrl = parser.value(hub);
    if (parser.isSet(dataDir))
        launch.dataDir = check.dataDir = QDir::cleanPath(QDir::current().absoluteFilePath(parser.value(dataDir)));
    launch.minimized = parser.isSet(minimized);

    const QList<cohort::SettingsError> errors = cohort::Settings::validate(check);
    for (const cohort::SettingsError &error : errors) {
        const QString option =
            error.key == QLatin1String("hubUrl") ? QStringLiteral("--hub") : QStringLiteral("--data-dir");
        std::fprintf(stderr, "cohort: %s: %s\n", qPrintable(option), qPrintable(error.message));
    }
    if (!errors.isEmpty())
        std::exit(2);
    return launch;
}

// On X11/Wayland desktops a missing display makes QApplication abort with a plugin error. Before it is created:
// --help and --version need no display (they run on the offscreen platform), and anything else gets a sentence
// that names the program meant for a machine without one. Elsewhere (Windows, macOS) there is always a display.
void handleMissingDisplay(int argc, char *argv[])
{
#if defined(Q_OS_UNIX) && !defined(Q_OS_MACOS)
    if (!qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
        !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        return;
    for (int i = 1; i < argc; ++i) {
        const QByteArray argument(argv[i]);
        if (argument == "-h" || argument == "--help" || argument == "-?" || argument == "--help-all" ||
            argument == "-v" || argument == "--version") {
            qputenv("QT_QPA_PLATFORM", "offscreen");
            return;
        }
    }
    std::fprintf(stderr,
                 "cohort: no display (DISPLAY and WAYLAND_DISPLAY are not set). The desktop app needs one; on a "
                 "machine without a desktop run cohortd, the same engine with a progress line.\n");
    std::exit(1);
#else
    Q_UNUSED(argc);
    Q_UNUSED(argv);
#endif
}

} // namespace

int main(int argc, char *argv[])
{
    handleMissingDisplay(argc, argv);
#ifdef COHORT_LINKED_ENGINE
    // Built without the engine module (COHORT_ENGINE_MODULE=OFF): the engine is linked in.
    cohort::registerEngineParts(&cohort::builtinEngineParts());
#endif
    QApplication app(argc, argv);
    cohort::DesktopApp::describeApplication(QStringLiteral(COHORT_VERSION_STRING));
    cohort::DesktopApp desktop(parseCommandLine(app));
    return desktop.run();
}
