#include "ui/StateIcons.h"

#include <QHash>

namespace cohort {

QString stateIconStem(NodeState state)
{
    // An explicit switch (no default) so a new NodeState makes the compiler ask which icon it gets.
    // Each icon differs in colour *and* glyph, so the states stay apart for colour-blind users and in monochrome.
    switch (state) {
    case NodeState::Starting:
    case NodeState::Connecting: // not yet useful either way; one "getting ready" icon for both
    case NodeState::Stopping: return QStringLiteral("starting");
    case NodeState::Idle: return QStringLiteral("idle");
    case NodeState::Working: return QStringLiteral("working");
    case NodeState::Downloading: return QStringLiteral("downloading");
    case NodeState::Syncing: return QStringLiteral("syncing");
    case NodeState::Throttled: return QStringLiteral("throttled");
    case NodeState::Paused: return QStringLiteral("paused");
    case NodeState::Offline: return QStringLiteral("offline");
    case NodeState::Error: return QStringLiteral("error");
    }
    return QStringLiteral("error");
}

namespace {
QString variantSuffix(TrayIconStyle style)
{
    switch (style) {
    case TrayIconStyle::Colour: return {};
    case TrayIconStyle::Light: return QStringLiteral("-light");
    case TrayIconStyle::Dark: return QStringLiteral("-dark");
    }
    return {};
}
} // namespace

QString stateIconPath(NodeState state, TrayIconStyle style)
{
    return QStringLiteral(":/cohort/icons/state-%1%2.svg").arg(stateIconStem(state), variantSuffix(style));
}

QString stateIconThemeName(NodeState state, TrayIconStyle style)
{
    return QStringLiteral("io.cohort.Cohort-%1%2").arg(stateIconStem(state), variantSuffix(style));
}

QIcon stateIcon(NodeState state, TrayIconStyle style)
{
    // One icon per state and style for the life of the app: QIcon keeps its rendered pixmaps, so a snapshot does not
    // parse and render the SVG again (GUI thread only, like every caller).
    static QHash<int, QIcon> cache;
    const int key = int(state) * 4 + int(style);
    auto it = cache.find(key);
    if (it == cache.end())
        it = cache.insert(key, QIcon(stateIconPath(state, style)));
    return *it;
}

QIcon trayStateIcon(NodeState state, TrayIconStyle style)
{
    const QString name = stateIconThemeName(state, style);
    return QIcon::hasThemeIcon(name) ? QIcon::fromTheme(name) : stateIcon(state, style);
}

QIcon appIcon()
{
    return QIcon(QStringLiteral(":/cohort/icons/cohort.svg"));
}

} // namespace cohort
