#include "platform/FileSync.h"

#include <QFile>

#ifdef Q_OS_WIN
#  include <io.h>
#else
#  include <cerrno>
#  include <cstring>
#  include <fcntl.h>
#  include <unistd.h>
#endif

namespace cohort {

bool syncHandle(int handle)
{
    if (handle < 0)
        return false;
#ifdef Q_OS_WIN
    return _commit(handle) == 0;
#else
    return ::fsync(handle) == 0;
#endif
}

bool syncToDisk(QFileDevice &file)
{
    return file.flush() && syncHandle(file.handle());
}

Status preallocate(QFile &file, qint64 size)
{
    if (file.size() > size && !file.resize(size))
        return fail(QStringLiteral("cannot size %1: %2").arg(file.fileName(), file.errorString()));
#if defined(Q_OS_LINUX)
    const int rc = ::posix_fallocate(file.handle(), 0, size);
    if (rc == 0)
        return file.resize(size) ? Status{} : fail(file.errorString()); // resize refreshes Qt's idea of the size
    if (rc == ENOSPC)
        return fail(QStringLiteral("disk full: cannot reserve %1 MiB for %2").arg(size >> 20).arg(file.fileName()));
    if (rc != EOPNOTSUPP && rc != EINVAL)
        return fail(QStringLiteral("cannot reserve space for %1: %2")
                        .arg(file.fileName(), QString::fromLocal8Bit(std::strerror(rc))));
        // A file system without fallocate: plain extension (blocks are allocated on first write).
#endif
    if (file.size() != size && !file.resize(size))
        return fail(QStringLiteral("cannot size %1: %2").arg(file.fileName(), file.errorString()));
    return {};
}

} // namespace cohort
