#include "platform/BootId.h"

#include <QFile>

#ifdef Q_OS_WIN
#  include <windows.h>
#  include <QDateTime>
#elif defined(Q_OS_MACOS)
#  include <sys/sysctl.h>
#  include <sys/time.h>
#endif

namespace cohort {

QByteArray currentBootId()
{
    if (const QByteArray forced = qgetenv("COHORT_TESTING_BOOT_ID"); !forced.isEmpty())
        return forced;
#if defined(Q_OS_LINUX)
    QFile file(QStringLiteral("/proc/sys/kernel/random/boot_id"));
    if (file.open(QIODevice::ReadOnly))
        return file.read(64).trimmed();
    return {};
#elif defined(Q_OS_WIN)
    // Boot time to the minute. A clock step can make two runs of one boot disagree: that only costs a re-check.
    const qint64 bootMs = QDateTime::currentMSecsSinceEpoch() - qint64(GetTickCount64());
    return "boot-" + QByteArray::number(bootMs / 60'000);
#elif defined(Q_OS_MACOS)
    struct timeval boot {};
    size_t size = sizeof boot;
    int mib[2] = {CTL_KERN, KERN_BOOTTIME};
    if (sysctl(mib, 2, &boot, &size, nullptr, 0) == 0)
        return "boot-" + QByteArray::number(qint64(boot.tv_sec));
    return {};
#else
    return {};
#endif
}

} // namespace cohort
