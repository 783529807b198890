#pragma once
// The local control API: a running node (cohortd or the desktop app) can be asked for its status and told to
// pause, resume, pause after the step in hand, or snooze, and scraped for Prometheus metrics (GET /metrics), over
// HTTP on 127.0.0.1 only. Every request carries "Authorization: Bearer <token>"; the token and the address are in
// <data>/control.json, readable by the owner only, so other users of the machine cannot steer or watch the node.
// ControlClient is the other end (cohortd --control, and the desktop app when it controls a cohortd).
#include "core/Expected.h"

#include <QJsonObject>
#include <QObject>
#include <QString>
#include <functional>
#include <memory>

namespace cohort {

class ApiServer;
class EngineController;
class NodeMetrics;

class ControlServer : public QObject {
    Q_OBJECT
public:
    ControlServer(EngineController &controller, QString dataDir, QObject *parent = nullptr);
    ~ControlServer() override;
    // Listens on 127.0.0.1:port (0: any free port) and writes control.json. Removed again by the destructor.
    // token: the one to ask for (cohortd --control-token-file, so a Prometheus credentials file stays valid across
    // restarts); empty: a new random one each start.
    Status start(quint16 port = 0, const QByteArray &token = {});
    QString url() const;
    QString controlFile() const;

private:
    EngineController &m_controller;
    QString m_dataDir;
    QByteArray m_token;
    std::unique_ptr<ApiServer> m_server;
    std::unique_ptr<NodeMetrics> m_metrics; // GET /metrics
};

struct ControlEndpoint {
    QString url;
    QByteArray token;
    static Expected<ControlEndpoint> fromDataDir(const QString &dataDir); // reads control.json strictly
    static Expected<ControlEndpoint> parse(const QByteArray &json);       // control.json's bytes (fuzzed)
};

// The parts of a control request the server reads, as pure functions (fuzzed: tests/fuzz/fuzz_control_api.cpp).
// True if the Authorization header is "Bearer <token>"; compared in constant time.
bool controlAuthorized(const QByteArray &authorization, const QByteArray &token);
// The body of POST /v1/snooze: {"seconds": 0 .. one week}.
Expected<int> parseSnoozeBody(const QByteArray &body);
// The body of POST /v1/pause and /v1/resume: empty or {} (the whole node) or {"gpu": "<NVML UUID>"} (that GPU's worker
// alone). The GPU's UUID, or empty for the whole node; an error for anything else.
Expected<QString> parseGpuBody(const QByteArray &body);

// Blocking client for command-line use (a nested event loop with a timeout); the desktop app would use the
// same requests asynchronously.
Expected<QJsonObject> controlRequest(const ControlEndpoint &endpoint, const QByteArray &method, const QString &path,
                                     const QJsonObject &body = {}, int timeoutMs = 10'000);

} // namespace cohort
