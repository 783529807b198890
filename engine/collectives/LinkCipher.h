#pragma once
// Ring link protection (CommunicatorOptions::linkProtection): every block on a ring link authenticated with Poly1305
// (integrity) or sealed with ChaCha20-Poly1305 (IETF, libsodium; encryption too) under a key only the link's two
// ends can compute. The dialer makes an ephemeral
// X25519 key for the link and sends its public half in the PeerHello, which its node key signs; the key is the
// ephemeral secret with the listener's node key (converted to X25519), so a path between the two can neither read a
// block nor change one unnoticed — and cannot swap in its own ephemeral key without forging the dialer's signature.
// One direction per link, as the ring's links are: the dialer seals, the listener opens; the nonce is the block
// counter (both ends count the same blocks on one TCP stream; a link that breaks is closed and linked afresh).
#include <QByteArray>
#include <QByteArrayView>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace cohort::collectives {

inline constexpr size_t kLinkKeyBytes = 32;
inline constexpr size_t kLinkTagBytes = 16;

// What a group's ring links carry (a task setting; in every PeerHello, and a link whose ends disagree is refused).
enum class LinkProtection : uint8_t {
    None = 0,
    Integrity = 1,  // the payload as is, with a Poly1305 tag (one-time key per block from ChaCha20 of the link key)
    Encryption = 2, // the payload sealed with ChaCha20-Poly1305
};
const char *linkProtectionName(LinkProtection protection);
std::optional<LinkProtection> linkProtectionFromName(QByteArrayView name); // "none", "integrity", "encryption"

class LinkCipher {
public:
    struct Dialed;
    // Dialer: a fresh ephemeral key, and the link key with the listener's ed25519 public key. `context` names the
    // link (epoch, both peer ids, link index): the same ephemeral key cannot key another link.
    static std::optional<Dialed> dial(LinkProtection mode, QByteArrayView listenerPublicKey, QByteArrayView context);
    // Listener: the link key from the dialer's ephemeral public key and its own ed25519 secret key (64 bytes).
    static std::optional<LinkCipher> accept(LinkProtection mode, QByteArrayView ephemeralPublicKey,
                                            QByteArrayView ownSecretKey, QByteArrayView context);

    // Seals len bytes from src into dst (may be src), the tag after them (dst + len); ad is authenticated, not sealed.
    void seal(uint8_t *dst, const uint8_t *src, size_t len, const uint8_t *ad, size_t adLen);
    // Opens len bytes of sealed data at src (the tag at src + len) into dst; false when the tag does not match.
    bool open(uint8_t *dst, const uint8_t *src, size_t len, const uint8_t *ad, size_t adLen);

private:
    LinkCipher() = default;
    std::array<uint8_t, 12> nextNonce();
    void tag(uint8_t *out, const uint8_t *data, size_t len, const uint8_t *ad, size_t adLen,
             const uint8_t *nonce) const;
    LinkProtection m_mode = LinkProtection::Encryption;
    std::array<uint8_t, kLinkKeyBytes> m_key{};
    uint64_t m_counter = 0;
};

struct LinkCipher::Dialed {
    LinkCipher cipher;
    QByteArray ephemeralPublicKey; // 32 bytes, for the PeerHello
};

} // namespace cohort::collectives
