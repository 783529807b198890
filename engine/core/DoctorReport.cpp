#include "core/DoctorReport.h"

#include "core/EnumNames.h"

#include "core/JsonReader.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <algorithm>

namespace cohort {

namespace {
constexpr int kMaxTextLength = 2000;
}

QString doctorOutcomeName(DoctorOutcome outcome)
{
    const QString name = enumName(outcome);
    return name.isEmpty() ? QStringLiteral("failed") : name;
}

bool doctorOutcomeFromName(const QString &name, DoctorOutcome *out)
{
    const std::optional<DoctorOutcome> outcome = enumFromName<DoctorOutcome>(name);
    if (outcome)
        *out = *outcome;
    return outcome.has_value();
}

bool DoctorReport::anyFailed() const
{
    return count(DoctorOutcome::Failed) > 0;
}

int DoctorReport::count(DoctorOutcome outcome) const
{
    return int(std::count_if(findings.cbegin(), findings.cend(),
                             [outcome](const DoctorFinding &f) { return f.outcome == outcome; }));
}

QJsonObject DoctorReport::toJson() const
{
    QJsonArray items;
    for (const DoctorFinding &f : findings) {
        QJsonObject o{{QStringLiteral("id"), f.id},
                      {QStringLiteral("title"), f.title},
                      {QStringLiteral("outcome"), doctorOutcomeName(f.outcome)},
                      {QStringLiteral("detail"), f.detail}};
        if (!f.fix.isEmpty())
            o.insert(QStringLiteral("fix"), f.fix);
        items.append(o);
    }
    return {{QStringLiteral("findings"), items}, {QStringLiteral("failed"), anyFailed()}};
}

Expected<DoctorReport> parseDoctorReport(const QByteArray &json)
{
    auto object = parseJsonObject(json, kMaxDoctorReportBytes);
    if (!object)
        return fail(object.error());
    JsonReader top(*object);
    const QJsonArray items = top.optionalArray(QStringLiteral("findings"), kMaxDoctorFindings);
    if (!top.ok())
        return fail(top.error());
    if (!object->value(QStringLiteral("findings")).isArray())
        return fail(QStringLiteral("field 'findings': expected an array"));
    static const QRegularExpression idPattern(QStringLiteral("^[a-z0-9-]{1,32}$"));
    DoctorReport report;
    for (qsizetype i = 0; i < items.size(); ++i) {
        if (!items.at(i).isObject())
            return fail(QStringLiteral("finding %1: expected an object").arg(i));
        JsonReader r(items.at(i).toObject(), QStringLiteral("finding %1").arg(i));
        DoctorFinding f;
        f.id = r.string(QStringLiteral("id"), 32);
        f.title = r.string(QStringLiteral("title"), 200);
        const QString outcome = r.string(QStringLiteral("outcome"), 16);
        f.detail = r.string(QStringLiteral("detail"), kMaxTextLength);
        f.fix = r.optionalString(QStringLiteral("fix"), {}, kMaxTextLength);
        if (!r.ok())
            return fail(r.error());
        if (!idPattern.match(f.id).hasMatch())
            return fail(QStringLiteral("finding %1: field 'id': not a check id").arg(i));
        if (!doctorOutcomeFromName(outcome, &f.outcome))
            return fail(QStringLiteral("finding %1: field 'outcome': unknown outcome").arg(i));
        report.findings.append(f);
    }
    // "failed" is derived; a report that disagrees with its own findings was not written by cohortd.
    if (object->contains(QStringLiteral("failed")) &&
        object->value(QStringLiteral("failed")).toBool() != report.anyFailed())
        return fail(QStringLiteral("field 'failed' disagrees with the findings"));
    return report;
}

} // namespace cohort
