#pragma once
// Connect-back checks for `cohortd --doctor`: can a stranger on the internet reach this node's DiLoCo listener? Only
// someone outside can tell, and the hub is the one outside party every node already talks to.
//
// POST /v1/reachability {"port": 1..65535, "nonce": 32 hex digits} answers 202 at once; the hub then connects to
// *the address the request came from* on that port, writes "cohort-probe <nonce>\n" and closes. The node knows it is
// reachable when its listener reads its own nonce. The hub never connects anywhere else, so it cannot be made
// anyone's port scanner; each source gets one probe per 10 s, at most 32 run at once, each given 3 s.
#include "core/KeyedRateLimit.h"
#include "hub/ApiTypes.h"

#include <QObject>

namespace cohort {

class ApiServer;

class ReachabilityProbe : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxInFlight = 32;
    static constexpr int kConnectTimeoutMs = 3000;
    static constexpr double kProbesPerSecondPerSource = 0.1;

    explicit ReachabilityProbe(QObject *parent = nullptr);
    void registerRoutes(ApiServer &server);
    ApiResponse handle(const ApiRequest &request);
    int inFlight() const { return m_inFlight; }

private:
    void probe(const QHostAddress &address, quint16 port, const QByteArray &nonce);

    KeyedRateLimit m_perSource;
    int m_inFlight = 0;
};

} // namespace cohort
