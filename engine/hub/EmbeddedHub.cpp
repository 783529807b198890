#include "hub/EmbeddedHub.h"

#include <QPointer>

namespace cohort {

namespace {
// The service's deletion ends with its trainer threads (RlCoordinator: 30 s at most) and its audit thread
// (DilocoAuditor: 30 s at most); the bound (new: the wait had none) covers both and a margin for the database.
constexpr std::chrono::seconds kStopBound{75};
} // namespace

EmbeddedHub::EmbeddedHub(HubConfig config, QObject *parent)
    : LocalNetwork(parent),
      m_service(new HubService(std::move(config)))
{
    // The service owns sockets and a database connection created in its thread: it is deleted there, as the thread
    // ends (or here, by the stop, if it never started).
    m_thread.host(m_service);
}

EmbeddedHub::~EmbeddedHub()
{
    m_thread.stop(kStopBound);
}

void EmbeddedHub::start()
{
    m_thread.startEventLoop();
    QPointer<EmbeddedHub> self(this);
    HubService *service = m_service;
    QMetaObject::invokeMethod(
        service,
        [self, service] {
            const Status status = service->start();
            const QString url = service->url();
            if (!self)
                return;
            QMetaObject::invokeMethod(
                self.data(),
                [self, status, url] {
                    if (!self)
                        return;
                    if (status)
                        Q_EMIT self->started(url);
                    else
                        Q_EMIT self->failed(status.error());
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

} // namespace cohort
