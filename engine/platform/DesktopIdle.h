#pragma once
// How long the user has not touched keyboard or mouse: "run only when the computer is idle". Behind one
// interface, picked at run time: the freedesktop/GNOME idle interfaces on the session bus, the X11 screensaver
// extension (libXss, loaded at run time so nothing links against X11), GetLastInputInfo on Windows. A server
// without a desktop has none: the answer is "unknown", which never holds the node back.
#include <QString>
#include <memory>
#include <optional>

namespace cohort {

class DesktopIdle {
public:
    virtual ~DesktopIdle() = default;
    virtual std::optional<int> idleSeconds() = 0; // nullopt: cannot tell right now
    virtual QString source() const = 0;           // "x11-screensaver", "gnome-mutter", ... for the activity log
};

// The first source that answers now; nullptr when none does (no desktop session).
std::unique_ptr<DesktopIdle> createDesktopIdle();

} // namespace cohort
