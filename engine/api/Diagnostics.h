#pragma once
// "Save diagnostics…": one zip a user can attach to a bug report. It holds what helps and nothing that must stay
// secret: the recent events, the engine snapshot, the settings file, the data folder's file names and sizes
// (never contents), the hubs this node pinned (public keys), the newest engine bundle's state, versions and the
// OS. The node's private key, the control API token and anything else under identity/ are never read into it,
// and a final scan refuses to write a zip that would contain either secret.
#include "core/EngineEvent.h"
#include "core/Expected.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace cohort {

struct DiagnosticsInput {
    QList<EngineEvent> events;
    QJsonObject snapshot; // EngineSnapshot::toJson()
    QString settingsFile; // may be empty or missing
    QString dataDir;
};

// Writes the zip atomically (temp + rename). Returns the entry names written.
Expected<QStringList> writeDiagnostics(const QString &zipPath, const DiagnosticsInput &input);

} // namespace cohort
