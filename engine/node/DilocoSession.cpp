#include "node/DilocoSession.h"

#include "core/Logging.h"
#include "core/RateLimiter.h"
#include "diloco/DilocoAudit.h"
#include "diloco/DilocoFaults.h"
#include "diloco/DilocoRunner.h"
#include "net/HubClient.h"
#include "node/StatusLine.h"

#include <QCoreApplication>
#include <QDir>
#include <QHostAddress>
#include <QHostInfo>
#include <QTimer>
#include <QUrl>

namespace cohort {

namespace {
constexpr int kRetryAfterFailureS = 30;
// What ~Engine always allowed a collective in flight to finish in: past it the thread is let go (OwnedThread).
constexpr int kShutdownBoundMs = 30'000;

DilocoStatus statusOf(const diloco::DilocoProgress &p)
{
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
    return st;
}
} // namespace

DilocoSession::DilocoSession(DilocoHost &host, QString dataDir, QString hubUrl,
                             std::shared_ptr<RateLimiter> uploadLimiter, QObject *parent)
    : QObject(parent),
      m_host(host),
      m_dataDir(std::move(dataDir)),
      m_hubUrl(std::move(hubUrl)),
      m_uploadLimiter(std::move(uploadLimiter))
{}

DilocoSession::~DilocoSession()
{
    m_shuttingDown = true;
    m_thread.requestStop();
    m_uploadLimiter->interrupt();
    if (!m_thread.stop(std::chrono::milliseconds(kShutdownBoundMs)))
        qCWarning(lcEngine) << "the DiLoCo thread did not stop within" << kShutdownBoundMs
                            << "ms; left to finish alone";
}

void DilocoSession::update()
{
    const TaskInfo *task = m_host.joinedTask();
    const bool wanted = !m_shuttingDown && task && task->diloco && task->diloco->masterPort != 0 && m_host.hub() &&
                        m_host.dilocoMayRun();
    if (m_running) {
        if (!wanted || m_taskId != (task ? task->id : QString()))
            stop(0); // it finishes on its own thread; onFinished re-evaluates
        return;
    }
    if (!wanted)
        return;
    if (m_retryAfter.isValid() && QDateTime::currentDateTimeUtc() < m_retryAfter)
        return;
    start(*task);
}

void DilocoSession::start(const TaskInfo &task)
{
    diloco::DilocoRunnerOptions o;
    o.taskId = task.id;
    o.config = *task.diloco;
    o.checkpointDir = QDir(m_dataDir).filePath(QStringLiteral("diloco/") + task.id);
    o.dataSeed = diloco::dataSeedFor(m_host.nodeId());
    // The hub's audit suite runs cheating nodes (tst_diloco_audit, diloco/DilocoFaults.h): "idle" and "noise" cheat
    // in the runner, "copy" trains on another node's batches here.
    if (diloco::testingDilocoCheat() == diloco::DilocoCheat::Copy)
        o.dataSeed = diloco::dataSeedFor(QStringLiteral("another node"));
    o.device = m_host.computeDevice().toStdString();
    o.communicator.secretKey = m_host.nodeSecretKey();
    o.communicator.masterPort = task.diloco->masterPort;
    // Accept only shared state the hub recorded and signed for this task (a pinned hub key; none yet: unsigned).
    o.communicator.masterKey = m_host.hub()->hubKey();
    o.communicator.recordContext = task.id.toUtf8();
    // The hub's collectives master is on the hub's host. A local hub keeps the ring on loopback (no listener on
    // the network, no firewall prompt); a remote one needs the ring listener reachable from the other nodes.
    const QString host = QUrl(m_hubUrl).host();
    const QHostAddress literal(host);
    const bool local = host == QLatin1String("localhost") || (!literal.isNull() && literal.isLoopback());
    o.communicator.bindAddress = local ? QHostAddress(QHostAddress::LocalHost) : QHostAddress(QHostAddress::AnyIPv4);
    o.communicator.beginTimeoutMs = 120'000; // the slowest peer's inner steps
    o.communicator.uploadLimiter = m_uploadLimiter;
    m_taskId = task.id;
    m_status = DilocoStatus{};
    m_status.active = true;
    m_status.phase = QStringLiteral("connecting");
    m_status.innerSteps = task.diloco->innerSteps;
    m_running = true;
    m_thread.run(
        [this, o, host, literal](const ThreadLink &link) mutable {
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
                const Status s =
                    runner.run(link.stopFlag(), [this, &link, taskId = o.taskId](const diloco::DilocoProgress &p) {
                        const DilocoStatus st = statusOf(p);
                        const bool done = p.outerStepDone;
                        // The commitment and its material are made here, on the training thread (hashing megabytes).
                        QJsonObject commitment;
                        QByteArray material;
                        if (done && p.audit) {
                            commitment = diloco::commitmentOf(*p.audit).toJson();
                            material = diloco::encodeAuditMaterial(*p.audit);
                        }
                        // Delivered only while this session still owns the thread (ThreadLink::post).
                        link.post([this, st, done, commitment, material, taskId] {
                            onProgress(st, done);
                            if (!commitment.isEmpty())
                                commitStep(taskId, commitment, material);
                        });
                    });
                if (!s)
                    error = s.error();
            }
            link.post([this, error] { onFinished(error); });
        },
        QThread::LowPriority);
    Q_EMIT eventOccurred(
        EngineEvent::info(EventCategory::Diloco, QStringLiteral("DiLoCo training started for %1").arg(task.id)));
    Q_EMIT changed();
}

bool DilocoSession::stop(int waitMs)
{
    if (!m_thread.isRunning())
        return true;
    m_thread.requestStop();
    m_uploadLimiter->interrupt(); // a send held back by the upload cap notices the cancel now
    if (waitMs <= 0)
        return false;
    const bool stopped = m_thread.waitFor(std::chrono::milliseconds(waitMs));
    if (!stopped)
        qCWarning(lcEngine) << "the DiLoCo thread did not stop within" << waitMs << "ms (a collective is in flight)";
    return stopped;
}

void DilocoSession::shutdown(int waitMs)
{
    m_shuttingDown = true;
    stop(waitMs);
}

void DilocoSession::onProgress(const DilocoStatus &status, bool outerStepDone)
{
    if (!m_running)
        return; // a report that was queued before the run ended
    const int runSteps = m_status.outerStepsThisRun + (outerStepDone ? 1 : 0);
    const QString previousNote = m_status.note;
    m_status = status;
    m_status.outerStepsThisRun = runSteps;
    if (status.note.isEmpty())
        m_status.note = previousNote;
    else
        Q_EMIT eventOccurred(EngineEvent::info(EventCategory::Diloco, status.note));
    if (outerStepDone)
        qCInfo(lcEngine).nospace() << "DiLoCo outer step " << status.outerStep << " with " << status.peers
                                   << " peers, loss " << status.outerLoss;
    Q_EMIT changed();
}

void DilocoSession::onFinished(const QString &error)
{
    // The thread posted this as its last act: it ends within moments.
    if (!m_thread.stop(std::chrono::milliseconds(5'000)))
        qCWarning(lcEngine) << "the DiLoCo thread said it finished but did not end";
    m_running = false;
    m_status.active = false;
    m_status.phase = QStringLiteral("stopped");
    Q_EMIT finished();
    if (!error.isEmpty()) {
        m_retryAfter = QDateTime::currentDateTimeUtc().addSecs(kRetryAfterFailureS);
        m_status.note = error;
        Q_EMIT eventOccurred(
            EngineEvent::error(EventCategory::Diloco, QStringLiteral("DiLoCo training stopped: %1").arg(error)));
        QTimer::singleShot(kRetryAfterFailureS * 1000 + 100, this, &DilocoSession::update);
    }
    Q_EMIT changed(); // may start it again (resumed from its bundle) if nothing holds it back now
}

void DilocoSession::commitStep(const QString &taskId, const QJsonObject &commitment, const QByteArray &material)
{
    HubClient *hub = m_host.hub();
    if (m_shuttingDown || !hub)
        return;
    const quint64 step = quint64(commitment.value(QStringLiteral("step")).toInteger());
    hub->post(QStringLiteral("/v1/tasks/%1/diloco/commitments").arg(taskId), commitment,
              [this, taskId, step, material](const HubReply &reply) {
                  if (m_shuttingDown)
                      return;
                  if (!reply.ok()) {
                      // Without its commitment the step earns nothing; the next step commits again.
                      qCWarning(lcEngine).nospace() << "DiLoCo: the hub did not take the commitment of outer step "
                                                    << step << ": " << reply.error;
                      return;
                  }
                  if (!reply.body.value(QStringLiteral("audit")).toBool())
                      return;
                  const qsizetype part = qsizetype(std::clamp<qint64>(
                      reply.body.value(QStringLiteral("part_bytes")).toInteger(256 << 10), 16 << 10, 1 << 20));
                  Q_EMIT eventOccurred(
                      EngineEvent::info(EventCategory::Diloco,
                                        QStringLiteral("The hub audits outer step %1: sending what it replays (%2)")
                                            .arg(step)
                                            .arg(humanBytes(material.size()))));
                  uploadAudit(taskId, step, material, 0, part);
              });
}

void DilocoSession::uploadAudit(const QString &taskId, quint64 step, const QByteArray &material, qsizetype offset,
                                qsizetype partBytes)
{
    HubClient *hub = m_host.hub();
    if (m_shuttingDown || !hub)
        return;
    const QByteArray part = material.mid(offset, partBytes);
    hub->postBytes(
        QStringLiteral("/v1/tasks/%1/diloco/audits/%2?offset=%3").arg(taskId).arg(step).arg(offset), part,
        [this, taskId, step, material, offset, partBytes, sent = part.size()](const HubReply &reply) {
            if (m_shuttingDown)
                return;
            if (reply.errorCode == QLatin1String("busy")) { // the hub's buffer is full for now: the same part again
                QTimer::singleShot(2000, this, [=, this] { uploadAudit(taskId, step, material, offset, partBytes); });
                return;
            }
            if (!reply.ok()) {
                Q_EMIT eventOccurred(EngineEvent::warning(
                    EventCategory::Diloco,
                    QStringLiteral("The audit of outer step %1 could not be sent: %2").arg(step).arg(reply.error)));
                return;
            }
            if (offset + sent < material.size())
                uploadAudit(taskId, step, material, offset + sent, partBytes);
        });
}

// The session's texts keep the engine's translation context ("cohort::Engine", where ui/translations files them),
// written out in full so that lupdate sees each one.
QString DilocoSession::activity(const TaskInfo &task) const
{
    const DilocoStatus &d = m_status;
    if (!task.diloco || task.diloco->masterPort == 0)
        return QCoreApplication::translate("cohort::Engine", "Joined \"%1\"; the hub has no DiLoCo master for it")
            .arg(task.title);
    if (!d.active)
        return QCoreApplication::translate("cohort::Engine", "Joined \"%1\" (DiLoCo); %2")
            .arg(task.title, d.note.isEmpty() ? QCoreApplication::translate("cohort::Engine", "not training") : d.note);
    if (d.phase == QLatin1String("connecting"))
        return QCoreApplication::translate("cohort::Engine", "DiLoCo \"%1\": joining the training ring")
            .arg(task.title);
    QString text =
        QCoreApplication::translate("cohort::Engine", "DiLoCo \"%1\": outer step %2, inner %3/%4, %5 peer(s)")
            .arg(task.title)
            .arg(d.outerStep + 1)
            .arg(d.innerStep)
            .arg(d.innerSteps)
            .arg(d.peers);
    if (d.phase == QLatin1String("averaging"))
        text += QCoreApplication::translate("cohort::Engine", ", averaging");
    else if (d.phase == QLatin1String("syncing"))
        text += QCoreApplication::translate("cohort::Engine", ", syncing");
    if (d.loss > 0)
        text += QCoreApplication::translate("cohort::Engine", ", loss %1").arg(d.loss, 0, 'f', 2);
    return text;
}

} // namespace cohort
