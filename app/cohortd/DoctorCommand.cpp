#include "DoctorCommand.h"

#include "doctor/Doctor.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <cstdio>

namespace cohort {

namespace {
QByteArray label(DoctorOutcome outcome)
{
    switch (outcome) {
    case DoctorOutcome::Ok: return "ok     ";
    case DoctorOutcome::Warning: return "WARNING";
    case DoctorOutcome::Failed: return "FAILED ";
    case DoctorOutcome::Skipped: return "skipped";
    }
    return "?      ";
}

void printText(const DoctorReport &report)
{
    const int failed = report.count(DoctorOutcome::Failed);
    const int warnings = report.count(DoctorOutcome::Warning);
    std::printf("Cohort doctor: %s (%d checks)\n",
                failed == 0 && warnings == 0
                    ? "nothing to fix"
                    : qPrintable(QStringLiteral("%1 to fix, %2 to look at").arg(failed).arg(warnings)),
                int(report.findings.size()));
    for (const DoctorFinding &f : report.findings) {
        std::printf("  %s  %s: %s\n", label(f.outcome).constData(), qPrintable(f.title), qPrintable(f.detail));
        if (!f.fix.isEmpty() && (f.outcome == DoctorOutcome::Failed || f.outcome == DoctorOutcome::Warning))
            std::printf("           fix: %s\n", qPrintable(f.fix));
    }
}
} // namespace

int runDoctorCommand(const EngineOptions &options, bool json)
{
    Doctor doctor(DoctorOptions::fromEnvironment(options));
    DoctorReport report;
    QObject::connect(&doctor, &Doctor::finished, &doctor, [&report](const DoctorReport &r) {
        report = r;
        QCoreApplication::quit();
    });
    doctor.start();
    QCoreApplication::exec(); // every network check has its own timeout, so this ends
    if (json)
        std::printf("%s\n", QJsonDocument(report.toJson()).toJson(QJsonDocument::Compact).constData());
    else
        printText(report);
    std::fflush(stdout);
    return report.anyFailed() ? 1 : 0;
}

} // namespace cohort
