#include "net/Ed25519.h"

#include "core/Sha256.h"

#include <QString>
#include <sodium.h>

namespace cohort::ed25519 {

bool initialize()
{
    static const bool ok = sodium_init() >= 0;
    return ok;
}

KeyPair generate()
{
    initialize();
    KeyPair kp;
    kp.publicKey.resize(kPublicKeyBytes);
    kp.secretKey.resize(kSecretKeyBytes);
    crypto_sign_keypair(reinterpret_cast<unsigned char *>(kp.publicKey.data()),
                        reinterpret_cast<unsigned char *>(kp.secretKey.data()));
    return kp;
}

QByteArray sign(const QByteArray &message, const QByteArray &secretKey)
{
    initialize();
    if (secretKey.size() != kSecretKeyBytes)
        return {};
    QByteArray sig(kSignatureBytes, Qt::Uninitialized);
    crypto_sign_detached(reinterpret_cast<unsigned char *>(sig.data()), nullptr,
                         reinterpret_cast<const unsigned char *>(message.constData()), size_t(message.size()),
                         reinterpret_cast<const unsigned char *>(secretKey.constData()));
    return sig;
}

bool verify(const QByteArray &message, const QByteArray &signature, const QByteArray &publicKey)
{
    initialize();
    if (signature.size() != kSignatureBytes || publicKey.size() != kPublicKeyBytes)
        return false;
    return crypto_sign_verify_detached(reinterpret_cast<const unsigned char *>(signature.constData()),
                                       reinterpret_cast<const unsigned char *>(message.constData()),
                                       size_t(message.size()),
                                       reinterpret_cast<const unsigned char *>(publicKey.constData())) == 0;
}

QByteArray publicKeyOf(const QByteArray &secretKey)
{
    if (secretKey.size() != kSecretKeyBytes)
        return {};
    return secretKey.right(kPublicKeyBytes);
}

QString fingerprint(const QByteArray &publicKey)
{
    const QByteArray hex = Sha256::hashHex(publicKey).left(16);
    QString out;
    for (int i = 0; i < hex.size(); i += 4) {
        if (!out.isEmpty())
            out += QLatin1Char(':');
        out += QString::fromLatin1(hex.mid(i, 4));
    }
    return out;
}

} // namespace cohort::ed25519
