#include "core/RlTaskConfig.h"

#include "core/JsonReader.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace cohort {

std::vector<std::string> RlTaskConfig::environmentIds() const
{
    std::vector<std::string> ids;
    for (const QString &id : environments)
        ids.push_back(id.toStdString());
    return ids;
}

QJsonObject RlTaskConfig::toJson() const
{
    return QJsonObject{
        {QStringLiteral("environments"), QJsonArray::fromStringList(environments)},
        {QStringLiteral("prompts_per_batch"), promptsPerBatch},
        {QStringLiteral("samples_per_prompt"), samplesPerPrompt},
        {QStringLiteral("max_new_tokens"), maxNewTokens},
        {QStringLiteral("temperature"), temperature},
        {QStringLiteral("top_p"), topP},
        {QStringLiteral("async_level"), asyncLevel},
        {QStringLiteral("batches_per_step"), batchesPerStep},
        {QStringLiteral("steps_per_version"), stepsPerVersion},
        {QStringLiteral("warmup_steps"), warmupSteps},
        {QStringLiteral("warmup_batch"), warmupBatch},
        {QStringLiteral("warmup_demonstrations"), warmupDemonstrations},
        {QStringLiteral("learning_rate"), learningRate},
        {QStringLiteral("warmup_learning_rate"), warmupLearningRate},
        {QStringLiteral("plausibility_margin"), plausibilityMargin},
        {QStringLiteral("sampling_tolerance"), samplingTolerance},
        {QStringLiteral("toploc"), toploc},
        {QStringLiteral("toploc_policy"),
         QJsonObject{{QStringLiteral("min_exp_matches"), toplocPolicy.minExpMatches},
                     {QStringLiteral("max_mantissa_mean"), toplocPolicy.maxMantissaMean},
                     {QStringLiteral("max_mantissa_median"), toplocPolicy.maxMantissaMedian},
                     {QStringLiteral("verify_fraction"), toplocPolicy.verifyFraction},
                     {QStringLiteral("flag_after_failures"), toplocPolicy.flagAfterFailures}}},
        {QStringLiteral("model"), model.toJson()},
    };
}

QJsonObject RlModelShape::toJson() const
{
    return QJsonObject{{QStringLiteral("d_model"), dModel},
                       {QStringLiteral("n_layers"), nLayers},
                       {QStringLiteral("n_heads"), nHeads},
                       {QStringLiteral("d_ff"), dFF},
                       {QStringLiteral("max_seq_len"), maxSeqLen}};
}

Expected<RlModelShape> RlModelShape::fromJson(const QJsonObject &json, const QString &context, RlModelShape defaults)
{
    JsonReader m(json, context);
    RlModelShape shape = defaults;
    shape.dModel = int(m.optionalInteger(QStringLiteral("d_model"), defaults.dModel, 8, 8192));
    shape.nLayers = int(m.optionalInteger(QStringLiteral("n_layers"), defaults.nLayers, 1, 128));
    shape.nHeads = int(m.optionalInteger(QStringLiteral("n_heads"), defaults.nHeads, 1, 128));
    shape.dFF = int(m.optionalInteger(QStringLiteral("d_ff"), defaults.dFF, 8, 65536));
    shape.maxSeqLen = int(m.optionalInteger(QStringLiteral("max_seq_len"), defaults.maxSeqLen, 8, 32768));
    if (!m.ok())
        return fail(m.error());
    if (shape.dModel % shape.nHeads != 0)
        return fail(QStringLiteral("%1: d_model %2 is not a multiple of n_heads %3")
                        .arg(context)
                        .arg(shape.dModel)
                        .arg(shape.nHeads));
    return shape;
}

Expected<RlTaskConfig> RlTaskConfig::fromJson(const QJsonObject &json)
{
    JsonReader r(json, QStringLiteral("rl"));
    RlTaskConfig c;
    const QJsonArray envs = r.optionalArray(QStringLiteral("environments"), 16);
    c.promptsPerBatch = int(r.optionalInteger(QStringLiteral("prompts_per_batch"), c.promptsPerBatch, 1, 256));
    c.samplesPerPrompt = int(r.optionalInteger(QStringLiteral("samples_per_prompt"), c.samplesPerPrompt, 2, 64));
    c.maxNewTokens = int(r.optionalInteger(QStringLiteral("max_new_tokens"), c.maxNewTokens, 1, 4096));
    c.temperature = r.optionalNumber(QStringLiteral("temperature"), c.temperature, 0.05, 10);
    c.topP = r.optionalNumber(QStringLiteral("top_p"), c.topP, 0.01, 1);
    c.asyncLevel = int(r.optionalInteger(QStringLiteral("async_level"), c.asyncLevel, 0, 64));
    c.batchesPerStep = int(r.optionalInteger(QStringLiteral("batches_per_step"), c.batchesPerStep, 1, 1024));
    c.stepsPerVersion = int(r.optionalInteger(QStringLiteral("steps_per_version"), c.stepsPerVersion, 1, 1024));
    c.warmupSteps = int(r.optionalInteger(QStringLiteral("warmup_steps"), c.warmupSteps, 0, 100000));
    c.warmupBatch = int(r.optionalInteger(QStringLiteral("warmup_batch"), c.warmupBatch, 1, 4096));
    c.warmupDemonstrations =
        int(r.optionalInteger(QStringLiteral("warmup_demonstrations"), c.warmupDemonstrations, 0, 1000000));
    c.learningRate = r.optionalNumber(QStringLiteral("learning_rate"), c.learningRate, 1e-8, 1);
    c.warmupLearningRate = r.optionalNumber(QStringLiteral("warmup_learning_rate"), c.warmupLearningRate, 1e-8, 1);
    c.toploc = r.optionalBool(QStringLiteral("toploc"), c.toploc);
    c.plausibilityMargin = r.optionalNumber(QStringLiteral("plausibility_margin"), c.plausibilityMargin, 0.01, 100);
    c.samplingTolerance = r.optionalNumber(QStringLiteral("sampling_tolerance"), c.samplingTolerance, 1e-9, 0.5);
    JsonReader t(r.optionalObject(QStringLiteral("toploc_policy")), QStringLiteral("rl toploc_policy"));
    RlToplocPolicy &tp = c.toplocPolicy;
    tp.minExpMatches = int(t.optionalInteger(QStringLiteral("min_exp_matches"), tp.minExpMatches, 1, 128));
    tp.maxMantissaMean = t.optionalNumber(QStringLiteral("max_mantissa_mean"), tp.maxMantissaMean, 0, 128);
    tp.maxMantissaMedian = t.optionalNumber(QStringLiteral("max_mantissa_median"), tp.maxMantissaMedian, 0, 128);
    tp.verifyFraction = t.optionalNumber(QStringLiteral("verify_fraction"), tp.verifyFraction, 0.01, 1);
    tp.flagAfterFailures =
        int(t.optionalInteger(QStringLiteral("flag_after_failures"), tp.flagAfterFailures, 1, 1000000));
    const auto model =
        RlModelShape::fromJson(r.optionalObject(QStringLiteral("model")), QStringLiteral("rl model"), c.model);
    if (!r.ok())
        return fail(r.error());
    if (!model)
        return fail(model.error());
    c.model = *model;
    if (!t.ok())
        return fail(t.error());
    static const QRegularExpression idRe(QStringLiteral("^[a-z0-9][a-z0-9-]{0,31}$"));
    for (const QJsonValue &v : envs) {
        if (!v.isString() || !idRe.match(v.toString()).hasMatch())
            return fail(QStringLiteral("rl: field 'environments': every entry must be an environment id"));
        c.environments.append(v.toString());
    }
    if (c.environments.isEmpty())
        return fail(QStringLiteral("rl: field 'environments': at least one environment is needed"));
    if (c.maxNewTokens + 32 > c.model.maxSeqLen)
        return fail(QStringLiteral("rl: max_new_tokens %1 leaves no room for a prompt in max_seq_len %2")
                        .arg(c.maxNewTokens)
                        .arg(c.model.maxSeqLen));
    return c;
}

} // namespace cohort
