// DiLoCo tasks on the node: the training loop (engine/diloco/DilocoRunner) runs on its own thread — every
// collective call blocks — and reports progress here (queued) for the snapshot and the activity line. It runs while
// the joined task is a diloco task, the hub is online and no pause reason holds; pausing cancels it at the next inner
// step (it checkpoints and leaves the ring; the others go on without it), resuming starts it again from its bundle.
#include "node/Engine.h"

#include "core/Logging.h"
#include "core/RateLimiter.h"
#include "diloco/DilocoRunner.h"
#include "net/HubClient.h"
#include "net/Identity.h"

#include <QCryptographicHash>
#include <QDir>
#include <QHostAddress>
#include <QHostInfo>
#include <QPointer>
#include <QUrl>

namespace cohort {

namespace {
constexpr int kRetryAfterFailureS = 30;

// The node's data stream: its own (so the nodes' pseudo-gradients differ, as in data-parallel training), stable
// across restarts (a resumed node continues with the batches it would have had).
uint64_t dataSeedFor(const QString &nodeId)
{
    const QByteArray digest = QCryptographicHash::hash(nodeId.toUtf8(), QCryptographicHash::Sha256);
    uint64_t seed = 0;
    for (int i = 0; i < 8; ++i)
        seed = (seed << 8) | uint8_t(digest[i]);
    return seed;
}
} // namespace

void Engine::updateDiloco()
{
    const TaskInfo *task = joinedTask();
    const bool wanted = !m_stopping && task && task->diloco && task->diloco->masterPort != 0 && m_hub
                        && m_inputs.hubLink == HubLink::Online && m_inputs.pauseReasons.isEmpty();
    if (m_dilocoThread) {
        if (!wanted || m_dilocoTaskId != (task ? task->id : QString()))
            stopDiloco(0); // it finishes on its own thread; onDilocoFinished re-evaluates
        return;
    }
    if (!wanted)
        return;
    if (m_dilocoRetryAfter.isValid() && QDateTime::currentDateTimeUtc() < m_dilocoRetryAfter)
        return;
    startDiloco(*task);
}

void Engine::startDiloco(const TaskInfo &task)
{
    diloco::DilocoRunnerOptions o;
    o.taskId = task.id;
    o.config = *task.diloco;
    o.checkpointDir = QDir(m_options.dataDir).filePath(QStringLiteral("diloco/") + task.id);
    o.dataSeed = dataSeedFor(m_snapshot.nodeId);
    o.device = m_compute.device.toStdString();
    o.communicator.secretKey = m_identity->secretKey();
    o.communicator.masterPort = task.diloco->masterPort;
    // Accept only shared state the hub recorded and signed for this task (a pinned hub key; none yet: unsigned).
    o.communicator.masterKey = m_hub ? m_hub->hubKey() : QByteArray();
    o.communicator.recordContext = task.id.toUtf8();
    // The hub's collectives master is on the hub's host. A local hub keeps the ring on loopback (no listener on
    // the network, no firewall prompt); a remote one needs the ring listener reachable from the other nodes.
    const QString host = QUrl(m_hubUrl).host();
    const QHostAddress literal(host);
    const bool local = host == QLatin1String("localhost") || (!literal.isNull() && literal.isLoopback());
    o.communicator.bindAddress = local ? QHostAddress(QHostAddress::LocalHost) : QHostAddress(QHostAddress::AnyIPv4);
    o.communicator.beginTimeoutMs = 120'000; // the slowest peer's inner steps
    // The settings' upload cap paces what this node sends to its ring neighbours; the limiter is the engine's, so
    // a change of the cap applies to a collective in flight.
    o.communicator.uploadLimiter = m_uploadLimiter;
    m_dilocoTaskId = task.id;
    m_dilocoCancel = std::make_shared<std::atomic<bool>>(false);
    m_snapshot.diloco = DilocoStatus{};
    m_snapshot.diloco.active = true;
    m_snapshot.diloco.phase = QStringLiteral("connecting");
    m_snapshot.diloco.innerSteps = task.diloco->innerSteps;
    QPointer<Engine> self(this);
    auto cancel = m_dilocoCancel;
    m_dilocoThread = QThread::create([self, o, host, literal, cancel]() mutable {
        QString error;
        if (literal.isNull() && host != QLatin1String("localhost")) {
            const QHostInfo info = QHostInfo::fromName(host); // blocking is fine on this thread
            if (info.addresses().isEmpty())
                error = QStringLiteral("cannot resolve the hub's host %1: %2").arg(host, info.errorString());
            else
                o.communicator.masterAddress = info.addresses().first();
        } else {
            o.communicator.masterAddress = literal.isNull() ? QHostAddress(QHostAddress::LocalHost) : literal;
        }
        if (error.isEmpty()) {
            diloco::DilocoRunner runner(o);
            const Status s = runner.run(*cancel, [self](const diloco::DilocoProgress &p) {
                DilocoStatus st;
                st.active = p.phase != diloco::DilocoProgress::Phase::Stopped;
                st.phase = QString::fromLatin1(diloco::phaseName(p.phase));
                st.outerStep = qint64(p.outerStep);
                st.innerStep = p.innerStep;
                st.innerSteps = p.innerSteps;
                st.peers = p.worldSize;
                st.loss = p.loss;
                st.outerLoss = p.outerLoss;
                st.lastSyncBytes = qint64(p.lastSyncRxBytes);
                st.lastReduceBytes = qint64(p.lastReduceTxBytes + p.lastReduceRxBytes);
                st.resumed = p.resumed;
                st.note = p.note;
                const bool done = p.outerStepDone;
                QMetaObject::invokeMethod(self, [self, st, done] {
                    if (self)
                        self->onDilocoProgress(st, done);
                }, Qt::QueuedConnection);
            });
            if (!s)
                error = s.error();
        }
        QMetaObject::invokeMethod(self, [self, error] {
            if (self)
                self->onDilocoFinished(error);
        }, Qt::QueuedConnection);
    });
    m_dilocoThread->setObjectName(QStringLiteral("cohort-diloco"));
    m_dilocoThread->start(QThread::LowPriority);
    emitEvent(EngineEvent::info(QStringLiteral("diloco"), QStringLiteral("DiLoCo training started for %1").arg(task.id)));
    refreshActivityDetail();
    updateState();
}

void Engine::stopDiloco(int waitMs)
{
    if (!m_dilocoThread)
        return;
    m_dilocoCancel->store(true);
    m_uploadLimiter->interrupt(); // a send held back by the upload cap notices the cancel now
    if (waitMs > 0 && !m_dilocoThread->wait(QDeadlineTimer(waitMs)))
        qCWarning(lcEngine) << "the DiLoCo thread did not stop within" << waitMs << "ms (a collective is in flight)";
}

void Engine::onDilocoProgress(const DilocoStatus &status, bool outerStepDone)
{
    if (!m_dilocoThread)
        return; // a report that was queued before the thread finished
    const int runSteps = m_snapshot.diloco.outerStepsThisRun + (outerStepDone ? 1 : 0);
    const QString previousNote = m_snapshot.diloco.note;
    m_snapshot.diloco = status;
    m_snapshot.diloco.outerStepsThisRun = runSteps;
    if (status.note.isEmpty())
        m_snapshot.diloco.note = previousNote;
    else
        emitEvent(EngineEvent::info(QStringLiteral("diloco"), status.note));
    if (outerStepDone)
        qCInfo(lcEngine).nospace() << "DiLoCo outer step " << status.outerStep << " with " << status.peers
                                   << " peers, loss " << status.outerLoss;
    refreshActivityDetail();
    updateState();
}

void Engine::onDilocoFinished(const QString &error)
{
    if (m_dilocoThread) {
        m_dilocoThread->wait();
        delete m_dilocoThread;
        m_dilocoThread = nullptr;
    }
    m_snapshot.diloco.active = false;
    m_snapshot.diloco.phase = QStringLiteral("stopped");
    if (m_pauseClock.isValid()) {
        m_snapshot.schedule.lastPauseLatencyMs = int(m_pauseClock.elapsed());
        m_pauseClock.invalidate();
        qCInfo(lcEngine) << "DiLoCo stopped" << m_snapshot.schedule.lastPauseLatencyMs << "ms after the pause";
    }
    if (!error.isEmpty()) {
        m_dilocoRetryAfter = QDateTime::currentDateTimeUtc().addSecs(kRetryAfterFailureS);
        m_snapshot.diloco.note = error;
        emitEvent(EngineEvent::error(QStringLiteral("diloco"), QStringLiteral("DiLoCo training stopped: %1").arg(error)));
        QTimer::singleShot(kRetryAfterFailureS * 1000 + 100, this, [this] { updateDiloco(); });
    }
    refreshActivityDetail();
    updateState(); // may start it again (resumed from its bundle) if nothing holds it back now
}

QString Engine::dilocoActivity(const TaskInfo &task) const
{
    const DilocoStatus &d = m_snapshot.diloco;
    if (!task.diloco || task.diloco->masterPort == 0)
        return tr("Joined \"%1\"; the hub has no DiLoCo master for it").arg(task.title);
    if (!d.active)
        return tr("Joined \"%1\" (DiLoCo); %2").arg(task.title, d.note.isEmpty() ? tr("not training") : d.note);
    if (d.phase == QLatin1String("connecting"))
        return tr("DiLoCo \"%1\": joining the training ring").arg(task.title);
    QString text = tr("DiLoCo \"%1\": outer step %2, inner %3/%4, %5 peer(s)")
                       .arg(task.title).arg(d.outerStep + 1).arg(d.innerStep).arg(d.innerSteps).arg(d.peers);
    if (d.phase == QLatin1String("averaging"))
        text += tr(", averaging");
    else if (d.phase == QLatin1String("syncing"))
        text += tr(", syncing");
    if (d.loss > 0)
        text += tr(", loss %1").arg(d.loss, 0, 'f', 2);
    return text;
}

} // namespace cohort
