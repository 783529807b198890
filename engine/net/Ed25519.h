#pragma once
// ed25519 through libsodium: key generation, detached signatures, verification.
#include <QByteArray>

namespace cohort::ed25519 {

constexpr int kPublicKeyBytes = 32;
constexpr int kSecretKeyBytes = 64; // libsodium's secret key carries the public key in its second half
constexpr int kSignatureBytes = 64;

struct KeyPair {
    QByteArray publicKey;
    QByteArray secretKey;
};

bool initialize(); // safe to call many times
KeyPair generate();
QByteArray sign(const QByteArray &message, const QByteArray &secretKey);
bool verify(const QByteArray &message, const QByteArray &signature, const QByteArray &publicKey);
QByteArray publicKeyOf(const QByteArray &secretKey);
// A short, human-comparable fingerprint: the first 16 hex digits of SHA-256(public key), grouped.
QString fingerprint(const QByteArray &publicKey);

} // namespace cohort::ed25519
