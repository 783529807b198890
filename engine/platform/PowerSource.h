#pragma once
// Whether the machine runs on battery: the scheduler pauses on battery when the user asks it to.
// Linux reads /sys/class/power_supply (a root folder can be injected for tests); Windows asks GetSystemPowerStatus.
#include <QString>
#include <optional>

namespace cohort {

struct PowerStatus {
    bool hasBattery = false;
    std::optional<bool> onBattery; // nullopt: unknown
    int batteryPercent = -1;       // -1: unknown
};

// sysfsRoot: Linux only, the folder holding power_supply/ (default /sys/class).
PowerStatus readPowerStatus(const QString &sysfsRoot = {});

} // namespace cohort
