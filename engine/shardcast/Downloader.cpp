#include "shardcast/Downloader.h"

#include "core/Logging.h"
#include "platform/BootId.h"
#include "platform/DiskSpace.h"
#include "platform/FileSync.h"
#include "shardcast/ShardFetch.h"
#include "shardcast/ShardPieces.h"
#include "store/safetensors/Safetensors.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QThreadPool>
#include <algorithm>

namespace cohort::shardcast {

namespace {

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

// <version>/stable marks a verified version. A version is usable as soon as its whole-file hash matched, while
// its bytes may still be only in the page cache: the marker says so ("durable": false) with the boot id, and
// a background sync turns it durable a moment later. A marker without content predates this (it was written
// after a sync) and counts as durable.
QByteArray stableMarker(bool durable)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("boot"), QString::fromLatin1(currentBootId())},
                                     {QStringLiteral("durable"), durable}})
        .toJson(QJsonDocument::Compact);
}

enum class Marker { Absent, Usable, MaybeLost };

Marker readStableMarker(const QString &versionDir)
{
    QFile file(versionDir + QStringLiteral("/stable"));
    if (!file.open(QIODevice::ReadOnly))
        return Marker::Absent;
    const QByteArray bytes = file.read(4096);
    if (bytes.isEmpty())
        return Marker::Usable;
    const QJsonObject marker = QJsonDocument::fromJson(bytes).object();
    if (marker.value(QStringLiteral("durable")).toBool())
        return Marker::Usable;
    const QByteArray boot = marker.value(QStringLiteral("boot")).toString().toLatin1();
    // Same boot: whatever the page cache held is still there, even after a crash of the process.
    return !boot.isEmpty() && boot == currentBootId() ? Marker::Usable : Marker::MaybeLost;
}

// Off the engine thread: forces the model to disk, then records that the version is durable. A job on the global
// pool rather than an owned thread (docs/THREADS.md): it holds copies of two paths and touches only files, so it
// may outlive the Downloader, which is usually gone before the sync ends; the only wait for it is the one
// QCoreApplication's destructor makes for the global pool as the program ends (one fsync at most).
void makeDurableInBackground(const QString &modelPath, const QString &versionDir)
{
    QThreadPool::globalInstance()->start([modelPath, versionDir] {
        QFile model(modelPath);
        if (!model.exists())
            return; // already replaced or removed (keep-newest-K, a test's temporary folder)
        if (!model.open(QIODevice::ReadWrite) || !syncToDisk(model)) {
            qCWarning(lcNet) << "could not flush" << modelPath << "to disk; it will be re-checked after a restart";
            return;
        }
        model.close();
        if (Status s = writeAtomically(versionDir + QStringLiteral("/stable"), stableMarker(true));
            !s && QFileInfo::exists(versionDir))
            qCWarning(lcNet) << "could not mark" << versionDir << "durable:" << s.error();
    });
}
} // namespace

QString stableVersionDir(const QString &checkpointsDir, const QString &taskId, int version)
{
    return QDir(checkpointsDir).filePath(taskId + QLatin1Char('/') + versionDirName(version));
}

bool isStable(const QString &checkpointsDir, const QString &taskId, int version)
{
    return readStableMarker(stableVersionDir(checkpointsDir, taskId, version)) == Marker::Usable;
}

Downloader::Downloader(DownloadRequest request, QObject *parent)
    : QObject(parent),
      m_request(std::move(request)),
      m_persistTimer(this),
      m_rateTimer(this),
      m_tokenTimer(this)
{
    m_progress.taskId = m_request.taskId;
    m_pool.setMaxThreadCount(2);
    m_persistPool.setMaxThreadCount(1); // records are small and written in order; never behind a hash
    // Partial shards are saved now and then; a verified shard is saved at once. Either way a kill -9 costs at
    // most the shards in flight.
    m_persistTimer.setInterval(250);
    m_rateTimer.setInterval(1000);
    m_tokenTimer.setInterval(50);
    connect(&m_persistTimer, &QTimer::timeout, this, [this] {
        if (m_dirty)
            persist();
    });
    connect(&m_rateTimer, &QTimer::timeout, this, &Downloader::updateRates);
    connect(&m_tokenTimer, &QTimer::timeout, this, &Downloader::refillTokens);
}

Downloader::~Downloader()
{
    stopWork();
    m_pool.waitForDone(); // workers read the mapped file and write the record: let them finish first
    m_persistPool.waitForDone();
    if (!m_partialDir.isEmpty() && m_data.isOpen()) {
        m_persistBusy = false;
        persist();
        m_persistPool.waitForDone();
    }
    if (m_map)
        m_data.unmap(m_map);
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
    auto signedManifest =
        SignedManifest::verify(m_request.manifestBytes, m_request.signatureBytes, m_request.pinnedHubKey);
    if (!signedManifest)
        return fail(
            QStringLiteral("refused the checkpoint manifest for %1: %2").arg(m_request.taskId, signedManifest.error()));
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
        Q_EMIT finished(stableVersionDir(m_request.checkpointsDir, m_manifest.task, m_manifest.version) +
                        QLatin1Char('/') + m_manifest.fileName);
        return {};
    }

    const QString finalDir = stableVersionDir(m_request.checkpointsDir, m_manifest.task, m_manifest.version);
    m_partialDir = finalDir + QStringLiteral(".partial");
    // A version marked usable in an earlier boot before its bytes reached the disk: back to a download whose
    // every shard is re-hashed from the file; only shards that lost bytes are fetched again.
    const bool recheckAll = readStableMarker(finalDir) == Marker::MaybeLost;
    if (recheckAll) {
        qCWarning(lcNet) << "re-checking" << m_manifest.task << versionDirName(m_manifest.version)
                         << ": the computer restarted before it was safely on disk";
        QDir(m_partialDir).removeRecursively();
        if (!QDir().rename(finalDir, m_partialDir))
            return fail(QStringLiteral("cannot move %1 back to %2").arg(finalDir, m_partialDir));
        QDir partial(m_partialDir);
        partial.remove(QStringLiteral("stable"));
        partial.remove(QStringLiteral("progress.json"));
        const QString part = partial.filePath(m_manifest.fileName + QStringLiteral(".part"));
        QFile::remove(part);
        QFile::rename(partial.filePath(m_manifest.fileName), part);
    }
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
            qCWarning(lcNet) << "starting" << m_manifest.task << versionDirName(m_manifest.version)
                             << "afresh:" << resumeNote;
        m_state = DownloadState{m_manifestHash, QList<ShardState>(sizes.size()), {}, {}};
    }
    const QByteArray boot = currentBootId();
    if (recheckAll) {
        for (qsizetype i = 0; i < sizes.size(); ++i)
            m_state.shards[i] = ShardState{sizes[i], false}; // resume() re-hashes a complete shard without fetching
    } else if (m_state.bootId != boot || boot.isEmpty()) {
        // Written in another boot: the data file was never synced for the record, so what it claims may be
        // gone. Verified shards are re-hashed; partial shards, which cannot be checked, start over.
        for (ShardState &s : m_state.shards) {
            s.have = s.verified ? s.have : 0;
            s.verified = false;
        }
    }
    m_state.bootId = boot;
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
    // Fails closed: where the filesystem cannot say how much is free, nothing is written.
    const Expected<qint64> available = availableDiskBytes(m_partialDir);
    if (!available) {
        m_progress.diskFull = true;
        return fail(available.error());
    }
    if (*available < needed) {
        m_progress.diskFull = true;
        return fail(QStringLiteral("not enough disk space for %1 %2: %3 MiB free, %4 MiB needed")
                        .arg(m_manifest.task, versionDirName(m_manifest.version))
                        .arg(*available >> 20)
                        .arg(needed >> 20));
    }
    if (Status s =
            writeAtomically(QDir(m_partialDir).filePath(QStringLiteral("manifest.json")), m_request.manifestBytes);
        !s)
        return fail(s.error());
    if (Status s =
            writeAtomically(QDir(m_partialDir).filePath(QStringLiteral("manifest.json.sig")), m_request.signatureBytes);
        !s)
        return fail(s.error());
    m_data.setFileName(QDir(m_partialDir).filePath(m_manifest.fileName + QStringLiteral(".part")));
    if (!m_data.open(QIODevice::ReadWrite | QIODevice::Unbuffered))
        return fail(QStringLiteral("cannot open %1: %2").arg(m_data.fileName(), m_data.errorString()));
    // Real blocks up front: writes through the map can then never hit a full disk.
    if (Status reserved = preallocate(m_data, m_manifest.fileSize); !reserved) {
        m_progress.diskFull = reserved.error().startsWith(QLatin1String("disk full"));
        return fail(reserved.error());
    }
    m_data.close(); // reopen so Qt sees the preallocated size before mapping
    if (!m_data.open(QIODevice::ReadWrite | QIODevice::Unbuffered))
        return fail(QStringLiteral("cannot open %1: %2").arg(m_data.fileName(), m_data.errorString()));
    m_map = m_data.map(0, m_manifest.fileSize);
    if (!m_map)
        return fail(QStringLiteral("cannot map %1: %2").arg(m_data.fileName(), m_data.errorString()));
    m_work.clear();
    for (qsizetype i = 0; i < m_state.shards.size(); ++i)
        m_work.append(ShardPieces(m_manifest.shards[i].size, m_request.pieceBytes, m_state.shards[i].have));
    m_hashing = QList<bool>(m_state.shards.size(), false);
    return {};
}

void Downloader::resume()
{
    if (m_running || m_progress.phase == DownloadProgress::Phase::Done ||
        m_progress.phase == DownloadProgress::Phase::Failed || !m_map)
        return;
    m_running = true;
    ++m_generation;
    m_progress.phase = DownloadProgress::Phase::Downloading;
    m_queue.clear();
    // Pieces in file order; a shard that is all there (before a pause, crash or reboot) only needs its check.
    for (int i = 0; i < int(m_state.shards.size()); ++i) {
        if (m_state.shards[i].verified)
            continue;
        m_work[i].relay = -1;
        m_work[i].contributors.clear();
        if (m_work[i].complete()) {
            verifyShard(i, 0, 0);
            continue;
        }
        for (int piece = 0; piece < m_work[i].count(); ++piece)
            if (!m_work[i].pieceComplete(piece))
                m_queue.append({i, piece});
    }
    // The whole-file hash restarts from the first shard; shards verified earlier are fed straight away.
    m_fileHash = std::make_unique<Sha256>();
    m_fileHashNext = 0;
    m_fileHashBusy = false;
    m_tokens = m_request.maxBytesPerSecond / 10;
    m_persistTimer.start();
    m_rateTimer.start();
    if (m_request.maxBytesPerSecond > 0)
        m_tokenTimer.start();
    m_progress.fetchedThisSession = 0;
    m_lastRateBytes = 0;
    schedule();
    advanceFileHash();
    publishProgress();
}

void Downloader::stopWork()
{
    m_running = false;
    ++m_generation;
    const auto fetches = m_fetches.keys();
    m_fetches.clear();
    for (ShardFetch *f : fetches) {
        f->abort();
        f->deleteLater();
    }
    for (RelayStats &r : m_score.relays())
        r.active = 0;
    for (bool &h : m_hashing)
        h = false;
    m_persistTimer.stop();
    m_rateTimer.stop();
    m_tokenTimer.stop();
}

void Downloader::pause()
{
    if (!m_running)
        return;
    stopWork();
    persist();
    if (m_progress.phase == DownloadProgress::Phase::Downloading ||
        m_progress.phase == DownloadProgress::Phase::Assembling)
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

bool Downloader::allVerified() const
{
    return std::all_of(m_state.shards.cbegin(), m_state.shards.cend(), [](const ShardState &x) { return x.verified; });
}

void Downloader::schedule()
{
    // Hashing holds no slot: shards complete in order, and each is checked while the next one arrives.
    while (m_running && m_fetches.size() < m_request.parallel && !m_queue.isEmpty())
        launch(m_queue.takeFirst(), -1);
}

void Downloader::verifyShard(int shard, qint64 received, double seconds)
{
    // Off the engine thread, straight from the mapped file.
    m_hashing[shard] = true;
    const uchar *data = m_map + m_manifest.shardOffset(shard);
    const qint64 size = m_manifest.shards[shard].size;
    const QByteArray expected = m_manifest.shards[shard].sha256;
    const quint64 generation = m_generation;
    QPointer<Downloader> self(this);
    m_pool.start([self, data, size, expected, shard, received, seconds, generation] {
        Sha256 h;
        h.addData(reinterpret_cast<const char *>(data), size);
        const bool match = h.result() == expected;
        QMetaObject::invokeMethod(
            self.data(),
            [self, shard, received, seconds, match, generation] {
                if (self && self->m_generation == generation)
                    self->onShardHashed(shard, received, seconds, match);
            },
            Qt::QueuedConnection);
    });
}

void Downloader::launch(Part part, int excludeRelay)
{
    if (!m_running)
        return;
    ShardPieces &work = m_work[part.shard];
    if (work.relay < 0 || work.relay == excludeRelay)
        work.relay = m_score.choose([] { return QRandomGenerator::global()->generateDouble(); },
                                    excludeRelay >= 0 ? excludeRelay : work.avoid);
    const int relay = work.relay;
    if (!work.contributors.contains(relay))
        work.contributors.append(relay);
    ShardFetch::Spec spec;
    spec.url = QUrl(shardUrl(relay, part.shard));
    spec.file = &m_data;
    spec.fileOffset = m_manifest.shardOffset(part.shard);
    spec.shardSize = m_manifest.shards[part.shard].size;
    spec.rangeBegin = work.begin(part.piece);
    spec.rangeEnd = spec.rangeBegin + work.size(part.piece);
    spec.have = work.have(part.piece);
    spec.stallTimeoutMs = m_request.stallTimeoutMs;
    spec.tokens = m_request.maxBytesPerSecond > 0 ? &m_tokens : nullptr;
    auto *fetch = new ShardFetch(spec, this);
    m_fetches.insert(fetch, part);
    ++m_score.relays()[relay].active;
    auto *clock = new QElapsedTimer;
    clock->start();
    connect(fetch, &ShardFetch::bytesArrived, this, [this, part, fetch](qint64 n) {
        ShardPieces &w = m_work[part.shard];
        w.setHave(part.piece, fetch->have());
        m_state.shards[part.shard].have = w.contiguousHave();
        m_progress.fetchedThisSession += n;
        m_dirty = true;
        // A kill -9 loses what arrived since the last saved record: save at least every `parallel` pieces.
        m_unsavedBytes += n;
        if (m_unsavedBytes >= m_request.parallel * m_request.pieceBytes)
            persist();
    });
    connect(fetch, &ShardFetch::done, this, [this, fetch, part, relay, clock](bool ok, const QString &error) {
        const double seconds = clock->nsecsElapsed() / 1e9;
        delete clock;
        if (!m_fetches.remove(fetch))
            return;
        fetch->deleteLater();
        --m_score.relays()[relay].active;
        if (!ok) {
            attemptFailed(part, relay, error);
            schedule();
            return;
        }
        if (fetch->received() > 0)
            m_score.recordSuccess(relay, fetch->received(), seconds);
        if (m_work[part.shard].complete() && !m_hashing[part.shard])
            verifyShard(part.shard, fetch->received(), seconds);
        schedule();
    });
    fetch->start();
}

void Downloader::onShardHashed(int shard, qint64 received, double seconds, bool match)
{
    Q_UNUSED(seconds)
    ShardState &s = m_state.shards[shard];
    ShardPieces &work = m_work[shard];
    m_hashing[shard] = false;
    if (!match) {
        work.clear(); // poisoned or lost bytes never count
        s.have = 0;
        m_dirty = true;
        if (received == 0) {
            // A re-check of bytes already on disk (after a reboot): no relay is to blame.
            qCInfo(lcNet) << "shard" << shard + 1 << "of" << m_manifest.task << versionDirName(m_manifest.version)
                          << "lost bytes on disk; fetching it again";
            for (int piece = work.count() - 1; piece >= 0; --piece)
                m_queue.prepend({shard, piece});
            schedule();
            return;
        }
        const QString error = QStringLiteral("shard %1 failed its SHA-256 check").arg(shard + 1);
        const QList<int> blamed = std::exchange(work.contributors, {});
        for (int relay : blamed.mid(1))
            m_score.recordFailure(relay, error);
        work.relay = -1;
        attemptFailed({shard, -1}, blamed.value(0, 0), error);
        return;
    }
    s.verified = true;
    work.contributors.clear();
    persist();
    advanceFileHash();
    publishProgress();
}

void Downloader::attemptFailed(Part part, int relay, const QString &error)
{
    const QString url = m_score.relays()[relay].url;
    qCWarning(lcNet) << "shard" << part.shard + 1 << "of" << m_manifest.task << versionDirName(m_manifest.version)
                     << "from relay" << url << ":" << error;
    m_score.recordFailure(relay, error);
    m_dirty = true;
    ShardPieces &work = m_work[part.shard];
    if (work.relay == relay)
        work.relay = -1; // the next piece of this shard goes elsewhere
    // A failed piece is a part of an attempt; a failed hash, a whole one.
    work.attempts += part.piece >= 0 ? 1 : work.count();
    if (work.attempts >= m_request.maxAttemptsPerShard * work.count()) {
        failDownload(QStringLiteral("shard %1 of %2 %3 failed %4 times; last from %5: %6")
                         .arg(part.shard + 1)
                         .arg(m_manifest.task, versionDirName(m_manifest.version))
                         .arg((work.attempts + work.count() - 1) / work.count())
                         .arg(url, error));
        return;
    }
    // Back off (1, 2, 4, 8 s) and prefer another relay for the next attempt. piece -1: the whole shard again.
    const int delayMs = 1000 * std::min(8, 1 << std::min(3, (work.attempts - 1) / work.count()));
    const quint64 generation = m_generation;
    work.avoid = relay;
    QTimer::singleShot(delayMs, this, [this, part, generation] {
        if (!m_running || m_generation != generation)
            return;
        if (part.piece >= 0) {
            m_queue.prepend(part);
        } else {
            for (int piece = m_work[part.shard].count() - 1; piece >= 0; --piece)
                m_queue.prepend({part.shard, piece});
        }
        schedule();
    });
}

void Downloader::advanceFileHash()
{
    if (!m_running || m_fileHashBusy || !m_fileHash)
        return;
    // The longest run of verified shards from where the whole-file hash stands.
    int end = m_fileHashNext;
    while (end < m_state.shards.size() && m_state.shards[end].verified)
        ++end;
    if (end == m_fileHashNext)
        return;
    m_fileHashBusy = true;
    const uchar *data = m_map + m_manifest.shardOffset(m_fileHashNext);
    const qint64 size = (end == m_state.shards.size() ? m_manifest.fileSize : m_manifest.shardOffset(end)) -
                        m_manifest.shardOffset(m_fileHashNext);
    Sha256 *hash = m_fileHash.get();
    const quint64 generation = m_generation;
    QPointer<Downloader> self(this);
    m_pool.start([self, data, size, hash, end, generation] {
        hash->addData(reinterpret_cast<const char *>(data), size);
        QMetaObject::invokeMethod(
            self.data(),
            [self, end, generation] {
                if (!self || self->m_generation != generation)
                    return;
                self->m_fileHashBusy = false;
                self->m_fileHashNext = end;
                if (end == self->m_state.shards.size())
                    self->onFileHashed();
                else
                    self->advanceFileHash();
            },
            Qt::QueuedConnection);
    });
}

void Downloader::onFileHashed()
{
    const QByteArray whole = m_fileHash->result();
    if (whole != m_manifest.fileSha256) {
        // Every shard matched its own hash, yet the file does not: something outside changed the file.
        failDownload(QStringLiteral("the assembled file does not match the manifest's SHA-256"));
        return;
    }
    m_progress.phase = DownloadProgress::Phase::Assembling;
    stopWork();
    m_pool.waitForDone();
    m_persistPool.waitForDone();
    m_data.unmap(m_map);
    m_map = nullptr;
    // Hashes prove the bytes are the hub's; the header check proves they are loadable weights.
    const auto header = safetensors::readHeaderFromFile(m_data.fileName().toStdString());
    if (!header)
        return failDownload(QStringLiteral("the checkpoint is not a loadable safetensors file: ") +
                            QString::fromStdString(header.error));
    finalize();
}

void Downloader::finalize()
{
    // Usable now, durable a moment later (makeDurableInBackground): waiting for the disk here would make a
    // download as slow as the disk, and a reboot in between is caught by the marker (readStableMarker).
    m_data.close();
    const QDir partial(m_partialDir);
    const QString model = partial.filePath(m_manifest.fileName);
    QFile::remove(model);
    if (!QFile::rename(m_data.fileName(), model))
        return failDownload(QStringLiteral("cannot rename %1").arg(m_data.fileName()));
    QFile::remove(partial.filePath(QStringLiteral("progress.json")));
    {
        QFile marker(partial.filePath(QStringLiteral("stable")));
        if (!marker.open(QIODevice::WriteOnly) || marker.write(stableMarker(false)) < 0 || !syncToDisk(marker))
            return failDownload(QStringLiteral("cannot mark %1 usable").arg(m_partialDir));
    }
    const QString finalDir = stableVersionDir(m_request.checkpointsDir, m_manifest.task, m_manifest.version);
    QDir(finalDir).removeRecursively();
    if (!QDir().rename(m_partialDir, finalDir))
        return failDownload(QStringLiteral("cannot move %1 into place").arg(m_partialDir));
    m_partialDir.clear();
    makeDurableInBackground(QDir(finalDir).filePath(m_manifest.fileName), finalDir);

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

void Downloader::persist()
{
    if (m_partialDir.isEmpty() || !m_data.isOpen())
        return;
    if (m_persistBusy) {
        m_persistAgain = true;
        return;
    }
    // The record is written atomically on a worker: the engine thread never waits for the disk. The mapped
    // data is not synced for it: a crash of the process keeps the page cache, and a record from another boot
    // is re-checked (prepare()). Syncing here would pace the download at the disk's speed.
    m_state.relays = m_score.relays();
    const QByteArray record = m_state.toJson();
    const QString path = QDir(m_partialDir).filePath(QStringLiteral("progress.json"));
    m_persistBusy = true;
    m_dirty = false;
    m_unsavedBytes = 0;
    QPointer<Downloader> self(this);
    m_persistPool.start([self, record, path] {
        if (Status s = writeAtomically(path, record); !s)
            qCWarning(lcNet) << "could not save download progress:" << s.error();
        QMetaObject::invokeMethod(
            self.data(),
            [self] {
                if (!self)
                    return;
                self->m_persistBusy = false;
                if (std::exchange(self->m_persistAgain, false))
                    self->persist();
            },
            Qt::QueuedConnection);
    });
}

void Downloader::refillTokens()
{
    const qint64 rate = m_request.maxBytesPerSecond;
    m_tokens = std::min(m_tokens + rate / 20, std::max<qint64>(rate / 4, 64 * 1024));
    const auto fetches = m_fetches.keys();
    for (ShardFetch *f : fetches)
        if (m_fetches.contains(f))
            f->pump();
}

void Downloader::updateRates()
{
    if (m_dirty)
        persist();
    const qint64 delta = m_progress.fetchedThisSession - m_lastRateBytes;
    m_lastRateBytes = m_progress.fetchedThisSession;
    m_progress.bytesPerSecond =
        m_progress.bytesPerSecond > 0 ? 0.7 * m_progress.bytesPerSecond + 0.3 * delta : double(delta);
    publishProgress();
}

void Downloader::publishProgress()
{
    qint64 done = 0;
    int verified = 0;
    for (qsizetype i = 0; i < m_state.shards.size(); ++i) {
        done += i < m_work.size() ? m_work[i].totalHave() : m_state.shards[i].have;
        verified += m_state.shards[i].verified;
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
