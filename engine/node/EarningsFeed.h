#pragma once
// The node's earnings, a part the Engine owns (engine thread): the hub's report of what this node earned, fetched
// when the node registers, after each accepted batch and once a minute from then on, and cached per hub in SQLite
// (<data>/cohort.sqlite), so that the views show the last known report at once on the next start.
#include "core/EarningsReport.h"
#include "core/EngineEvent.h"

#include <QObject>
#include <QTimer>
#include <memory>

namespace cohort {

class EarningsStore;
class HubClient;

// The engine as the feed sees it. Read each time the feed asks the hub; never cached.
class EarningsHost {
public:
    virtual HubClient *hub() const = 0;
    virtual bool earningsMayFetch() const = 0; // the hub online
    virtual QString nodeId() const = 0;        // whose earnings; empty until the identity is loaded

protected:
    ~EarningsHost() = default;
};

class EarningsFeed : public QObject {
    Q_OBJECT
public:
    static constexpr int kRefreshMs = 60'000;

    // `ledger`: which ledger the cache entries belong to ("embedded" for the local network, else the hub's URL), so
    // that earnings of different hubs never mix.
    EarningsFeed(EarningsHost &host, QString dataDir, QString ledger, QObject *parent = nullptr);
    ~EarningsFeed() override;

    void openCache(); // and says what it holds for this node, if anything (earningsReady(report, true))
    void fetch();     // now, and once a minute from then on
    void stop();      // the engine stops: no further request, an answer in flight is dropped

Q_SIGNALS:
    void eventOccurred(const cohort::EngineEvent &event);
    void earningsReady(const cohort::EarningsReport &report, bool fromCache);

private:
    EarningsHost &m_host;
    QString m_dataDir;
    QString m_ledger;
    std::unique_ptr<EarningsStore> m_store; // null if it cannot be opened
    QTimer m_timer;
    bool m_stopping = false;
};

} // namespace cohort
