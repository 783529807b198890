// The identity file is read from disk at every start; a damaged one must be refused, never crash.
#include "net/Identity.h"

#include <QFile>
#include <QTemporaryDir>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("node.key"));
    {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return 0;
        f.write(reinterpret_cast<const char *>(data), qint64(size));
    }
    auto identity = cohort::Identity::load(path);
    if (identity && identity->sign("x").size() != 64)
        __builtin_trap();
    return 0;
}
