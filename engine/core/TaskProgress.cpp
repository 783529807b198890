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

// "held_out_loss" of a DiLoCo task's progress reply, into `progress`; absent is no error.
Status parseHeldOutLoss(const QJsonObject &reply, TaskProgress &progress)
{
    if (!reply.contains(QStringLiteral("held_out_loss")))
        return {};
    const QJsonValue value = reply.value(QStringLiteral("held_out_loss"));
    if (!value.isObject())
        return fail(QStringLiteral("held_out_loss is not an object"));
    const QJsonObject o = value.toObject();
    const QJsonValue sequences = o.value(QStringLiteral("sequences"));
    const double n = sequences.toDouble(-1);
    if (!sequences.isDouble() || n != std::floor(n) || n < 0 || n > 1'000'000)
        return fail(QStringLiteral("held_out_loss.sequences is not a count"));
    progress.lossSequences = int(n);
    const QJsonValue better = o.value(QStringLiteral("better"));
    if (!better.isString() && !better.isUndefined())
        return fail(QStringLiteral("held_out_loss.better is not text"));
    progress.lossBetter = better.toString();
    if (progress.lossBetter.size() > 400)
        return fail(QStringLiteral("held_out_loss.better is longer than 400 characters"));
    const QJsonValue pointsValue = o.value(QStringLiteral("points"));
    if (!pointsValue.isArray())
        return fail(QStringLiteral("held_out_loss.points is not a list"));
    const QJsonArray points = pointsValue.toArray();
    if (points.size() > kMaxHeldOutPoints)
        return fail(QStringLiteral("held_out_loss.points has %1 points (at most %2)").arg(points.size()).arg(kMaxHeldOutPoints));
    double previous = -1;
    for (qsizetype i = 0; i < points.size(); ++i) {
        const QJsonObject point = points.at(i).toObject();
        const QJsonValue revision = point.value(QStringLiteral("revision")), loss = point.value(QStringLiteral("loss"));
        const double r = revision.toDouble(-1);
        // 2^53: where a JSON number stops holding every integer
        if (!revision.isDouble() || r != std::floor(r) || r <= previous || r > 9007199254740992.0)
            return fail(QStringLiteral("held_out_loss.points[%1]: the revision is not a number above the one before").arg(i));
        previous = r;
        const double l = loss.toDouble(-1);
        if (!loss.isDouble() || !std::isfinite(l) || l < 0 || l > 100)
            return fail(QStringLiteral("held_out_loss.points[%1] (revision %2): the loss is missing or outside [0, 100]")
                            .arg(i)
                            .arg(qint64(r)));
        progress.heldOutLoss.append({qint64(r), l});
    }
    return {};
}

} // namespace

Expected<TaskProgress> parseTaskProgress(const QJsonObject &reply, const QString &taskId)
{
    TaskProgress progress;
    progress.taskId = taskId;
    if (Status s = parseHeldOutLoss(reply, progress); !s)
        return fail(s.error());
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
    QJsonArray losses;
    for (const HeldOutLossPoint &p : heldOutLoss)
        losses.append(QJsonObject{{QStringLiteral("revision"), p.revision}, {QStringLiteral("loss"), p.loss}});
    return QJsonObject{{QStringLiteral("task"), taskId},
                       {QStringLiteral("problems"), problems},
                       {QStringLiteral("better"), better},
                       {QStringLiteral("held_out"), curve},
                       {QStringLiteral("loss_sequences"), lossSequences},
                       {QStringLiteral("loss_better"), lossBetter},
                       {QStringLiteral("held_out_loss"), losses}};
}

} // namespace cohort
