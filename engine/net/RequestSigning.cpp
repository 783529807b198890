#include "net/RequestSigning.h"

#include "core/Sha256.h"
#include "net/Ed25519.h"
#include "net/Identity.h"
#include "net/ReplayGuard.h"

#include <QRandomGenerator>

#include <cctype>

namespace cohort {

QByteArray canonicalRequest(const QByteArray &method, const QByteArray &pathAndQuery, qint64 timestampMs,
                            const QByteArray &nonce, const QByteArray &body)
{
    return QByteArrayLiteral("cohort-request-v1\n") + method.toUpper() + '\n' + pathAndQuery + '\n' +
           QByteArray::number(timestampMs) + '\n' + nonce + '\n' + Sha256::hashHex(body);
}

HeaderList signRequest(const Identity &identity, const QByteArray &method, const QByteArray &pathAndQuery,
                       const QByteArray &body, qint64 timestampMs, QByteArray nonce)
{
    if (nonce.isEmpty()) {
        QByteArray random(16, Qt::Uninitialized);
        QRandomGenerator::system()->generate(random.begin(), random.end());
        nonce = random.toHex();
    }
    const QByteArray signature = identity.sign(canonicalRequest(method, pathAndQuery, timestampMs, nonce, body));
    return {
        {signing::kKeyHeader, identity.publicKey().toBase64()},
        {signing::kTimestampHeader, QByteArray::number(timestampMs)},
        {signing::kNonceHeader, nonce},
        {signing::kSignatureHeader, signature.toBase64()},
    };
}

RequestVerifier::RequestVerifier(ReplayGuard &replays, qint64 windowMs) : m_replays(replays), m_windowMs(windowMs) {}

bool RequestVerifier::verify(const QByteArray &method, const QByteArray &pathAndQuery, const HeaderLookup &header,
                             const QByteArray &body, qint64 nowMs, VerifiedRequest *out, VerificationError *error)
{
    const auto refuse = [error](int status, const char *code, QString message) {
        if (error)
            *error = VerificationError{status, QLatin1String(code), std::move(message)};
        return false;
    };
    const QByteArray keyB64 = header(signing::kKeyHeader);
    const QByteArray timestamp = header(signing::kTimestampHeader);
    const QByteArray nonce = header(signing::kNonceHeader);
    const QByteArray signatureB64 = header(signing::kSignatureHeader);
    if (keyB64.isEmpty() || timestamp.isEmpty() || nonce.isEmpty() || signatureB64.isEmpty())
        return refuse(401, "unsigned", QStringLiteral("this endpoint needs a signed request (X-Cohort-Key, -Timestamp, -Nonce, -Signature)"));

    // Bound every header before decoding: these bytes come from anyone.
    if (keyB64.size() > 64 || signatureB64.size() > 128 || timestamp.size() > 20 || nonce.size() < 16 || nonce.size() > 64)
        return refuse(400, "bad_header", QStringLiteral("a signing header has the wrong length"));
    for (char c : nonce)
        if (!std::isxdigit(static_cast<unsigned char>(c)))
            return refuse(400, "bad_header", QStringLiteral("the nonce must be hexadecimal"));
    const auto key = QByteArray::fromBase64Encoding(keyB64, QByteArray::AbortOnBase64DecodingErrors);
    const auto signature = QByteArray::fromBase64Encoding(signatureB64, QByteArray::AbortOnBase64DecodingErrors);
    if (!key || key.decoded.size() != ed25519::kPublicKeyBytes)
        return refuse(400, "bad_header", QStringLiteral("X-Cohort-Key is not a base64 ed25519 public key"));
    if (!signature || signature.decoded.size() != ed25519::kSignatureBytes)
        return refuse(400, "bad_header", QStringLiteral("X-Cohort-Signature is not a base64 ed25519 signature"));
    bool numeric = false;
    const qint64 ts = timestamp.toLongLong(&numeric);
    if (!numeric)
        return refuse(400, "bad_header", QStringLiteral("X-Cohort-Timestamp is not a number of milliseconds"));

    if (!ed25519::verify(canonicalRequest(method, pathAndQuery, ts, nonce, body), signature.decoded, key.decoded))
        return refuse(401, "bad_signature", QStringLiteral("the signature does not match the request"));
    // Checked after the signature so that an attacker cannot probe the clock window with garbage.
    if (qAbs(nowMs - ts) > m_windowMs)
        return refuse(401, "stale",
                      QStringLiteral("the request time is %1 s away from the hub's clock (allowed: %2 s); check the system clock")
                          .arg((ts - nowMs) / 1000)
                          .arg(m_windowMs / 1000));
    if (!m_replays.admit(key.decoded, nonce, ts, nowMs))
        return refuse(401, "replayed", QStringLiteral("this request (nonce) was already used"));
    if (out)
        out->publicKey = key.decoded;
    return true;
}

} // namespace cohort
