#pragma once
// Signed HTTP requests between node and hub, and the hub's signed answers.
//
// A request's signature covers
//   "cohort-request-v2\n" HUB_KEY_BASE64 "\n" METHOD "\n" PATH?QUERY "\n" TIMESTAMP_MS "\n" NONCE "\n"
//   hex(SHA-256(body))
// (v1: the same without the hub line, for a node's first contact, before it knows the hub's key) and travels in
// headers: X-Cohort-Key (base64 public key), X-Cohort-Timestamp (ms since the epoch, UTC), X-Cohort-Nonce (32 hex
// digits, fresh per request), X-Cohort-Signature (base64 ed25519 signature) and, for v2, X-Cohort-Hub (the base64
// key of the hub it is meant for: a captured request is worthless at another hub). The hub accepts a request only
// if the signature verifies, it names this hub (or none), the timestamp lies within the clock window, and the
// (key, nonce) pair was not seen inside that window.
//
// Every answer to a signed request carries X-Cohort-Reply-Signature: the hub's ed25519 signature over
//   "cohort-reply-v1\n" STATUS "\n" REQUEST_NONCE "\n" hex(SHA-256(body))
// so a node that pinned the hub's key refuses answers rewritten on the way (or replayed from another request).
#include "core/Expected.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <functional>
#include <optional>

namespace cohort {

class Identity;
class ReplayGuard;

namespace signing {
inline constexpr char kKeyHeader[] = "X-Cohort-Key";
inline constexpr char kTimestampHeader[] = "X-Cohort-Timestamp";
inline constexpr char kNonceHeader[] = "X-Cohort-Nonce";
inline constexpr char kSignatureHeader[] = "X-Cohort-Signature";
inline constexpr char kHubHeader[] = "X-Cohort-Hub";
inline constexpr char kReplySignatureHeader[] = "X-Cohort-Reply-Signature";
// The key that signed the answer (base64): lets a node tell another hub (a valid signature by another key) from an
// answer rewritten on the way (no valid signature at all). It earns no trust by itself.
inline constexpr char kReplyKeyHeader[] = "X-Cohort-Reply-Key";
inline constexpr qint64 kDefaultWindowMs = 5 * 60 * 1000;
} // namespace signing

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

// hubKey empty: the v1 string (names no hub).
QByteArray canonicalRequest(const QByteArray &method, const QByteArray &pathAndQuery, qint64 timestampMs,
                            const QByteArray &nonce, const QByteArray &body, const QByteArray &hubKey = {});

// Headers to add to a request. nonce empty: a fresh random one. hubKey (raw 32 bytes): the hub the request is for
// (v2); empty: v1, for the first contact.
HeaderList signRequest(const Identity &identity, const QByteArray &method, const QByteArray &pathAndQuery,
                       const QByteArray &body, qint64 timestampMs, QByteArray nonce = {},
                       const QByteArray &hubKey = {});
QByteArray freshNonce(); // 32 hex digits from the system's random source

QByteArray canonicalReply(int status, const QByteArray &requestNonce, const QByteArray &body);
// True if `signatureB64` is the hub's signature of this answer.
bool verifyReply(int status, const QByteArray &requestNonce, const QByteArray &body, const QByteArray &signatureB64,
                 const QByteArray &hubKey);

struct VerifiedRequest {
    QByteArray publicKey;
};

struct VerificationError {
    int httpStatus = 401;
    QString
        code; // "unsigned", "bad_signature", "stale", "replayed", "bad_header", "rate_limited", "busy", or keyCheck's
    QString message;     // for the client's log
    int retryAfterS = 0; // > 0: sent as Retry-After
};

class RequestVerifier {
public:
    using HeaderLookup = std::function<QByteArray(const QByteArray &name)>;
    RequestVerifier(ReplayGuard &replays, qint64 windowMs = signing::kDefaultWindowMs);
    // The hub's own key (raw): requests naming another hub are refused (421 wrong_hub).
    void setHubKey(const QByteArray &hubKey) { m_hubKey = hubKey; }

    // Decides, once signature and clock are good, whether this key may use the replay guard at all (the hub:
    // registered keys only, except on the registration route). An error refuses the request.
    using KeyCheck = std::function<std::optional<VerificationError>(const QByteArray &publicKey)>;

    // Returns the signer's public key, or why the request is refused.
    bool verify(const QByteArray &method, const QByteArray &pathAndQuery, const HeaderLookup &header,
                const QByteArray &body, qint64 nowMs, VerifiedRequest *out, VerificationError *error,
                const KeyCheck &keyCheck = {});

private:
    ReplayGuard &m_replays;
    qint64 m_windowMs;
    QByteArray m_hubKey;
};

} // namespace cohort
