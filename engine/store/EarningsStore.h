#pragma once
// The node's copy of its earnings, so the desktop shows figures at start and while the hub is unreachable.
// Keeps the latest report per (hub, node) and every hourly bucket ever seen: the hub reports only the last
// 7 days, so older hours exist only here. Lives in <dataDir>/cohort.sqlite (see NodeDatabase).
#include "core/EarningsReport.h"
#include "core/Expected.h"

#include <QString>
#include <memory>
#include <optional>

namespace cohort {

class NodeDatabase;

class EarningsStore {
public:
    static QString defaultPath(const QString &dataDir);
    static Expected<std::unique_ptr<EarningsStore>> open(const QString &path);
    ~EarningsStore();
    EarningsStore(const EarningsStore &) = delete;
    EarningsStore &operator=(const EarningsStore &) = delete;

    // hub: what identifies the ledger (its key fingerprint, or its URL); earnings on two hubs never mix.
    // The report replaces the cached one; its buckets replace stored ones for the same hours, others are kept.
    Status save(const QString &hub, const EarningsReport &report);
    // The cached report with the stored history merged in (ascending; the newest EarningsReport::kMaxItems hours).
    // No report saved yet for this hub and node: an empty optional.
    Expected<std::optional<EarningsReport>> load(const QString &hub, const QString &nodeId) const;

    QString path() const;

private:
    explicit EarningsStore(std::unique_ptr<NodeDatabase> database);
    std::unique_ptr<NodeDatabase> m_db;
};

} // namespace cohort
