#include "core/EngineEvent.h"

#include "core/EnumNames.h"

namespace cohort {

namespace {
EngineEvent make(EngineEvent::Severity severity, QString category, QString message)
{
    EngineEvent e;
    e.time = QDateTime::currentDateTimeUtc();
    e.severity = severity;
    e.category = std::move(category);
    e.message = std::move(message);
    return e;
}
} // namespace

EngineEvent EngineEvent::info(QString category, QString message)
{
    return make(Severity::Info, std::move(category), std::move(message));
}

EngineEvent EngineEvent::routineInfo(QString category, QString message)
{
    EngineEvent e = make(Severity::Info, std::move(category), std::move(message));
    e.routine = true;
    return e;
}

EngineEvent EngineEvent::warning(QString category, QString message)
{
    return make(Severity::Warning, std::move(category), std::move(message));
}

EngineEvent EngineEvent::error(QString category, QString message)
{
    return make(Severity::Error, std::move(category), std::move(message));
}

QString EngineEvent::severityName(Severity severity)
{
    const QString name = enumName(severity);
    return name.isEmpty() ? QStringLiteral("info") : name;
}

QJsonObject EngineEvent::toJson() const
{
    QJsonObject o{{QStringLiteral("time"), time.toString(Qt::ISODateWithMs)},
                  {QStringLiteral("severity"), severityName(severity)},
                  {QStringLiteral("category"), category},
                  {QStringLiteral("message"), message}};
    if (routine)
        o.insert(QStringLiteral("routine"), true);
    return o;
}

} // namespace cohort
