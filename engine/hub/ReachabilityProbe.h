#pragma once
// Connect-back checks for `cohortd --doctor`: can a stranger on the internet reach this node's DiLoCo listener? Only
// someone outside can tell, and the hub is the one outside party every node already talks to.
//
// POST /v1/reachability {"port": 1..65535, "nonce": 32 hex digits} answers 202 at once; the hub then connects to
// *the address the request came from* on that port, writes "cohort-probe <nonce>\n" and closes. The node knows it is
// reachable when its listener reads its own nonce. The hub never connects anywhere else, so it cannot be made
// anyone's port scanner; each source gets one probe per 10 s, at most 32 run at once, each given 3 s.
#include "core/KeyedRateLimit.h"
#include "net/ApiTypes.h"

#include <QObject>

namespace cohort {

class ApiServer;

class ReachabilityProbe : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxInFlight = 32;
    static constexpr int kConnectTimeoutMs = 3000;
    static constexpr double kProbesPerSecondPerSource = 0.1;

    // loopbackSources: answer askers on this machine. Only a hub that listens on loopback itself does: on a public hub
    // a loopback source is a reverse proxy not declared with --trusted-proxy, and probing "the asker" would make the
    // hub connect to its own machine's local services on a stranger's word.
    explicit ReachabilityProbe(bool loopbackSources, QObject *parent = nullptr);
    void registerRoutes(ApiServer &server);
    ApiResponse handle(const ApiRequest &request);

private:
    void probe(const QHostAddress &address, quint16 port, const QByteArray &nonce);

    bool m_loopbackSources;
    KeyedRateLimit m_perSource;
    int m_inFlight = 0;
};

} // namespace cohort
