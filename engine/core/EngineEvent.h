#pragma once
// A discrete thing that happened in the engine, for the Activity log and cohortd's output.
#include <QDateTime>
#include <QJsonObject>
#include <QMetaType>
#include <QObject>
#include <QString>

namespace cohort {

struct EngineEvent {
    Q_GADGET // the severity's and the category's wire names come from their enumerators (core/EnumNames.h)
        public : enum class Severity {
            Info,
            Warning,
            Error
        };
    Q_ENUM(Severity)
    // What the event is about: the Activity log's filter, cohortd's line prefix and the control API's "category".
    // The wire names ("lifecycle", "rollouts", ...) are the enumerators in kebab case; renaming one changes what
    // scripts read (tst_enum_names pins them). categoryTitle() is the translated word people see.
    enum class Category {
        Lifecycle,  // start, stop, pause and resume, the node identity, fatal errors
        Hub,        // registration, heartbeats, the hub's answers
        Task,       // joining and leaving tasks
        Checkpoint, // policy downloads and the engine bundle
        Rollouts,   // PRIME-RL work: batches generated, submitted, accepted, refused
        Compute,    // the compute devices and their workers
        Gpu,        // GPU telemetry (NVML)
        Schedule,   // the scheduler's pauses, other programs in front
        Diloco,     // DiLoCo training and its collectives
        Earnings,   // the node's earnings
        Settings,   // options applied
        Update,     // a newer client release
        Control,    // the local control API
    };
    Q_ENUM(Category)
    QDateTime time;
    Severity severity = Severity::Info;
    Category category = Category::Lifecycle;
    QString message;
    // One of many of its kind (a batch accepted): the Activity log hides it unless asked, cohortd prints it only
    // with --verbose; the engine says what these add up to once a minute in an ordinary event.
    bool routine = false;

    static EngineEvent info(Category category, QString message);
    static EngineEvent routineInfo(Category category, QString message);
    static EngineEvent warning(Category category, QString message);
    static EngineEvent error(Category category, QString message);
    QJsonObject toJson() const;
    static QString severityName(Severity severity);
    static QString categoryName(Category category);  // "lifecycle", "rollouts", ...
    static QString categoryTitle(Category category); // for people, translated: "Lifecycle", "Rollouts", ...
};

// Call sites read EngineEvent::info(EventCategory::Hub, ...).
using EventCategory = EngineEvent::Category;

} // namespace cohort

Q_DECLARE_METATYPE(cohort::EngineEvent)
