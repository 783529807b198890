#pragma once
// A discrete thing that happened in the engine, for the Activity log and cohortd's output.
#include <QDateTime>
#include <QJsonObject>
#include <QMetaType>
#include <QObject>
#include <QString>

namespace cohort {

struct EngineEvent {
    Q_GADGET // the severity's wire name comes from its enumerators (core/EnumNames.h)
        public : enum class Severity {
            Info,
            Warning,
            Error
        };
    Q_ENUM(Severity)
    QDateTime time;
    Severity severity = Severity::Info;
    QString category; // "lifecycle", "hub", "task", "settings", ...
    QString message;
    // One of many of its kind (a batch accepted): the Activity log hides it unless asked, cohortd prints it only
    // with --verbose; the engine says what these add up to once a minute in an ordinary event.
    bool routine = false;

    static EngineEvent info(QString category, QString message);
    static EngineEvent routineInfo(QString category, QString message);
    static EngineEvent warning(QString category, QString message);
    static EngineEvent error(QString category, QString message);
    QJsonObject toJson() const;
    static QString severityName(Severity severity);
};

} // namespace cohort

Q_DECLARE_METATYPE(cohort::EngineEvent)
