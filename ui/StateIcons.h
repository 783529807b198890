#pragma once
// One icon per node state, shared by the tray, the dashboard and the status bar so all three agree. Each comes in
// colour and in two monochrome variants for the tray (TrayIconStyle, Settings, General).
#include "core/NodeState.h"
#include "settings/Settings.h"

#include <QIcon>
#include <QString>

namespace cohort {

// The icon's state name: "starting" (also connecting and stopping), "idle", "working", ...
QString stateIconStem(NodeState state);
// The resource path, e.g. ":/cohort/icons/state-idle.svg" or ":/cohort/icons/state-idle-dark.svg".
QString stateIconPath(NodeState state, TrayIconStyle style = TrayIconStyle::Colour);
// The name it is installed under in the hicolor theme (status/): "io.cohort.Cohort-idle[-light|-dark]".
QString stateIconThemeName(NodeState state, TrayIconStyle style = TrayIconStyle::Colour);
QIcon stateIcon(NodeState state, TrayIconStyle style = TrayIconStyle::Colour);
// For the tray: the installed theme icon by name when there is one (StatusNotifier hosts then draw it themselves,
// at their size and scale), else the built-in one.
QIcon trayStateIcon(NodeState state, TrayIconStyle style);
QIcon appIcon();

} // namespace cohort
