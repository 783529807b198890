#include "node/CheckpointTracker.h"

#include "net/HubClient.h"
#include "node/HubPins.h"
#include "node/StatusLine.h"
#include "shardcast/Downloader.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QUrl>

namespace cohort {

namespace {
constexpr int kRetryAfterFailureS = 60; // the next heartbeat after this tries again
}

CheckpointTracker::CheckpointTracker(CheckpointHost &host, Setup setup, QObject *parent)
    : QObject(parent),
      m_host(host),
      m_setup(std::move(setup))
{}

CheckpointTracker::~CheckpointTracker()
{
    if (m_downloader)
        m_downloader->pause(); // progress on disk; the next start resumes
}

void CheckpointTracker::check(int announcedVersion)
{
    const TaskInfo *task = m_host.joinedTask();
    if (!task || !m_host.hub() || !m_host.checkpointsMayFetch() || m_queryPending)
        return;
    if (announcedVersion >= 0 && announcedVersion <= m_version)
        return; // we have it
    if (m_downloader && m_downloader->progress().taskId == task->id &&
        (announcedVersion < 0 || m_downloader->version() >= announcedVersion) &&
        m_downloader->progress().phase != DownloadProgress::Phase::Failed)
        return; // already on it
    if (m_retryAfter.isValid() && QDateTime::currentDateTimeUtc() < m_retryAfter)
        return;
    m_queryPending = true;
    m_host.hub()->get(QStringLiteral("/v1/tasks/%1/checkpoint").arg(task->id), [this](const HubReply &reply) {
        m_queryPending = false;
        onInfo(reply);
    });
}

void CheckpointTracker::onInfo(const HubReply &reply)
{
    if (!m_host.checkpointsMayFetch())
        return;
    if (!reply.ok()) {
        if (reply.errorCode != QLatin1String("no_checkpoint"))
            Q_EMIT eventOccurred(EngineEvent::warning(
                EventCategory::Checkpoint, QStringLiteral("Could not ask for the checkpoint: %1").arg(reply.error)));
        return;
    }
    const QString task = reply.body.value(QStringLiteral("task")).toString();
    const int version = reply.body.value(QStringLiteral("version")).toInt();
    const TaskInfo *joined = m_host.joinedTask();
    if (!joined || task != joined->id || version <= 0)
        return;
    if (shardcast::isStable(m_setup.checkpointsDir, task, version)) {
        const QDir dir(shardcast::stableVersionDir(m_setup.checkpointsDir, task, version));
        const QStringList models = dir.entryList({QStringLiteral("*.safetensors")}, QDir::Files);
        if (!models.isEmpty()) {
            m_version = version;
            m_modelPath = dir.filePath(models.first());
            Q_EMIT ready();
            return;
        }
    }
    shardcast::DownloadRequest request;
    request.taskId = task;
    request.manifestBytes = reply.body.value(QStringLiteral("manifest")).toString().toUtf8();
    request.signatureBytes = reply.body.value(QStringLiteral("signature")).toString().toUtf8();
    request.pinnedHubKey = HubPins(m_setup.hubPinsPath).pinned(m_setup.hubPinName);
    for (const QJsonValue &v : reply.body.value(QStringLiteral("relays")).toArray())
        if (const QUrl url(v.toString());
            url.isValid() && (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https")))
            request.relays.append(v.toString());
    request.checkpointsDir = m_setup.checkpointsDir;
    request.maxBytesPerSecond = m_setup.maxBytesPerSecond;

    if (m_downloader) {
        m_downloader->disconnect(this);
        m_downloader->deleteLater(); // persists its progress; a newer version replaces it
    }
    m_diskFull = false; // re-checked by the new download itself
    m_downloader = new shardcast::Downloader(request, this);
    connect(m_downloader, &shardcast::Downloader::progressChanged, this, [this](const DownloadProgress &progress) {
        m_progress = progress;
        Q_EMIT progressChanged();
    });
    connect(m_downloader, &shardcast::Downloader::finished, this, &CheckpointTracker::onFinished);
    connect(m_downloader, &shardcast::Downloader::failed, this, &CheckpointTracker::onFailed);
    Q_EMIT eventOccurred(EngineEvent::routineInfo(EventCategory::Checkpoint,
                                                  QStringLiteral("Fetching %1 checkpoint v%2 from %3 relay(s)")
                                                      .arg(task)
                                                      .arg(version)
                                                      .arg(request.relays.size())));
    m_downloader->start();
    if (m_downloader && m_host.downloadsPaused())
        m_downloader->pause();
}

void CheckpointTracker::onFinished(const QString &modelPath)
{
    auto *done = qobject_cast<shardcast::Downloader *>(sender());
    if (!done)
        return;
    m_version = done->version();
    m_modelPath = modelPath;
    m_progress = done->progress();
    Q_EMIT eventOccurred(
        EngineEvent::info(EventCategory::Checkpoint, QStringLiteral("Checkpoint %1 v%2 verified and ready (%3)")
                                                         .arg(done->progress().taskId)
                                                         .arg(done->version())
                                                         .arg(modelPath)));
    if (done == m_downloader)
        m_downloader = nullptr;
    done->deleteLater();
    Q_EMIT ready();
}

void CheckpointTracker::onFailed(const QString &error)
{
    if (auto *failedDownload = qobject_cast<shardcast::Downloader *>(sender())) {
        m_progress = failedDownload->progress();
        m_diskFull = failedDownload->progress().diskFull;
    }
    m_retryAfter = QDateTime::currentDateTimeUtc().addSecs(kRetryAfterFailureS);
    Q_EMIT eventOccurred(EngineEvent::error(EventCategory::Checkpoint, error));
    Q_EMIT failed(error);
}

void CheckpointTracker::pause()
{
    if (m_downloader)
        m_downloader->pause();
}

void CheckpointTracker::resume()
{
    if (m_downloader)
        m_downloader->resume();
}

void CheckpointTracker::taskJoined()
{
    m_version = 0;
    m_modelPath.clear();
    m_retryAfter = {};
}

void CheckpointTracker::taskLeft()
{
    m_version = 0;
    m_modelPath.clear();
    dropDownloader();
}

void CheckpointTracker::dropDownloader()
{
    if (!m_downloader)
        return;
    m_downloader->disconnect(this);
    delete m_downloader; // persists its progress for a later join
    m_downloader = nullptr;
}

// The activity texts keep the engine's translation context ("cohort::Engine"): they were part of Engine, and
// ui/translations files them there. Written out in full so that lupdate sees each one.

QString CheckpointTracker::downloadActivity(const TaskInfo &task) const
{
    const DownloadProgress &d = m_progress;
    if (!d.active() || d.taskId != task.id)
        return {};
    QString text = QCoreApplication::translate("cohort::Engine", "%1 v%2, %3 of %4")
                       .arg(task.id)
                       .arg(d.version)
                       .arg(humanBytes(d.doneBytes), humanBytes(d.totalBytes));
    if (d.bytesPerSecond > 0)
        text += QCoreApplication::translate("cohort::Engine", " at %1/s").arg(humanBytes(qint64(d.bytesPerSecond)));
    if (d.etaSeconds >= 0)
        text += QCoreApplication::translate("cohort::Engine", ", %1 s left").arg(d.etaSeconds);
    return text;
}

QString CheckpointTracker::activity(const TaskInfo &task) const
{
    QString text = QCoreApplication::translate("cohort::Engine", "Joined \"%1\"").arg(task.title);
    if (m_version > 0)
        text += QCoreApplication::translate("cohort::Engine", "; checkpoint v%1 ready").arg(m_version);
    else if (m_progress.phase == DownloadProgress::Phase::Failed && m_progress.taskId == task.id)
        text += QCoreApplication::translate("cohort::Engine", "; checkpoint download failed, retrying later");
    return text + QCoreApplication::translate("cohort::Engine", "; this version cannot run %1 work yet").arg(task.kind);
}

} // namespace cohort
