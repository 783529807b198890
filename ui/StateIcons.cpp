#include "ui/StateIcons.h"

#include <QHash>

namespace cohort {

QString stateIconPath(NodeState state)
{
    // An explicit switch (no default) so a new NodeState makes the compiler ask which icon it gets.
    // Each icon differs in colour *and* glyph, so the states stay apart for colour-blind users too.
    switch (state) {
    case NodeState::Starting:
    case NodeState::Connecting: // not yet useful either way; one "getting ready" icon for both
    case NodeState::Stopping:
        return QStringLiteral(":/cohort/icons/state-starting.svg");
    case NodeState::Idle:
        return QStringLiteral(":/cohort/icons/state-idle.svg");
    case NodeState::Working:
        return QStringLiteral(":/cohort/icons/state-working.svg");
    case NodeState::Downloading:
        return QStringLiteral(":/cohort/icons/state-downloading.svg");
    case NodeState::Syncing:
        return QStringLiteral(":/cohort/icons/state-syncing.svg");
    case NodeState::Throttled:
        return QStringLiteral(":/cohort/icons/state-throttled.svg");
    case NodeState::Paused:
        return QStringLiteral(":/cohort/icons/state-paused.svg");
    case NodeState::Offline:
        return QStringLiteral(":/cohort/icons/state-offline.svg");
    case NodeState::Error:
        return QStringLiteral(":/cohort/icons/state-error.svg");
    }
    return QStringLiteral(":/cohort/icons/state-error.svg");
}

QIcon stateIcon(NodeState state)
{
    // One icon per state for the life of the app: QIcon keeps its rendered pixmaps, so a snapshot does not parse and
    // render the SVG again (GUI thread only, like every caller).
    static QHash<int, QIcon> cache;
    auto it = cache.find(int(state));
    if (it == cache.end())
        it = cache.insert(int(state), QIcon(stateIconPath(state)));
    return *it;
}

QIcon appIcon()
{
    return QIcon(QStringLiteral(":/cohort/icons/cohort.svg"));
}

} // namespace cohort
