#pragma once
// A middle-tier relay: mirrors an upstream hub or relay's tree (cohort-hub --relay-of URL) and re-serves it.
// It polls <upstream>/<task>/index.json, fetches each new version with the same verified, resumable Downloader
// nodes use (signature against the operator-given hub key, every shard hashed), re-splits the file along the
// manifest's shard boundaries and commits it as a version of its own tree with the upstream's signed manifest,
// so nodes verify it exactly as if it came from the hub.
#include "core/Expected.h"

#include <QObject>
#include <QStringList>
#include <QTimer>

class QNetworkAccessManager;

namespace cohort::shardcast {

class Downloader;

struct MirrorConfig {
    QString upstream;  // base URL of the upstream tree
    QStringList tasks; // which tasks to mirror
    QString treeRoot;  // the tree this relay serves
    QString workDir;   // downloads in progress (resumable)
    QByteArray hubKey; // the origin hub's public key: manifests signed by anyone else are refused
    int keepVersions = 3;
    int pollSeconds = 30;
};

class Mirror : public QObject {
    Q_OBJECT
public:
    explicit Mirror(MirrorConfig config, QObject *parent = nullptr);
    void start();

Q_SIGNALS:
    void mirrored(const QString &task, int version);
    void problem(const QString &message);

private:
    void poll();
    void fetchIndex(const QString &task);
    void fetchVersion(const QString &task, int version);
    void startDownload(const QString &task, int version, const QByteArray &manifest, const QByteArray &signature);
    Status publishLocally(const QString &task, const QString &modelPath);
    void get(const QString &url, std::function<void(int status, const QByteArray &body)> done);

    MirrorConfig m_config;
    QNetworkAccessManager *m_network;
    QTimer m_timer;
    QStringList m_busy; // tasks with a fetch in progress
};

} // namespace cohort::shardcast
