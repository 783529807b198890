#pragma once
// The proxy setting, applied to the whole process: every QNetworkAccessManager and QTcpSocket that does not set
// its own proxy (the hub client, checkpoint downloads, peers) asks the application's proxy factory.
// A factory rather than QNetworkProxy::setApplicationProxy, because one application proxy would also be asked by
// QTcpServer::listen (which an HTTP proxy cannot serve, so listening would fail) and would not apply the system's
// per-address exceptions. Connections to this computer (the embedded local hub) never use a proxy.
#include "settings/Settings.h"

#include <QNetworkProxy>

namespace cohort {

// Installs the proxy for `values` (proxyMode, proxy); takes effect for connections opened from now on.
void applyNetworkProxy(const SettingsValues &values);

// What the installed rules answer for a connection to `url` (tests, diagnostics).
QNetworkProxy proxyFor(const QUrl &url);

} // namespace cohort
