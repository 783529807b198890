#pragma once
// One icon per node state, shared by the tray, the dashboard and the status bar so all three agree.
#include "core/NodeState.h"

#include <QIcon>
#include <QString>

namespace cohort {

// The resource path of the icon for a state, e.g. ":/cohort/icons/state-idle.svg".
QString stateIconPath(NodeState state);
QIcon stateIcon(NodeState state);
QIcon appIcon();

} // namespace cohort
