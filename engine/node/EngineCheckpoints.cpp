// The engine's side of SHARDCAST: learn the newest checkpoint of the joined task from the hub, download and
// verify it, and make the state say so (Downloading, with bytes, rate and time left; DiskFull when it must).
#include "core/Logging.h"
#include "net/HubClient.h"
#include "node/Engine.h"
#include "node/HubPins.h"
#include "node/StatusLine.h"
#include "shardcast/Downloader.h"

#include <QDir>
#include <QJsonArray>

namespace cohort {

QString Engine::checkpointsDir() const
{
    return QDir(m_options.dataDir).filePath(QStringLiteral("checkpoints"));
}

void Engine::checkForCheckpoint(int announcedVersion)
{
    const QString task = m_snapshot.joinedTaskId;
    if (task.isEmpty() || !m_hub || m_inputs.hubLink != HubLink::Online || m_checkpointQueryPending)
        return;
    if (announcedVersion >= 0 && announcedVersion <= m_snapshot.checkpointVersion)
        return; // we have it
    if (m_downloader && m_downloader->progress().taskId == task &&
        (announcedVersion < 0 || m_downloader->version() >= announcedVersion) &&
        m_downloader->progress().phase != DownloadProgress::Phase::Failed)
        return; // already on it
    if (m_retryDownloadAfter.isValid() && QDateTime::currentDateTimeUtc() < m_retryDownloadAfter)
        return;
    m_checkpointQueryPending = true;
    m_hub->get(QStringLiteral("/v1/tasks/%1/checkpoint").arg(task), [this](const HubReply &reply) {
        m_checkpointQueryPending = false;
        onCheckpointInfo(reply);
    });
}

void Engine::onCheckpointInfo(const HubReply &reply)
{
    if (m_stopping)
        return;
    if (!reply.ok()) {
        if (reply.errorCode != QLatin1String("no_checkpoint"))
            emitEvent(EngineEvent::warning(QStringLiteral("checkpoint"), QStringLiteral("Could not ask for the checkpoint: %1").arg(reply.error)));
        return;
    }
    const QString task = reply.body.value(QStringLiteral("task")).toString();
    const int version = reply.body.value(QStringLiteral("version")).toInt();
    if (task != m_snapshot.joinedTaskId || version <= 0)
        return;
    if (shardcast::isStable(checkpointsDir(), task, version)) {
        const QDir dir(shardcast::stableVersionDir(checkpointsDir(), task, version));
        const QStringList models = dir.entryList({QStringLiteral("*.safetensors")}, QDir::Files);
        if (!models.isEmpty()) {
            m_snapshot.checkpointVersion = version;
            m_checkpointModelPath = dir.filePath(models.first());
            refreshActivityDetail();
            updateState();
            m_rollouts->kick();
            return;
        }
    }
    shardcast::DownloadRequest request;
    request.taskId = task;
    request.manifestBytes = reply.body.value(QStringLiteral("manifest")).toString().toUtf8();
    request.signatureBytes = reply.body.value(QStringLiteral("signature")).toString().toUtf8();
    HubPins pins(QDir(m_options.dataDir).filePath(QStringLiteral("identity/hubs.json")));
    request.pinnedHubKey = pins.pinned(m_hubEmbedded ? QStringLiteral("embedded") : m_hubUrl);
    for (const QJsonValue &v : reply.body.value(QStringLiteral("relays")).toArray())
        if (const QUrl url(v.toString()); url.isValid() && (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https")))
            request.relays.append(v.toString());
    request.checkpointsDir = checkpointsDir();
    request.maxBytesPerSecond = m_options.maxDownloadBytesPerSecond;

    if (m_downloader) {
        m_downloader->disconnect(this);
        m_downloader->deleteLater(); // persists its progress; a newer version replaces it
    }
    m_downloadDiskFull = false; // re-checked by the new download itself
    m_downloader = new shardcast::Downloader(request, this);
    connect(m_downloader, &shardcast::Downloader::progressChanged, this, &Engine::onDownloadProgress);
    connect(m_downloader, &shardcast::Downloader::finished, this, &Engine::onDownloadFinished);
    connect(m_downloader, &shardcast::Downloader::failed, this, &Engine::onDownloadFailed);
    emitEvent(EngineEvent::routineInfo(QStringLiteral("checkpoint"), QStringLiteral("Fetching %1 checkpoint v%2 from %3 relay(s)")
                                                                  .arg(task).arg(version).arg(request.relays.size())));
    m_downloader->start();
    if (m_downloader && !m_inputs.pauseReasons.isEmpty())
        m_downloader->pause();
}

void Engine::onDownloadProgress(const DownloadProgress &progress)
{
    m_snapshot.download = progress;
    m_inputs.downloading = progress.active();
    refreshActivityDetail();
    updateState();
}

void Engine::onDownloadFinished(const QString &modelPath)
{
    auto *done = qobject_cast<shardcast::Downloader *>(sender());
    if (!done)
        return;
    m_snapshot.checkpointVersion = done->version();
    m_checkpointModelPath = modelPath;
    m_snapshot.download = done->progress();
    m_inputs.downloading = false;
    emitEvent(EngineEvent::info(QStringLiteral("checkpoint"),
                                QStringLiteral("Checkpoint %1 v%2 verified and ready (%3)")
                                    .arg(done->progress().taskId).arg(done->version()).arg(modelPath)));
    if (done == m_downloader)
        m_downloader = nullptr;
    done->deleteLater();
    refreshActivityDetail();
    updateState();
    m_rollouts->kick();
}

void Engine::onDownloadFailed(const QString &error)
{
    auto *failed = qobject_cast<shardcast::Downloader *>(sender());
    if (failed) {
        m_snapshot.download = failed->progress();
        m_downloadDiskFull = failed->progress().diskFull;
    }
    m_inputs.downloading = false;
    m_snapshot.lastError = error;
    m_retryDownloadAfter = QDateTime::currentDateTimeUtc().addSecs(60); // the next heartbeat after this tries again
    emitEvent(EngineEvent::error(QStringLiteral("checkpoint"), error));
    refreshActivityDetail();
    applySchedule();
    updateState();
}

void Engine::refreshActivityDetail()
{
    const TaskInfo *task = nullptr;
    for (const TaskInfo &t : m_snapshot.tasks)
        if (t.id == m_snapshot.joinedTaskId)
            task = &t;
    if (!task) {
        m_inputs.activityDetail.clear();
        return;
    }
    const DownloadProgress &d = m_snapshot.download;
    const bool rolloutsInHand = m_rollouts->busy(); // the download runs behind them
    if (d.active() && d.taskId == task->id && !rolloutsInHand) {
        QString text = tr("%1 v%2, %3 of %4").arg(task->id).arg(d.version).arg(humanBytes(d.doneBytes), humanBytes(d.totalBytes));
        if (d.bytesPerSecond > 0)
            text += tr(" at %1/s").arg(humanBytes(qint64(d.bytesPerSecond)));
        if (d.etaSeconds >= 0)
            text += tr(", %1 s left").arg(d.etaSeconds);
        m_inputs.activityDetail = text;
        return;
    }
    if (task->rl) {
        m_inputs.activityDetail = m_rollouts->activity(*task);
        return;
    }
    if (task->diloco) {
        m_inputs.activityDetail = m_diloco->activity(*task);
        return;
    }
    QString text = tr("Joined \"%1\"").arg(task->title);
    if (m_snapshot.checkpointVersion > 0)
        text += tr("; checkpoint v%1 ready").arg(m_snapshot.checkpointVersion);
    else if (d.phase == DownloadProgress::Phase::Failed && d.taskId == task->id)
        text += tr("; checkpoint download failed, retrying later");
    m_inputs.activityDetail = text + tr("; this version cannot run %1 work yet").arg(task->kind);
}

} // namespace cohort
