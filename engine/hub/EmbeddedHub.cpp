#include "hub/EmbeddedHub.h"

#include <QPointer>

namespace cohort {

EmbeddedHub::EmbeddedHub(HubConfig config, QObject *parent) : LocalNetwork(parent), m_service(new HubService(std::move(config)))
{
    m_thread.setObjectName(QStringLiteral("cohort-hub"));
    m_service->moveToThread(&m_thread);
}

EmbeddedHub::~EmbeddedHub()
{
    if (m_thread.isRunning()) {
        // The service owns sockets and a database connection created in its thread: delete it there.
        HubService *service = m_service;
        QMetaObject::invokeMethod(service, [service] { delete service; }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    } else {
        delete m_service;
    }
}

void EmbeddedHub::start()
{
    m_thread.start();
    QPointer<EmbeddedHub> self(this);
    HubService *service = m_service;
    QMetaObject::invokeMethod(service, [self, service] {
        const Status status = service->start();
        const QString url = service->url();
        if (!self)
            return;
        QMetaObject::invokeMethod(self.data(), [self, status, url] {
            if (!self)
                return;
            if (status)
                Q_EMIT self->started(url);
            else
                Q_EMIT self->failed(status.error());
        }, Qt::QueuedConnection);
    }, Qt::QueuedConnection);
}

} // namespace cohort
