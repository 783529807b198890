#pragma once
// The node's conversation with its hub, a part the Engine owns (engine thread): registration (with the proof of
// work a hub may ask for, and the hub's key pinned on first contact or named in the settings), the task catalogue,
// heartbeats and what their answers carry (announced checkpoints, this node's contribution, the joined task's
// progress, the client versions the hub advertises), and reconnecting with an exponential backoff when the hub is
// lost. A hub that refuses this version, or another server at the hub's address, stops the engine: only a person can
// settle either.
//
// What it must know of the node it asks its host at the moment it sends; what happened it says through signals,
// connected directly on the engine thread, so the engine's state follows each answer in the same order as when the
// session was part of Engine.
#include "core/ClientRelease.h"
#include "core/EngineEvent.h"
#include "core/EngineSnapshot.h"
#include "core/Expected.h"
#include "core/NodeState.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QTimer>
#include <functional>

namespace cohort {

class HubClient;
class Identity;
class RegistrationWorkSolver;
struct HubReply;

// The engine as the hub session sees it. Read each time the session sends or decides; never cached.
class HubSessionHost {
public:
    virtual bool failed() const = 0;                   // stopped by an error: it waits for a person, not for the hub
    virtual QJsonObject hardware() const = 0;          // what the registration describes (node/HardwareInventory)
    virtual QString payoutAddress() const = 0;         // the settings' payout address, as of now
    virtual const EngineSnapshot &machine() const = 0; // the node's latest state and readings, for each heartbeat
    virtual QString joinedTaskId() const = 0;

protected:
    ~HubSessionHost() = default;
};

class HubSession : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxRetryDelayS = 60;

    struct Setup {
        QString hubUrl;
        bool embedded = false;   // the local network's hub: its port changes every run, so it is pinned as "embedded"
        QString dataDir;         // identity/hubs.json: the pinned hub keys
        QByteArray hubKey;       // the settings' key for the hub; empty: trust on first use
        QString certificateFile; // PEM trusted for an https hub besides the system's CAs; empty: none
        QString nodeName;        // empty: the node id
        int heartbeatIntervalMs = 0; // 0: what the hub asks for
    };
    // What the hub said that the snapshot shows.
    struct State {
        QString hubKeyFingerprint; // the hub key pinned at registration
        QDateTime registeredAt;
        QDateTime lastHeartbeatAt;
        int heartbeatFailures = 0;
        QList<TaskInfo> tasks;
        TaskProgress progress;         // the joined task's held-out curve
        TaskContribution contribution; // this node's part in the joined task's accepted work
        UpdateNotice update;
    };

    HubSession(HubSessionHost &host, Setup setup, QObject *parent = nullptr);

    // Checks the hub's address and the certificate setting, then registers. An error says why, and nothing started.
    Status start(const Identity &identity);
    void heartbeat();                          // now, if online: the hub learns at once, not at the next tick
    void connectionLost(const QString &error); // also what the work loops say when the hub does not answer
    void stop();                               // the engine stops: no further heartbeat or reconnect
    // A last heartbeat tells the hub the node is going (best effort, 2 s at most), then `done`; at once when offline.
    void farewell(std::function<void()> done);

    HubClient *client() const { return m_hub; } // null before start()
    bool online() const { return m_link == HubLink::Online; }
    HubLink link() const { return m_link; }
    const QString &linkError() const { return m_linkError; }
    bool retryScheduled() const { return m_retryAt.isValid(); }
    int secondsUntilRetry() const;
    const State &state() const { return m_state; }

Q_SIGNALS:
    void eventOccurred(const cohort::EngineEvent &event);
    void linkChanged();                    // connecting, online, lost, retrying: the node's state follows
    void changed();                        // state() moved
    void errorNoted(const QString &error); // the node's last error (empty: a registration cleared it)
    void registered();                     // online: what waited for the hub goes now
    void tasksArrived();                   // the catalogue was loaded (state().tasks)
    void checkpointAnnounced(int version); // a heartbeat named the joined task's newest checkpoint
    void failed(const QString &message);   // only a person can settle this: the engine stops with it
    void refused(const QString &why);      // the hub refuses this version: nothing that needs it runs again

private:
    void registerWithHub();
    void solveRegistrationWork(const HubReply &reply);
    void onRegistered(const HubReply &reply);
    void fetchTasks();
    void fetchProgress(); // the joined task's held-out curve, on a heartbeat, every 30 s at most
    void onHeartbeat(const HubReply &reply);
    QJsonObject heartbeatBody() const; // the node's state as the host has it now
    // The client versions the hub advertises ("client" of its answers; core/ClientRelease): into the state, an
    // event once per newer version. False when this version is below the hub's minimum: the engine has stopped.
    bool takeClientRelease(const QJsonValue &client);
    void onUpgradeRequired(const HubReply &reply); // the hub refused this version (426 upgrade_required)
    void refuseToWork(const QString &why);
    void scheduleReconnect();
    QString pinsPath() const;
    QString pinName() const;

    HubSessionHost &m_host;
    Setup m_setup;
    const Identity *m_identity = nullptr; // the engine's, set by start()
    HubClient *m_hub = nullptr;           // a child, made by start()
    // The proof of work a hub asked this identity to register with (net/RegistrationWork): solved once, sent with
    // every registration to that hub.
    RegistrationWorkSolver *m_registrationWork = nullptr;
    QByteArray m_registrationStamp;
    QString
        m_announcedVersion; // the newest version an "is available" event named (once per version, not per heartbeat)
    HubLink m_link = HubLink::NotStarted;
    QString m_linkError;
    QTimer m_heartbeatTimer;
    QTimer m_retryTimer;
    QDateTime m_retryAt;
    int m_retryDelayS = 1;
    bool m_stopping = false;
    bool m_progressInFlight = false; // a progress request is out (fetchProgress)
    QElapsedTimer m_progressFetched; // since the last progress answer
    State m_state;
};

} // namespace cohort
