#pragma once
// Rollout batches that were generated but not yet acknowledged by the hub. Each batch is one JSON file
// (<dir>/<submission id>.json) written atomically and flushed to disk before it is submitted, and deleted only
// after the hub has answered (accepted or rejected). A crash, kill -9 or reboot between the two loses nothing:
// on start the engine submits what is left, and the hub recognises the id of a batch it already credited.
#include "core/Expected.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace cohort {

struct OutboxEntry {
    QString submissionId;
    QString taskId;
    QByteArray body; // the submission exactly as it will be sent
};

class Outbox {
public:
    explicit Outbox(QString dir)
        : m_dir(std::move(dir))
    {}

    Status put(const OutboxEntry &entry);
    // Oldest first. Files that cannot be read or parsed are moved to <dir>/damaged/ (kept for diagnosis) and skipped.
    QList<OutboxEntry> entries(const QString &taskId = {}) const;
    Status remove(const QString &submissionId);
    int count() const;
    QString dir() const { return m_dir; }

    static QString newSubmissionId(); // "s-" + 32 hex digits

private:
    QString m_dir;
};

} // namespace cohort
