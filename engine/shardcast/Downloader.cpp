#include "shardcast/Downloader.h"

#include "core/Logging.h"
#include "platform/FileSync.h"
#include "store/safetensors/Safetensors.h"

#include <QDir>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QStorageInfo>
#include <QThreadPool>
#include <QPointer>
#include <algorithm>

namespace cohort::shardcast {

namespace {
constexpr qint64 kReadChunk = 1 << 20;

Status writeAtomically(const QString &path, const QByteArray &bytes)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return fail(f.errorString());
    f.write(bytes);
    if (!f.commit())
        return fail(f.errorString());
    return {};
}
} // namespace

QString stableVersionDir(const QString &checkpointsDir, const QString &taskId, int version)
{
    return QDir(checkpointsDir).filePath(taskId + QLatin1Char('/') + versionDirName(version));
}

bool isStable(const QString &checkpointsDir, const QString &taskId, int version)
{
    return QFile::exists(stableVersionDir(checkpointsDir, taskId, version) + QStringLiteral("/stable"));
}

Downloader::Downloader(DownloadRequest request, QObject *parent)
    : QObject(parent), m_request(std::move(request)), m_persistTimer(this), m_rateTimer(this), m_tokenTimer(this)
{
    m_progress.taskId = m_request.taskId;
    m_persistTimer.setInterval(250);
    m_rateTimer.setInterval(1000);
    m_tokenTimer.setInterval(50);
    connect(&m_persistTimer, &QTimer::timeout, this, [this] { persist(false); });
    connect(&m_rateTimer, &QTimer::timeout, this, &Downloader::updateRates);
    connect(&m_tokenTimer, &QTimer::timeout, this, &Downloader::refillTokens);
}

Downloader::~Downloader()
{
    if (m_running)
        pause();
}

void Downloader::start()
{
    m_progress.phase = DownloadProgress::Phase::Preparing;
    if (Status ready = prepare(); !ready) {
        failDownload(ready.error(), m_progress.diskFull);
        return;
    }
    if (m_progress.phase == DownloadProgress::Phase::Done)
        return;
    resume();
}

Status Downloader::prepare()
{
    // Nothing is fetched, and nothing touched on disk, before the manifest is known to come from our hub.
    auto signedManifest = SignedManifest::verify(m_request.manifestBytes, m_request.signatureBytes, m_request.pinnedHubKey);
    if (!signedManifest)
        return fail(QStringLiteral("refused the checkpoint manifest for %1: %2").arg(m_request.taskId, signedManifest.error()));
    m_manifest = signedManifest->manifest;
    if (m_manifest.task != m_request.taskId)
        return fail(QStringLiteral("the manifest is for task %1, not %2").arg(m_manifest.task, m_request.taskId));
    m_manifestHash = Sha256::hash(m_request.manifestBytes);
    m_progress.version = m_manifest.version;
    m_progress.totalBytes = m_manifest.fileSize;
    m_progress.shardCount = int(m_manifest.shards.size());
    if (m_request.relays.isEmpty())
        return fail(QStringLiteral("the hub listed no relays for %1").arg(m_request.taskId));

    if (isStable(m_request.checkpointsDir, m_manifest.task, m_manifest.version)) {
        m_progress.phase = DownloadProgress::Phase::Done;
        m_progress.doneBytes = m_progress.totalBytes;
        m_progress.shardsDone = m_progress.shardCount;
        Q_EMIT finished(stableVersionDir(m_request.checkpointsDir, m_manifest.task, m_manifest.version) + QLatin1Char('/') +
                        m_manifest.fileName);
        return {};
    }

    m_partialDir = stableVersionDir(m_request.checkpointsDir, m_manifest.task, m_manifest.version) + QStringLiteral(".partial");
    if (!QDir().mkpath(m_partialDir))
        return fail(QStringLiteral("cannot create %1").arg(m_partialDir));

    QList<qint64> sizes;
    for (const ShardInfo &s : m_manifest.shards)
        sizes.append(s.size);
    QFile record(QDir(m_partialDir).filePath(QStringLiteral("progress.json")));
    QString resumeNote;
    if (record.open(QIODevice::ReadOnly)) {
        auto loaded = DownloadState::parse(record.readAll(), m_manifestHash, sizes);
        if (loaded)
            m_state = std::move(loaded).value();
        else
            resumeNote = loaded.error();
    }
    if (m_state.shards.isEmpty()) {
        if (!resumeNote.isEmpty())
            qCWarning(lcNet) << "starting" << m_manifest.task << versionDirName(m_manifest.version) << "afresh:" << resumeNote;
        m_state = DownloadState{m_manifestHash, QList<ShardState>(sizes.size()), {}};
    }
    // Relays from the hub, with the scores they earned before a restart.
    QList<RelayStats> relays;
    for (const QString &url : m_request.relays) {
        RelayStats stats;
        stats.url = url;
        for (const RelayStats &old : m_state.relays)
            if (old.url == url)
                stats = old;
        stats.active = 0;
        relays.append(stats);
    }
    m_score.relays() = relays;

    qint64 onDisk = 0;
    for (qsizetype i = 0; i < m_state.shards.size(); ++i)
        onDisk += m_state.shards[i].have;
    const qint64 needed = m_manifest.fileSize - onDisk + m_request.reserveBytes;
    const QStorageInfo storage(m_partialDir);
    if (storage.isValid() && storage.bytesAvailable() < needed) {
        m_progress.diskFull = true;
        return fail(QStringLiteral("not enough disk space for %1 %2: %3 MiB free, %4 MiB needed")
                        .arg(m_manifest.task, versionDirName(m_manifest.version))
                        .arg(storage.bytesAvailable() >> 20)
                        .arg(needed >> 20));
    }
    if (Status s = writeAtomically(QDir(m_partialDir).filePath(QStringLiteral("manifest.json")), m_request.manifestBytes); !s)
        return fail(s.error());
    if (Status s = writeAtomically(QDir(m_partialDir).filePath(QStringLiteral("manifest.json.sig")), m_request.signatureBytes); !s)
        return fail(s.error());
    m_data.setFileName(QDir(m_partialDir).filePath(m_manifest.fileName + QStringLiteral(".part")));
    if (!m_data.open(QIODevice::ReadWrite))
        return fail(QStringLiteral("cannot open %1: %2").arg(m_data.fileName(), m_data.errorString()));
    if (m_data.size() != m_manifest.fileSize && !m_data.resize(m_manifest.fileSize))
        return fail(QStringLiteral("cannot size %1: %2").arg(m_data.fileName(), m_data.errorString()));
    m_attempts = QList<int>(m_state.shards.size(), 0);
    return {};
}

void Downloader::resume()
{
    if (m_running || m_progress.phase == DownloadProgress::Phase::Done || m_progress.phase == DownloadProgress::Phase::Failed ||
        !m_data.isOpen())
        return;
    m_running = true;
    m_progress.phase = DownloadProgress::Phase::Downloading;
    if (!m_network)
        m_network = new QNetworkAccessManager(this);
    m_queue.clear();
    for (qsizetype i = 0; i < m_state.shards.size(); ++i)
        if (!m_state.shards[i].verified)
            m_queue.append(int(i));
    m_tokens = m_request.maxBytesPerSecond / 10;
    m_persistTimer.start();
    m_rateTimer.start();
    if (m_request.maxBytesPerSecond > 0)
        m_tokenTimer.start();
    m_progress.fetchedThisSession = 0;
    m_lastRateBytes = 0;
    if (m_queue.isEmpty())
        allShardsVerified();
    else
        schedule();
    publishProgress();
}

void Downloader::pause()
{
    if (!m_running)
        return;
    m_running = false;
    const auto transfers = m_transfers;
    m_transfers.clear();
    for (auto it = transfers.begin(); it != transfers.end(); ++it) {
        it.key()->disconnect(this);
        it.key()->abort();
        it.key()->deleteLater();
        delete it.value();
    }
    for (RelayStats &r : m_score.relays())
        r.active = 0;
    m_persistTimer.stop();
    m_rateTimer.stop();
    m_tokenTimer.stop();
    persist(true);
    if (m_progress.phase == DownloadProgress::Phase::Downloading)
        m_progress.phase = DownloadProgress::Phase::Paused;
    m_progress.bytesPerSecond = 0;
    publishProgress();
}

QString Downloader::shardUrl(int relay, int shard) const
{
    QString base = m_score.relays()[relay].url;
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    return base + QLatin1Char('/') + m_manifest.task + QLatin1Char('/') + versionDirName(m_manifest.version) +
           QLatin1Char('/') + shardFileName(shard);
}

void Downloader::schedule()
{
    while (m_running && m_transfers.size() < m_request.parallel && !m_queue.isEmpty())
        launch(m_queue.takeFirst(), -1);
}

void Downloader::launch(int shard, int excludeRelay)
{
    auto random = [] { return QRandomGenerator::global()->generateDouble(); };
    const int relay = m_score.choose(random, excludeRelay);
    auto *t = new Transfer;
    t->shard = shard;
    t->relay = relay;
    ShardState &s = m_state.shards[shard];
    if (s.have > 0) {
        // Resuming: the hash must cover the bytes already on disk, so read them back once.
        const qint64 offset = m_manifest.shardOffset(shard);
        m_data.seek(offset);
        qint64 left = s.have;
        while (left > 0) {
            const QByteArray chunk = m_data.read(std::min(left, kReadChunk));
            if (chunk.isEmpty()) {
                s.have = 0; // unreadable: fetch the shard whole
                break;
            }
            t->hash.addData(chunk);
            left -= chunk.size();
        }
        if (s.have == 0)
            t->hash.result(); // reset
    }
    QNetworkRequest request{QUrl(shardUrl(relay, shard))};
    request.setTransferTimeout(m_request.stallTimeoutMs);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    if (s.have > 0)
        request.setRawHeader("Range", "bytes=" + QByteArray::number(s.have) + '-');
    QNetworkReply *reply = m_network->get(request);
    // Keep Qt's buffer small under a bandwidth cap so TCP itself slows the relay down.
    reply->setReadBufferSize(m_request.maxBytesPerSecond > 0 ? 256 * 1024 : 4 << 20);
    t->clock.start();
    m_transfers.insert(reply, t);
    ++m_score.relays()[relay].active;
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] { onReadyRead(reply); });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onFinished(reply); });
}

bool Downloader::checkHeaders(QNetworkReply *reply, Transfer &t, QString *error)
{
    t.checkedHeaders = true;
    ShardState &s = m_state.shards[t.shard];
    const qint64 size = m_manifest.shards[t.shard].size;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 206) {
        // "bytes a-b/total": the relay must continue exactly where we are, for this shard's size.
        const QByteArray range = reply->rawHeader("Content-Range");
        const qsizetype dash = range.indexOf('-'), slash = range.indexOf('/');
        const qint64 begin = range.mid(6, dash - 6).trimmed().toLongLong();
        const qint64 total = range.mid(slash + 1).trimmed().toLongLong();
        if (!range.startsWith("bytes ") || dash < 0 || slash < 0 || begin != s.have || total != size) {
            *error = QStringLiteral("unexpected Content-Range '%1'").arg(QString::fromLatin1(range.left(100)));
            return false;
        }
        return true;
    }
    if (status == 200) {
        if (s.have > 0) { // this relay ignores Range: start the shard over
            s.have = 0;
            t.hash.result();
        }
        const QVariant length = reply->header(QNetworkRequest::ContentLengthHeader);
        if (length.isValid() && length.toLongLong() != size) {
            *error = QStringLiteral("serves %1 bytes for a %2-byte shard").arg(length.toLongLong()).arg(size);
            return false;
        }
        return true;
    }
    *error = status ? QStringLiteral("HTTP %1").arg(status) : reply->errorString();
    return false;
}

void Downloader::onReadyRead(QNetworkReply *reply)
{
    Transfer *t = m_transfers.value(reply);
    if (!t || !m_running)
        return;
    if (!t->checkedHeaders) {
        QString error;
        if (!checkHeaders(reply, *t, &error)) {
            m_transfers.remove(reply);
            --m_score.relays()[t->relay].active;
            reply->disconnect(this);
            reply->abort();
            reply->deleteLater();
            attemptFailed(t->shard, t->relay, error);
            delete t;
            return;
        }
    }
    consume(reply, *t);
}

void Downloader::consume(QNetworkReply *reply, Transfer &t)
{
    ShardState &s = m_state.shards[t.shard];
    const qint64 size = m_manifest.shards[t.shard].size;
    while (reply->bytesAvailable() > 0) {
        qint64 want = std::min(reply->bytesAvailable(), kReadChunk);
        if (m_request.maxBytesPerSecond > 0) {
            want = std::min(want, m_tokens);
            if (want <= 0)
                return; // the token timer calls back when the bucket refills
        }
        if (s.have + want > size)
            want = size - s.have + 1; // read one byte too many so the overflow is seen
        const QByteArray chunk = reply->read(want);
        if (chunk.isEmpty())
            return;
        if (s.have + chunk.size() > size)
            return attemptFailedFromReply(reply, t, QStringLiteral("sent more bytes than the shard holds"));
        m_data.seek(m_manifest.shardOffset(t.shard) + s.have);
        if (m_data.write(chunk) != chunk.size()) {
            const QString error = m_data.errorString();
            failDownload(QStringLiteral("cannot write %1: %2").arg(m_data.fileName(), error),
                         QStorageInfo(m_partialDir).bytesAvailable() < chunk.size() + m_request.reserveBytes);
            return;
        }
        t.hash.addData(chunk);
        s.have += chunk.size();
        t.received += chunk.size();
        m_tokens -= chunk.size();
        m_progress.fetchedThisSession += chunk.size();
        m_dirty = true;
    }
}

void Downloader::onFinished(QNetworkReply *reply)
{
    Transfer *t = m_transfers.value(reply);
    if (!t)
        return;
    if (reply->error() == QNetworkReply::NoError) {
        if (!t->checkedHeaders) {
            QString error;
            if (!checkHeaders(reply, *t, &error))
                return attemptFailedFromReply(reply, *t, error);
        }
        consume(reply, *t);
        if (reply->bytesAvailable() > 0 && m_request.maxBytesPerSecond > 0)
            return; // still draining under the cap; the token timer finishes it
    }
    if (!m_transfers.contains(reply))
        return; // consume() already failed it
    m_transfers.remove(reply);
    reply->deleteLater();
    RelayStats &relay = m_score.relays()[t->relay];
    --relay.active;
    const int shard = t->shard;
    ShardState &s = m_state.shards[shard];
    const ShardInfo &info = m_manifest.shards[shard];
    std::unique_ptr<Transfer> owned(t);
    if (reply->error() != QNetworkReply::NoError) {
        const bool stalled = reply->error() == QNetworkReply::OperationCanceledError;
        return attemptFailed(shard, t->relay, stalled ? QStringLiteral("stalled for %1 s").arg(m_request.stallTimeoutMs / 1000.0)
                                                      : reply->errorString());
    }
    if (s.have != info.size)
        return attemptFailed(shard, t->relay, QStringLiteral("truncated: %1 of %2 bytes").arg(s.have).arg(info.size));
    if (t->hash.result() != info.sha256) {
        s.have = 0; // poisoned bytes never count
        return attemptFailed(shard, t->relay, QStringLiteral("shard %1 failed its SHA-256 check").arg(shard + 1));
    }
    s.verified = true;
    m_score.recordSuccess(t->relay, t->received, t->clock.nsecsElapsed() / 1e9);
    persist(true); // a verified shard is never fetched twice, even after kill -9
    if (std::all_of(m_state.shards.cbegin(), m_state.shards.cend(), [](const ShardState &x) { return x.verified; }))
        allShardsVerified();
    else
        schedule();
}

void Downloader::attemptFailedFromReply(QNetworkReply *reply, Transfer &t, const QString &error)
{
    m_transfers.remove(reply);
    --m_score.relays()[t.relay].active;
    reply->disconnect(this);
    reply->abort();
    reply->deleteLater();
    const int shard = t.shard, relay = t.relay;
    delete &t;
    attemptFailed(shard, relay, error);
}

void Downloader::attemptFailed(int shard, int relay, const QString &error)
{
    const QString url = m_score.relays()[relay].url;
    qCWarning(lcNet) << "shard" << shard + 1 << "of" << m_manifest.task << versionDirName(m_manifest.version) << "from relay"
                     << url << ":" << error;
    m_score.recordFailure(relay, error);
    m_dirty = true;
    if (++m_attempts[shard] >= m_request.maxAttemptsPerShard) {
        failDownload(QStringLiteral("shard %1 of %2 %3 failed %4 times; last from %5: %6")
                         .arg(shard + 1).arg(m_manifest.task, versionDirName(m_manifest.version))
                         .arg(m_attempts[shard]).arg(url, error));
        return;
    }
    // Back off (1, 2, 4, 8 s) and prefer another relay for the next attempt.
    const int delayMs = 1000 * std::min(8, 1 << (m_attempts[shard] - 1));
    QTimer::singleShot(delayMs, this, [this, shard, relay] {
        if (m_running)
            launch(shard, relay);
    });
}

void Downloader::allShardsVerified()
{
    persist(true);
    m_progress.phase = DownloadProgress::Phase::Assembling;
    publishProgress();
    m_data.close();
    // The whole-file hash reads everything once: off the engine thread.
    const QString path = m_data.fileName();
    const Manifest manifest = m_manifest;
    QPointer<Downloader> self(this);
    QThreadPool::globalInstance()->start([self, path, manifest] {
        QFile f(path);
        QList<int> badShards;
        QByteArray whole;
        // Hashes prove the bytes are the hub's; the header check proves they are loadable weights.
        const auto header = safetensors::readHeaderFromFile(path.toStdString());
        const QString headerError = header ? QString() : QString::fromStdString(header.error);
        if (f.open(QIODevice::ReadOnly)) {
            Sha256 all;
            for (qsizetype i = 0; i < manifest.shards.size(); ++i) {
                const QByteArray shard = f.read(manifest.shards[i].size);
                all.addData(shard);
                if (Sha256::hash(shard) != manifest.shards[i].sha256)
                    badShards.append(int(i));
            }
            whole = all.result();
        }
        QMetaObject::invokeMethod(self.data(), [self, whole, badShards, headerError] {
            if (!self)
                return;
            if (whole == self->m_manifest.fileSha256 && badShards.isEmpty()) {
                if (!headerError.isEmpty())
                    return self->failDownload(QStringLiteral("the checkpoint is not a loadable safetensors file: ") + headerError);
                return self->finalize();
            }
            // Something on disk changed after its shard was verified: fetch just those shards again.
            qCWarning(lcNet) << "whole-file check failed; refetching shards" << badShards;
            if (!self->m_data.open(QIODevice::ReadWrite))
                return self->failDownload(QStringLiteral("cannot reopen %1").arg(self->m_data.fileName()));
            if (badShards.isEmpty())
                return self->failDownload(QStringLiteral("the assembled file does not match the manifest's SHA-256"));
            for (int i : badShards)
                self->m_state.shards[i] = ShardState{};
            self->m_running = false;
            self->m_progress.phase = DownloadProgress::Phase::Paused;
            self->resume();
        }, Qt::QueuedConnection);
    });
}

void Downloader::finalize()
{
    m_persistTimer.stop();
    m_rateTimer.stop();
    m_tokenTimer.stop();
    m_running = false;
    const QDir partial(m_partialDir);
    const QString model = partial.filePath(m_manifest.fileName);
    QFile::remove(model);
    if (!QFile::rename(m_data.fileName(), model))
        return failDownload(QStringLiteral("cannot rename %1").arg(m_data.fileName()));
    QFile::remove(partial.filePath(QStringLiteral("progress.json")));
    {
        QFile marker(partial.filePath(QStringLiteral("stable")));
        if (!marker.open(QIODevice::WriteOnly) || !syncToDisk(marker))
            return failDownload(QStringLiteral("cannot mark %1 usable").arg(m_partialDir));
    }
    const QString finalDir = stableVersionDir(m_request.checkpointsDir, m_manifest.task, m_manifest.version);
    QDir(finalDir).removeRecursively();
    if (!QDir().rename(m_partialDir, finalDir))
        return failDownload(QStringLiteral("cannot move %1 into place").arg(m_partialDir));

    // Keep the newest K usable versions, and drop partial downloads of versions older than this one.
    QDir taskDir(QDir(m_request.checkpointsDir).filePath(m_manifest.task));
    QList<int> stable;
    for (const QString &name : taskDir.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool ok = false;
        const bool partialDir = name.endsWith(QLatin1String(".partial"));
        const int v = QStringView(name).mid(1, partialDir ? name.size() - 9 : -1).toInt(&ok);
        if (!name.startsWith(QLatin1Char('v')) || !ok)
            continue;
        if (partialDir && v < m_manifest.version)
            QDir(taskDir.filePath(name)).removeRecursively();
        else if (!partialDir && QFile::exists(taskDir.filePath(name + QStringLiteral("/stable"))))
            stable.append(v);
    }
    std::sort(stable.begin(), stable.end());
    while (stable.size() > m_request.keepVersions)
        QDir(taskDir.filePath(versionDirName(stable.takeFirst()))).removeRecursively();

    m_progress.phase = DownloadProgress::Phase::Done;
    m_progress.doneBytes = m_progress.totalBytes;
    m_progress.bytesPerSecond = 0;
    m_progress.etaSeconds = 0;
    publishProgress();
    qCInfo(lcNet) << "checkpoint" << m_manifest.task << versionDirName(m_manifest.version) << "verified and usable";
    Q_EMIT finished(QDir(finalDir).filePath(m_manifest.fileName));
}

void Downloader::failDownload(const QString &error, bool diskFull)
{
    if (m_running)
        pause();
    m_running = false;
    m_progress.phase = DownloadProgress::Phase::Failed;
    m_progress.error = error;
    m_progress.diskFull = diskFull;
    publishProgress();
    qCWarning(lcNet) << error;
    Q_EMIT failed(error);
}

void Downloader::persist(bool force)
{
    if (!force && !m_dirty)
        return;
    if (m_data.isOpen() && !syncToDisk(m_data))
        qCWarning(lcNet) << "could not sync" << m_data.fileName();
    m_state.relays = m_score.relays();
    if (Status s = writeAtomically(QDir(m_partialDir).filePath(QStringLiteral("progress.json")), m_state.toJson()); !s)
        qCWarning(lcNet) << "could not save download progress:" << s.error();
    m_dirty = false;
}

void Downloader::refillTokens()
{
    const qint64 rate = m_request.maxBytesPerSecond;
    m_tokens = std::min(m_tokens + rate / 20, std::max<qint64>(rate / 4, 64 * 1024));
    const auto replies = m_transfers.keys();
    for (QNetworkReply *reply : replies) {
        if (!m_transfers.contains(reply))
            continue;
        consume(reply, *m_transfers.value(reply));
        if (m_transfers.contains(reply) && reply->isFinished() && reply->bytesAvailable() == 0)
            onFinished(reply);
    }
}

void Downloader::updateRates()
{
    const qint64 delta = m_progress.fetchedThisSession - m_lastRateBytes;
    m_lastRateBytes = m_progress.fetchedThisSession;
    m_progress.bytesPerSecond = m_progress.bytesPerSecond > 0 ? 0.7 * m_progress.bytesPerSecond + 0.3 * delta : double(delta);
    publishProgress();
}

void Downloader::publishProgress()
{
    qint64 done = 0;
    int verified = 0;
    for (const ShardState &s : m_state.shards) {
        done += s.have;
        verified += s.verified;
    }
    if (m_progress.phase != DownloadProgress::Phase::Done) {
        m_progress.doneBytes = done;
        m_progress.shardsDone = verified;
        const qint64 left = m_progress.totalBytes - done;
        m_progress.etaSeconds = m_progress.bytesPerSecond > 1 ? int(left / m_progress.bytesPerSecond) : -1;
    } else {
        m_progress.shardsDone = m_progress.shardCount;
    }
    m_progress.relays = m_score.relays();
    Q_EMIT progressChanged(m_progress);
}

} // namespace cohort::shardcast
