#pragma once
// What a download has on disk, persisted as <partial dir>/progress.json so that pause, quit, a crash
// (kill -9) or a reboot resume where they stopped. Written atomically. The data file is not synced for it
// (that would make the download as slow as the disk): the record carries the boot id instead, and a run in a
// later boot re-hashes the shards it claims and starts partial shards over (see Downloader::prepare).
#include "core/Expected.h"
#include "shardcast/RelayScore.h"

#include <QList>

namespace cohort::shardcast {

struct ShardState {
    qint64 have = 0;       // bytes of this shard written to the data file (from its start)
    bool verified = false; // its SHA-256 matched the manifest
};

struct DownloadState {
    QByteArray manifestSha256; // which manifest these shards belong to
    QList<ShardState> shards;
    QList<RelayStats> relays; // scores survive restarts
    QByteArray bootId;        // the boot that wrote it (platform/BootId)

    QByteArray toJson() const;
    // Refuses records that do not match the manifest (shard count, sizes), so a damaged record can only
    // cause a re-download, never a wrong file.
    static Expected<DownloadState> parse(const QByteArray &json, const QByteArray &manifestSha256,
                                         const QList<qint64> &shardSizes);
};

} // namespace cohort::shardcast
