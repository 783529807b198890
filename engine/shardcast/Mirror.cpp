#include "shardcast/Mirror.h"

#include "core/JsonReader.h"
#include "core/Logging.h"
#include "shardcast/Downloader.h"
#include "shardcast/Publisher.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSaveFile>

namespace cohort::shardcast {

namespace {
constexpr qint64 kMaxSmallFile = kMaxManifestBytes;
}

Mirror::Mirror(MirrorConfig config, QObject *parent)
    : QObject(parent),
      m_config(std::move(config)),
      m_network(new QNetworkAccessManager(this)),
      m_timer(this)
{
    while (m_config.upstream.endsWith(QLatin1Char('/')))
        m_config.upstream.chop(1);
    m_timer.setInterval(std::max(1, m_config.pollSeconds) * 1000);
    connect(&m_timer, &QTimer::timeout, this, &Mirror::poll);
}

void Mirror::start()
{
    m_timer.start();
    poll();
}

void Mirror::poll()
{
    for (const QString &task : m_config.tasks)
        if (!m_busy.contains(task))
            fetchIndex(task);
}

void Mirror::get(const QString &url, std::function<void(int, const QByteArray &)> done)
{
    QNetworkRequest request{QUrl(url)};
    request.setTransferTimeout(20'000);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    QNetworkReply *reply = m_network->get(request);
    connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64) {
        if (received > kMaxSmallFile)
            reply->abort(); // index and manifest files are small; anything else is not what we asked for
    });
    connect(reply, &QNetworkReply::finished, this, [reply, done = std::move(done)] {
        reply->deleteLater();
        const int status = reply->error() == QNetworkReply::NoError
                               ? reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt()
                               : 0;
        done(status, status == 200 ? reply->readAll() : QByteArray());
    });
}

void Mirror::fetchIndex(const QString &task)
{
    m_busy.append(task);
    get(m_config.upstream + QLatin1Char('/') + task + QStringLiteral("/index.json"), [this,
                                                                                      task](int status,
                                                                                            const QByteArray &body) {
        auto index = parseJsonObject(body, kMaxSmallFile);
        const int latest = index ? int(index->value(QStringLiteral("latest")).toInteger()) : 0;
        if (status != 200 || !index || latest <= 0) {
            if (status != 404)
                Q_EMIT problem(
                    QStringLiteral("%1: no usable index from %2 (HTTP %3)").arg(task, m_config.upstream).arg(status));
            m_busy.removeAll(task);
            return;
        }
        if (readIndex(m_config.treeRoot, task).contains(latest)) {
            m_busy.removeAll(task);
            return; // up to date
        }
        fetchVersion(task, latest);
    });
}

void Mirror::fetchVersion(const QString &task, int version)
{
    const QString base = m_config.upstream + QLatin1Char('/') + task + QLatin1Char('/') + versionDirName(version);
    get(base + QStringLiteral("/manifest.json"), [this, task, version, base](int status, const QByteArray &manifest) {
        if (status != 200) {
            Q_EMIT problem(QStringLiteral("%1 v%2: no manifest from %3 (HTTP %4)")
                               .arg(task)
                               .arg(version)
                               .arg(m_config.upstream)
                               .arg(status));
            m_busy.removeAll(task);
            return;
        }
        get(base + QStringLiteral("/manifest.json.sig"),
            [this, task, version, manifest](int status, const QByteArray &signature) {
                if (status != 200) {
                    Q_EMIT problem(
                        QStringLiteral("%1 v%2: no manifest signature (HTTP %3)").arg(task).arg(version).arg(status));
                    m_busy.removeAll(task);
                    return;
                }
                startDownload(task, version, manifest, signature);
            });
    });
}

void Mirror::startDownload(const QString &task, int version, const QByteArray &manifest, const QByteArray &signature)
{
    DownloadRequest request;
    request.taskId = task;
    request.manifestBytes = manifest;
    request.signatureBytes = signature;
    request.pinnedHubKey = m_config.hubKey;
    request.relays = {m_config.upstream};
    request.checkpointsDir = m_config.workDir;
    request.keepVersions = 1;
    auto *downloader = new Downloader(request, this);
    connect(downloader, &Downloader::finished, this, [this, downloader, task, version](const QString &modelPath) {
        downloader->deleteLater();
        m_busy.removeAll(task);
        if (Status s = publishLocally(task, modelPath); !s) {
            Q_EMIT problem(s.error());
            return;
        }
        qCInfo(lcHub) << "mirrored" << task << versionDirName(version) << "from" << m_config.upstream;
        Q_EMIT mirrored(task, version);
    });
    connect(downloader, &Downloader::failed, this, [this, downloader, task](const QString &error) {
        downloader->deleteLater();
        m_busy.removeAll(task);
        Q_EMIT problem(error); // the next poll tries again, resuming what it has
    });
    downloader->start();
}

Status Mirror::publishLocally(const QString &task, const QString &modelPath)
{
    // The verified file is cut back into the manifest's shards; the upstream's signed manifest goes along as is.
    const QString versionDir = QFileInfo(modelPath).absolutePath();
    QFile manifestFile(versionDir + QStringLiteral("/manifest.json"));
    QFile signatureFile(versionDir + QStringLiteral("/manifest.json.sig"));
    if (!manifestFile.open(QIODevice::ReadOnly) || !signatureFile.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("the downloaded version lost its manifest: %1").arg(versionDir));
    const QByteArray manifestBytes = manifestFile.readAll();
    auto manifest = Manifest::parse(manifestBytes);
    if (!manifest)
        return fail(manifest.error());
    const QString staged =
        QDir(m_config.treeRoot)
            .filePath(task + QStringLiteral("/.") + versionDirName(manifest->version) + QStringLiteral(".tmp"));
    QDir(staged).removeRecursively();
    if (!QDir().mkpath(staged))
        return fail(QStringLiteral("cannot create %1").arg(staged));
    QFile model(modelPath);
    if (!model.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read %1").arg(modelPath));
    const auto writeFile = [](const QString &path, const QByteArray &bytes) -> Status {
        QSaveFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit())
            return fail(QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
        return {};
    };
    for (qsizetype i = 0; i < manifest->shards.size(); ++i)
        if (Status s = writeFile(QDir(staged).filePath(shardFileName(int(i))), model.read(manifest->shards[i].size));
            !s)
            return s;
    if (Status s = writeFile(QDir(staged).filePath(QStringLiteral("manifest.json")), manifestBytes); !s)
        return s;
    if (Status s = writeFile(QDir(staged).filePath(QStringLiteral("manifest.json.sig")), signatureFile.readAll()); !s)
        return s;
    if (Status s = commitVersion(m_config.treeRoot, task, staged, manifest->version, m_config.keepVersions); !s)
        return s;
    QDir(versionDir).removeRecursively(); // the tree holds it now
    return {};
}

} // namespace cohort::shardcast
