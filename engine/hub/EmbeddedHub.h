#pragma once
// The embedded local network: a HubService on its own thread ("cohort-hub"), serving on loopback,
// with its data under the app's data folder. Used by cohort and cohortd when no hub URL is configured.
#include "api/EngineParts.h"
#include "core/OwnedThread.h"
#include "hub/HubService.h"

#include <QObject>

namespace cohort {

class EmbeddedHub : public LocalNetwork {
    Q_OBJECT
public:
    explicit EmbeddedHub(HubConfig config, QObject *parent = nullptr);
    ~EmbeddedHub() override; // stops the service and its thread (bounded)

    void start() override; // asynchronous: started(url) or failed(error) follows

private:
    OwnedThread m_thread{QStringLiteral("cohort-hub")};
    HubService *m_service; // lives in m_thread, which deletes it
};

} // namespace cohort
