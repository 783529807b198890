#include "shardcast/Manifest.h"

#include "core/JsonReader.h"
#include "core/TaskInfo.h"
#include "net/Ed25519.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace cohort::shardcast {

QByteArray signingMessage(const QByteArray &manifestBytes)
{
    return QByteArrayLiteral("cohort-manifest-v1\n") + manifestBytes;
}

QString shardFileName(int index)
{
    return QStringLiteral("shard_%1.bin").arg(index + 1, 5, 10, QLatin1Char('0'));
}

QString versionDirName(int version)
{
    return QStringLiteral("v%1").arg(version);
}

bool isSafeName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"));
    return re.match(name).hasMatch() && !name.contains(QStringLiteral(".."));
}

QByteArray Manifest::toJson() const
{
    QJsonArray shardArray;
    for (const ShardInfo &s : shards)
        shardArray.append(QJsonObject{{QStringLiteral("size"), s.size},
                                      {QStringLiteral("sha256"), QString::fromLatin1(s.sha256.toHex())}});
    const QJsonObject o{
        {QStringLiteral("format"), QStringLiteral("cohort-shardcast-v1")},
        {QStringLiteral("task"), task},
        {QStringLiteral("version"), version},
        {QStringLiteral("file_name"), fileName},
        {QStringLiteral("file_size"), fileSize},
        {QStringLiteral("file_sha256"), QString::fromLatin1(fileSha256.toHex())},
        {QStringLiteral("shard_size"), shardSize},
        {QStringLiteral("shards"), shardArray},
        {QStringLiteral("created"), created.toUTC().toString(Qt::ISODate)},
    };
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

namespace {
bool parseHash(const QString &hex, QByteArray *out)
{
    static const QRegularExpression re(QStringLiteral("^[0-9a-f]{64}$"));
    if (!re.match(hex).hasMatch())
        return false;
    *out = QByteArray::fromHex(hex.toLatin1());
    return true;
}
} // namespace

Expected<Manifest> Manifest::parse(const QByteArray &json)
{
    auto object = parseJsonObject(json, kMaxManifestBytes);
    if (!object)
        return fail(QStringLiteral("manifest: ") + object.error());
    JsonReader r(*object, QStringLiteral("manifest"));
    Manifest m;
    const QString format = r.string(QStringLiteral("format"), 64);
    m.task = r.string(QStringLiteral("task"), 64);
    m.version = int(r.integer(QStringLiteral("version"), 1, 1'000'000'000));
    m.fileName = r.string(QStringLiteral("file_name"), 128);
    m.fileSize = r.integer(QStringLiteral("file_size"), 1, kMaxFileSize);
    const QString fileHash = r.string(QStringLiteral("file_sha256"), 64);
    m.shardSize = r.integer(QStringLiteral("shard_size"), kMinShardSize, kMaxShardSize);
    const QJsonArray shards = r.optionalArray(QStringLiteral("shards"), 1'000'000);
    m.created = QDateTime::fromString(r.string(QStringLiteral("created"), 64), Qt::ISODate);
    if (!r.ok())
        return fail(r.error());
    if (format != QLatin1String("cohort-shardcast-v1"))
        return fail(QStringLiteral("manifest: unknown format '%1'").arg(format));
    if (!TaskInfo::isValidId(m.task))
        return fail(QStringLiteral("manifest: '%1' is not a task id").arg(m.task));
    if (!isSafeName(m.fileName))
        return fail(QStringLiteral("manifest: unsafe file name '%1'").arg(m.fileName));
    if (!parseHash(fileHash, &m.fileSha256))
        return fail(QStringLiteral("manifest: file_sha256 is not 64 lower-case hex digits"));
    if (!m.created.isValid())
        return fail(QStringLiteral("manifest: 'created' is not an ISO date"));
    const qint64 expectedCount = (m.fileSize + m.shardSize - 1) / m.shardSize;
    if (shards.size() != expectedCount)
        return fail(QStringLiteral("manifest: %1 bytes in %2-byte shards make %3 shards, but %4 are listed")
                        .arg(m.fileSize)
                        .arg(m.shardSize)
                        .arg(expectedCount)
                        .arg(shards.size()));
    qint64 total = 0;
    for (qsizetype i = 0; i < shards.size(); ++i) {
        JsonReader s(shards[i].toObject(), QStringLiteral("manifest shard %1").arg(i + 1));
        if (!shards[i].isObject())
            return fail(QStringLiteral("manifest shard %1: not an object").arg(i + 1));
        ShardInfo info;
        info.size = s.integer(QStringLiteral("size"), 1, m.shardSize);
        const QString hash = s.string(QStringLiteral("sha256"), 64);
        if (!s.ok())
            return fail(s.error());
        if (!parseHash(hash, &info.sha256))
            return fail(QStringLiteral("manifest shard %1: sha256 is not 64 lower-case hex digits").arg(i + 1));
        const bool last = i == shards.size() - 1;
        if (!last && info.size != m.shardSize)
            return fail(QStringLiteral("manifest shard %1: size %2 but every shard except the last must be %3")
                            .arg(i + 1)
                            .arg(info.size)
                            .arg(m.shardSize));
        total += info.size;
        m.shards.append(info);
    }
    if (total != m.fileSize)
        return fail(
            QStringLiteral("manifest: shard sizes add up to %1, not the file size %2").arg(total).arg(m.fileSize));
    return m;
}

QByteArray SignedManifest::signatureFileBytes() const
{
    return QJsonDocument(QJsonObject{{QStringLiteral("key"), QString::fromLatin1(key.toBase64())},
                                     {QStringLiteral("signature"), QString::fromLatin1(signature.toBase64())}})
        .toJson(QJsonDocument::Compact);
}

Expected<SignedManifest> SignedManifest::verify(const QByteArray &bytes, const QByteArray &signatureFile,
                                                const QByteArray &pinnedHubKey)
{
    if (pinnedHubKey.size() != ed25519::kPublicKeyBytes)
        return fail(QStringLiteral("no pinned hub key to check the manifest against"));
    auto sigJson = parseJsonObject(signatureFile, 4096);
    if (!sigJson)
        return fail(QStringLiteral("manifest signature: ") + sigJson.error());
    JsonReader r(*sigJson, QStringLiteral("manifest signature"));
    SignedManifest out;
    out.key = QByteArray::fromBase64(r.string(QStringLiteral("key"), 64).toLatin1());
    out.signature = QByteArray::fromBase64(r.string(QStringLiteral("signature"), 128).toLatin1());
    if (!r.ok())
        return fail(r.error());
    if (out.key != pinnedHubKey)
        return fail(QStringLiteral("the manifest is signed by key %1, not by the hub this node trusts (%2)")
                        .arg(ed25519::fingerprint(out.key), ed25519::fingerprint(pinnedHubKey)));
    if (!ed25519::verify(signingMessage(bytes), out.signature, pinnedHubKey))
        return fail(QStringLiteral("the manifest signature does not verify: the manifest was altered or forged"));
    auto manifest = Manifest::parse(bytes);
    if (!manifest)
        return fail(manifest.error());
    out.bytes = bytes;
    out.manifest = std::move(manifest).value();
    return out;
}

} // namespace cohort::shardcast
