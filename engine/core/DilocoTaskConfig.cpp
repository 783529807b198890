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
        {QStringLiteral("master_port"), int(masterPort)},
        {QStringLiteral("model"),
         QJsonObject{{QStringLiteral("d_model"), model.dModel},
                     {QStringLiteral("n_layers"), model.nLayers},
                     {QStringLiteral("n_heads"), model.nHeads},
                     {QStringLiteral("d_ff"), model.dFF},
                     {QStringLiteral("max_seq_len"), model.maxSeqLen}}},
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
    c.masterPort = quint16(r.optionalInteger(QStringLiteral("master_port"), 0, 0, 65535));
    JsonReader m(r.optionalObject(QStringLiteral("model")), QStringLiteral("diloco model"));
    c.model.dModel = int(m.optionalInteger(QStringLiteral("d_model"), c.model.dModel, 8, 8192));
    c.model.nLayers = int(m.optionalInteger(QStringLiteral("n_layers"), c.model.nLayers, 1, 128));
    c.model.nHeads = int(m.optionalInteger(QStringLiteral("n_heads"), c.model.nHeads, 1, 128));
    c.model.dFF = int(m.optionalInteger(QStringLiteral("d_ff"), c.model.dFF, 8, 65536));
    c.model.maxSeqLen = int(m.optionalInteger(QStringLiteral("max_seq_len"), c.model.maxSeqLen, 8, 32768));
    if (!r.ok())
        return fail(r.error());
    if (!m.ok())
        return fail(m.error());
    bool seedOk = false;
    c.seed = seed.toULongLong(&seedOk);
    if (!seedOk)
        return fail(QStringLiteral("diloco: field 'seed': expected an unsigned integer in a string"));
    if (c.quantization != QLatin1String("none") && c.quantization != QLatin1String("uint8")
        && c.quantization != QLatin1String("uint16"))
        return fail(QStringLiteral("diloco: field 'quantization': expected none, uint8 or uint16"));
    if (c.model.dModel % c.model.nHeads != 0)
        return fail(QStringLiteral("diloco model: d_model %1 is not a multiple of n_heads %2")
                        .arg(c.model.dModel).arg(c.model.nHeads));
    if (c.sequenceLength > c.model.maxSeqLen)
        return fail(QStringLiteral("diloco: sequence_length %1 exceeds the model's max_seq_len %2")
                        .arg(c.sequenceLength).arg(c.model.maxSeqLen));
    // Hostile sizes: a task may not make every node allocate gigabytes for one batch.
    if (qint64(c.batchSize) * c.sequenceLength > 1'000'000)
        return fail(QStringLiteral("diloco: batch_size x sequence_length is too large"));
    return c;
}

} // namespace cohort
