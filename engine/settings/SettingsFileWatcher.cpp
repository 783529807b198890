#include "settings/SettingsFileWatcher.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>

namespace cohort {

SettingsFileWatcher::SettingsFileWatcher(QString filePath, int settleMs, QObject *parent)
    : QObject(parent),
      m_filePath(std::move(filePath))
{
    m_lastDigest = digestOfFile();
    m_settle.setSingleShot(true);
    m_settle.setInterval(settleMs);
    connect(&m_settle, &QTimer::timeout, this, &SettingsFileWatcher::check);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &SettingsFileWatcher::onSomethingChanged);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &SettingsFileWatcher::onSomethingChanged);
    const QString folder = QFileInfo(m_filePath).absolutePath();
    if (QFileInfo::exists(folder))
        m_watcher.addPath(folder);
    if (QFileInfo::exists(m_filePath))
        m_watcher.addPath(m_filePath);
}

void SettingsFileWatcher::onSomethingChanged()
{
    m_settle.start(); // (re)start: a burst of writes is one edit
}

void SettingsFileWatcher::check()
{
    // A replaced file is a new inode: watch it again (addPath ignores a path already watched).
    if (QFileInfo::exists(m_filePath))
        m_watcher.addPath(m_filePath);
    const QByteArray digest = digestOfFile();
    if (digest == m_lastDigest)
        return;
    m_lastDigest = digest;
    Q_EMIT edited();
}

QByteArray SettingsFileWatcher::digestOfFile() const
{
    QFile file(m_filePath);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    // Settings files are a few kB; a larger one is not ours to follow byte by byte.
    return QCryptographicHash::hash(file.read(1 << 20), QCryptographicHash::Sha256);
}

} // namespace cohort
