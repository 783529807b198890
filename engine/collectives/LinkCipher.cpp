#include "collectives/LinkCipher.h"

#include <sodium.h>

#include <cstring>

namespace cohort::collectives {

namespace {

// BLAKE2b-256 over the X25519 shared secret, both public keys and the link's context: the link key.
std::array<uint8_t, kLinkKeyBytes> linkKey(const uint8_t *shared, const uint8_t *ephemeralPublic,
                                           const uint8_t *listenerCurve, QByteArrayView context)
{
    static constexpr char kLabel[] = "cohort-ring-link-v1";
    crypto_generichash_state state;
    crypto_generichash_init(&state, nullptr, 0, kLinkKeyBytes);
    crypto_generichash_update(&state, reinterpret_cast<const uint8_t *>(kLabel), sizeof kLabel);
    crypto_generichash_update(&state, shared, crypto_scalarmult_BYTES);
    crypto_generichash_update(&state, ephemeralPublic, crypto_scalarmult_BYTES);
    crypto_generichash_update(&state, listenerCurve, crypto_scalarmult_BYTES);
    crypto_generichash_update(&state, reinterpret_cast<const uint8_t *>(context.data()), size_t(context.size()));
    std::array<uint8_t, kLinkKeyBytes> key{};
    crypto_generichash_final(&state, key.data(), key.size());
    return key;
}

} // namespace

const char *linkProtectionName(LinkProtection protection)
{
    switch (protection) {
    case LinkProtection::None: return "none";
    case LinkProtection::Integrity: return "integrity";
    case LinkProtection::Encryption: return "encryption";
    }
    return "?";
}

std::optional<LinkProtection> linkProtectionFromName(QByteArrayView name)
{
    for (const LinkProtection p : {LinkProtection::None, LinkProtection::Integrity, LinkProtection::Encryption})
        if (name == QByteArrayView(linkProtectionName(p)))
            return p;
    return std::nullopt;
}

std::optional<LinkCipher::Dialed> LinkCipher::dial(LinkProtection mode, QByteArrayView listenerPublicKey,
                                                   QByteArrayView context)
{
    if (sodium_init() < 0 || listenerPublicKey.size() != crypto_sign_PUBLICKEYBYTES)
        return std::nullopt;
    uint8_t listenerCurve[crypto_scalarmult_BYTES];
    if (crypto_sign_ed25519_pk_to_curve25519(listenerCurve,
                                             reinterpret_cast<const uint8_t *>(listenerPublicKey.data())) != 0)
        return std::nullopt;
    uint8_t secret[crypto_scalarmult_SCALARBYTES], ephemeral[crypto_scalarmult_BYTES], shared[crypto_scalarmult_BYTES];
    randombytes_buf(secret, sizeof secret);
    crypto_scalarmult_base(ephemeral, secret);
    const bool ok = crypto_scalarmult(shared, secret, listenerCurve) == 0;
    sodium_memzero(secret, sizeof secret);
    if (!ok)
        return std::nullopt;
    Dialed dialed;
    dialed.cipher.m_mode = mode;
    dialed.cipher.m_key = linkKey(shared, ephemeral, listenerCurve, context);
    sodium_memzero(shared, sizeof shared);
    dialed.ephemeralPublicKey = QByteArray(reinterpret_cast<const char *>(ephemeral), sizeof ephemeral);
    return dialed;
}

std::optional<LinkCipher> LinkCipher::accept(LinkProtection mode, QByteArrayView ephemeralPublicKey,
                                             QByteArrayView ownSecretKey, QByteArrayView context)
{
    if (sodium_init() < 0 || ephemeralPublicKey.size() != crypto_scalarmult_BYTES ||
        ownSecretKey.size() != crypto_sign_SECRETKEYBYTES)
        return std::nullopt;
    uint8_t ownCurveSecret[crypto_scalarmult_SCALARBYTES], ownCurvePublic[crypto_scalarmult_BYTES],
        shared[crypto_scalarmult_BYTES];
    if (crypto_sign_ed25519_sk_to_curve25519(ownCurveSecret, reinterpret_cast<const uint8_t *>(ownSecretKey.data())) !=
        0)
        return std::nullopt;
    crypto_scalarmult_base(ownCurvePublic, ownCurveSecret);
    const auto *ephemeral = reinterpret_cast<const uint8_t *>(ephemeralPublicKey.data());
    // A low-order point gives an all-zero secret: crypto_scalarmult refuses it.
    const bool ok = crypto_scalarmult(shared, ownCurveSecret, ephemeral) == 0;
    sodium_memzero(ownCurveSecret, sizeof ownCurveSecret);
    if (!ok)
        return std::nullopt;
    LinkCipher cipher;
    cipher.m_mode = mode;
    cipher.m_key = linkKey(shared, ephemeral, ownCurvePublic, context);
    sodium_memzero(shared, sizeof shared);
    return cipher;
}

std::array<uint8_t, 12> LinkCipher::nextNonce()
{
    std::array<uint8_t, 12> nonce{};
    const uint64_t n = m_counter++;
    for (int i = 0; i < 8; ++i)
        nonce[size_t(i)] = uint8_t(n >> (8 * i));
    return nonce;
}

void LinkCipher::tag(uint8_t *out, const uint8_t *data, size_t len, const uint8_t *ad, size_t adLen,
                     const uint8_t *nonce) const
{
    // Integrity only: Poly1305 under a key used once, the first 32 bytes of ChaCha20(link key, nonce) — the
    // construction ChaCha20-Poly1305 uses, without encrypting the payload.
    uint8_t oneTime[crypto_onetimeauth_KEYBYTES];
    crypto_stream_chacha20_ietf(oneTime, sizeof oneTime, nonce, m_key.data());
    crypto_onetimeauth_state state;
    crypto_onetimeauth_init(&state, oneTime);
    crypto_onetimeauth_update(&state, ad, adLen);
    crypto_onetimeauth_update(&state, data, len);
    crypto_onetimeauth_final(&state, out);
    sodium_memzero(oneTime, sizeof oneTime);
}

void LinkCipher::seal(uint8_t *dst, const uint8_t *src, size_t len, const uint8_t *ad, size_t adLen)
{
    const auto nonce = nextNonce();
    if (m_mode == LinkProtection::Integrity) {
        if (dst != src)
            std::memcpy(dst, src, len);
        tag(dst + len, dst, len, ad, adLen, nonce.data());
        return;
    }
    crypto_aead_chacha20poly1305_ietf_encrypt_detached(dst, dst + len, nullptr, src, len, ad, adLen, nullptr,
                                                       nonce.data(), m_key.data());
}

bool LinkCipher::open(uint8_t *dst, const uint8_t *src, size_t len, const uint8_t *ad, size_t adLen)
{
    const auto nonce = nextNonce();
    if (m_mode == LinkProtection::Integrity) {
        uint8_t expected[kLinkTagBytes];
        tag(expected, src, len, ad, adLen, nonce.data());
        if (sodium_memcmp(expected, src + len, kLinkTagBytes) != 0)
            return false;
        if (dst != src)
            std::memcpy(dst, src, len);
        return true;
    }
    return crypto_aead_chacha20poly1305_ietf_decrypt_detached(dst, nullptr, src, len, src + len, ad, adLen,
                                                              nonce.data(), m_key.data()) == 0;
}

} // namespace cohort::collectives
