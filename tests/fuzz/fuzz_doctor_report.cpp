// `cohortd --doctor --json` as the desktop app reads it (core/DoctorReport): another program's output, parsed
// strictly. What parses must keep the parser's promises (bounded, known outcomes, a "failed" that agrees) and
// survive a round trip unchanged.
#include "core/DoctorReport.h"

#include <QJsonDocument>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const auto report = cohort::parseDoctorReport(bytes);
    if (!report)
        return 0;
    if (report->findings.size() > cohort::kMaxDoctorFindings)
        __builtin_trap();
    for (const cohort::DoctorFinding &f : report->findings)
        if (f.id.isEmpty() || f.id.size() > 32 || f.detail.size() > 2000 || f.fix.size() > 2000)
            __builtin_trap();
    const auto again = cohort::parseDoctorReport(QJsonDocument(report->toJson()).toJson(QJsonDocument::Compact));
    if (!again || again->findings != report->findings)
        __builtin_trap();
    return 0;
}
