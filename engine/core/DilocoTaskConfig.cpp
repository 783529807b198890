#include "core/DilocoTaskConfig.h"

#include "core/JsonReader.h"

namespace cohort {

QJsonObject DilocoTaskConfig::toJson() const
{
    return QJsonObject{
        {QStringLiteral("inner_steps"), innerSteps},
        {QStringLiteral("inner_learning_rate"), innerLearningRate},
        {QStringLiteral("inner_weight_decay"), innerWeightDecay},
        {QStringLiteral("outer_learning_rate"), outerLearningRate},
        {QStringLiteral("outer_momentum"), outerMomentum},
        {QStringLiteral("batch_size"), batchSize},
        {QStringLiteral("sequence_length"), sequenceLength},
        {QStringLiteral("quantization"), quantization},
        {QStringLiteral("seed"), QString::number(seed)},
        {QStringLiteral("min_ring_size"), minRingSize},
        {QStringLiteral("max_delta_norm"), maxDeltaNorm},
        {QStringLiteral("audit_rate"), auditRate},
        {QStringLiteral("audit_tolerance"), auditTolerance},
        {QStringLiteral("confirm_after_steps"), confirmAfterSteps},
        {QStringLiteral("link_protection"), linkProtection},
        {QStringLiteral("master_port"), int(masterPort)},
        {QStringLiteral("model"), model.toJson()},
    };
}

Expected<DilocoTaskConfig> DilocoTaskConfig::fromJson(const QJsonObject &json)
{
    JsonReader r(json, QStringLiteral("diloco"));
    DilocoTaskConfig c;
    c.innerSteps = int(r.optionalInteger(QStringLiteral("inner_steps"), c.innerSteps, 1, 100000));
    c.innerLearningRate = r.optionalNumber(QStringLiteral("inner_learning_rate"), c.innerLearningRate, 1e-8, 1);
    c.innerWeightDecay = r.optionalNumber(QStringLiteral("inner_weight_decay"), c.innerWeightDecay, 0, 1);
    c.outerLearningRate = r.optionalNumber(QStringLiteral("outer_learning_rate"), c.outerLearningRate, 1e-6, 10);
    c.outerMomentum = r.optionalNumber(QStringLiteral("outer_momentum"), c.outerMomentum, 0, 0.999);
    c.batchSize = int(r.optionalInteger(QStringLiteral("batch_size"), c.batchSize, 1, 4096));
    c.sequenceLength = int(r.optionalInteger(QStringLiteral("sequence_length"), c.sequenceLength, 2, 32768));
    c.quantization = r.optionalString(QStringLiteral("quantization"), c.quantization, 16);
    const QString seed = r.optionalString(QStringLiteral("seed"), QString::number(c.seed), 20);
    c.minRingSize = int(r.optionalInteger(QStringLiteral("min_ring_size"), c.minRingSize, 1, 1024));
    c.maxDeltaNorm = r.optionalNumber(QStringLiteral("max_delta_norm"), c.maxDeltaNorm, 0, 1e12);
    c.auditRate = r.optionalNumber(QStringLiteral("audit_rate"), c.auditRate, 0, 1);
    c.auditTolerance = r.optionalNumber(QStringLiteral("audit_tolerance"), c.auditTolerance, 0, 1);
    c.confirmAfterSteps =
        int(r.optionalInteger(QStringLiteral("confirm_after_steps"), c.confirmAfterSteps, 0, 1'000'000));
    c.linkProtection = r.optionalString(QStringLiteral("link_protection"), c.linkProtection, 16);
    c.masterPort = quint16(r.optionalInteger(QStringLiteral("master_port"), 0, 0, 65535));
    const auto model =
        RlModelShape::fromJson(r.optionalObject(QStringLiteral("model")), QStringLiteral("diloco model"), c.model);
    if (!r.ok())
        return fail(r.error());
    if (!model)
        return fail(model.error());
    c.model = *model;
    bool seedOk = false;
    c.seed = seed.toULongLong(&seedOk);
    if (!seedOk)
        return fail(QStringLiteral("diloco: field 'seed': expected an unsigned integer in a string"));
    if (c.quantization != QLatin1String("none") && c.quantization != QLatin1String("uint8") &&
        c.quantization != QLatin1String("uint16"))
        return fail(QStringLiteral("diloco: field 'quantization': expected none, uint8 or uint16"));
    if (c.linkProtection != QLatin1String("none") && c.linkProtection != QLatin1String("integrity") &&
        c.linkProtection != QLatin1String("encryption"))
        return fail(QStringLiteral("diloco: field 'link_protection': expected none, integrity or encryption"));
    if (c.sequenceLength > c.model.maxSeqLen)
        return fail(QStringLiteral("diloco: sequence_length %1 exceeds the model's max_seq_len %2")
                        .arg(c.sequenceLength)
                        .arg(c.model.maxSeqLen));
    // Hostile sizes: a task may not make every node allocate gigabytes for one batch.
    if (qint64(c.batchSize) * c.sequenceLength > 1'000'000)
        return fail(QStringLiteral("diloco: batch_size x sequence_length is too large"));
    return c;
}

} // namespace cohort
