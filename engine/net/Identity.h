#pragma once
// The node's (or hub's) ed25519 identity, created on first run and kept under <dir>/<name>.key with
// owner-only permissions. A damaged key file is never overwritten: the identity is what earnings are
// credited to, so the user is told and decides.
#include "core/Expected.h"

#include <QByteArray>
#include <QString>

namespace cohort {

class Identity {
public:
    // Loads <directory>/<name>.key, creating it (and the directory) if it does not exist.
    static Expected<Identity> loadOrCreate(const QString &directory, const QString &name = QStringLiteral("node"));
    static Expected<Identity> load(const QString &filePath);

    const QByteArray &publicKey() const { return m_publicKey; }
    QString publicKeyBase64() const { return QString::fromLatin1(m_publicKey.toBase64()); }
    QString nodeId() const { return nodeIdFor(m_publicKey); } // stable id derived from the public key
    QString fingerprint() const;
    QString filePath() const { return m_filePath; }
    bool wasCreated() const { return m_created; }
    QByteArray sign(const QByteArray &message) const;
    // The ed25519 secret key (64 bytes, libsodium layout) for signers that need it themselves: the collectives
    // communicator proves the node's key to the DiLoCo master from its own thread. Never logged or sent.
    const QByteArray &secretKey() const { return m_secretKey; }

    static QString nodeIdFor(const QByteArray &publicKey); // "n-" + 20 hex digits of SHA-256(key)

private:
    QByteArray m_publicKey;
    QByteArray m_secretKey;
    QString m_filePath;
    bool m_created = false;
};

} // namespace cohort
