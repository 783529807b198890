// The engine bundle is read from disk at every start, after crashes and disk faults: any bytes as the bundle file
// must give an error value, never a crash, and never an allocation sized by what a damaged header claims (run
// with -malloc_limit_mb so such an allocation is a finding).
// Two modes, by the first byte: the bytes as the file (the zip layer), or a well-formed stored zip built from the
// bytes (manifest.json, state.json and a tensor entry split at '\x01'), so that mutations reach the manifest and
// entry checks instead of stopping at the zip's CRCs.
#include "store/EngineBundle.h"

#include <QFile>
#include <QTemporaryDir>
#include <cstdint>
#include <quazip.h>
#include <quazipfile.h>
#include <quazipnewinfo.h>

namespace {
bool writeStoredZip(const QString &path, const QByteArray &bytes)
{
    const QList<QByteArray> parts = bytes.split('\x01');
    const QStringList names{QStringLiteral("manifest.json"), QStringLiteral("state.json"),
                            QStringLiteral("tensors/inner.bin")};
    QuaZip zip(path);
    if (!zip.open(QuaZip::mdCreate))
        return false;
    for (qsizetype i = 0; i < parts.size() && i < names.size(); ++i) {
        QuaZipFile f(&zip);
        if (!f.open(QIODevice::WriteOnly, QuaZipNewInfo(names[i]), nullptr, 0, 0, 0))
            return false;
        f.write(parts[i]);
        f.close();
    }
    zip.close();
    return zip.getZipError() == 0;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static QTemporaryDir dir;
    if (size == 0)
        return 0;
    const QString path = dir.filePath(QStringLiteral("bundle-00000000000001.zip"));
    const QByteArray bytes(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    if (data[0] & 1) {
        QFile::remove(path);
        if (!writeStoredZip(path, bytes))
            return 0;
    } else {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return 0;
        f.write(bytes);
    }
    auto bundle = cohort::BundleStore::read(path);
    if (bundle) {
        // What verifies was really in the file: entries no larger than the file itself.
        qint64 total = 0;
        for (const auto &blob : bundle->blobs)
            total += blob.data.size();
        if (bundle->path != path || total > qint64(QFile(path).size()))
            __builtin_trap();
    }
    return 0;
}
