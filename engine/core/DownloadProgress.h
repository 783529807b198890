#pragma once
// Progress of a checkpoint download, as shown in the dashboard and cohortd (filled by the SHARDCAST downloader).
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QString>

namespace cohort {

struct RelayProgress {
    QString url;
    double successRate = 1.0; // moving average of attempts that succeeded
    double bandwidthMBps = 0; // moving average of measured shard fetches; 0 until measured
    qint64 bytes = 0;         // verified bytes fetched from this relay
    int failures = 0;
    int active = 0; // requests in flight
    QString lastError;
    bool operator==(const RelayProgress &) const = default;
};

struct DownloadProgress {
    Q_GADGET // the phase's wire name comes from its enumerators (core/EnumNames.h)
        public : enum class Phase {
            None,
            Preparing,
            Downloading,
            Paused,
            Assembling,
            Done,
            Failed
        };
    Q_ENUM(Phase)
    QString taskId;
    int version = 0;
    Phase phase = Phase::None;
    qint64 totalBytes = 0;
    qint64 doneBytes = 0;          // on disk, including partial shards
    qint64 fetchedThisSession = 0; // bytes received over the network since this process started it
    int shardsDone = 0;
    int shardCount = 0;
    double bytesPerSecond = 0;
    int etaSeconds = -1;
    QList<RelayProgress> relays;
    QString error;
    bool diskFull = false;

    bool active() const
    {
        return phase == Phase::Preparing || phase == Phase::Downloading || phase == Phase::Assembling;
    }
    static QString phaseName(Phase phase);
    QJsonObject toJson() const;
    bool operator==(const DownloadProgress &) const = default;
};

} // namespace cohort

Q_DECLARE_METATYPE(cohort::DownloadProgress)
