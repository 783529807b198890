#pragma once
// Moving Cohort's data folder (node key, models, history) without ever being left with neither copy: copy every
// file to the new place, verify each copy (size and SHA-256), and only after the caller has switched the setting
// delete the originals, file by file: only what was copied and verified goes, so a data folder the user shared
// with other files keeps them. The copy runs on its own thread; the engine must be stopped meanwhile (the caller's
// job: DesktopApp stops and restarts it through SettingsDialog's hooks).
#include "core/Expected.h"

#include <QObject>
#include <QStringList>
#include <atomic>
#include <memory>

class QThread;

namespace cohort {

class DataFolderMove : public QObject {
    Q_OBJECT
public:
    // Empty when `to` may receive the data folder `from`, else why not, for people: `to` inside `from`, `to` the
    // same folder, a file, or a non-empty folder (another node's data or anything else).
    static QString checkTarget(const QString &from, const QString &to);

    DataFolderMove(QString from, QString to, QObject *parent = nullptr);
    ~DataFolderMove() override; // cancels a copy in progress and waits for it

    QString from() const { return m_from; }
    QString to() const { return m_to; }

    // Starts copying and verifying; finished() follows (on this object's thread).
    void start();
    // After a successful copy, once the setting points at `to`: deletes the originals that were copied.
    // Returns how many entries had to stay (locked files, or files that were not part of the copy).
    int removeOriginals();
    // After a failed copy, or when switching failed: deletes what was copied to `to` (and `to` if it was created).
    void removeCopy();

Q_SIGNALS:
    void progress(qint64 bytesDone, qint64 bytesTotal);
    void finished(bool ok, const QString &error);

private:
    Status copyAndVerify(); // on the worker thread

    QString m_from;
    QString m_to;
    bool m_createdTarget = false;
    QStringList m_copied; // relative paths of verified files, in copy order
    QStringList m_dirs;   // relative paths of folders created under `to`
    std::atomic<bool> m_cancel{false};
    std::unique_ptr<QThread> m_thread;
};

} // namespace cohort
