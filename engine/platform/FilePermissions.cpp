#include "platform/FilePermissions.h"

#include <QFile>

namespace cohort {

Status restrictToOwner(const QString &path)
{
    if (!QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner))
        return fail(QStringLiteral("could not restrict permissions of %1").arg(path));
    return {};
}

bool isOwnerOnly(const QString &path)
{
#ifdef Q_OS_WIN
    return QFile::exists(path); // NTFS ACLs of the user's profile; QFile permissions are not meaningful here
#else
    const auto perms = QFile::permissions(path);
    const auto others = QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ExeGroup |
                        QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther;
    return QFile::exists(path) && !(perms & others);
#endif
}

} // namespace cohort
