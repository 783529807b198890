#include "platform/DiskSpace.h"
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#ifdef Q_OS_WIN
#  include <windows.h>
#else
#  include <sys/statvfs.h>
#endif

namespace cohort {

Expected<qint64> availableDiskBytes(const QString &folder)
{
    if (qEnvironmentVariableIsSet("COHORT_TESTING_FREE_DISK_BYTES")) {
        bool ok = false;
        const qint64 bytes = qEnvironmentVariable("COHORT_TESTING_FREE_DISK_BYTES").toLongLong(&ok);
        if (!ok || bytes < 0)
            return fail(QStringLiteral("cannot tell the free space at %1 (test override)").arg(folder));
        return bytes;
    }
    const QFileInfo info(folder);
    if (!info.isDir())
        return fail(QStringLiteral("cannot tell the free space at %1: no such folder").arg(folder));
#ifdef Q_OS_WIN
    ULARGE_INTEGER available{};
    const std::wstring path = QDir::toNativeSeparators(info.absoluteFilePath()).toStdWString();
    if (!GetDiskFreeSpaceExW(path.c_str(), &available, nullptr, nullptr))
        return fail(QStringLiteral("cannot tell the free space at %1: error %2").arg(folder).arg(GetLastError()));
    return static_cast<qint64>(std::min<ULONGLONG>(available.QuadPart, ULONGLONG(INT64_MAX)));
#else
    struct statvfs fs {};
    const QByteArray path = QFile::encodeName(info.absoluteFilePath());
    if (::statvfs(path.constData(), &fs) != 0)
        return fail(QStringLiteral("cannot tell the free space at %1: %2")
                        .arg(folder, QString::fromLocal8Bit(std::strerror(errno))));
    // f_bavail: blocks an unprivileged process may use (root's reserve excluded); counted in f_frsize units.
    const unsigned long long unit = fs.f_frsize ? fs.f_frsize : fs.f_bsize;
    const unsigned long long blocks = fs.f_bavail;
    if (unit != 0 && blocks > static_cast<unsigned long long>(INT64_MAX) / unit)
        return static_cast<qint64>(INT64_MAX);
    return static_cast<qint64>(blocks * unit);
#endif
}

} // namespace cohort
