#pragma once
// Trust on first use for hub keys: the key a hub presents at first registration is remembered per hub
// (<data>/identity/hubs.json) and later checkpoints and replies are checked against it.
#include "core/Expected.h"

#include <QByteArray>
#include <QString>

namespace cohort {

class HubPins {
public:
    explicit HubPins(QString filePath);
    // Pins the key if the hub is new; fails if the hub presents a different key than the pinned one.
    Status pinOrCheck(const QString &hubId, const QByteArray &publicKey);
    // Pins the key whatever was pinned before (a key the user gave in the settings).
    Status pin(const QString &hubId, const QByteArray &publicKey);
    QByteArray pinned(const QString &hubId) const;
    QString filePath() const { return m_path; }

private:
    Status write(const QString &hubId, const QByteArray &publicKey, bool replace);
    QString m_path;
};

} // namespace cohort
