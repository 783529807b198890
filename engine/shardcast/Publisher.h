#pragma once
// Hub side of SHARDCAST: turns a checkpoint file into version N of a task in a static tree
//   <root>/<task>/index.json                      {"task", "versions": [..], "latest": N}
//   <root>/<task>/v<N>/manifest.json(.sig)        signed manifest
//   <root>/<task>/v<N>/shard_00001.bin ...        fixed-size shards
// that any static web server can serve. A version appears atomically (built in a temporary folder,
// then renamed) and only the newest K are kept.
#include "shardcast/Manifest.h"

namespace cohort {
class Identity;
}

namespace cohort::shardcast {

class Publisher {
public:
    Publisher(QString treeRoot, const Identity &hubIdentity, qint64 shardSize = kDefaultShardSize,
              int keepVersions = 3);

    Expected<SignedManifest> publish(const QString &taskId, const QString &checkpointPath);
    // The newest published version of a task, read back from the tree.
    Expected<SignedManifest> latest(const QString &taskId) const;
    QList<int> versions(const QString &taskId) const;
    QString treeRoot() const { return m_root; }

private:
    QString m_root;
    const Identity &m_identity;
    qint64 m_shardSize;
    int m_keep;
};

// Reads <root>/<task>/index.json; empty list if none. Shared with relays that mirror a tree.
QList<int> readIndex(const QString &treeRoot, const QString &taskId, QString *error = nullptr);
// Moves a fully written version folder into place as <root>/<task>/v<N>, then records it in index.json and
// deletes versions beyond the newest `keep`. The order keeps the tree consistent for readers at every step.
Status commitVersion(const QString &treeRoot, const QString &taskId, const QString &stagedDir, int version, int keep);

} // namespace cohort::shardcast
