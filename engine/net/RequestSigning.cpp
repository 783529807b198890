#include "net/RequestSigning.h"

#include "core/Sha256.h"
#include "net/Ed25519.h"
#include "net/Identity.h"
#include "net/ReplayGuard.h"

#include <QRandomGenerator>

#include <cctype>

namespace cohort {

QByteArray canonicalRequest(const QByteArray &method, const QByteArray &pathAndQuery, qint64 timestampMs,
                            const QByteArray &nonce, const QByteArray &body, const QByteArray &hubKey)
{
    const QByteArray head = hubKey.isEmpty() ? QByteArrayLiteral("cohort-request-v1\n")
                                             : QByteArrayLiteral("cohort-request-v2\n") + hubKey.toBase64() + '\n';
    return head + method.toUpper() + '\n' + pathAndQuery + '\n' + QByteArray::number(timestampMs) + '\n' + nonce +
           '\n' + Sha256::hashHex(body);
}

QByteArray freshNonce()
{
    QByteArray random(16, Qt::Uninitialized);
    QRandomGenerator::system()->generate(random.begin(), random.end());
    return random.toHex();
}

HeaderList signRequest(const Identity &identity, const QByteArray &method, const QByteArray &pathAndQuery,
                       const QByteArray &body, qint64 timestampMs, QByteArray nonce, const QByteArray &hubKey)
{
    if (nonce.isEmpty())
        nonce = freshNonce();
    const QByteArray signature =
        identity.sign(canonicalRequest(method, pathAndQuery, timestampMs, nonce, body, hubKey));
    HeaderList headers{
        {signing::kKeyHeader, identity.publicKey().toBase64()},
        {signing::kTimestampHeader, QByteArray::number(timestampMs)},
        {signing::kNonceHeader, nonce},
        {signing::kSignatureHeader, signature.toBase64()},
    };
    if (!hubKey.isEmpty())
        headers.append({signing::kHubHeader, hubKey.toBase64()});
    return headers;
}

QByteArray canonicalReply(int status, const QByteArray &requestNonce, const QByteArray &body)
{
    return QByteArrayLiteral("cohort-reply-v1\n") + QByteArray::number(status) + '\n' + requestNonce + '\n' +
           Sha256::hashHex(body);
}

bool verifyReply(int status, const QByteArray &requestNonce, const QByteArray &body, const QByteArray &signatureB64,
                 const QByteArray &hubKey)
{
    if (signatureB64.size() > 128 || hubKey.size() != ed25519::kPublicKeyBytes)
        return false;
    const auto signature = QByteArray::fromBase64Encoding(signatureB64, QByteArray::AbortOnBase64DecodingErrors);
    return signature && signature.decoded.size() == ed25519::kSignatureBytes &&
           ed25519::verify(canonicalReply(status, requestNonce, body), signature.decoded, hubKey);
}

RequestVerifier::RequestVerifier(ReplayGuard &replays, qint64 windowMs)
    : m_replays(replays),
      m_windowMs(windowMs)
{}

bool RequestVerifier::verify(const QByteArray &method, const QByteArray &pathAndQuery, const HeaderLookup &header,
                             const QByteArray &body, qint64 nowMs, VerifiedRequest *out, VerificationError *error,
                             const KeyCheck &keyCheck)
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
        return refuse(
            401, "unsigned",
            QStringLiteral("this endpoint needs a signed request (X-Cohort-Key, -Timestamp, -Nonce, -Signature)"));

    // Bound every header before decoding: these bytes come from anyone.
    if (keyB64.size() > 64 || signatureB64.size() > 128 || timestamp.size() > 20 || nonce.size() < 16 ||
        nonce.size() > 64)
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
    // v2 names the hub it is for; another hub's request is refused before any work is spent on it.
    QByteArray hubKey;
    if (const QByteArray hubB64 = header(signing::kHubHeader); !hubB64.isEmpty()) {
        const auto named = QByteArray::fromBase64Encoding(hubB64.left(64), QByteArray::AbortOnBase64DecodingErrors);
        if (!named || named.decoded.size() != ed25519::kPublicKeyBytes)
            return refuse(400, "bad_header", QStringLiteral("X-Cohort-Hub is not a base64 ed25519 public key"));
        if (!m_hubKey.isEmpty() && named.decoded != m_hubKey)
            return refuse(421, "wrong_hub", QStringLiteral("this request was signed for another hub"));
        hubKey = named.decoded;
    }

    if (!ed25519::verify(canonicalRequest(method, pathAndQuery, ts, nonce, body, hubKey), signature.decoded,
                         key.decoded))
        return refuse(401, "bad_signature", QStringLiteral("the signature does not match the request"));
    // Checked after the signature so that an attacker cannot probe the clock window with garbage.
    if (qAbs(nowMs - ts) > m_windowMs)
        return refuse(
            401, "stale",
            QStringLiteral("the request time is %1 s away from the hub's clock (allowed: %2 s); check the system clock")
                .arg((ts - nowMs) / 1000)
                .arg(m_windowMs / 1000));
    if (keyCheck)
        if (std::optional<VerificationError> refused = keyCheck(key.decoded)) {
            if (error)
                *error = *refused;
            return false;
        }
    switch (m_replays.admit(key.decoded, nonce, ts, nowMs)) {
    case ReplayGuard::Admission::Admitted: break;
    case ReplayGuard::Admission::Replayed:
        return refuse(401, "replayed", QStringLiteral("this request (nonce) was already used"));
    case ReplayGuard::Admission::KeyFull:
        if (error)
            *error = VerificationError{
                429, QStringLiteral("rate_limited"),
                QStringLiteral("this key sent too many requests in the last %1 s; slow down").arg(m_windowMs / 1000),
                30};
        return false;
    case ReplayGuard::Admission::Full:
        if (error)
            *error = VerificationError{503, QStringLiteral("busy"),
                                       QStringLiteral("the hub is overloaded; try again shortly"), 10};
        return false;
    }
    if (out)
        out->publicKey = key.decoded;
    return true;
}

} // namespace cohort
