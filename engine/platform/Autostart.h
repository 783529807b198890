#pragma once
// Start-at-login, asked of the operating system rather than stored in our settings:
// Linux writes/removes an XDG autostart .desktop entry, Windows the HKCU Run key.
#include "core/Expected.h"

#include <QString>
#include <memory>

namespace cohort {

class Autostart {
public:
    virtual ~Autostart() = default;
    virtual bool isSupported() const = 0;
    virtual bool isEnabled() const = 0;
    virtual Status setEnabled(bool enabled) = 0;
    virtual QString location() const = 0; // the file or registry value it manages, for messages
};

// executable: the program to start (usually QCoreApplication::applicationFilePath()); arguments are appended.
// On Linux the entry goes to $COHORT_AUTOSTART_DIR (tests) or $XDG_CONFIG_HOME/autostart.
std::unique_ptr<Autostart> createAutostart(const QString &executable,
                                           const QString &arguments = QStringLiteral("--minimized"));

} // namespace cohort
