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
        {QStringLiteral("learning_rate"), learningRate},
        {QStringLiteral("warmup_learning_rate"), warmupLearningRate},
        {QStringLiteral("plausibility_margin"), plausibilityMargin},
        {QStringLiteral("toploc"), toploc},
        {QStringLiteral("toploc_policy"),
         QJsonObject{{QStringLiteral("min_exp_matches"), toplocPolicy.minExpMatches},
                     {QStringLiteral("max_mantissa_mean"), toplocPolicy.maxMantissaMean},
                     {QStringLiteral("max_mantissa_median"), toplocPolicy.maxMantissaMedian},
                     {QStringLiteral("verify_fraction"), toplocPolicy.verifyFraction},
                     {QStringLiteral("flag_after_failures"), toplocPolicy.flagAfterFailures}}},
        {QStringLiteral("model"),
         QJsonObject{{QStringLiteral("d_model"), model.dModel},
                     {QStringLiteral("n_layers"), model.nLayers},
                     {QStringLiteral("n_heads"), model.nHeads},
                     {QStringLiteral("d_ff"), model.dFF},
                     {QStringLiteral("max_seq_len"), model.maxSeqLen}}},
    };
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
    c.learningRate = r.optionalNumber(QStringLiteral("learning_rate"), c.learningRate, 1e-8, 1);
    c.warmupLearningRate = r.optionalNumber(QStringLiteral("warmup_learning_rate"), c.warmupLearningRate, 1e-8, 1);
    c.toploc = r.optionalBool(QStringLiteral("toploc"), c.toploc);
    c.plausibilityMargin = r.optionalNumber(QStringLiteral("plausibility_margin"), c.plausibilityMargin, 0.01, 100);
    JsonReader t(r.optionalObject(QStringLiteral("toploc_policy")), QStringLiteral("rl toploc_policy"));
    RlToplocPolicy &tp = c.toplocPolicy;
    tp.minExpMatches = int(t.optionalInteger(QStringLiteral("min_exp_matches"), tp.minExpMatches, 1, 128));
    tp.maxMantissaMean = t.optionalNumber(QStringLiteral("max_mantissa_mean"), tp.maxMantissaMean, 0, 128);
    tp.maxMantissaMedian = t.optionalNumber(QStringLiteral("max_mantissa_median"), tp.maxMantissaMedian, 0, 128);
    tp.verifyFraction = t.optionalNumber(QStringLiteral("verify_fraction"), tp.verifyFraction, 0.01, 1);
    tp.flagAfterFailures = int(t.optionalInteger(QStringLiteral("flag_after_failures"), tp.flagAfterFailures, 1, 1000000));
    JsonReader m(r.optionalObject(QStringLiteral("model")), QStringLiteral("rl model"));
    c.model.dModel = int(m.optionalInteger(QStringLiteral("d_model"), c.model.dModel, 8, 8192));
    c.model.nLayers = int(m.optionalInteger(QStringLiteral("n_layers"), c.model.nLayers, 1, 128));
    c.model.nHeads = int(m.optionalInteger(QStringLiteral("n_heads"), c.model.nHeads, 1, 128));
    c.model.dFF = int(m.optionalInteger(QStringLiteral("d_ff"), c.model.dFF, 8, 65536));
    c.model.maxSeqLen = int(m.optionalInteger(QStringLiteral("max_seq_len"), c.model.maxSeqLen, 8, 32768));
    if (!r.ok())
        return fail(r.error());
    if (!m.ok())
        return fail(m.error());
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
    if (c.model.dModel % c.model.nHeads != 0)
        return fail(QStringLiteral("rl model: d_model %1 is not a multiple of n_heads %2").arg(c.model.dModel).arg(c.model.nHeads));
    if (c.maxNewTokens + 32 > c.model.maxSeqLen)
        return fail(QStringLiteral("rl: max_new_tokens %1 leaves no room for a prompt in max_seq_len %2")
                        .arg(c.maxNewTokens).arg(c.model.maxSeqLen));
    return c;
}

} // namespace cohort
