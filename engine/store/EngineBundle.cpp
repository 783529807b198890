#include "store/EngineBundle.h"

#include "core/JsonReader.h"
#include "core/Sha256.h"
#include "platform/FileSync.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <quazip.h>
#include <quazipfile.h>
#include <quazipnewinfo.h>

#include <algorithm>
#include <limits>

namespace cohort {

namespace {
const QString kManifest = QStringLiteral("manifest.json");
const QString kState = QStringLiteral("state.json");

bool safeName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$"));
    return name.size() <= 200 && re.match(name).hasMatch() &&
           !name.split(QLatin1Char('/')).contains(QStringLiteral(".."));
}

Status addEntry(QuaZip &zip, const QString &name, const QByteArray &data)
{
    QuaZipFile out(&zip);
    // Stored, not deflated: tensors barely compress and the write must be fast at a pause.
    if (!out.open(QIODevice::WriteOnly, QuaZipNewInfo(name), nullptr, 0, 0, 0))
        return fail(QStringLiteral("cannot add %1 to the bundle (zip error %2)").arg(name).arg(out.getZipError()));
    if (out.write(data) != data.size()) {
        out.close();
        return fail(QStringLiteral("cannot write %1 into the bundle").arg(name));
    }
    out.close();
    if (out.getZipError() != 0)
        return fail(QStringLiteral("cannot finish %1 in the bundle (zip error %2)").arg(name).arg(out.getZipError()));
    return {};
}

Expected<QByteArray> readEntry(QuaZip &zip, const QString &name, qint64 expectedSize)
{
    if (!zip.setCurrentFile(name))
        return fail(QStringLiteral("entry %1 is missing").arg(name));
    QuaZipFileInfo64 info;
    if (!zip.getCurrentFileInfo(&info))
        return fail(QStringLiteral("entry %1 is unreadable").arg(name));
    if (qint64(info.uncompressedSize) != expectedSize || expectedSize > BundleStore::kMaxEntryBytes)
        return fail(QStringLiteral("entry %1 has %2 bytes, the manifest says %3")
                        .arg(name)
                        .arg(info.uncompressedSize)
                        .arg(expectedSize));
    // write() stores entries; a compressed one was not written by us, and could inflate a few bytes into the
    // size its header claims.
    if (info.method != 0 || info.compressedSize != info.uncompressedSize)
        return fail(QStringLiteral("entry %1 is compressed; bundles store their entries").arg(name));
    QuaZipFile in(&zip);
    if (!in.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("entry %1 cannot be opened (zip error %2)").arg(name).arg(in.getZipError()));
    // In chunks, so memory grows with the bytes really there, not with the size a damaged header claims
    // (QIODevice::read(n) allocates n up front).
    constexpr qint64 kChunk = 1 << 20;
    QByteArray data;
    while (data.size() <= expectedSize) {
        const QByteArray chunk = in.read(std::min(kChunk, expectedSize + 1 - data.size()));
        if (chunk.isEmpty())
            break;
        data.append(chunk);
    }
    in.close();
    if (data.size() != expectedSize || in.getZipError() != 0)
        return fail(QStringLiteral("entry %1 is truncated or corrupt").arg(name));
    return data;
}
} // namespace

// The zero-padded time in "bundle-<ms>.zip" (0 when the name is not one of ours).
static qint64 writtenAtFromName(const QString &path)
{
    const QString name = QFileInfo(path).fileName();
    return name.startsWith(QLatin1String("bundle-")) ? name.mid(7, 14).toLongLong() : 0;
}

QStringList BundleStore::bundleFiles() const
{
    QStringList files = QDir(m_dir).entryList({QStringLiteral("bundle-*.zip")}, QDir::Files, QDir::Name);
    std::reverse(files.begin(), files.end()); // names carry a zero-padded time: newest first
    for (QString &f : files)
        f = QDir(m_dir).filePath(f);
    return files;
}

Expected<QString> BundleStore::write(const EngineBundle &bundle)
{
    if (!QDir().mkpath(m_dir))
        return fail(QStringLiteral("cannot create %1").arg(m_dir));
    qint64 now = std::max(bundle.writtenAtMs, QDateTime::currentMSecsSinceEpoch());
    auto nameFor = [this](qint64 ms) {
        return QDir(m_dir).filePath(QStringLiteral("bundle-%1.zip").arg(ms, 14, 10, QLatin1Char('0')));
    };
    // Two bundles in one millisecond: the later one takes the next free millisecond, so that name order stays
    // write order (a suffix like "-1" would sort before ".zip" and make the older bundle look newer).
    const QStringList existing = bundleFiles();
    if (!existing.isEmpty())
        now = std::max(now, writtenAtFromName(existing.first()) + 1);
    QString path = nameFor(now);
    while (QFile::exists(path))
        path = nameFor(++now);
    const QString part = path + QStringLiteral(".part");

    QList<EngineBundle::Blob> entries{{kState, QJsonDocument(bundle.state).toJson(QJsonDocument::Compact)}};
    for (const auto &b : bundle.blobs) {
        if (!safeName(b.name) || b.name == kManifest || b.name == kState)
            return fail(QStringLiteral("bundle entry name '%1' is not allowed").arg(b.name));
        entries.append(b);
    }
    QJsonArray listed;
    for (const auto &e : entries)
        listed.append(QJsonObject{{QStringLiteral("name"), e.name},
                                  {QStringLiteral("size"), e.data.size()},
                                  {QStringLiteral("sha256"), QString::fromLatin1(Sha256::hashHex(e.data))}});
    const QByteArray manifest = QJsonDocument(QJsonObject{{QStringLiteral("format"), kFormat},
                                                          {QStringLiteral("written_at"), now},
                                                          {QStringLiteral("entries"), listed}})
                                    .toJson(QJsonDocument::Compact);
    {
        QuaZip zip(part);
        if (!zip.open(QuaZip::mdCreate))
            return fail(QStringLiteral("cannot create %1 (zip error %2)").arg(part).arg(zip.getZipError()));
        Status written = addEntry(zip, kManifest, manifest);
        for (const auto &e : entries)
            if (written)
                written = addEntry(zip, e.name, e.data);
        zip.close();
        if (!written || zip.getZipError() != 0) {
            QFile::remove(part);
            return fail(written ? QStringLiteral("cannot finish %1 (zip error %2)").arg(part).arg(zip.getZipError())
                                : written.error());
        }
    }
    QFile file(part);
    if (!file.open(QIODevice::ReadWrite) || !syncToDisk(file)) {
        QFile::remove(part);
        return fail(QStringLiteral("cannot make %1 durable: %2").arg(part, file.errorString()));
    }
    file.close();
    if (m_beforeRename)
        m_beforeRename();
    if (!QFile::rename(part, path)) {
        QFile::remove(part);
        return fail(QStringLiteral("cannot rename %1 into place").arg(part));
    }
    const QStringList all = bundleFiles();
    for (qsizetype i = kKeep; i < all.size(); ++i)
        QFile::remove(all[i]);
    return path;
}

Expected<EngineBundle> BundleStore::read(const QString &path)
{
    if (QFileInfo(path).size() > kMaxEntries * kMaxEntryBytes)
        return fail(QStringLiteral("%1 is implausibly large").arg(path));
    QuaZip zip(path);
    if (!zip.open(QuaZip::mdUnzip))
        return fail(QStringLiteral("not a readable zip (zip error %1)").arg(zip.getZipError()));
    if (zip.getEntriesCount() > kMaxEntries + 1)
        return fail(QStringLiteral("too many entries (%1)").arg(zip.getEntriesCount()));
    auto manifestBytes = readEntry(zip, kManifest, [&] {
        QuaZipFileInfo64 info;
        return zip.setCurrentFile(kManifest) && zip.getCurrentFileInfo(&info) &&
                       qint64(info.uncompressedSize) <= kMaxManifestBytes
                   ? qint64(info.uncompressedSize)
                   : qint64(-1);
    }());
    if (!manifestBytes)
        return fail(QStringLiteral("manifest: %1").arg(manifestBytes.error()));
    auto manifest = parseJsonObject(*manifestBytes, kMaxManifestBytes);
    if (!manifest)
        return fail(QStringLiteral("manifest: %1").arg(manifest.error()));
    JsonReader r(*manifest, QStringLiteral("manifest"));
    const qint64 format = r.integer(QStringLiteral("format"), 1, 1000);
    EngineBundle bundle;
    bundle.path = path;
    bundle.writtenAtMs = r.integer(QStringLiteral("written_at"), 0, std::numeric_limits<qint64>::max());
    const QJsonArray listed = r.optionalArray(QStringLiteral("entries"), kMaxEntries + 1);
    if (!r.ok())
        return fail(r.error());
    if (format != kFormat)
        return fail(QStringLiteral("bundle format %1 is not %2 (written by another version)").arg(format).arg(kFormat));
    bool sawState = false;
    for (const QJsonValue &v : listed) {
        JsonReader e(v.toObject(), QStringLiteral("manifest entry"));
        const QString name = e.string(QStringLiteral("name"), 200);
        const qint64 size = e.integer(QStringLiteral("size"), 0, kMaxEntryBytes);
        const QByteArray hash = e.string(QStringLiteral("sha256"), 64).toLatin1();
        if (!e.ok())
            return fail(e.error());
        if (!safeName(name) || name == kManifest)
            return fail(QStringLiteral("entry name '%1' is not allowed").arg(name));
        auto data = readEntry(zip, name, size);
        if (!data)
            return fail(data.error());
        if (Sha256::hashHex(*data) != hash)
            return fail(QStringLiteral("entry %1 does not match its SHA-256").arg(name));
        if (name == kState) {
            auto state = parseJsonObject(*data, kMaxEntryBytes);
            if (!state)
                return fail(QStringLiteral("state.json: %1").arg(state.error()));
            bundle.state = *state;
            sawState = true;
        } else {
            bundle.blobs.append({name, *data});
        }
    }
    if (!sawState)
        return fail(QStringLiteral("the bundle has no state.json"));
    return bundle;
}

Expected<EngineBundle> BundleStore::readNewest(QStringList *discarded)
{
    // A .part is a write that never finished: not a bundle.
    for (const QString &part : QDir(m_dir).entryList({QStringLiteral("*.part")}, QDir::Files))
        QFile::remove(QDir(m_dir).filePath(part));
    for (const QString &path : bundleFiles()) {
        auto bundle = read(path);
        if (bundle)
            return bundle;
        const QString damagedDir = QDir(m_dir).filePath(QStringLiteral("damaged"));
        QDir().mkpath(damagedDir);
        QFile::remove(QDir(damagedDir).filePath(QFileInfo(path).fileName()));
        QFile::rename(path, QDir(damagedDir).filePath(QFileInfo(path).fileName()));
        if (discarded)
            discarded->append(QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), bundle.error()));
    }
    return fail(QStringLiteral("no engine bundle in %1").arg(m_dir));
}

} // namespace cohort
