#include "hub/RolloutIntake.h"

#include "core/JsonReader.h"
#include "rl/Tokenizer.h"
#include "rl/WorkSampling.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>

namespace cohort {

namespace {
constexpr double kRewardTolerance = 1e-6;

IntakeResult reject(const QString &code, const QString &message)
{
    IntakeResult r;
    r.code = code;
    r.message = message;
    return r;
}

} // namespace

QString submissionIdOf(const QJsonObject &body)
{
    static const QRegularExpression re(QStringLiteral("^s-[0-9a-f]{32}$"));
    const QString id = body.value(QStringLiteral("submission_id")).toString();
    return re.match(id).hasMatch() ? id : QString();
}

IntakeResult checkSubmission(const QJsonObject &body, const QString &nodeId, const TaskInfo &task,
                             const std::optional<WorkRecord> &work, int latestVersion, bool resuming)
{
    const RlTaskConfig &cfg = *task.rl;
    JsonReader r(body, QStringLiteral("submission"));
    const QString workId = r.string(QStringLiteral("work_id"), 64);
    const int version = int(r.integer(QStringLiteral("version"), 1, 1 << 30));
    const QJsonArray groups = r.optionalArray(QStringLiteral("groups"), 1024);
    if (!r.ok())
        return reject(QStringLiteral("malformed"), r.error());
    if (submissionIdOf(body).isEmpty())
        return reject(QStringLiteral("malformed"),
                      QStringLiteral("field 'submission_id': expected \"s-\" and 32 hex digits"));
    if (!work || work->workId != workId)
        return reject(QStringLiteral("unknown_work"), QStringLiteral("no work item '%1'").arg(workId));
    if (work->nodeId != nodeId)
        return reject(QStringLiteral("not_your_work"),
                      QStringLiteral("work item %1 was issued to another node").arg(workId));
    if (work->taskId != task.id)
        return reject(QStringLiteral("wrong_task"),
                      QStringLiteral("work item %1 belongs to task %2").arg(workId, work->taskId));
    if (work->status != QLatin1String("open") && !resuming)
        return reject(QStringLiteral("work_already_submitted"),
                      QStringLiteral("work item %1 was already submitted").arg(workId));
    if (version > latestVersion)
        return reject(
            QStringLiteral("unknown_version"),
            QStringLiteral("version %1 has not been published (latest is %2)").arg(version).arg(latestVersion));
    if (version < latestVersion - cfg.asyncLevel && !resuming)
        return reject(
            QStringLiteral("stale_version"),
            QStringLiteral(
                "rollouts from version %1 are too old: the latest is %2 and at most %3 versions behind are accepted")
                .arg(version)
                .arg(latestVersion)
                .arg(cfg.asyncLevel));

    const std::vector<rl::Problem> problems =
        rl::problemsForWork(cfg.environmentIds(), work->seed, cfg.promptsPerBatch);
    if (int(problems.size()) != cfg.promptsPerBatch)
        return reject(QStringLiteral("task_misconfigured"),
                      QStringLiteral("the task's environments produce no problems"));
    if (groups.size() != cfg.promptsPerBatch)
        return reject(QStringLiteral("wrong_shape"),
                      QStringLiteral("expected %1 groups, got %2").arg(cfg.promptsPerBatch).arg(groups.size()));

    ValidatedBatch batch;
    batch.nodeId = nodeId;
    batch.taskId = task.id;
    batch.workId = workId;
    batch.workSeed = work->seed;
    batch.version = version;
    batch.submissionId = submissionIdOf(body);
    double rewardSum = 0;
    int sampleCount = 0;
    for (qsizetype g = 0; g < groups.size(); ++g) {
        const QString where = QStringLiteral("group %1").arg(g);
        if (!groups[g].isObject())
            return reject(QStringLiteral("malformed"), where + QStringLiteral(": expected an object"));
        JsonReader gr(groups[g].toObject(), where);
        const QString prompt = gr.string(QStringLiteral("prompt"), 512);
        const QJsonArray samples = gr.optionalArray(QStringLiteral("samples"), 256);
        if (!gr.ok())
            return reject(QStringLiteral("malformed"), gr.error());
        const rl::Problem &problem = problems[size_t(g)];
        if (prompt.toStdString() != problem.prompt)
            return reject(QStringLiteral("wrong_prompt"),
                          where + QStringLiteral(": the prompt is not the one the work item's seed gives ('%1')")
                                      .arg(prompt.left(40)));
        if (samples.size() != cfg.samplesPerPrompt)
            return reject(
                QStringLiteral("wrong_shape"),
                where + QStringLiteral(": expected %1 samples, got %2").arg(cfg.samplesPerPrompt).arg(samples.size()));
        RolloutGroupData group;
        group.problem = problem;
        group.promptTokens = rl::promptTokens(problem);
        std::vector<double> rewards;
        for (qsizetype s = 0; s < samples.size(); ++s) {
            const QString at = where + QStringLiteral(" sample %1").arg(s);
            if (!samples[s].isObject())
                return reject(QStringLiteral("malformed"), at + QStringLiteral(": expected an object"));
            JsonReader sr(samples[s].toObject(), at);
            // Read up to a generous bound first, so "too long" is told apart from "not an array".
            const QJsonArray tokens = sr.optionalArray(QStringLiteral("tokens"), 1 << 16);
            const double claimed = sr.number(QStringLiteral("reward"), -1e6, 1e6);
            if (!sr.ok())
                return reject(QStringLiteral("malformed"), sr.error());
            if (tokens.isEmpty())
                return reject(QStringLiteral("malformed"), at + QStringLiteral(": no tokens"));
            if (tokens.size() > cfg.maxNewTokens)
                return reject(
                    QStringLiteral("too_long"),
                    at + QStringLiteral(": %1 tokens, the limit is %2").arg(tokens.size()).arg(cfg.maxNewTokens));
            RolloutSampleData sample;
            std::string text;
            for (qsizetype t = 0; t < tokens.size(); ++t) {
                const QJsonValue v = tokens[t];
                const double d = v.toDouble(-1);
                const bool isInt = v.isDouble() && d == std::floor(d);
                const int id = isInt && d >= 0 && d < rl::ByteTokenizer::kVocabSize ? int(d) : -1;
                const bool last = t == tokens.size() - 1;
                if (id < 0 || id == rl::ByteTokenizer::kBos || id == rl::ByteTokenizer::kPad ||
                    (id == rl::ByteTokenizer::kEos && !last))
                    return reject(QStringLiteral("bad_token"),
                                  at + QStringLiteral(": token %1 is not a valid completion id").arg(t));
                sample.tokens.push_back(id);
                if (id == rl::ByteTokenizer::kEos)
                    sample.finished = true;
                else
                    text.push_back(char(id));
            }
            if (cfg.toploc) {
                // The proof's shape is checked here (cheap); whether it matches the model is the trainer's job.
                const QJsonValue proof = samples[s].toObject().value(QStringLiteral("proof"));
                const auto bytes = QByteArray::fromBase64Encoding(proof.toString().toLatin1(),
                                                                  QByteArray::AbortOnBase64DecodingErrors);
                if (!proof.isString() || !bytes)
                    return reject(QStringLiteral("bad_proof"),
                                  at + QStringLiteral(": field 'proof': expected base64 TOPLOC proofs"));
                auto decoded = toploc::decode(std::string_view(bytes.decoded.constData(), size_t(bytes.decoded.size())),
                                              toploc::chunkCount(sample.tokens.size()));
                if (!decoded)
                    return reject(QStringLiteral("bad_proof"),
                                  at + QStringLiteral(": ") + QString::fromStdString(decoded.error));
                sample.proofs = std::move(*decoded.value);
            }
            const rl::Environment *env = rl::findEnvironment(problem.environment);
            sample.reward = env->score(problem, text, sample.finished).total;
            if (!std::isfinite(claimed) || std::abs(claimed - sample.reward) > kRewardTolerance)
                return reject(
                    QStringLiteral("reward_mismatch"),
                    at + QStringLiteral(": claimed reward %1, the hub computes %2").arg(claimed).arg(sample.reward));
            rewards.push_back(sample.reward);
            rewardSum += sample.reward;
            ++sampleCount;
            batch.tokens += qint64(sample.tokens.size());
            group.samples.push_back(std::move(sample));
        }
        const std::vector<double> advantages = rl::groupAdvantages(rewards);
        bool signal = false;
        for (size_t i = 0; i < advantages.size(); ++i) {
            group.samples[i].advantage = advantages[i];
            signal = signal || advantages[i] != 0;
        }
        // Credit: distinct completions of a group with a learning signal (verifiable sampling makes each row's
        // tokens the work item's, so a node can neither copy a completion nor choose which ones it submits).
        std::vector<const std::vector<int32_t> *> seen;
        for (const RolloutSampleData &sample : group.samples) {
            const bool copy = std::any_of(seen.begin(), seen.end(), [&](const auto *t) { return *t == sample.tokens; });
            if (copy) {
                ++batch.duplicateSamples;
                continue;
            }
            seen.push_back(&sample.tokens);
            if (signal)
                batch.creditedTokens += qint64(sample.tokens.size());
        }
        batch.signalGroups += signal ? 1 : 0;
        batch.groups.push_back(std::move(group));
    }
    batch.meanReward = sampleCount ? rewardSum / sampleCount : 0;
    IntakeResult ok;
    ok.batch = std::move(batch);
    return ok;
}

} // namespace cohort
