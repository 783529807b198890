#pragma once
// Writes a real safetensors checkpoint of about `bytes` bytes of random (seeded) weights, for SHARDCAST tests.
// Needs cohort_safetensors linked.
#include "store/safetensors/Safetensors.h"

#include <QByteArray>
#include <QFile>
#include <QRandomGenerator>
#include <QString>

namespace cohort::test {

inline QString writeTestCheckpoint(const QString &path, qint64 bytes, quint32 seed)
{
    const qint64 elements = std::max<qint64>(1, bytes / 4);
    safetensors::TensorData weights;
    weights.name = "model.weights";
    weights.dtype = safetensors::DType::F32;
    weights.shape = {elements};
    weights.bytes.resize(size_t(elements * 4));
    QRandomGenerator gen(seed);
    gen.fillRange(reinterpret_cast<quint32 *>(weights.bytes.data()), qsizetype(elements));
    const std::string error =
        safetensors::writeFile(path.toStdString(), {weights}, {{"cohort.config", "{\"test\":true}"}});
    return QString::fromStdString(error);
}

inline QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace cohort::test
