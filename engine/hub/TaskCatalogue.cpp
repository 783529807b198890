#include "hub/TaskCatalogue.h"

#include "core/JsonReader.h"

#include <QFile>
#include <QJsonArray>

// Q_INIT_RESOURCE must be used outside any namespace. The catalogue resource lives in a static library.
static void initHubCatalogueResource()
{
    Q_INIT_RESOURCE(hub_catalogue);
}

namespace cohort {

namespace {
constexpr qint64 kMaxCatalogueBytes = 4 << 20;
} // namespace

Expected<TaskCatalogue> TaskCatalogue::fromJson(const QByteArray &json)
{
    auto object = parseJsonObject(json, kMaxCatalogueBytes);
    if (!object)
        return fail(QStringLiteral("task catalogue: ") + object.error());
    auto tasks = parseTaskList(*object);
    if (!tasks)
        return fail(tasks.error());
    TaskCatalogue c;
    c.m_tasks = std::move(tasks).value();
    // The hub runs what it offers: an RL task needs its environments and schedule.
    for (const TaskInfo &t : c.m_tasks)
        if (t.kind == QLatin1String("rl") && !t.rl)
            return fail(QStringLiteral("task catalogue: task %1 of kind rl has no 'rl' section").arg(t.id));
    return c;
}

Expected<TaskCatalogue> TaskCatalogue::loadFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read the task catalogue %1: %2").arg(path, file.errorString()));
    if (file.size() > kMaxCatalogueBytes)
        return fail(QStringLiteral("the task catalogue %1 is larger than 4 MiB").arg(path));
    auto catalogue = fromJson(file.readAll());
    if (!catalogue)
        return fail(path + QStringLiteral(": ") + catalogue.error());
    return catalogue;
}

Expected<TaskCatalogue> TaskCatalogue::loadDefault()
{
    initHubCatalogueResource();
    return loadFile(QStringLiteral(":/cohort/hub/default-tasks.json"));
}

void TaskCatalogue::setDilocoMasterPort(const QString &id, quint16 port)
{
    for (TaskInfo &t : m_tasks)
        if (t.id == id && t.diloco)
            t.diloco->masterPort = port;
}

void TaskCatalogue::setDilocoMinRingSize(int size)
{
    for (TaskInfo &t : m_tasks)
        if (t.diloco)
            t.diloco->minRingSize = size;
}

const TaskInfo *TaskCatalogue::find(const QString &id) const
{
    for (const TaskInfo &t : m_tasks)
        if (t.id == id)
            return &t;
    return nullptr;
}

QJsonObject TaskCatalogue::toJson() const
{
    QJsonArray array;
    for (const TaskInfo &t : m_tasks)
        array.append(t.toJson());
    return QJsonObject{{QStringLiteral("tasks"), array}};
}

} // namespace cohort
