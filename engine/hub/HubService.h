#pragma once
// The coordinator: owns the HTTP API, the database, the task catalogue, the hub's own identity and the
// request verifier. Lives in one thread (the main thread of cohort-hub, or the "cohort-hub" thread of the
// embedded local network).
#include "core/ClientRelease.h"
#include "core/Expected.h"
#include "hub/TaskCatalogue.h"
#include "net/ApiTypes.h"
#include "net/ConnectionGate.h"
#include "net/HostCheck.h"
#include "net/Identity.h"
#include "net/ReplayGuard.h"
#include "net/RequestSigning.h"
#include "shardcast/Manifest.h"

#include <QHostAddress>
#include <QObject>
#include <memory>

namespace cohort {

class ApiServer;
class KeyedRateLimit;
class ServerTls;
class DilocoCoordinator;
class HubMetrics;
class HubStore;
class RlCoordinator;
namespace shardcast {
class Publisher;
class RelayServer;
} // namespace shardcast

ListenerLimits relayDefaultLimits();

struct HubConfig {
    QString dataDir; // hub.sqlite and identity/hub.key
    QHostAddress address = QHostAddress::LocalHost;
    quint16 port = 0;              // 0: any free port
    QString catalogueFile;         // empty: the default catalogue from resources
    qint64 maxBodyBytes = 1 << 20; // API bodies are small JSON
    int heartbeatIntervalS = 10;
    qint64 clockWindowMs = signing::kDefaultWindowMs;
    // HTTPS for the API and the hub's own relay: a PEM certificate chain and its key (both empty: plain HTTP).
    // Renewed files are picked up within a minute, without a restart (net/Tls).
    QString tlsCertificateFile;
    QString tlsKeyFile;
    int tlsCheckSeconds = 60; // how often the files are looked at for a renewal
    // Connection discipline (net/ConnectionGate) of the API and of the hub's own relay.
    ListenerLimits apiLimits;
    ListenerLimits relayLimits = relayDefaultLimits();
    // Host names (or addresses) the API and relay answer besides the loopback names and the listen address, e.g.
    // "hub.example.org". Listening on every address with none given: any Host is answered (and a warning logged).
    QStringList publicNames;
    // Proxies in front of the API (nginx terminating TLS): their X-Forwarded-For names the client (ApiServer).
    QList<QHostAddress> trustedProxies;
    // The operator's bearer token (cohort-hub --operator-token-file): unlocks every field of the node records.
    // Empty: no operator view over HTTP.
    QByteArray operatorToken;
    // New identities a source may register: this many a minute, up to registrationBurst at once.
    double registrationsPerMinute = 6;
    double registrationBurst = 20;
    // Every DiLoCo task's min_ring_size, over the catalogue's; 0: the catalogue's. The embedded hub is a network of
    // this one machine: 1 lets its node train DiLoCo alone (a node waits for a peer below 2 otherwise).
    int dilocoMinRingSize = 0;
    // Proof of work a new identity brings (net/RegistrationWork): leading zero bits; 0: none (the embedded hub).
    int registrationWorkBits = 0;
    // Update notices (cohort-hub --client-latest, --client-minimum, --client-download-url; core/ClientRelease): the
    // newest client version, the oldest this hub works with (older ones are refused with 426 upgrade_required at
    // registration and heartbeat) and where to download. Empty: nothing advertised, every version served.
    ClientRelease clientRelease;
    // SHARDCAST
    qint64 shardSize = shardcast::kDefaultShardSize;
    int keepVersions = 3;
    quint16 relayPort = 0;   // the hub's own relay (static tree with Range support); 0: any free port
    bool selfRelay = true;   // list the hub's own relay to nodes
    QStringList extraRelays; // other relays serving a copy of the tree (nginx, cohort-hub --serve-dir)
    // PRIME-RL
    int rolloutAckDelayMs = 0; // test knob: answer rollout submissions this much later
    // A registered node joining an RL task starts the task's trainer (the embedded hub: its one node is the person's
    // own). cohort-hub sets false: trainers start from the catalogue or the operator's --train, so no stranger's
    // heartbeat costs the hub a warm-up.
    bool trainersOnDemand = true;
    // DiLoCo: the collectives masters (one per diloco task) listen on `address` from this port on; 0: any free port
    quint16 dilocoPort = 0;
};

class HubService : public QObject {
    Q_OBJECT
public:
    explicit HubService(HubConfig config, QObject *parent = nullptr);
    ~HubService() override;

    Status start(); // opens the database, loads the catalogue, listens
    // Operator action on a hub's database (running or not): forgets a node's TOPLOC proof failures and lifts its
    // flag for one task, or for all tasks when taskId is empty.
    static Status clearNodeFlag(const QString &dataDir, const QString &nodeId, const QString &taskId);
    quint16 port() const;
    QString url() const;
    QString hubKeyBase64() const { return m_identity ? m_identity->publicKeyBase64() : QString(); }

    // The API, callable directly (tests, fuzzing) as well as over HTTP.
    ApiResponse handle(const ApiRequest &request);

    // Publishes a checkpoint file as the next version of a task (SHARDCAST).
    Expected<shardcast::SignedManifest> publish(const QString &taskId, const QString &checkpointPath);
    QString relayUrl() const; // the hub's own relay
    // What nodes are told to use. A relay listening on every address is named by the host the node reached the
    // API under (its Host header, already checked against the names this hub answers), not by 127.0.0.1.
    QStringList relays(const QByteArray &hostHeader = {}) const;
    QString treeDir() const;
    RlCoordinator *rl() const { return m_rl; }
    DilocoCoordinator *diloco() const { return m_diloco; }
    const TaskCatalogue &catalogue() const { return m_catalogue; }

    // Verifies the signature; on failure returns the error response. Only registered keys pass (and use the
    // replay guard), except on the registration route, where a new key passes when its source is within the
    // registration rate (registrationsPerMinute per IPv4 address or IPv6 /64).
    enum class KeyUse { RegisteredOnly, Registration };
    std::optional<ApiResponse> authenticate(const ApiRequest &request, VerifiedRequest *verified,
                                            KeyUse use = KeyUse::RegisteredOnly);
    // True if the request carries the operator's bearer token.
    bool isOperator(const ApiRequest &request) const;
    bool hasOperatorToken() const { return !m_config.operatorToken.isEmpty(); }
    // A node is online while its last heartbeat is at most three heartbeat intervals old.
    qint64 onlineWindowMs() const { return qint64(m_config.heartbeatIntervalS) * 3 * 1000; }
    // Which names the API and relay answer (from the listen address and publicNames).
    HostCheck hostCheck() const;
    const ConnectionGate *apiGate() const;
    const ConnectionGate *relayGate() const;

private:
    void registerRoutes();

    HubConfig m_config;
    std::optional<Identity> m_identity;
    std::unique_ptr<HubStore> m_store;
    TaskCatalogue m_catalogue;
    ReplayGuard m_replays;
    std::unique_ptr<KeyedRateLimit> m_registrations; // by source
    RequestVerifier m_verifier;
    ServerTls *m_tls = nullptr;
    ApiServer *m_server = nullptr;
    std::unique_ptr<shardcast::Publisher> m_publisher;
    shardcast::RelayServer *m_relay = nullptr;
    RlCoordinator *m_rl = nullptr;
    DilocoCoordinator *m_diloco = nullptr;
    std::unique_ptr<HubMetrics> m_metrics; // GET /metrics
};

} // namespace cohort
