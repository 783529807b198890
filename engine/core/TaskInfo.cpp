#include "core/TaskInfo.h"

#include "core/JsonReader.h"

#include <QRegularExpression>

namespace cohort {

bool TaskInfo::isValidId(const QString &id)
{
    static const QRegularExpression re(QStringLiteral("^[a-z0-9][a-z0-9-]{0,63}$"));
    return re.match(id).hasMatch();
}

bool TaskInfo::isKnownKind(const QString &kind)
{
    return kind == QLatin1String("rl") || kind == QLatin1String("diloco");
}

QJsonObject TaskInfo::toJson() const
{
    QJsonObject json{
        {QStringLiteral("id"), id},
        {QStringLiteral("kind"), kind},
        {QStringLiteral("title"), title},
        {QStringLiteral("description"), description},
        {QStringLiteral("reward_rate"), rewardRate},
        {QStringLiteral("reward_unit"), rewardUnit},
        {QStringLiteral("requirements"), QJsonObject{{QStringLiteral("min_cpu_cores"), requirements.minCpuCores},
                                                     {QStringLiteral("min_ram_mb"), requirements.minRamMb},
                                                     {QStringLiteral("gpu_required"), requirements.gpuRequired},
                                                     {QStringLiteral("min_vram_mb"), requirements.minVramMb},
                                                     {QStringLiteral("disk_mb"), requirements.diskMb}}},
    };
    if (rl)
        json.insert(QStringLiteral("rl"), rl->toJson());
    if (diloco)
        json.insert(QStringLiteral("diloco"), diloco->toJson());
    return json;
}

Expected<TaskInfo> TaskInfo::fromJson(const QJsonObject &object, UnknownKinds unknownKinds)
{
    JsonReader r(object, QStringLiteral("task"));
    TaskInfo t;
    t.id = r.string(QStringLiteral("id"), 64);
    t.kind = r.string(QStringLiteral("kind"), 16);
    t.title = r.string(QStringLiteral("title"), 120);
    t.description = r.optionalString(QStringLiteral("description"), {}, 2000);
    t.rewardRate = r.number(QStringLiteral("reward_rate"), 0, 1e9);
    t.rewardUnit = r.optionalString(QStringLiteral("reward_unit"), QStringLiteral("credits"), 64);
    JsonReader req(r.optionalObject(QStringLiteral("requirements")), QStringLiteral("task requirements"));
    t.requirements.minCpuCores = int(req.optionalInteger(QStringLiteral("min_cpu_cores"), 1, 1, 4096));
    t.requirements.minRamMb = req.optionalInteger(QStringLiteral("min_ram_mb"), 0, 0, qint64(1) << 30);
    t.requirements.gpuRequired = req.optionalBool(QStringLiteral("gpu_required"), false);
    t.requirements.minVramMb = req.optionalInteger(QStringLiteral("min_vram_mb"), 0, 0, qint64(1) << 30);
    t.requirements.diskMb = req.optionalInteger(QStringLiteral("disk_mb"), 0, 0, qint64(1) << 40);
    if (!r.ok())
        return fail(r.error());
    if (!req.ok())
        return fail(req.error());
    if (!isValidId(t.id))
        return fail(QStringLiteral("task: id '%1' is not lower-case letters, digits and dashes").arg(t.id));
    if (!isKnownKind(t.kind)) {
        // Shown to people as it is, so it must look like a kind name even where it is kept.
        if (unknownKinds == UnknownKinds::Refuse || !isValidId(t.kind))
            return fail(QStringLiteral("task %1: unknown kind '%2'").arg(t.id, t.kind));
        return t;
    }
    if (object.contains(QStringLiteral("rl"))) {
        if (!object.value(QStringLiteral("rl")).isObject())
            return fail(QStringLiteral("task %1: field 'rl': expected an object").arg(t.id));
        auto rl = RlTaskConfig::fromJson(object.value(QStringLiteral("rl")).toObject());
        if (!rl)
            return fail(QStringLiteral("task %1: %2").arg(t.id, rl.error()));
        t.rl = *rl;
    }
    if (object.contains(QStringLiteral("diloco"))) {
        if (!object.value(QStringLiteral("diloco")).isObject())
            return fail(QStringLiteral("task %1: field 'diloco': expected an object").arg(t.id));
        auto diloco = DilocoTaskConfig::fromJson(object.value(QStringLiteral("diloco")).toObject());
        if (!diloco)
            return fail(QStringLiteral("task %1: %2").arg(t.id, diloco.error()));
        t.diloco = *diloco;
    } else if (t.kind == QLatin1String("diloco")) {
        t.diloco = DilocoTaskConfig{}; // the defaults: a catalogue entry may leave them out
    }
    return t;
}

Expected<QList<TaskInfo>> parseTaskList(const QJsonObject &object, UnknownKinds unknownKinds)
{
    JsonReader r(object, QStringLiteral("task list"));
    const QJsonArray array = r.optionalArray(QStringLiteral("tasks"), 1000);
    if (!r.ok())
        return fail(r.error());
    if (!object.contains(QStringLiteral("tasks")))
        return fail(QStringLiteral("task list: missing field 'tasks'"));
    QList<TaskInfo> tasks;
    for (const QJsonValue &v : array) {
        if (!v.isObject())
            return fail(QStringLiteral("task list: every entry must be an object"));
        auto task = TaskInfo::fromJson(v.toObject(), unknownKinds);
        if (!task)
            return fail(task.error());
        for (const TaskInfo &seen : tasks)
            if (seen.id == task->id)
                return fail(QStringLiteral("task list: duplicate id '%1'").arg(seen.id));
        tasks.append(std::move(task).value());
    }
    return tasks;
}

} // namespace cohort
