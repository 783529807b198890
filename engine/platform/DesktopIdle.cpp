#include "platform/DesktopIdle.h"

#include <QLibrary>

#ifdef COHORT_HAVE_DBUS
#  include <QDBusConnection>
#  include <QDBusInterface>
#  include <QDBusReply>
#endif

#ifdef Q_OS_WIN
#  define NOMINMAX
#  include <windows.h>
#endif

namespace cohort {

namespace {

#if defined(Q_OS_WIN)
class WindowsIdle final : public DesktopIdle {
public:
    std::optional<int> idleSeconds() override
    {
        LASTINPUTINFO info{sizeof(LASTINPUTINFO), 0};
        if (!GetLastInputInfo(&info))
            return std::nullopt;
        return int((GetTickCount() - info.dwTime) / 1000); // wraps consistently with GetTickCount
    }
    QString source() const override { return QStringLiteral("windows-last-input"); }
};
#else
// The X11 screensaver extension through libX11/libXss loaded at run time; only the calls used are declared.
class X11Idle final : public DesktopIdle {
public:
    struct Info { // XScreenSaverInfo's layout
        unsigned long window;
        int state;
        int kind;
        unsigned long tilOrSince;
        unsigned long idle; // milliseconds
        unsigned long eventMask;
    };
    using OpenDisplay = void *(*)(const char *);
    using CloseDisplay = int (*)(void *);
    using DefaultRootWindow = unsigned long (*)(void *);
    using QueryExtension = int (*)(void *, int *, int *);
    using AllocInfo = Info *(*)();
    using QueryInfo = int (*)(void *, unsigned long, Info *);
    using Free = int (*)(void *);

    ~X11Idle() override
    {
        if (m_info)
            m_free(m_info);
        if (m_display)
            m_close(m_display);
    }

    bool open()
    {
        if (qEnvironmentVariableIsEmpty("DISPLAY"))
            return false;
        m_x11.setFileNameAndVersion(QStringLiteral("X11"), 6);
        m_xss.setFileNameAndVersion(QStringLiteral("Xss"), 1);
        if (!m_x11.load() || !m_xss.load())
            return false;
        auto openDisplay = reinterpret_cast<OpenDisplay>(m_x11.resolve("XOpenDisplay"));
        m_close = reinterpret_cast<CloseDisplay>(m_x11.resolve("XCloseDisplay"));
        m_root = reinterpret_cast<DefaultRootWindow>(m_x11.resolve("XDefaultRootWindow"));
        m_free = reinterpret_cast<Free>(m_x11.resolve("XFree"));
        auto query = reinterpret_cast<QueryExtension>(m_xss.resolve("XScreenSaverQueryExtension"));
        auto alloc = reinterpret_cast<AllocInfo>(m_xss.resolve("XScreenSaverAllocInfo"));
        m_queryInfo = reinterpret_cast<QueryInfo>(m_xss.resolve("XScreenSaverQueryInfo"));
        if (!openDisplay || !m_close || !m_root || !m_free || !query || !alloc || !m_queryInfo)
            return false;
        m_display = openDisplay(nullptr);
        if (!m_display)
            return false;
        int event = 0, error = 0;
        if (!query(m_display, &event, &error))
            return false;
        m_info = alloc();
        return m_info != nullptr && idleSeconds().has_value();
    }

    std::optional<int> idleSeconds() override
    {
        if (!m_display || !m_info || !m_queryInfo(m_display, m_root(m_display), m_info))
            return std::nullopt;
        return int(m_info->idle / 1000);
    }
    QString source() const override { return QStringLiteral("x11-screensaver"); }

private:
    QLibrary m_x11, m_xss;
    void *m_display = nullptr;
    Info *m_info = nullptr;
    CloseDisplay m_close = nullptr;
    DefaultRootWindow m_root = nullptr;
    QueryInfo m_queryInfo = nullptr;
    Free m_free = nullptr;
};

#  ifdef COHORT_HAVE_DBUS
// GNOME (also on Wayland): org.gnome.Mutter.IdleMonitor; KDE and others: org.freedesktop.ScreenSaver.
class DBusIdle final : public DesktopIdle {
public:
    DBusIdle(QString service, QString path, QString interface, QString method, bool milliseconds, QString name)
        : m_service(std::move(service)),
          m_path(std::move(path)),
          m_interface(std::move(interface)),
          m_method(std::move(method)),
          m_milliseconds(milliseconds),
          m_name(std::move(name))
    {}
    std::optional<int> idleSeconds() override
    {
        QDBusInterface iface(m_service, m_path, m_interface, QDBusConnection::sessionBus());
        if (!iface.isValid())
            return std::nullopt;
        QDBusReply<qulonglong> reply = iface.call(m_method);
        if (!reply.isValid()) {
            QDBusReply<uint> small = iface.call(m_method);
            if (!small.isValid())
                return std::nullopt;
            return int(m_milliseconds ? small.value() / 1000 : small.value());
        }
        return int(m_milliseconds ? reply.value() / 1000 : reply.value());
    }
    QString source() const override { return m_name; }

private:
    QString m_service, m_path, m_interface, m_method;
    bool m_milliseconds;
    QString m_name;
};
#  endif
#endif

} // namespace

std::unique_ptr<DesktopIdle> createDesktopIdle()
{
#if defined(Q_OS_WIN)
    return std::make_unique<WindowsIdle>();
#else
#  ifdef COHORT_HAVE_DBUS
    if (QDBusConnection::sessionBus().isConnected()) {
        auto gnome = std::make_unique<DBusIdle>(QStringLiteral("org.gnome.Mutter.IdleMonitor"),
                                                QStringLiteral("/org/gnome/Mutter/IdleMonitor/Core"),
                                                QStringLiteral("org.gnome.Mutter.IdleMonitor"),
                                                QStringLiteral("GetIdletime"), true, QStringLiteral("gnome-mutter"));
        if (gnome->idleSeconds())
            return gnome;
        auto freedesktop = std::make_unique<DBusIdle>(
            QStringLiteral("org.freedesktop.ScreenSaver"), QStringLiteral("/org/freedesktop/ScreenSaver"),
            QStringLiteral("org.freedesktop.ScreenSaver"), QStringLiteral("GetSessionIdleTime"), true,
            QStringLiteral("freedesktop-screensaver"));
        if (freedesktop->idleSeconds())
            return freedesktop;
    }
#  endif
    auto x11 = std::make_unique<X11Idle>();
    if (x11->open())
        return x11;
    return nullptr;
#endif
}

} // namespace cohort
