#pragma once
// Every stored setting, declared once: one row names the field (as validate() and the change signal say it), where
// the INI file keeps it, how it is read and written, its rule (settings/SettingsRules: the translated message when a
// value is refused), which values fall back together, what change it reports and whether the engine's options read
// it. Settings' load, save, validation, fallback and change detection all walk this table, so a new setting is a
// member of SettingsValues (with its default), a row here (with its rule) and its widget. Private to engine/settings.
#include "settings/Settings.h"

#include <QSettings>
#include <optional>
#include <span>

namespace cohort::settings {

struct Field {
    const char *name;   // "hubUrl": the SettingsError key of its value
    const char *iniKey; // "network/hubUrl"
    // The values that only mean something together fall back together when one of them is refused ("proxy":
    // the mode and the address; "energy": price, currency, credit value); nullptr: the field alone.
    const char *group;
    // What Settings::changed() reports when the value differs: the field, or its group (Scheduler, Energy, ...).
    Settings::Change change;
    std::optional<Settings::Change>
        alsoChanges; // a second change it is part of, e.g. the GPUs are also the scheduler's
    bool engine;     // the engine's options hold it: a change reconfigures the engine
    // The message under the field when `values` break its rule, empty when they keep it; nullptr: any value of the
    // type is fine (a tick box, a choice the codec already restricts).
    QString (*check)(const SettingsValues &values);
    // Reads the stored value into `values` (the value already there is the default); false when the text stored
    // is no value of the field's type at all (then the fallback's, with a warning).
    bool (*read)(const QSettings &store, const Field &field, SettingsValues &values);
    void (*write)(QSettings &store, const Field &field, const SettingsValues &values);
    void (*copy)(SettingsValues &to, const SettingsValues &from);
    bool (*differs)(const SettingsValues &a, const SettingsValues &b);
};

std::span<const Field> fields();
const Field *findField(const QString &name);

} // namespace cohort::settings
