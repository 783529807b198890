#pragma once
// cohortd's engine options: the settings file's values with the command line's on top. Built at start and again
// whenever the settings file is edited (cohortd follows it without a restart); what the command line set always wins.
#include "api/EngineController.h"
#include "core/Expected.h"
#include "settings/Settings.h"

#include <QStringList>
#include <optional>

namespace cohort {

// --task auto: no task named, choose one (EngineOptions::chooseTaskAutomatically). "auto" is therefore not a task id
// cohortd can name.
inline constexpr char kAutomaticTask[] = "auto";

struct DaemonOverrides {
    std::optional<QString> hubUrl;  // normalized
    std::optional<QString> dataDir; // absolute
    std::optional<QString> nodeName;
    std::optional<QString> hubCertificate; // absolute
    std::optional<QString> hubKey;         // base64, as cohort-hub prints it
    QString taskId;                        // or kAutomaticTask
    std::optional<int> downloadKiBps;
    std::optional<int> uploadKiBps;
    std::optional<int> gpuMemoryPercent;
    bool idleOnly = false; // a server has no desktop user: off unless --idle-only, whatever the settings say
    std::optional<QStringList> schedule;
    // Pause when I play: the flags switch a rule on (the settings may have it on already); --pause-for replaces the
    // list.
    bool pauseWhenFullscreen = false;
    std::optional<QStringList> pauseForPrograms;
    bool pauseWhenGpuBusy = false;
    int heartbeatIntervalMs = 0;
};

// Errors: a combination that does not validate (e.g. --schedule text), with the setting's key.
Expected<EngineOptions> engineOptionsFrom(const Settings &settings, const DaemonOverrides &overrides);

} // namespace cohort
