#pragma once
// Moving Cohort's data folder (node key, models, history) without ever being left with neither copy: copy every
// file to the new place, verify each copy (size and SHA-256), and only after the caller has switched the setting
// delete the originals, file by file: only what was copied and verified goes, so a data folder the user shared
// with other files keeps them. The copy runs on its own thread; the engine must be stopped meanwhile (the caller's
// job: DesktopApp stops and restarts it through SettingsDialog's hooks).
#include "core/Expected.h"
#include "core/OwnedThread.h"

#include <QObject>
#include <QStringList>
#include <functional>
#include <memory>

namespace cohort {

class DataFolderMove : public QObject {
    Q_OBJECT
public:
    // Empty when `to` may receive the data folder `from`, else why not, for people: `to` inside `from`, `to` the
    // same folder, a file, or a non-empty folder (another node's data or anything else).
    static QString checkTarget(const QString &from, const QString &to);

    DataFolderMove(QString from, QString to, QObject *parent = nullptr);
    ~DataFolderMove() override; // cancels a copy in progress and waits for it (bounded)

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
    // What a copy made, shared with the copying thread, so that a thread let go (the app quit mid-move) still has
    // it to take the copy back: read here only once that thread is done with it.
    struct Copy {
        QString from;
        QString to;
        bool createdTarget = false;
        QStringList copied; // relative paths of verified files, in copy order
        QStringList dirs;   // relative paths of folders created under `to`
    };
    // On the worker thread; `onProgress(done, total)` after each verified file.
    static Status copyAndVerify(Copy &copy, const std::atomic<bool> &cancel,
                                const std::function<void(qint64, qint64)> &onProgress);
    static void removeCopyOf(Copy &copy);

    QString m_from;
    QString m_to;
    std::shared_ptr<Copy> m_copy = std::make_shared<Copy>();
    bool m_copying = false; // started, and finished() not emitted yet
    OwnedThread m_thread{QStringLiteral("cohort-move-data"), this};
};

} // namespace cohort
