#include "platform/FileSync.h"

#include <QFileDevice>

#ifdef Q_OS_WIN
#  include <io.h>
#else
#  include <unistd.h>
#endif

namespace cohort {

bool syncToDisk(QFileDevice &file)
{
    if (!file.flush())
        return false;
    const int fd = file.handle();
    if (fd < 0)
        return false;
#ifdef Q_OS_WIN
    return _commit(fd) == 0;
#else
    return ::fsync(fd) == 0;
#endif
}

} // namespace cohort
