#pragma once
// Notices when a settings file was edited on disk (by hand, by a configuration tool, by the desktop app sharing the
// file with cohortd) so the settings can be read again without a restart. Watches the file and its folder, since
// editors and QSaveFile replace a file rather than write into it (a watch on the old file would go quiet), waits
// for writes to settle, and reports only when the content really changed (a rewrite with the same bytes is not an
// edit).
#include <QByteArray>
#include <QFileSystemWatcher>
#include <QObject>
#include <QString>
#include <QTimer>

namespace cohort {

class SettingsFileWatcher : public QObject {
    Q_OBJECT
public:
    explicit SettingsFileWatcher(QString filePath, int settleMs = 300, QObject *parent = nullptr);

Q_SIGNALS:
    void edited();

private:
    void onSomethingChanged();
    void check();
    QByteArray digestOfFile() const;

    QString m_filePath;
    QFileSystemWatcher m_watcher;
    QTimer m_settle;
    QByteArray m_lastDigest;
};

} // namespace cohort
