#include "core/EngineEvent.h"

#include "core/EnumNames.h"

#include <QCoreApplication>
#include <utility>

namespace cohort {

namespace {
EngineEvent make(EngineEvent::Severity severity, EngineEvent::Category category, QString message)
{
    EngineEvent e;
    e.time = QDateTime::currentDateTimeUtc();
    e.severity = severity;
    e.category = category;
    e.message = std::move(message);
    return e;
}
} // namespace

EngineEvent EngineEvent::info(Category category, QString message)
{
    return make(Severity::Info, category, std::move(message));
}

EngineEvent EngineEvent::routineInfo(Category category, QString message)
{
    EngineEvent e = make(Severity::Info, category, std::move(message));
    e.routine = true;
    return e;
}

EngineEvent EngineEvent::warning(Category category, QString message)
{
    return make(Severity::Warning, category, std::move(message));
}

EngineEvent EngineEvent::error(Category category, QString message)
{
    return make(Severity::Error, category, std::move(message));
}

QString EngineEvent::severityName(Severity severity)
{
    const QString name = enumName(severity);
    return name.isEmpty() ? QStringLiteral("info") : name;
}

QString EngineEvent::categoryName(Category category)
{
    const QString name = enumName(category);
    return name.isEmpty() ? QStringLiteral("lifecycle") : name;
}

QString EngineEvent::categoryTitle(Category category)
{
    static constexpr std::pair<Category, const char *> kTitles[] = {
        {Category::Lifecycle, QT_TRANSLATE_NOOP("EngineEvent", "Lifecycle")},
        {Category::Hub, QT_TRANSLATE_NOOP("EngineEvent", "Hub")},
        {Category::Task, QT_TRANSLATE_NOOP("EngineEvent", "Task")},
        {Category::Checkpoint, QT_TRANSLATE_NOOP("EngineEvent", "Checkpoint")},
        {Category::Rollouts, QT_TRANSLATE_NOOP("EngineEvent", "Rollouts")},
        {Category::Compute, QT_TRANSLATE_NOOP("EngineEvent", "Compute")},
        {Category::Gpu, QT_TRANSLATE_NOOP("EngineEvent", "GPU")},
        {Category::Schedule, QT_TRANSLATE_NOOP("EngineEvent", "Schedule")},
        {Category::Diloco, QT_TRANSLATE_NOOP("EngineEvent", "DiLoCo")},
        {Category::Earnings, QT_TRANSLATE_NOOP("EngineEvent", "Earnings")},
        {Category::Settings, QT_TRANSLATE_NOOP("EngineEvent", "Settings")},
        {Category::Update, QT_TRANSLATE_NOOP("EngineEvent", "Update")},
        {Category::Control, QT_TRANSLATE_NOOP("EngineEvent", "Control")},
    };
    for (const auto &[c, title] : kTitles)
        if (c == category)
            return QCoreApplication::translate("EngineEvent", title);
    return categoryName(category);
}

QJsonObject EngineEvent::toJson() const
{
    QJsonObject o{{QStringLiteral("time"), time.toString(Qt::ISODateWithMs)},
                  {QStringLiteral("severity"), severityName(severity)},
                  {QStringLiteral("category"), categoryName(category)},
                  {QStringLiteral("message"), message}};
    if (routine)
        o.insert(QStringLiteral("routine"), true);
    return o;
}

} // namespace cohort
