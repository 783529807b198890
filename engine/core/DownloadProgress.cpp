#include "core/DownloadProgress.h"

#include "core/EnumNames.h"

#include <QJsonArray>

namespace cohort {

QString DownloadProgress::phaseName(Phase phase)
{
    const QString name = enumName(phase);
    return name.isEmpty() ? QStringLiteral("none") : name;
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
