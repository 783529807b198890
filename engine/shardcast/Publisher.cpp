#include "shardcast/Publisher.h"

#include "core/JsonReader.h"
#include "core/Logging.h"
#include "core/Sha256.h"
#include "core/TaskInfo.h"
#include "net/Identity.h"
#include "store/safetensors/Safetensors.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <algorithm>

namespace cohort::shardcast {

namespace {
Status writeFileAtomically(const QString &path, const QByteArray &bytes)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return fail(QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
    f.write(bytes);
    if (!f.commit())
        return fail(QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
    return {};
}
} // namespace

QList<int> readIndex(const QString &treeRoot, const QString &taskId, QString *error)
{
    QFile f(QDir(treeRoot).filePath(taskId + QStringLiteral("/index.json")));
    if (!f.exists())
        return {};
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = f.errorString();
        return {};
    }
    auto json = parseJsonObject(f.read(1 << 20));
    if (!json) {
        if (error)
            *error = json.error();
        return {};
    }
    QList<int> versions;
    for (const QJsonValue &v : json->value(QStringLiteral("versions")).toArray())
        if (v.isDouble() && v.toInt() > 0)
            versions.append(v.toInt());
    std::sort(versions.begin(), versions.end());
    return versions;
}

Publisher::Publisher(QString treeRoot, const Identity &hubIdentity, qint64 shardSize, int keepVersions)
    : m_root(std::move(treeRoot)),
      m_identity(hubIdentity),
      m_shardSize(shardSize),
      m_keep(std::max(1, keepVersions))
{}

QList<int> Publisher::versions(const QString &taskId) const
{
    return readIndex(m_root, taskId);
}

Status commitVersion(const QString &treeRoot, const QString &taskId, const QString &stagedDir, int version, int keep)
{
    const QDir taskDir(QDir(treeRoot).filePath(taskId));
    const QString finalDir = taskDir.filePath(versionDirName(version));
    QDir(finalDir).removeRecursively(); // a leftover from a run that crashed before the index was written
    if (!QDir().rename(stagedDir, finalDir))
        return fail(QStringLiteral("cannot move %1 into place").arg(stagedDir));
    QList<int> versions = readIndex(treeRoot, taskId);
    if (!versions.contains(version))
        versions.append(version);
    std::sort(versions.begin(), versions.end());
    const QList<int> kept = versions.mid(std::max<qsizetype>(0, versions.size() - std::max(1, keep)));
    QJsonArray array;
    for (int v : kept)
        array.append(v);
    const QJsonObject index{{QStringLiteral("task"), taskId},
                            {QStringLiteral("versions"), array},
                            {QStringLiteral("latest"), kept.isEmpty() ? 0 : kept.last()}};
    if (Status s = writeFileAtomically(taskDir.filePath(QStringLiteral("index.json")), QJsonDocument(index).toJson());
        !s)
        return s;
    for (int old : versions)
        if (!kept.contains(old))
            QDir(taskDir.filePath(versionDirName(old))).removeRecursively();
    return {};
}

Expected<SignedManifest> Publisher::publish(const QString &taskId, const QString &checkpointPath)
{
    if (!TaskInfo::isValidId(taskId))
        return fail(QStringLiteral("'%1' is not a task id").arg(taskId));
    if (m_shardSize < kMinShardSize || m_shardSize > kMaxShardSize)
        return fail(
            QStringLiteral("shard size %1 is outside [%2, %3]").arg(m_shardSize).arg(kMinShardSize).arg(kMaxShardSize));
    // Only well-formed safetensors files are published: nodes load them as model weights.
    if (const auto header = safetensors::readHeaderFromFile(checkpointPath.toStdString()); !header)
        return fail(QStringLiteral("%1 is not a valid safetensors checkpoint: %2")
                        .arg(checkpointPath, QString::fromStdString(header.error)));
    QFile source(checkpointPath);
    if (!source.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read the checkpoint %1: %2").arg(checkpointPath, source.errorString()));
    if (source.size() <= 0 || source.size() > kMaxFileSize)
        return fail(
            QStringLiteral("the checkpoint %1 has an unusable size (%2 bytes)").arg(checkpointPath).arg(source.size()));

    const QDir taskDir(QDir(m_root).filePath(taskId));
    if (!QDir().mkpath(taskDir.path()))
        return fail(QStringLiteral("cannot create %1").arg(taskDir.path()));
    QList<int> existing = versions(taskId);
    const int version = existing.isEmpty() ? 1 : existing.last() + 1;
    const QString tempDir = taskDir.filePath(QStringLiteral(".") + versionDirName(version) + QStringLiteral(".tmp"));
    QDir(tempDir).removeRecursively();
    if (!QDir().mkpath(tempDir))
        return fail(QStringLiteral("cannot create %1").arg(tempDir));

    Manifest m;
    m.task = taskId;
    m.version = version;
    m.fileSize = source.size();
    m.shardSize = m_shardSize;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    m.created = now.addMSecs(-now.time().msec()); // whole seconds: the manifest stores ISO seconds
    Sha256 whole;
    QByteArray buffer;
    for (int index = 0; !source.atEnd(); ++index) {
        buffer = source.read(m_shardSize);
        if (buffer.isEmpty())
            return fail(QStringLiteral("reading %1 failed: %2").arg(checkpointPath, source.errorString()));
        whole.addData(buffer);
        m.shards.append(ShardInfo{buffer.size(), Sha256::hash(buffer)});
        if (Status s = writeFileAtomically(QDir(tempDir).filePath(shardFileName(index)), buffer); !s)
            return fail(s.error());
    }
    m.fileSha256 = whole.result();

    SignedManifest sm;
    sm.manifest = m;
    sm.bytes = m.toJson();
    sm.key = m_identity.publicKey();
    sm.signature = m_identity.sign(signingMessage(sm.bytes));
    if (Status s = writeFileAtomically(QDir(tempDir).filePath(QStringLiteral("manifest.json")), sm.bytes); !s)
        return fail(s.error());
    if (Status s =
            writeFileAtomically(QDir(tempDir).filePath(QStringLiteral("manifest.json.sig")), sm.signatureFileBytes());
        !s)
        return fail(s.error());
    if (Status s = commitVersion(m_root, taskId, tempDir, version, m_keep); !s)
        return fail(s.error());
    qCInfo(lcHub) << "published" << taskId << versionDirName(version) << m.fileSize << "bytes in" << m.shards.size()
                  << "shards";
    return sm;
}

Expected<SignedManifest> Publisher::latest(const QString &taskId) const
{
    const QList<int> list = versions(taskId);
    if (list.isEmpty())
        return fail(QStringLiteral("no checkpoint has been published for %1").arg(taskId));
    const QDir dir(QDir(m_root).filePath(taskId + QLatin1Char('/') + versionDirName(list.last())));
    QFile manifest(dir.filePath(QStringLiteral("manifest.json")));
    QFile signature(dir.filePath(QStringLiteral("manifest.json.sig")));
    if (!manifest.open(QIODevice::ReadOnly) || !signature.open(QIODevice::ReadOnly))
        return fail(
            QStringLiteral("the published manifest of %1 %2 is missing").arg(taskId, versionDirName(list.last())));
    return SignedManifest::verify(manifest.read(kMaxManifestBytes), signature.read(4096), m_identity.publicKey());
}

} // namespace cohort::shardcast
