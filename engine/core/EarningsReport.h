#pragma once
// A node's earnings as the hub's ledger reports them (GET /v1/nodes/{id}/earnings) and as the node caches them.
// Pending: accepted work not yet verified (TOPLOC). Confirmed: verified and credited. Refused: accepted at first,
// then cancelled by a failed verification. Amounts are in the ledger's unit ("credits").
#include "core/Expected.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace cohort {

struct EarningsAmounts {
    double pending = 0;
    double confirmed = 0;
    double refused = 0;
    bool operator==(const EarningsAmounts &) const = default;
};

struct TaskEarnings {
    QString taskId;
    EarningsAmounts amounts;
    qint64 tokens = 0;  // verified completion tokens credited
    qint64 batches = 0; // accepted rollout batches
    bool operator==(const TaskEarnings &) const = default;
};

// One hour of history (UTC, start of the hour).
struct EarningsBucket {
    QDateTime hourStart;
    EarningsAmounts amounts;
    qint64 tokens = 0;
    bool operator==(const EarningsBucket &) const = default;
};

struct EarningsReport {
    QString nodeId;
    QString unit = QStringLiteral("credits");
    EarningsAmounts total;
    EarningsAmounts today; // since 00:00 UTC
    EarningsAmounts last7Days;
    QList<TaskEarnings> tasks;
    QList<EarningsBucket> history; // ascending by hour, at most 7 x 24 buckets
    QDateTime generatedAt;         // hub clock, UTC
    // The payout address the hub has on record for this node ("" none), so the user can check it is the one they
    // set; absent when the hub does not say (an older hub).
    std::optional<QString> payoutAddress;

    // The most tasks or history buckets one report may hold: far above a real node's, small enough to parse quickly.
    static constexpr int kMaxItems = 10000;

    bool isEmpty() const { return total == EarningsAmounts{} && tasks.isEmpty(); }
    QJsonObject toJson() const;
    // Strict: wrong types, negative amounts, non-finite numbers, more than 10 000 tasks or buckets -> error.
    static Expected<EarningsReport> fromJson(const QJsonObject &json);
    bool operator==(const EarningsReport &) const = default;
};

// The hourly history as CSV for spreadsheets: "hour_utc,pending,confirmed,refused,tokens", one row per bucket,
// ISO 8601 UTC hours and '.' as the decimal separator whatever the user's locale.
QString toCsv(const EarningsReport &report);

} // namespace cohort

Q_DECLARE_METATYPE(cohort::EarningsReport)
