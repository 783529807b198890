#include "core/DownloadProgress.h"

#include <QJsonArray>

namespace cohort {

QString DownloadProgress::phaseName(Phase phase)
{
    switch (phase) {
    case Phase::None: return QStringLiteral("none");
    case Phase::Preparing: return QStringLiteral("preparing");
    case Phase::Downloading: return QStringLiteral("downloading");
    case Phase::Paused: return QStringLiteral("paused");
    case Phase::Assembling: return QStringLiteral("assembling");
    case Phase::Done: return QStringLiteral("done");
    case Phase::Failed: return QStringLiteral("failed");
    }
    return QStringLiteral("none");
}

QJsonObject DownloadProgress::toJson() const
{
    QJsonArray relayArray;
    for (const RelayProgress &r : relays)
        relayArray.append(QJsonObject{{QStringLiteral("url"), r.url},
                                      {QStringLiteral("success_rate"), r.successRate},
                                      {QStringLiteral("mbps"), r.bandwidthMBps},
                                      {QStringLiteral("bytes"), r.bytes},
                                      {QStringLiteral("failures"), r.failures},
                                      {QStringLiteral("active"), r.active},
                                      {QStringLiteral("last_error"), r.lastError}});
    return QJsonObject{{QStringLiteral("task"), taskId},
                       {QStringLiteral("version"), version},
                       {QStringLiteral("phase"), phaseName(phase)},
                       {QStringLiteral("total_bytes"), totalBytes},
                       {QStringLiteral("done_bytes"), doneBytes},
                       {QStringLiteral("fetched_bytes"), fetchedThisSession},
                       {QStringLiteral("shards_done"), shardsDone},
                       {QStringLiteral("shard_count"), shardCount},
                       {QStringLiteral("bytes_per_second"), bytesPerSecond},
                       {QStringLiteral("eta_seconds"), etaSeconds},
                       {QStringLiteral("relays"), relayArray},
                       {QStringLiteral("error"), error},
                       {QStringLiteral("disk_full"), diskFull}};
}

} // namespace cohort
