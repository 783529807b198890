#pragma once
// Signed HTTP requests between node and hub.
//
// The signature covers   "cohort-request-v1\n" METHOD "\n" PATH?QUERY "\n" TIMESTAMP_MS "\n" NONCE "\n" hex(SHA-256(body))
// and travels in four headers: X-Cohort-Key (base64 public key), X-Cohort-Timestamp (ms since the epoch, UTC),
// X-Cohort-Nonce (32 hex digits, fresh per request) and X-Cohort-Signature (base64 ed25519 signature).
// The hub accepts a request only if the signature verifies, the timestamp lies within the clock window,
// and the (key, nonce) pair was not seen inside that window.
#include "core/Expected.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <functional>

namespace cohort {

class Identity;
class ReplayGuard;

namespace signing {
inline constexpr char kKeyHeader[] = "X-Cohort-Key";
inline constexpr char kTimestampHeader[] = "X-Cohort-Timestamp";
inline constexpr char kNonceHeader[] = "X-Cohort-Nonce";
inline constexpr char kSignatureHeader[] = "X-Cohort-Signature";
inline constexpr qint64 kDefaultWindowMs = 5 * 60 * 1000;
} // namespace signing

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

QByteArray canonicalRequest(const QByteArray &method, const QByteArray &pathAndQuery, qint64 timestampMs,
                            const QByteArray &nonce, const QByteArray &body);

// Headers to add to a request. nonce empty: a fresh random one.
HeaderList signRequest(const Identity &identity, const QByteArray &method, const QByteArray &pathAndQuery,
                       const QByteArray &body, qint64 timestampMs, QByteArray nonce = {});

struct VerifiedRequest {
    QByteArray publicKey;
};

struct VerificationError {
    int httpStatus = 401;
    QString code;    // "unsigned", "bad_signature", "stale", "replayed", "bad_header"
    QString message; // for the client's log
};

class RequestVerifier {
public:
    using HeaderLookup = std::function<QByteArray(const QByteArray &name)>;
    RequestVerifier(ReplayGuard &replays, qint64 windowMs = signing::kDefaultWindowMs);

    // Returns the signer's public key, or why the request is refused.
    bool verify(const QByteArray &method, const QByteArray &pathAndQuery, const HeaderLookup &header,
                const QByteArray &body, qint64 nowMs, VerifiedRequest *out, VerificationError *error);

private:
    ReplayGuard &m_replays;
    qint64 m_windowMs;
};

} // namespace cohort
