#pragma once
// A discrete thing that happened in the engine, for the Activity log and cohortd's output.
#include <QDateTime>
#include <QJsonObject>
#include <QMetaType>
#include <QString>

namespace cohort {

struct EngineEvent {
    enum class Severity { Info, Warning, Error };
    QDateTime time;
    Severity severity = Severity::Info;
    QString category; // "lifecycle", "hub", "task", "settings", ...
    QString message;

    static EngineEvent info(QString category, QString message);
    static EngineEvent warning(QString category, QString message);
    static EngineEvent error(QString category, QString message);
    QJsonObject toJson() const;
    static QString severityName(Severity severity);
};

} // namespace cohort

Q_DECLARE_METATYPE(cohort::EngineEvent)
