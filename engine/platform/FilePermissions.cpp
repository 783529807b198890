#include "platform/FilePermissions.h"

#include "platform/FileSync.h"

#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QSaveFile>

#ifndef Q_OS_WIN
#  include <cstdio>
#endif

namespace cohort {

Status restrictToOwner(const QString &path)
{
    if (!QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner))
        return fail(QStringLiteral("could not restrict permissions of %1").arg(path));
    return {};
}

Status writeOwnerOnlyFile(const QString &path, const QByteArray &bytes)
{
#ifdef Q_OS_WIN
    // The per-user profile's ACLs already keep other users out; QSaveFile is atomic there.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return fail(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    return {};
#else
    // QSaveFile creates its temporary file 0666 & ~umask when the target does not exist yet, so it is opened
    // here with 0600 instead (O_CREAT|O_EXCL through NewOnly), then renamed over the target.
    const QString temporary =
        QStringLiteral("%1.%2.tmp").arg(path).arg(QRandomGenerator::system()->generate(), 8, 16, QLatin1Char('0'));
    QFile file(temporary);
    if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly, QFileDevice::ReadOwner | QFileDevice::WriteOwner))
        return fail(QStringLiteral("cannot create %1: %2").arg(temporary, file.errorString()));
    const bool written = file.write(bytes) == bytes.size() && syncToDisk(file);
    const QString writeError = file.errorString();
    file.close();
    if (!written) {
        QFile::remove(temporary);
        return fail(QStringLiteral("cannot write %1: %2").arg(path, writeError));
    }
    if (std::rename(QFile::encodeName(temporary).constData(), QFile::encodeName(path).constData()) != 0) {
        QFile::remove(temporary);
        return fail(QStringLiteral("cannot replace %1").arg(path));
    }
    return {};
#endif
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
