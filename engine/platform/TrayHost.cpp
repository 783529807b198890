#include "platform/TrayHost.h"

#include <QtGlobal>
#if defined(COHORT_HAVE_DBUS)
#  include <QDBusConnection>
#  include <QDBusConnectionInterface>
#endif

namespace cohort {

std::optional<bool> trayHostPresent(QString *how)
{
#if defined(Q_OS_WIN) || defined(Q_OS_MACOS)
    *how = QStringLiteral("the system shell");
    return true;
#elif defined(COHORT_HAVE_DBUS)
    const QString service = QStringLiteral("org.kde.StatusNotifierWatcher");
    *how = service + QStringLiteral(" on the session bus");
    if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS") ||
        (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")))
        return std::nullopt; // no desktop session
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected() || !bus.interface())
        return std::nullopt;
    return bus.interface()->isServiceRegistered(service).value();
#else
    *how = QStringLiteral("nothing (this build has no D-Bus)");
    return std::nullopt;
#endif
}

} // namespace cohort
