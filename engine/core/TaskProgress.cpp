#include "core/TaskProgress.h"

#include <QJsonArray>
#include <cmath>

namespace cohort {

namespace {

// A share in [0, 1] (a JSON number; anything else is refused).
bool share(const QJsonObject &o, const char *key, double *out)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (!v.isDouble())
        return false;
    *out = v.toDouble();
    return std::isfinite(*out) && *out >= 0 && *out <= 1;
}

} // namespace

Expected<TaskProgress> parseTaskProgress(const QJsonObject &reply, const QString &taskId)
{
    TaskProgress progress;
    progress.taskId = taskId;
    if (!reply.contains(QStringLiteral("held_out")))
        return progress;
    const QJsonValue heldOutValue = reply.value(QStringLiteral("held_out"));
    if (!heldOutValue.isObject())
        return fail(QStringLiteral("held_out is not an object"));
    const QJsonObject heldOut = heldOutValue.toObject();
    const QJsonValue problems = heldOut.value(QStringLiteral("problems"));
    if (!problems.isDouble() || problems.toDouble() != std::floor(problems.toDouble()) || problems.toDouble() < 0 ||
        problems.toDouble() > 1'000'000)
        return fail(QStringLiteral("held_out.problems is not a count"));
    progress.problems = problems.toInt();
    const QJsonValue better = heldOut.value(QStringLiteral("better"));
    if (!better.isString() && !better.isUndefined())
        return fail(QStringLiteral("held_out.better is not text"));
    progress.better = better.toString();
    if (progress.better.size() > 400)
        return fail(QStringLiteral("held_out.better is longer than 400 characters"));
    const QJsonValue curveValue = heldOut.value(QStringLiteral("curve"));
    if (!curveValue.isArray())
        return fail(QStringLiteral("held_out.curve is not a list"));
    const QJsonArray curve = curveValue.toArray();
    if (curve.size() > kMaxHeldOutPoints)
        return fail(QStringLiteral("held_out.curve has %1 points (at most %2)").arg(curve.size()).arg(kMaxHeldOutPoints));
    int previous = 0;
    for (qsizetype i = 0; i < curve.size(); ++i) {
        const QJsonObject point = curve.at(i).toObject();
        const QJsonValue version = point.value(QStringLiteral("version"));
        const double v = version.toDouble(-1);
        if (!version.isDouble() || v != std::floor(v) || v <= previous || v > 1e9)
            return fail(QStringLiteral("held_out.curve[%1]: the version is not a number above the one before").arg(i));
        HeldOutPoint p;
        p.version = int(v);
        previous = p.version;
        const QJsonObject greedy = point.value(QStringLiteral("greedy")).toObject();
        const QJsonObject sampled = point.value(QStringLiteral("sampled")).toObject();
        if (!share(greedy, "correctness", &p.greedyCorrectness) || !share(greedy, "format", &p.greedyFormat) ||
            !share(greedy, "reward", &p.greedyReward) || !share(sampled, "correctness", &p.sampledCorrectness) ||
            !share(sampled, "reward", &p.sampledReward))
            return fail(QStringLiteral("held_out.curve[%1] (version %2): a score is missing or outside [0, 1]")
                            .arg(i)
                            .arg(p.version));
        progress.heldOut.append(p);
    }
    return progress;
}

Expected<TaskContribution> parseTaskContribution(const QJsonObject &c, const QString &joinedTaskId)
{
    TaskContribution out;
    if (c.isEmpty())
        return out;
    const QJsonValue task = c.value(QStringLiteral("task")), accepted = c.value(QStringLiteral("accepted_batches")),
                     share = c.value(QStringLiteral("share")), rank = c.value(QStringLiteral("rank")),
                     contributors = c.value(QStringLiteral("contributors"));
    if (!task.isString() || task.toString() != joinedTaskId)
        return fail(QStringLiteral("contribution: about another task than the joined one"));
    const auto count = [](const QJsonValue &v, double max) {
        const double d = v.toDouble(-1);
        return v.isDouble() && d >= 0 && d <= max && d == std::floor(d);
    };
    if (!count(accepted, 1e15) || !count(rank, 1e9) || !count(contributors, 1e9))
        return fail(QStringLiteral("contribution: a count is missing, negative or not whole"));
    if (!share.isDouble() || !std::isfinite(share.toDouble()) || share.toDouble() < 0 || share.toDouble() > 1)
        return fail(QStringLiteral("contribution: the share is outside [0, 1]"));
    if (rank.toInt() > contributors.toInt() || (accepted.toDouble() > 0) != (rank.toInt() > 0))
        return fail(QStringLiteral("contribution: the rank does not fit the contributors or the batches"));
    out.taskId = joinedTaskId;
    out.acceptedBatches = qint64(accepted.toDouble());
    out.share = share.toDouble();
    out.rank = rank.toInt();
    out.contributors = contributors.toInt();
    return out;
}

QJsonObject TaskContribution::toJson() const
{
    return QJsonObject{{QStringLiteral("task"), taskId},
                       {QStringLiteral("accepted_batches"), acceptedBatches},
                       {QStringLiteral("share"), share},
                       {QStringLiteral("rank"), rank},
                       {QStringLiteral("contributors"), contributors}};
}

QJsonObject TaskProgress::toJson() const
{
    QJsonArray curve;
    for (const HeldOutPoint &p : heldOut)
        curve.append(QJsonObject{{QStringLiteral("version"), p.version},
                                 {QStringLiteral("greedy_correctness"), p.greedyCorrectness},
                                 {QStringLiteral("greedy_format"), p.greedyFormat},
                                 {QStringLiteral("greedy_reward"), p.greedyReward},
                                 {QStringLiteral("sampled_correctness"), p.sampledCorrectness},
                                 {QStringLiteral("sampled_reward"), p.sampledReward}});
    return QJsonObject{{QStringLiteral("task"), taskId},
                       {QStringLiteral("problems"), problems},
                       {QStringLiteral("better"), better},
                       {QStringLiteral("held_out"), curve}};
}

} // namespace cohort
