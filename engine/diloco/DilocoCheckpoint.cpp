#include "diloco/DilocoCheckpoint.h"

#include "core/JsonReader.h"
#include "store/EngineBundle.h"

#include <QDateTime>
#include <cstring>

namespace cohort::diloco {

namespace {

QByteArray floatsBlob(const std::vector<float> &values)
{
    return QByteArray(reinterpret_cast<const char *>(values.data()), qsizetype(values.size() * sizeof(float)));
}

// Little-endian float32 is the only layout we write (every supported platform); the count is checked first.
bool blobToFloats(const EngineBundle &bundle, const QString &name, size_t count, std::vector<float> *out)
{
    for (const EngineBundle::Blob &blob : bundle.blobs) {
        if (blob.name != name)
            continue;
        if (size_t(blob.data.size()) != count * sizeof(float))
            return false;
        out->resize(count);
        std::memcpy(out->data(), blob.data.constData(), count * sizeof(float));
        return true;
    }
    return false;
}

} // namespace

EngineBundle DilocoCheckpoint::toBundle() const
{
    EngineBundle bundle;
    bundle.writtenAtMs = QDateTime::currentMSecsSinceEpoch();
    bundle.state = QJsonObject{
        {QStringLiteral("kind"), QStringLiteral("diloco")},
        {QStringLiteral("task"), taskId},
        {QStringLiteral("outer_step"), qint64(outerStep)},
        {QStringLiteral("inner_step"), innerStep},
        {QStringLiteral("adam_step"), qint64(adam.step)},
        {QStringLiteral("weights"), qint64(global.size())},
        {QStringLiteral("last_loss"), lastLoss},
    };
    bundle.blobs = {
        {QStringLiteral("global.f32"), floatsBlob(global)}, {QStringLiteral("momentum.f32"), floatsBlob(momentum)},
        {QStringLiteral("local.f32"), floatsBlob(local)},   {QStringLiteral("adam_m.f32"), floatsBlob(adam.m)},
        {QStringLiteral("adam_v.f32"), floatsBlob(adam.v)},
    };
    return bundle;
}

Expected<DilocoCheckpoint> DilocoCheckpoint::fromBundle(const EngineBundle &bundle, const QString &taskId,
                                                        size_t weightCount)
{
    JsonReader r(bundle.state, QStringLiteral("diloco checkpoint"));
    const QString kind = r.optionalString(QStringLiteral("kind"));
    DilocoCheckpoint c;
    c.taskId = r.optionalString(QStringLiteral("task"));
    c.outerStep = quint64(r.optionalInteger(QStringLiteral("outer_step"), 0, 0, qint64(1) << 53));
    c.innerStep = int(r.optionalInteger(QStringLiteral("inner_step"), 0, 0, 100000));
    c.adam.step = quint64(r.optionalInteger(QStringLiteral("adam_step"), 0, 0, qint64(1) << 53));
    const qint64 weights = r.optionalInteger(QStringLiteral("weights"), -1, -1, qint64(1) << 40);
    c.lastLoss = r.optionalNumber(QStringLiteral("last_loss"), 0, 0, 1e6);
    if (!r.ok())
        return fail(r.error());
    if (kind != QLatin1String("diloco"))
        return fail(QStringLiteral("not a DiLoCo checkpoint"));
    if (c.taskId != taskId)
        return fail(QStringLiteral("checkpoint of task '%1', not '%2'").arg(c.taskId, taskId));
    if (weights != qint64(weightCount))
        return fail(
            QStringLiteral("checkpoint for a model of %1 weights, this task's has %2").arg(weights).arg(weightCount));
    if (!blobToFloats(bundle, QStringLiteral("global.f32"), weightCount, &c.global) ||
        !blobToFloats(bundle, QStringLiteral("momentum.f32"), weightCount, &c.momentum) ||
        !blobToFloats(bundle, QStringLiteral("local.f32"), weightCount, &c.local) ||
        !blobToFloats(bundle, QStringLiteral("adam_m.f32"), weightCount, &c.adam.m) ||
        !blobToFloats(bundle, QStringLiteral("adam_v.f32"), weightCount, &c.adam.v))
        return fail(QStringLiteral("checkpoint: a tensor is missing or has the wrong size"));
    return c;
}

} // namespace cohort::diloco
