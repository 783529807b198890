#include "node/EarningsFeed.h"

#include "core/Logging.h"
#include "net/HubClient.h"
#include "store/EarningsStore.h"

namespace cohort {

// The feed's texts are the engine's events, worded as when the feed was part of Engine; none is translated.

EarningsFeed::EarningsFeed(EarningsHost &host, QString dataDir, QString ledger, QObject *parent)
    : QObject(parent),
      m_host(host),
      m_dataDir(std::move(dataDir)),
      m_ledger(std::move(ledger)),
      m_timer(this)
{
    m_timer.setInterval(kRefreshMs);
    connect(&m_timer, &QTimer::timeout, this, &EarningsFeed::fetch);
}

EarningsFeed::~EarningsFeed() = default;

void EarningsFeed::stop()
{
    m_stopping = true;
    m_timer.stop();
}

void EarningsFeed::fetch()
{
    if (m_stopping || !m_host.hub() || !m_host.earningsMayFetch() || m_host.nodeId().isEmpty())
        return;
    if (!m_timer.isActive())
        m_timer.start();
    m_host.hub()->get(QStringLiteral("/v1/nodes/%1/earnings").arg(m_host.nodeId()), [this](const HubReply &reply) {
        if (m_stopping || !reply.ok())
            return;
        auto report = EarningsReport::fromJson(reply.body);
        if (!report) {
            qCWarning(lcEngine) << "earnings: the hub's report is malformed:" << report.error();
            return;
        }
        if (m_store)
            if (Status saved = m_store->save(m_ledger, *report); !saved)
                qCWarning(lcEngine) << "earnings: not cached:" << saved.error();
        Q_EMIT earningsReady(*report, false);
    });
}

void EarningsFeed::openCache()
{
    auto store = EarningsStore::open(EarningsStore::defaultPath(m_dataDir));
    if (!store) {
        Q_EMIT eventOccurred(EngineEvent::warning(
            EventCategory::Earnings, QStringLiteral("Earnings history is not kept: %1").arg(store.error())));
        return;
    }
    m_store = std::move(store).value();
    auto cached = m_store->load(m_ledger, m_host.nodeId());
    if (!cached)
        Q_EMIT eventOccurred(EngineEvent::warning(EventCategory::Earnings, cached.error()));
    else if (cached->has_value())
        Q_EMIT earningsReady(**cached, true);
}

} // namespace cohort
