#pragma once
// `cohortd --doctor` (and the desktop app's Help › Check this computer, which runs it): checks what Cohort needs and
// says how to fix what is wrong — the hub reachable and its key pinned, the clock (signed requests die at ±5 min),
// inbound reachability for DiLoCo (the hub connects back), free disk and memory for the task, the BLAS LibTorch
// runs on (the reference BLAS is ~8x slower), GPU driver and LibTorch's CUDA, the data folder writable, the tray
// host on Linux. Local checks run at once; the hub's answers arrive on the event loop, each bounded by a timeout.
#include "api/EngineController.h"
#include "core/DoctorReport.h"
#include "core/TaskInfo.h"

#include <QElapsedTimer>
#include <QObject>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;
class QTcpServer;
class QTimer;

namespace cohort {

struct DoctorOptions {
    EngineOptions engine; // hub address, hub key and certificate, data folder, task
    int networkTimeoutMs = 10'000;
    int probeWaitMs = 8'000; // how long the DiLoCo listener waits for the hub's connect-back
    // Tests only: added to this computer's clock as the clock check reads it (COHORT_TESTING_CLOCK_OFFSET_MS), and
    // the port the hub is asked to connect back to (COHORT_TESTING_PROBE_PORT: a closed one, as a firewall would).
    qint64 clockOffsetMs = 0;
    quint16 probePortOverride = 0;
    static DoctorOptions fromEnvironment(EngineOptions engine);
};

class Doctor : public QObject {
    Q_OBJECT
public:
    explicit Doctor(DoctorOptions options, QObject *parent = nullptr);
    ~Doctor() override;
    void start(); // finished() follows exactly once
    const DoctorReport &report() const { return m_report; }

Q_SIGNALS:
    void finished(const cohort::DoctorReport &report);

private:
    // Local checks (DoctorLocal.cpp): need no network.
    void checkDataFolder();
    void checkBlas();
    void checkGpu();
    void checkTray();
    // With the hub's task list (or without one): disk and memory for the task.
    void checkTaskNeeds(const std::optional<TaskInfo> &task, const QString &whyNoTask);
    // The task named (--task, settings), else the first of the list this version can run.
    void chooseTask(const QList<TaskInfo> &tasks);
    // The hub (DoctorHub.cpp).
    void askHealth();
    void onHealth(QNetworkReply *reply, qint64 sentAtMs, qint64 rttMs);
    void askTasks();
    void onTasks(QNetworkReply *reply);
    void probeInbound();
    void onProbeReply(QNetworkReply *reply);
    void settleInbound(bool reached);
    void add(const QString &id, const QString &title, DoctorOutcome outcome, const QString &detail,
             const QString &fix = {});
    void maybeFinish();
    QNetworkReply *get(const QString &path);
    QString hubUrl() const;

    DoctorOptions m_options;
    DoctorReport m_report;
    QNetworkAccessManager *m_network = nullptr;
    QTcpServer *m_probeListener = nullptr;
    QByteArray m_probeNonce;
    QTimer *m_probeWait = nullptr; // for the hub's connection, once it took the test
    bool m_probeWaiting = false;
    QString m_probeAddress; // this computer's address as the hub saw it
    int m_probePort = 0;
    QString m_taskKind; // of the task checked: "diloco" needs peers to reach this computer
    int m_pending = 0;  // checks still waiting on the network
    bool m_inboundSettled = false;
    bool m_finished = false;
};

} // namespace cohort
