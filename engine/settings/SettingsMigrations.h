#pragma once
// Numbered, one-way steps that bring an older settings file up to Settings::kCurrentVersion.
class QSettings;

namespace cohort {

// Runs every step above the stored "meta/version" and records the new version. Returns the version found.
int migrateSettings(QSettings &store, int targetVersion);

} // namespace cohort
