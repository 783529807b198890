#pragma once
// What `cohortd --doctor` found, as values: one finding per check (the hub reachable and its key pinned, the clock,
// inbound reachability for DiLoCo, disk, memory, BLAS, GPU driver and LibTorch, the data folder, the tray host),
// each with what was seen and, when it is not fine, how to fix it. The desktop app runs `cohortd --doctor --json`
// (no LibTorch in the GUI process) and reads the report back through parseDoctorReport, strictly: it is another
// program's output.
#include "core/Expected.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>

namespace cohort {

namespace doctor { // for moc: the wire names come from the enumerators (core/EnumNames.h)
Q_NAMESPACE
enum class DoctorOutcome {
    Ok,      // fine
    Warning, // works, but worse than it could (reference BLAS, a clock a minute off, trust on first use)
    Failed,  // Cohort cannot work this way (the hub unreachable, the clock past the signature window, no disk)
    Skipped, // does not apply here (no GPU, no desktop session, the embedded hub)
};
Q_ENUM_NS(DoctorOutcome)
} // namespace doctor
using doctor::DoctorOutcome;

struct DoctorFinding {
    QString id;    // stable: "hub", "clock", "inbound", "disk", "memory", "blas", "gpu", "data-folder", "tray"
    QString title; // for people: "Hub reachable"
    DoctorOutcome outcome = DoctorOutcome::Ok;
    QString detail; // what was seen
    QString fix;    // what to do about it; empty when nothing needs doing
    bool operator==(const DoctorFinding &) const = default;
};

QString doctorOutcomeName(DoctorOutcome outcome); // "ok", "warning", "failed", "skipped"
bool doctorOutcomeFromName(const QString &name, DoctorOutcome *out);

struct DoctorReport {
    QList<DoctorFinding> findings;
    bool anyFailed() const;
    int count(DoctorOutcome outcome) const;
    QJsonObject toJson() const;
};

inline constexpr int kMaxDoctorFindings = 64;
inline constexpr qsizetype kMaxDoctorReportBytes = 256 * 1024;
// The report as `cohortd --doctor --json` prints it; refuses anything larger than kMaxDoctorReportBytes, more than
// kMaxDoctorFindings findings, unknown outcomes, ids outside [a-z0-9-]{1,32} and texts longer than 2,000 characters.
Expected<DoctorReport> parseDoctorReport(const QByteArray &json);

} // namespace cohort
