#pragma once
// Engine checkpoints: the state of whatever is in progress, written as one atomic bundle so that a crash, a
// kill -9 or a power cut resumes instead of losing work. A bundle is a zip (QuaZip) holding manifest.json (format,
// time, every other entry with its size and SHA-256) and the entries themselves: state.json (task, policy version,
// the work item in hand, pause and snooze) and, for tasks that train locally, tensors and optimizer state as
// binary entries. Written to "<name>.part", fsynced, then renamed, so a reader sees a whole bundle or none; on
// start the newest bundle that verifies wins, and a torn or damaged one is moved to damaged/ (kept for
// diagnostics, never read again).
#include "core/Expected.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace cohort {

struct EngineBundle {
    struct Blob {
        QString name; // relative path inside the bundle: letters, digits, . _ - / only
        QByteArray data;
    };
    QJsonObject state;
    QList<Blob> blobs;
    qint64 writtenAtMs = 0;
    QString path; // where it was read from (empty for a new one)
};

class BundleStore {
public:
    static constexpr int kFormat = 1;
    static constexpr int kKeep = 2; // newest bundles kept (the previous one backs up a torn newest)
    static constexpr qint64 kMaxEntryBytes = 512LL << 20; // hostile sizes are refused before reading
    static constexpr qint64 kMaxManifestBytes = 1 << 20;
    static constexpr int kMaxEntries = 4096;

    explicit BundleStore(QString dir)
        : m_dir(std::move(dir))
    {}
    QString dir() const { return m_dir; }

    // Writes a new bundle atomically; older ones beyond kKeep are removed. Returns its path.
    Expected<QString> write(const EngineBundle &bundle);
    // The newest bundle that verifies. Those that do not are moved to damaged/ and named in *discarded (with why).
    Expected<EngineBundle> readNewest(QStringList *discarded = nullptr);
    // Reads and verifies one bundle file.
    static Expected<EngineBundle> read(const QString &path);
    QStringList bundleFiles() const; // newest first
    // Called by write() once the new bundle is complete and durable as "<name>.part", before the rename that
    // publishes it: tests halt there to kill a node mid-write.
    void setBeforeRename(std::function<void()> hook) { m_beforeRename = std::move(hook); }

private:
    QString m_dir;
    std::function<void()> m_beforeRename;
};

} // namespace cohort
