#pragma once
// A SHARDCAST manifest: what version N of a task's checkpoint is, shard by shard.
//
// On a relay it is two files: manifest.json (the exact bytes that were signed) and manifest.json.sig
// ({"key": base64 hub public key, "signature": base64 ed25519 signature over "cohort-manifest-v1\n" + bytes}).
// Signing the exact bytes means no canonical re-serialisation is needed to verify, on any Qt version.
#include "core/Expected.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

namespace cohort::shardcast {

inline constexpr qint64 kDefaultShardSize = 32LL << 20;
inline constexpr qint64 kMinShardSize = 4 << 10;
inline constexpr qint64 kMaxShardSize = 1LL << 30;
inline constexpr qint64 kMaxFileSize = 1LL << 40;     // 1 TiB
inline constexpr qint64 kMaxManifestBytes = 16 << 20; // room for ~100k shards

struct ShardInfo {
    qint64 size = 0;
    QByteArray sha256; // 32 raw bytes
    bool operator==(const ShardInfo &) const = default;
};

struct Manifest {
    QString task;
    int version = 0;
    QString fileName = QStringLiteral("model.safetensors");
    qint64 fileSize = 0;
    QByteArray fileSha256; // 32 raw bytes
    qint64 shardSize = kDefaultShardSize;
    QList<ShardInfo> shards;
    QDateTime created;

    qint64 shardOffset(int index) const { return qint64(index) * shardSize; } // 0-based
    QByteArray toJson() const;                                                // the bytes that get signed
    static Expected<Manifest> parse(const QByteArray &json);                  // strict: sizes must add up
    bool operator==(const Manifest &) const = default;
};

struct SignedManifest {
    QByteArray bytes;     // manifest.json exactly as signed
    QByteArray signature; // 64 raw bytes
    QByteArray key;       // 32 raw bytes: the signer's public key (must equal the pinned hub key)
    Manifest manifest;    // parsed from bytes

    QByteArray signatureFileBytes() const; // manifest.json.sig
    // Verifies the signature against the pinned hub key first, then parses.
    static Expected<SignedManifest> verify(const QByteArray &bytes, const QByteArray &signatureFile,
                                           const QByteArray &pinnedHubKey);
};

QByteArray signingMessage(const QByteArray &manifestBytes);
QString shardFileName(int index);     // 0-based index -> "shard_00001.bin"
QString versionDirName(int version);  // "v7"
bool isSafeName(const QString &name); // one path segment: no separators, no "..", printable ASCII

} // namespace cohort::shardcast
