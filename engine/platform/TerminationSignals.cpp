#include "platform/TerminationSignals.h"

#include "core/Logging.h"

#include <QSocketNotifier>

#ifdef Q_OS_WIN
#  define NOMINMAX
#  include <windows.h>
#  include <QMetaObject>
#  include <QPointer>
#else
#  include <csignal>
#  include <sys/socket.h>
#  include <unistd.h>
#endif

namespace cohort {

#ifdef Q_OS_WIN
namespace {
QPointer<TerminationSignals> g_instance;
BOOL WINAPI consoleHandler(DWORD type)
{
    if (!g_instance)
        return FALSE;
    // Called on a system thread: hand over to the object's thread with a queued call.
    QMetaObject::invokeMethod(
        g_instance.data(),
        [type] {
            if (g_instance)
                Q_EMIT g_instance->terminationRequested(int(type));
        },
        Qt::QueuedConnection);
    return TRUE;
}
} // namespace

struct TerminationSignals::Impl {};

TerminationSignals::TerminationSignals(QObject *parent)
    : QObject(parent),
      d(new Impl)
{
    g_instance = this;
    SetConsoleCtrlHandler(consoleHandler, TRUE);
}

TerminationSignals::~TerminationSignals()
{
    SetConsoleCtrlHandler(consoleHandler, FALSE);
    delete d;
}
#else
namespace {
int g_signalFds[2] = {-1, -1};

void onSignal(int number)
{
    // Only async-signal-safe work here: write the number into the pipe; Qt reads it on the main thread.
    const char byte = char(number);
    [[maybe_unused]] const auto written = ::write(g_signalFds[0], &byte, 1);
}
} // namespace

struct TerminationSignals::Impl {
    QSocketNotifier *notifier = nullptr;
};

TerminationSignals::TerminationSignals(QObject *parent)
    : QObject(parent),
      d(new Impl)
{
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalFds) != 0) {
        qCWarning(lcPlatform) << "cannot create the signal socket pair; SIGINT/SIGTERM will not shut down cleanly";
        return;
    }
    d->notifier = new QSocketNotifier(g_signalFds[1], QSocketNotifier::Read, this);
    connect(d->notifier, &QSocketNotifier::activated, this, [this] {
        char byte = 0;
        if (::read(g_signalFds[1], &byte, 1) == 1)
            Q_EMIT terminationRequested(int(byte));
    });
    struct sigaction action {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
#  ifdef SIGHUP
    sigaction(SIGHUP, &action, nullptr);
#  endif
}

TerminationSignals::~TerminationSignals()
{
    struct sigaction action {};
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
    delete d;
}
#endif

} // namespace cohort
