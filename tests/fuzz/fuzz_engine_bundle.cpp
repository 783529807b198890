// The engine bundle is read from disk at every start, after crashes and disk faults: any bytes as the bundle file
// must give an error value, never a crash, and never an allocation sized by what a damaged header claims (run
// with -malloc_limit_mb so such an allocation is a finding).
#include "node/EngineBundle.h"

#include <QFile>
#include <QTemporaryDir>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bundle-00000000000001.zip"));
    {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return 0;
        f.write(reinterpret_cast<const char *>(data), qint64(size));
    }
    auto bundle = cohort::BundleStore::read(path);
    if (bundle) {
        // What verifies must be what the store writes: named, hashed entries no larger than the file itself.
        qint64 total = 0;
        for (const auto &blob : bundle->blobs)
            total += blob.data.size();
        if (bundle->path != path || total > qint64(size))
            __builtin_trap();
    }
    return 0;
}
