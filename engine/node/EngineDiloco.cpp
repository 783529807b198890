// DiLoCo tasks on the node: the training loop (engine/diloco/DilocoRunner) runs on its own thread — every
// collective call blocks — and reports progress here (queued) for the snapshot and the activity line. It runs while
// the joined task is a diloco task, the hub is online and no pause reason holds; pausing cancels it at the next inner
// step (it checkpoints and leaves the ring; the others go on without it), resuming starts it again from its bundle.
#include "node/Engine.h"

#include "core/Logging.h"
#include "core/RateLimiter.h"
#include "diloco/DilocoAudit.h"
#include "diloco/DilocoRunner.h"
#include "net/HubClient.h"
#include "net/Identity.h"
#include "node/StatusLine.h"

#include <QDir>
#include <QHostAddress>
#include <QHostInfo>
#include <QPointer>
#include <QTimer>
#include <QUrl>

namespace cohort {

namespace {
constexpr int kRetryAfterFailureS = 30;

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
    o.dataSeed = diloco::dataSeedFor(m_snapshot.nodeId);
    // The hub's audit suite runs cheating nodes (tst_diloco_audit): "idle" and "noise" cheat in the runner, "copy"
    // trains on another node's batches (one computation for several identities).
    o.testAttack = qEnvironmentVariable("COHORT_TEST_DILOCO_ATTACK");
    if (o.testAttack == QLatin1String("copy"))
        o.dataSeed = diloco::dataSeedFor(QStringLiteral("another node"));
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
            const Status s = runner.run(*cancel, [self, taskId = o.taskId](const diloco::DilocoProgress &p) {
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
                // The commitment and its material are made here, on the training thread (hashing megabytes).
                QJsonObject commitment;
                QByteArray material;
                if (done && p.audit) {
                    commitment = diloco::commitmentOf(*p.audit).toJson();
                    material = diloco::encodeAuditMaterial(*p.audit);
                }
                QMetaObject::invokeMethod(self, [self, st, done, commitment, material, taskId] {
                    if (!self)
                        return;
                    self->onDilocoProgress(st, done);
                    if (!commitment.isEmpty())
                        self->commitDilocoStep(taskId, commitment, material);
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

void Engine::commitDilocoStep(const QString &taskId, const QJsonObject &commitment, const QByteArray &material)
{
    if (m_stopping || !m_hub)
        return;
    const quint64 step = quint64(commitment.value(QStringLiteral("step")).toInteger());
    m_hub->post(QStringLiteral("/v1/tasks/%1/diloco/commitments").arg(taskId), commitment,
                [this, taskId, step, material](const HubReply &reply) {
                    if (m_stopping)
                        return;
                    if (!reply.ok()) {
                        // Without its commitment the step earns nothing; the next step commits again.
                        qCWarning(lcEngine).nospace() << "DiLoCo: the hub did not take the commitment of outer step " << step
                                                      << ": " << reply.error;
                        return;
                    }
                    if (!reply.body.value(QStringLiteral("audit")).toBool())
                        return;
                    const qsizetype part = qsizetype(std::clamp<qint64>(reply.body.value(QStringLiteral("part_bytes")).toInteger(256 << 10),
                                                                        16 << 10, 1 << 20));
                    emitEvent(EngineEvent::info(QStringLiteral("diloco"),
                                                QStringLiteral("The hub audits outer step %1: sending what it replays (%2)")
                                                    .arg(step).arg(humanBytes(material.size()))));
                    uploadDilocoAudit(taskId, step, material, 0, part);
                });
}

void Engine::uploadDilocoAudit(const QString &taskId, quint64 step, const QByteArray &material, qsizetype offset, qsizetype partBytes)
{
    if (m_stopping || !m_hub)
        return;
    const QByteArray part = material.mid(offset, partBytes);
    m_hub->postBytes(QStringLiteral("/v1/tasks/%1/diloco/audits/%2?offset=%3").arg(taskId).arg(step).arg(offset), part,
                     [this, taskId, step, material, offset, partBytes, sent = part.size()](const HubReply &reply) {
                         if (m_stopping)
                             return;
                         if (reply.errorCode == QLatin1String("busy")) { // the hub's buffer is full for now: the same part again
                             QTimer::singleShot(2000, this, [=, this] { uploadDilocoAudit(taskId, step, material, offset, partBytes); });
                             return;
                         }
                         if (!reply.ok()) {
                             emitEvent(EngineEvent::warning(QStringLiteral("diloco"),
                                                            QStringLiteral("The audit of outer step %1 could not be sent: %2").arg(step).arg(reply.error)));
                             return;
                         }
                         if (offset + sent < material.size())
                             uploadDilocoAudit(taskId, step, material, offset + sent, partBytes);
                     });
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
