#include "ui/DataFolderMove.h"

#include "ui/DisplayFormat.h"
#include "ui/UiLogging.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QMetaObject>
#include <QStorageInfo>

#include <algorithm>

namespace cohort {

namespace {
// The path as the file system resolves it (symbolic links followed) where it exists, else its clean form, so
// "/data/../home/me/Cohort" and a link to the same folder compare equal.
QString resolved(const QString &path)
{
    const QString clean = QDir::cleanPath(QDir::fromNativeSeparators(path));
    const QString canonical = QFileInfo(clean).canonicalFilePath();
    if (!canonical.isEmpty())
        return canonical;
    // Not there yet: resolve the nearest folder that exists and append the rest.
    QString head = clean;
    QString tail;
    while (!head.isEmpty() && !QFileInfo::exists(head)) {
        const qsizetype slash = head.lastIndexOf(QLatin1Char('/'));
        if (slash < 0)
            return clean;
        tail = head.mid(slash) + tail;
        head = head.left(slash);
    }
    const QString base = QFileInfo(head.isEmpty() ? QStringLiteral("/") : head).canonicalFilePath();
    return base.isEmpty() ? clean : QDir::cleanPath(base + tail);
}

bool isInside(const QString &path, const QString &folder)
{
#ifdef Q_OS_WIN
    constexpr Qt::CaseSensitivity cs = Qt::CaseInsensitive; // C:\Data and c:\data are the same folder
#else
    constexpr Qt::CaseSensitivity cs = Qt::CaseSensitive;
#endif
    return path.startsWith(folder.endsWith(QLatin1Char('/')) ? folder : folder + QLatin1Char('/'), cs);
}

QByteArray sha256Of(const QString &path, const std::atomic<bool> &cancel)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    while (!file.atEnd() && !cancel) {
        const QByteArray block = file.read(1 << 20);
        if (block.isEmpty() && file.error() != QFileDevice::NoError)
            return {};
        hash.addData(block);
    }
    return hash.result();
}
} // namespace

QString DataFolderMove::checkTarget(const QString &from, const QString &to)
{
    if (to.trimmed().isEmpty())
        return tr("Choose the folder to move the data to.");
    if (!QDir::isAbsolutePath(to))
        return tr("Choose a full path (an absolute folder).");
    const QString source = resolved(from);
    const QString target = resolved(to);
    if (target == source)
        return tr("That is the current data folder.");
    if (isInside(target, source))
        return tr("The new folder cannot be inside the current data folder.");
    const QFileInfo info(target);
    if (info.exists() && !info.isDir())
        return tr("This path is a file, not a folder.");
    if (info.exists() && !QDir(target).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System)) {
        if (isInside(source, target))
            return tr("The current data folder is inside that folder. Choose an empty folder or a new one.");
        if (QFileInfo::exists(QDir(target).filePath(QStringLiteral("identity/node.key"))))
            return tr(
                "That folder already holds Cohort data with another node key. Choose an empty folder or a new one.");
        return tr("That folder is not empty. Choose an empty folder or a new one: Cohort does not mix its data with "
                  "other files.");
    }
    if (!QFileInfo(source).isDir())
        return tr("The current data folder %1 does not exist, so there is nothing to move.")
            .arg(QDir::toNativeSeparators(from));
    return {};
}

DataFolderMove::DataFolderMove(QString from, QString to, QObject *parent)
    : QObject(parent),
      m_from(resolved(from)),
      m_to(resolved(to))
{}

DataFolderMove::~DataFolderMove()
{
    // Still copying (the app quits mid-move): stop, and take back the half-made copy; the original is untouched
    // and the setting still names it. A file being copied cannot be interrupted (a checkpoint of gigabytes on a slow
    // disk takes minutes): the bound (new: the wait had none) lets the app quit after 10 s, and the copy, let go,
    // takes itself back once the file in hand is done (see start()).
    if (!m_copying)
        return;
    if (m_thread.stop(std::chrono::seconds(10)))
        removeCopyOf(*m_copy);
}

void DataFolderMove::start()
{
    m_copy = std::make_shared<Copy>();
    m_copy->from = m_from;
    m_copy->to = m_to;
    m_copying = true;
    m_thread.run(
        [this, copy = m_copy](const ThreadLink &link) {
            // `this` only inside what link.post() delivers: that runs in this object's thread, only while it lives
            // and has not let go of the copy.
            const Status status = copyAndVerify(*copy, link.stopFlag(), [this, link](qint64 done, qint64 total) {
                link.post([this, done, total] { Q_EMIT progress(done, total); });
            });
            // Back on the object's thread: the caller switches the setting and deletes the originals there.
            const bool heard = link.post([this, status] {
                m_thread.stop(std::chrono::seconds(1)); // it ends right after posting this: microseconds
                m_copying = false;
                Q_EMIT finished(status.ok(), status.ok() ? QString() : status.error());
            });
            if (!heard) // let go: nobody will switch to the copy or take it back, so take it back here
                removeCopyOf(*copy);
        },
        QThread::LowPriority);
}

Status DataFolderMove::copyAndVerify(Copy &copy, const std::atomic<bool> &cancel,
                                     const std::function<void(qint64, qint64)> &onProgress)
{
    const QDir source(copy.from);
    QStringList files;
    QStringList dirs;
    qint64 total = 0;
    // Symbolic links are neither followed nor copied: they stay behind with the old folder, which then is not deleted.
    QDirIterator it(copy.from, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System | QDir::NoSymLinks,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QFileInfo info = it.fileInfo();
        if (info.isSymLink())
            continue;
        if (info.isDir())
            dirs.append(source.relativeFilePath(path));
        else if (info.isFile()) {
            files.append(source.relativeFilePath(path));
            total += info.size();
        }
    }
    std::sort(dirs.begin(), dirs.end()); // parents before children

    if (!QFileInfo::exists(copy.to)) {
        if (!QDir().mkpath(copy.to))
            return fail(tr("Could not create %1.").arg(QDir::toNativeSeparators(copy.to)));
        copy.createdTarget = true;
    }
    const QStorageInfo disk(copy.to);
    if (disk.isValid() && disk.bytesAvailable() < total + (64 << 20)) // some room to spare for the engine's next writes
        return fail(
            tr("Not enough free space in %1: the data needs %2, %3 are free.")
                .arg(QDir::toNativeSeparators(copy.to), display::bytes(total), display::bytes(disk.bytesAvailable())));

    const QDir target(copy.to);
    for (const QString &dir : std::as_const(dirs)) {
        if (!target.mkpath(dir))
            return fail(tr("Could not create %1.").arg(QDir::toNativeSeparators(target.filePath(dir))));
        copy.dirs.append(dir);
    }
    qint64 done = 0;
    for (const QString &file : std::as_const(files)) {
        if (cancel)
            return fail(tr("The move was cancelled."));
        const QString in = source.filePath(file);
        const QString out = target.filePath(file);
        if (!QFile::copy(in, out))
            return fail(
                tr("Could not copy %1 to %2.").arg(QDir::toNativeSeparators(in), QDir::toNativeSeparators(out)));
        QFile::setPermissions(out, QFile::permissions(in)); // the node key stays owner-only
        copy.copied.append(file);
        const QByteArray a = sha256Of(in, cancel);
        const QByteArray b = sha256Of(out, cancel);
        if (a.isEmpty() || a != b || QFileInfo(in).size() != QFileInfo(out).size())
            return fail(tr("The copy of %1 does not match the original.").arg(QDir::toNativeSeparators(in)));
        done += QFileInfo(in).size();
        onProgress(done, total);
    }
    return {};
}

int DataFolderMove::removeOriginals()
{
    const QDir source(m_from);
    int kept = 0;
    for (const QString &file : std::as_const(m_copy->copied)) {
        if (!QFile::remove(source.filePath(file))) {
            qCWarning(lcUi) << "data folder move: could not delete the original" << source.filePath(file);
            ++kept;
        }
    }
    // Folders bottom-up, and only when empty: anything that was not part of the copy keeps its folder.
    QStringList dirs = m_copy->dirs;
    std::sort(dirs.begin(), dirs.end(), std::greater<>());
    for (const QString &dir : std::as_const(dirs))
        source.rmdir(dir);
    if (!QDir().rmdir(m_from)) {
        const int left =
            int(QDir(m_from).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System).size());
        if (left > 0)
            qCInfo(lcUi) << "data folder move: kept" << m_from << "with" << left << "entries that were not moved";
        kept += left;
    }
    return kept;
}

void DataFolderMove::removeCopy()
{
    removeCopyOf(*m_copy);
}

void DataFolderMove::removeCopyOf(Copy &copy)
{
    const QDir target(copy.to);
    for (const QString &file : std::as_const(copy.copied))
        QFile::remove(target.filePath(file));
    QStringList dirs = copy.dirs;
    std::sort(dirs.begin(), dirs.end(), std::greater<>());
    for (const QString &dir : std::as_const(dirs))
        target.rmdir(dir);
    if (copy.createdTarget)
        QDir().rmdir(copy.to);
    copy.copied.clear();
    copy.dirs.clear();
}

} // namespace cohort
