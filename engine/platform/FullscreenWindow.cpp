#include "platform/FullscreenWindow.h"

#include "platform/ProcessList.h"

#include <QElapsedTimer>
#include <QLibrary>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <type_traits>

#ifdef _WIN32
#  ifndef NOMINMAX
#    define NOMINMAX
#  endif
#  include <windows.h>
#endif

namespace cohort {

namespace {

#ifdef _WIN32

// SHQueryUserNotificationState's answers (shellapi.h QUERY_USER_NOTIFICATION_STATE), resolved from shell32 at run
// time so that the build needs no import library for it.
constexpr int kQunsBusy = 2; // a full-screen application, or presentation settings
constexpr int kQunsRunningD3dFullScreen = 3;
constexpr int kQunsPresentationMode = 4;
using QueryNotificationState = HRESULT(WINAPI *)(int *);

QString programOfWindow(HWND window)
{
    DWORD pid = 0;
    GetWindowThreadProcessId(window, &pid);
    return pid ? processName(qint64(pid)) : QString();
}

class WindowsFullscreen final : public FullscreenWatch {
public:
    WindowsFullscreen()
    {
        if (HMODULE shell = LoadLibraryW(L"shell32.dll"))
            m_query = reinterpret_cast<QueryNotificationState>(
                reinterpret_cast<void *>(GetProcAddress(shell, "SHQueryUserNotificationState")));
    }

    std::optional<FullscreenState> read() override
    {
        FullscreenState state;
        const HWND front = GetForegroundWindow();
        int quns = 0;
        if (m_query && SUCCEEDED(m_query(&quns)) &&
            (quns == kQunsBusy || quns == kQunsRunningD3dFullScreen || quns == kQunsPresentationMode))
            state.fullScreen = true;
        else if (front && front != GetDesktopWindow() && front != GetShellWindow() && coversItsMonitor(front))
            state.fullScreen = true;
        if (state.fullScreen && front)
            state.program = programOfWindow(front);
        return state;
    }
    QString source() const override { return QStringLiteral("windows-shell"); }

private:
    static bool coversItsMonitor(HWND window)
    {
        RECT rect{};
        if (!GetWindowRect(window, &rect))
            return false;
        MONITORINFO monitor{};
        monitor.cbSize = sizeof monitor;
        if (!GetMonitorInfoW(MonitorFromWindow(window, MONITOR_DEFAULTTONEAREST), &monitor))
            return false;
        // The desktop's own windows (Progman, WorkerW) cover the monitor too; they are not a program in front.
        wchar_t className[64] = {};
        GetClassNameW(window, className, int(std::size(className)));
        const QString cls = QString::fromWCharArray(className);
        if (cls == QLatin1String("Progman") || cls == QLatin1String("WorkerW"))
            return false;
        const RECT &m = monitor.rcMonitor;
        return rect.left <= m.left && rect.top <= m.top && rect.right >= m.right && rect.bottom >= m.bottom;
    }

    QueryNotificationState m_query = nullptr;
};

#else

// The part of libxcb this file uses, declared here (layouts as in xcb/xproto.h) so the build needs no X11 headers.
struct XcbConnection;
struct XcbSetup;
struct XcbScreen { // xcb_screen_t: only the leading fields are read
    uint32_t root;
    uint32_t defaultColormap;
    uint32_t whitePixel;
    uint32_t blackPixel;
    uint32_t currentInputMasks;
    uint16_t widthInPixels;
    uint16_t heightInPixels;
};
struct XcbScreenIterator {
    XcbScreen *data;
    int rem;
    int index;
};
struct XcbCookie {
    unsigned int sequence;
};
struct XcbGenericError;
struct XcbInternAtomReply {
    uint8_t responseType, pad0;
    uint16_t sequence;
    uint32_t length;
    uint32_t atom;
};
struct XcbGetPropertyReply;
struct XcbGetGeometryReply {
    uint8_t responseType, depth;
    uint16_t sequence;
    uint32_t length;
    uint32_t root;
    int16_t x, y;
    uint16_t width, height, borderWidth;
    uint8_t pad0[2];
};
struct XcbTranslateReply {
    uint8_t responseType, sameScreen;
    uint16_t sequence;
    uint32_t length;
    uint32_t child;
    int16_t dstX, dstY;
};

constexpr uint32_t kAtomAtom = 4, kAtomCardinal = 6, kAtomWindow = 33, kAtomWmClass = 67;
constexpr uint32_t kAnyPropertyType = 0;

struct Xcb {
    QLibrary library;
    XcbConnection *(*connect)(const char *, int *) = nullptr;
    int (*hasError)(XcbConnection *) = nullptr;
    void (*disconnect)(XcbConnection *) = nullptr;
    const XcbSetup *(*getSetup)(XcbConnection *) = nullptr;
    XcbScreenIterator (*rootsIterator)(const XcbSetup *) = nullptr;
    void (*screenNext)(XcbScreenIterator *) = nullptr;
    XcbCookie (*internAtom)(XcbConnection *, uint8_t, uint16_t, const char *) = nullptr;
    XcbInternAtomReply *(*internAtomReply)(XcbConnection *, XcbCookie, XcbGenericError **) = nullptr;
    XcbCookie (*getProperty)(XcbConnection *, uint8_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t) = nullptr;
    XcbGetPropertyReply *(*getPropertyReply)(XcbConnection *, XcbCookie, XcbGenericError **) = nullptr;
    void *(*propertyValue)(const XcbGetPropertyReply *) = nullptr;
    int (*propertyValueLength)(const XcbGetPropertyReply *) = nullptr; // in bytes
    XcbCookie (*getGeometry)(XcbConnection *, uint32_t) = nullptr;
    XcbGetGeometryReply *(*getGeometryReply)(XcbConnection *, XcbCookie, XcbGenericError **) = nullptr;
    XcbCookie (*translate)(XcbConnection *, uint32_t, uint32_t, int16_t, int16_t) = nullptr;
    XcbTranslateReply *(*translateReply)(XcbConnection *, XcbCookie, XcbGenericError **) = nullptr;

    bool load()
    {
        library.setFileNameAndVersion(QStringLiteral("xcb"), 1);
        if (!library.load())
            return false;
        const auto resolve = [this](auto &fn, const char *symbol) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(library.resolve(symbol));
            return fn != nullptr;
        };
        return resolve(connect, "xcb_connect") && resolve(hasError, "xcb_connection_has_error") &&
               resolve(disconnect, "xcb_disconnect") && resolve(getSetup, "xcb_get_setup") &&
               resolve(rootsIterator, "xcb_setup_roots_iterator") && resolve(screenNext, "xcb_screen_next") &&
               resolve(internAtom, "xcb_intern_atom") && resolve(internAtomReply, "xcb_intern_atom_reply") &&
               resolve(getProperty, "xcb_get_property") && resolve(getPropertyReply, "xcb_get_property_reply") &&
               resolve(propertyValue, "xcb_get_property_value") &&
               resolve(propertyValueLength, "xcb_get_property_value_length") &&
               resolve(getGeometry, "xcb_get_geometry") && resolve(getGeometryReply, "xcb_get_geometry_reply") &&
               resolve(translate, "xcb_translate_coordinates") &&
               resolve(translateReply, "xcb_translate_coordinates_reply");
    }
};

// A reply or error xcb allocated with malloc.
struct FreeDeleter {
    void operator()(void *p) const { std::free(p); }
};
template <typename T>
using XcbPtr = std::unique_ptr<T, FreeDeleter>;

class X11Fullscreen final : public FullscreenWatch {
public:
    static constexpr int kReconnectMs = 10'000;

    explicit X11Fullscreen(QString display)
        : m_display(std::move(display))
    {}
    ~X11Fullscreen() override { close(); }

    bool open()
    {
        if (!m_xcb.library.isLoaded() && !m_xcb.load())
            return false;
        close();
        m_sinceConnect.start();
        const QByteArray name = m_display.toLocal8Bit();
        int screenNumber = 0;
        m_connection = m_xcb.connect(name.isEmpty() ? nullptr : name.constData(), &screenNumber);
        if (!m_connection || m_xcb.hasError(m_connection)) {
            close();
            return false;
        }
        XcbScreenIterator it = m_xcb.rootsIterator(m_xcb.getSetup(m_connection));
        for (int i = 0; i < screenNumber && it.rem > 0; ++i)
            m_xcb.screenNext(&it);
        if (it.rem <= 0 || !it.data) {
            close();
            return false;
        }
        m_root = it.data->root;
        m_screenWidth = it.data->widthInPixels;
        m_screenHeight = it.data->heightInPixels;
        // Asked for all at once, then the answers read: one round trip.
        const char *names[] = {"_NET_ACTIVE_WINDOW", "_NET_WM_STATE",       "_NET_WM_STATE_FULLSCREEN",
                               "_NET_WM_PID",        "_NET_WM_WINDOW_TYPE", "_NET_WM_WINDOW_TYPE_DESKTOP"};
        uint32_t *atoms[] = {&m_activeWindow, &m_wmState, &m_fullscreen, &m_wmPid, &m_windowType, &m_typeDesktop};
        XcbCookie cookies[std::size(names)];
        for (size_t i = 0; i < std::size(names); ++i)
            cookies[i] = m_xcb.internAtom(m_connection, 0, uint16_t(qstrlen(names[i])), names[i]);
        for (size_t i = 0; i < std::size(names); ++i) {
            XcbPtr<XcbInternAtomReply> reply(m_xcb.internAtomReply(m_connection, cookies[i], nullptr));
            *atoms[i] = reply ? reply->atom : 0;
        }
        return m_fullscreen != 0 && m_activeWindow != 0;
    }

    std::optional<FullscreenState> read() override
    {
        if (!m_connection || m_xcb.hasError(m_connection)) { // the X server went away (logout): try again now and then
            if (m_sinceConnect.isValid() && m_sinceConnect.elapsed() < kReconnectMs)
                return std::nullopt;
            if (!open())
                return std::nullopt;
        }
        FullscreenState state;
        const QByteArray active = property(m_root, m_activeWindow, kAtomWindow, 1);
        if (m_xcb.hasError(m_connection))
            return std::nullopt;
        if (active.size() < 4)
            return state; // no window manager that says which window is active: nothing is in front
        const uint32_t window = word(active, 0);
        if (window == 0)
            return state;
        const QByteArray wmState = property(window, m_wmState, kAtomAtom, 64);
        state.fullScreen = containsAtom(wmState, m_fullscreen) || (!isDesktop(window) && coversScreen(window));
        if (state.fullScreen)
            state.program = programOf(window);
        return state;
    }

    QString source() const override { return QStringLiteral("x11-ewmh"); }

private:
    void close()
    {
        if (m_connection)
            m_xcb.disconnect(m_connection);
        m_connection = nullptr;
    }

    // A property's value (at most maxWords 32-bit words); empty when absent, or the window is gone.
    QByteArray property(uint32_t window, uint32_t atom, uint32_t type, uint32_t maxWords)
    {
        if (atom == 0)
            return {};
        XcbGenericError *error = nullptr;
        XcbPtr<XcbGetPropertyReply> reply(m_xcb.getPropertyReply(
            m_connection, m_xcb.getProperty(m_connection, 0, window, atom, type, 0, maxWords), &error));
        XcbPtr<XcbGenericError> freeError(error);
        if (!reply)
            return {};
        const int length = m_xcb.propertyValueLength(reply.get());
        return length > 0 ? QByteArray(static_cast<const char *>(m_xcb.propertyValue(reply.get())), length)
                          : QByteArray();
    }

    static uint32_t word(const QByteArray &data, qsizetype offset)
    {
        uint32_t value = 0;
        std::memcpy(&value, data.constData() + offset, sizeof value);
        return value;
    }

    static bool containsAtom(const QByteArray &atoms, uint32_t atom)
    {
        for (qsizetype i = 0; i + 4 <= atoms.size(); i += 4)
            if (word(atoms, i) == atom)
                return true;
        return false;
    }

    bool isDesktop(uint32_t window)
    {
        return containsAtom(property(window, m_windowType, kAtomAtom, 16), m_typeDesktop);
    }

    // A window that made itself as large as the screen without telling the window manager.
    bool coversScreen(uint32_t window)
    {
        XcbPtr<XcbGenericError> geometryError, translateError;
        XcbGenericError *error = nullptr;
        XcbPtr<XcbGetGeometryReply> geometry(
            m_xcb.getGeometryReply(m_connection, m_xcb.getGeometry(m_connection, window), &error));
        geometryError.reset(error);
        error = nullptr;
        XcbPtr<XcbTranslateReply> origin(
            m_xcb.translateReply(m_connection, m_xcb.translate(m_connection, window, m_root, 0, 0), &error));
        translateError.reset(error);
        if (!geometry || !origin)
            return false;
        return origin->dstX <= 0 && origin->dstY <= 0 && origin->dstX + int(geometry->width) >= int(m_screenWidth) &&
               origin->dstY + int(geometry->height) >= int(m_screenHeight);
    }

    // The process behind the window (_NET_WM_PID), else WM_CLASS's class ("Steam"), else its instance ("steam").
    QString programOf(uint32_t window)
    {
        const QByteArray pid = property(window, m_wmPid, kAtomCardinal, 1);
        if (pid.size() == 4)
            if (const QString name = processName(word(pid, 0)); !name.isEmpty())
                return name;
        const QList<QByteArray> wmClass = property(window, kAtomWmClass, kAnyPropertyType, 64).split('\0');
        if (wmClass.size() > 1 && !wmClass.at(1).isEmpty())
            return QString::fromLocal8Bit(wmClass.at(1));
        return wmClass.isEmpty() ? QString() : QString::fromLocal8Bit(wmClass.at(0));
    }

    QString m_display;
    Xcb m_xcb;
    XcbConnection *m_connection = nullptr;
    QElapsedTimer m_sinceConnect;
    uint32_t m_root = 0;
    uint16_t m_screenWidth = 0, m_screenHeight = 0;
    uint32_t m_activeWindow = 0, m_wmState = 0, m_fullscreen = 0, m_wmPid = 0, m_windowType = 0, m_typeDesktop = 0;
};

#endif

} // namespace

std::unique_ptr<FullscreenWatch> createFullscreenWatch(const QString &display)
{
#ifdef _WIN32
    Q_UNUSED(display);
    return std::make_unique<WindowsFullscreen>();
#else
    if (display.isEmpty() && qEnvironmentVariableIsEmpty("DISPLAY"))
        return nullptr;
    auto x11 = std::make_unique<X11Fullscreen>(display);
    if (!x11->open() || !x11->read())
        return nullptr;
    return x11;
#endif
}

} // namespace cohort
