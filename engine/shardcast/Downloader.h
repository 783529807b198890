#pragma once
// Node side of SHARDCAST (engine thread, QtNetwork). Verifies the manifest signature against the pinned hub
// key before fetching anything; fetches shards in parallel from relays chosen by RelayScore; resumes partial
// shards with HTTP Range; hashes every shard (OpenSSL EVP) before it counts; bounded retries with backoff and
// failover; optional bandwidth cap (token bucket); free-disk check; persisted progress; positional writes into
// a preallocated file; whole-file hash; then <task>/v<N>/{model file, manifest, stable} and the newest K kept.
#include "core/DownloadProgress.h"
#include "core/Sha256.h"
#include "shardcast/DownloadState.h"
#include "shardcast/Manifest.h"
#include "shardcast/ShardPieces.h"

#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QObject>
#include <QThreadPool>
#include <QTimer>
#include <memory>

namespace cohort::shardcast {

struct DownloadRequest {
    QString taskId;
    QByteArray manifestBytes;  // manifest.json as signed
    QByteArray signatureBytes; // manifest.json.sig
    QByteArray pinnedHubKey;
    QStringList relays;     // base URLs of relays serving the tree
    QString checkpointsDir; // <data>/checkpoints
    int parallel = 8;
    qint64 maxBytesPerSecond = 0; // 0: unlimited
    int keepVersions = 3;
    int maxAttemptsPerShard = 6;
    int stallTimeoutMs = 15'000;      // a relay that sends nothing for this long is abandoned
    qint64 pieceBytes = 4LL << 20;    // shards are fetched in pieces of this size, several at once
    qint64 reserveBytes = 64LL << 20; // disk space left free after the download
};

// Where version N of a task lives once usable, and the test for it.
QString stableVersionDir(const QString &checkpointsDir, const QString &taskId, int version);
bool isStable(const QString &checkpointsDir, const QString &taskId, int version);

class ShardFetch;

class Downloader : public QObject {
    Q_OBJECT
public:
    explicit Downloader(DownloadRequest request, QObject *parent = nullptr);
    ~Downloader() override; // persists progress and waits for its hashing workers

    void start();
    void pause(); // cancels transfers, keeps everything on disk
    void resume();
    const DownloadProgress &progress() const { return m_progress; }
    int version() const { return m_manifest.version; }

Q_SIGNALS:
    void progressChanged(const cohort::DownloadProgress &progress);
    void finished(const QString &modelPath);
    void failed(const QString &error);

private:
    Status prepare();
    void schedule();
    struct Part {
        int shard = 0;
        int piece = 0; // -1: every piece of the shard
    };
    void launch(Part part, int excludeRelay);
    void verifyShard(int shard, qint64 received, double seconds);
    void onShardHashed(int shard, qint64 received, double seconds, bool match);
    void attemptFailed(Part part, int relay, const QString &error);
    void advanceFileHash();
    void onFileHashed();
    void finalize();
    void failDownload(const QString &error, bool diskFull = false);
    void persist();
    void stopWork();
    void refillTokens();
    void updateRates();
    void publishProgress();
    QString shardUrl(int relay, int shard) const;
    bool allVerified() const;

    DownloadRequest m_request;
    Manifest m_manifest;
    QByteArray m_manifestHash;
    QString m_partialDir;
    QFile m_data;
    uchar *m_map = nullptr; // the whole data file, memory-mapped
    DownloadState m_state;
    RelayScore m_score;
    QList<Part> m_queue;       // pieces waiting to be fetched, in file order
    QList<ShardPieces> m_work; // per shard: pieces, relay, attempts
    QList<bool> m_hashing;     // shard being verified
    QHash<ShardFetch *, Part> m_fetches;
    qint64 m_unsavedBytes = 0;          // arrived since the last saved record
    QThreadPool m_pool;                 // SHA-256 of shards and of the file
    QThreadPool m_persistPool;          // progress records
    std::unique_ptr<Sha256> m_fileHash; // whole-file hash, fed in shard order as shards are verified
    int m_fileHashNext = 0;
    bool m_fileHashBusy = false;
    bool m_persistBusy = false;
    bool m_persistAgain = false;
    QTimer m_persistTimer;
    QTimer m_rateTimer;
    QTimer m_tokenTimer;
    qint64 m_tokens = 0;
    qint64 m_lastRateBytes = 0;
    bool m_dirty = false;
    bool m_running = false;
    quint64 m_generation = 0; // bumps on pause: late worker results of an older run are ignored
    DownloadProgress m_progress;
};

} // namespace cohort::shardcast
