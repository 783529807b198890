#pragma once
// Whether the desktop shows tray icons: on Linux a StatusNotifier host (KDE, most panels; GNOME only with the
// AppIndicator extension) registered on the session bus; on Windows and macOS the shell always does. A machine
// without a desktop session (a server) has no answer, which is no problem for cohortd.
#include <QString>
#include <optional>

namespace cohort {

// nullopt: no desktop session to ask. *how says what was asked ("org.kde.StatusNotifierWatcher on the session bus").
std::optional<bool> trayHostPresent(QString *how);

} // namespace cohort
