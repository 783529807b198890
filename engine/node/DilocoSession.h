#pragma once
// A node's DiLoCo training, a part the Engine owns (engine thread): the training loop (engine/diloco/DilocoRunner)
// runs on a thread of its own ("cohort-diloco") — every collective call blocks — and reports progress here (queued)
// for the snapshot and the activity line. It runs while the joined task is a diloco task, the hub is online and no
// pause reason holds; pausing cancels it at the next inner step (it checkpoints and leaves the ring; the others go
// on without it), resuming starts it again from its bundle. Each outer step's commitment goes to the hub, and when
// the hub audits that step, the material it replays follows in parts (docs/CREDIT.md).
#include "core/EngineEvent.h"
#include "core/EngineSnapshot.h"
#include "core/OwnedThread.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QObject>
#include <memory>

namespace cohort {

class HubClient;
class RateLimiter;

// The engine as the DiLoCo session sees it. Read each time the session decides; never cached.
class DilocoHost {
public:
    virtual HubClient *hub() const = 0;
    virtual const TaskInfo *joinedTask() const = 0;
    virtual bool dilocoMayRun() const = 0;        // the hub online, nothing pausing the node, not stopping
    virtual QString nodeId() const = 0;           // the node identity: its data seed
    virtual QByteArray nodeSecretKey() const = 0; // signs the ring hellos
    virtual QString computeDevice() const = 0;    // where the model trains

protected:
    ~DilocoHost() = default;
};

class DilocoSession : public QObject {
    Q_OBJECT
public:
    // `uploadLimiter` is the engine's upload cap, shared so that a change of the cap applies to a collective in
    // flight.
    DilocoSession(DilocoHost &host, QString dataDir, QString hubUrl, std::shared_ptr<RateLimiter> uploadLimiter,
                  QObject *parent = nullptr);
    ~DilocoSession() override; // stops the training thread within 30 s (a collective in flight may hold it that long)

    // Starts or stops the training as the host's gate and joined task say; a failed run waits 30 s to retry.
    void update();
    // Asks the training to stop at its next inner step (it checkpoints and leaves the ring) and waits at most
    // `waitMs` for it (0: not at all; finished() follows on the engine thread). False if it still runs; it stays
    // this session's, and the destructor waits for it again.
    bool stop(int waitMs);
    void shutdown(int waitMs); // the engine stops: stop(waitMs), and no further commitment or upload

    bool running() const { return m_running; }
    const DilocoStatus &status() const { return m_status; }
    bool atWork() const { return m_status.active && m_status.phase != QLatin1String("connecting"); }
    QString activity(const TaskInfo &task) const; // one line for the dashboard while the task is a DiLoCo task

Q_SIGNALS:
    void eventOccurred(const cohort::EngineEvent &event);
    void changed();  // status or activity moved: refresh the snapshot
    void finished(); // the training thread ended (stopped, paused, failed)

private:
    void start(const TaskInfo &task);
    void onProgress(const DilocoStatus &status, bool outerStepDone);
    void onFinished(const QString &error);
    void commitStep(const QString &taskId, const QJsonObject &commitment, const QByteArray &material);
    void uploadAudit(const QString &taskId, quint64 step, const QByteArray &material, qsizetype offset,
                     qsizetype partBytes);

    DilocoHost &m_host;
    QString m_dataDir;
    QString m_hubUrl;
    std::shared_ptr<RateLimiter> m_uploadLimiter;
    OwnedThread m_thread{QStringLiteral("cohort-diloco"), this};
    bool m_running = false; // a run started and its end not yet handled
    bool m_shuttingDown = false;
    QString m_taskId;       // of the run
    QDateTime m_retryAfter; // after a failed run
    DilocoStatus m_status;
};

} // namespace cohort
