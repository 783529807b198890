#pragma once
// Whether a full-screen program (a game, a film, a presentation) is in front, for "pause while a full-screen
// application runs". Behind one interface, picked at run time:
//  - X11: the active window (_NET_ACTIVE_WINDOW on the root) has _NET_WM_STATE_FULLSCREEN, or covers the whole screen
//    (a window that made itself full screen without telling the window manager); the desktop's own window does not
//    count. Through libxcb loaded at run time (nothing links against X11): a window that vanishes between two requests
//    is an error reply here, where Xlib would call its process-wide error handler, which exits by default.
//  - Windows: SHQueryUserNotificationState says a Direct3D full-screen program or presentation mode runs, or the
//    foreground window covers its monitor.
// Wayland without XWayland and servers have none: the answer is "unknown", which never holds the node back.
#include <QString>
#include <memory>
#include <optional>

namespace cohort {

struct FullscreenState {
    bool fullScreen = false;
    QString program; // the window's program (executable name, else its window class); may be empty
};

class FullscreenWatch {
public:
    virtual ~FullscreenWatch() = default;
    virtual std::optional<FullscreenState> read() = 0; // nullopt: cannot tell right now
    virtual QString source() const = 0;                // "x11-ewmh", "windows-shell" for the activity log
};

// The source this session has; nullptr when none answers. display: an X11 display name (":1"), empty for $DISPLAY.
std::unique_ptr<FullscreenWatch> createFullscreenWatch(const QString &display = {});

} // namespace cohort
