#include "shardcast/DownloadState.h"

#include "core/JsonReader.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace cohort::shardcast {

QByteArray DownloadState::toJson() const
{
    QJsonArray shardArray;
    for (const ShardState &s : shards)
        shardArray.append(QJsonArray{s.have, s.verified});
    QJsonArray relayArray;
    for (const RelayStats &r : relays)
        relayArray.append(QJsonObject{{QStringLiteral("url"), r.url},
                                      {QStringLiteral("success_rate"), r.successRate},
                                      {QStringLiteral("mbps"), r.bandwidthMBps},
                                      {QStringLiteral("failures"), r.failures}});
    return QJsonDocument(QJsonObject{{QStringLiteral("manifest_sha256"), QString::fromLatin1(manifestSha256.toHex())},
                                     {QStringLiteral("shards"), shardArray},
                                     {QStringLiteral("relays"), relayArray},
                                     {QStringLiteral("boot"), QString::fromLatin1(bootId)}})
        .toJson(QJsonDocument::Compact);
}

Expected<DownloadState> DownloadState::parse(const QByteArray &json, const QByteArray &manifestSha256,
                                             const QList<qint64> &shardSizes)
{
    auto object = parseJsonObject(json, 64 << 20);
    if (!object)
        return fail(QStringLiteral("progress record: ") + object.error());
    JsonReader r(*object, QStringLiteral("progress record"));
    DownloadState state;
    state.manifestSha256 = QByteArray::fromHex(r.string(QStringLiteral("manifest_sha256"), 64).toLatin1());
    const QJsonArray shards = r.optionalArray(QStringLiteral("shards"), 10'000'000);
    const QJsonArray relays = r.optionalArray(QStringLiteral("relays"), 1000);
    state.bootId = r.optionalString(QStringLiteral("boot"), QString(), 128).toLatin1();
    if (!r.ok())
        return fail(r.error());
    if (state.manifestSha256 != manifestSha256)
        return fail(QStringLiteral("progress record belongs to another manifest"));
    if (shards.size() != shardSizes.size())
        return fail(QStringLiteral("progress record lists %1 shards, the manifest %2")
                        .arg(shards.size())
                        .arg(shardSizes.size()));
    for (qsizetype i = 0; i < shards.size(); ++i) {
        const QJsonArray pair = shards[i].toArray();
        if (pair.size() != 2 || !pair[0].isDouble() || !pair[1].isBool())
            return fail(QStringLiteral("progress record: shard %1 is malformed").arg(i + 1));
        ShardState s{qint64(pair[0].toDouble()), pair[1].toBool()};
        if (s.have < 0 || s.have > shardSizes[i] || (s.verified && s.have != shardSizes[i]))
            return fail(QStringLiteral("progress record: shard %1 claims impossible progress").arg(i + 1));
        state.shards.append(s);
    }
    for (const QJsonValue &v : relays) {
        JsonReader rr(v.toObject());
        RelayStats stats;
        stats.url = rr.string(QStringLiteral("url"), 2048);
        stats.successRate = rr.optionalNumber(QStringLiteral("success_rate"), 1.0, 0, 1);
        stats.bandwidthMBps = rr.optionalNumber(QStringLiteral("mbps"), 0, 0, 1e6);
        stats.failures = int(rr.optionalInteger(QStringLiteral("failures"), 0, 0, 1 << 30));
        if (rr.ok())
            state.relays.append(stats);
    }
    return state;
}

} // namespace cohort::shardcast
