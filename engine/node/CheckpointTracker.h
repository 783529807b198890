#pragma once
// The node's side of SHARDCAST, a part the Engine owns (engine thread): learns the newest checkpoint of the joined
// task from the hub, downloads and verifies it into the version folder (<data>/checkpoints/<task>/v<N>), and keeps
// the verified version and its model file — what the rollout loop generates with. A version already verified on
// disk is taken without a download; a failed download waits a minute before the next try.
#include "core/DownloadProgress.h"
#include "core/EngineEvent.h"
#include "core/EngineSnapshot.h"

#include <QDateTime>
#include <QObject>

namespace cohort {

class HubClient;
struct HubReply;
namespace shardcast {
class Downloader;
}

// The engine as the tracker sees it. Read each time the tracker decides; never cached.
class CheckpointHost {
public:
    virtual HubClient *hub() const = 0;
    virtual const TaskInfo *joinedTask() const = 0;
    virtual bool checkpointsMayFetch() const = 0; // the hub online and the engine not stopping
    virtual bool downloadsPaused() const = 0;     // a pause reason holds: a new download starts paused

protected:
    ~CheckpointHost() = default;
};

class CheckpointTracker : public QObject {
    Q_OBJECT
public:
    struct Setup {
        QString checkpointsDir;       // the version folders
        QString hubPinsPath;          // identity/hubs.json: the hub key a manifest must be signed with
        QString hubPinName;           // the pinned hub's entry ("embedded", or the hub URL)
        qint64 maxBytesPerSecond = 0; // the download cap; 0: none
    };
    CheckpointTracker(CheckpointHost &host, Setup setup, QObject *parent = nullptr);
    ~CheckpointTracker() override; // a download in progress keeps its progress on disk for the next start

    // Asks the hub for the joined task's checkpoint unless `announcedVersion` (>= 0) is here or on its way already;
    // -1: whatever is newest.
    void check(int announcedVersion);
    void pause(); // a download in progress keeps every byte on disk
    void resume();
    void taskJoined(); // forget the previous task's version (a download of it goes on until replaced)
    void taskLeft();   // forget it and end its download (its progress stays on disk for a later join)

    int version() const { return m_version; } // verified; 0: none yet
    const QString &modelPath() const { return m_modelPath; }
    const DownloadProgress &progress() const { return m_progress; }
    bool diskFull() const { return m_diskFull; } // the last download stopped for lack of space
    // One line for the dashboard while `task`'s checkpoint downloads (bytes, rate, time left); empty otherwise.
    QString downloadActivity(const TaskInfo &task) const;
    // One line for a joined task no work loop of this version runs: what is known of its checkpoint.
    QString activity(const TaskInfo &task) const;

Q_SIGNALS:
    void eventOccurred(const cohort::EngineEvent &event);
    void progressChanged(); // bytes, rate, phase
    void ready();           // a newer verified version (version(), modelPath()) is here
    void failed(const QString &error);

private:
    void onInfo(const HubReply &reply);
    void onFinished(const QString &modelPath);
    void onFailed(const QString &error);
    void dropDownloader();

    CheckpointHost &m_host;
    Setup m_setup;
    shardcast::Downloader *m_downloader = nullptr; // a child
    bool m_queryPending = false;
    QDateTime m_retryAfter;
    int m_version = 0;
    QString m_modelPath;
    DownloadProgress m_progress;
    bool m_diskFull = false;
};

} // namespace cohort
