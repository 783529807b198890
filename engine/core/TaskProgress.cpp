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

// What both curves of a progress reply begin with: a count (`countKey`), what "better" means, and the list of points
// (`listKey`), each bounded; `section` names the object in the reasons.
struct CurveHeader {
    int count = 0;
    QString better;
    QJsonArray points;
};

Expected<CurveHeader> readCurveHeader(const QJsonObject &o, const QString &section, const QString &countKey,
                                      const QString &listKey)
{
    CurveHeader h;
    const QJsonValue count = o.value(countKey);
    const double n = count.toDouble(-1);
    if (!count.isDouble() || n != std::floor(n) || n < 0 || n > 1'000'000)
        return fail(QStringLiteral("%1.%2 is not a count").arg(section, countKey));
    h.count = int(n);
    const QJsonValue better = o.value(QStringLiteral("better"));
    if (!better.isString() && !better.isUndefined())
        return fail(QStringLiteral("%1.better is not text").arg(section));
    h.better = better.toString();
    if (h.better.size() > 400)
        return fail(QStringLiteral("%1.better is longer than 400 characters").arg(section));
    const QJsonValue list = o.value(listKey);
    if (!list.isArray())
        return fail(QStringLiteral("%1.%2 is not a list").arg(section, listKey));
    h.points = list.toArray();
    if (h.points.size() > kMaxHeldOutPoints)
        return fail(QStringLiteral("%1.%2 has %3 points (at most %4)")
                        .arg(section, listKey)
                        .arg(h.points.size())
                        .arg(kMaxHeldOutPoints));
    return h;
}

// "held_out_loss" of a DiLoCo task's progress reply, into `progress`; absent is no error.
Status parseHeldOutLoss(const QJsonObject &reply, TaskProgress &progress)
{
    if (!reply.contains(QStringLiteral("held_out_loss")))
        return {};
    const QJsonValue value = reply.value(QStringLiteral("held_out_loss"));
    if (!value.isObject())
        return fail(QStringLiteral("held_out_loss is not an object"));
    auto header = readCurveHeader(value.toObject(), QStringLiteral("held_out_loss"), QStringLiteral("sequences"),
                                  QStringLiteral("points"));
    if (!header)
        return fail(header.error());
    progress.lossSequences = header->count;
    progress.lossBetter = header->better;
    const QJsonArray &points = header->points;
    double previous = -1;
    for (qsizetype i = 0; i < points.size(); ++i) {
        const QJsonObject point = points.at(i).toObject();
        const QJsonValue revision = point.value(QStringLiteral("revision")), loss = point.value(QStringLiteral("loss"));
        const double r = revision.toDouble(-1);
        // 2^53: where a JSON number stops holding every integer
        if (!revision.isDouble() || r != std::floor(r) || r <= previous || r > 9007199254740992.0)
            return fail(
                QStringLiteral("held_out_loss.points[%1]: the revision is not a number above the one before").arg(i));
        previous = r;
        const double l = loss.toDouble(-1);
        if (!loss.isDouble() || !std::isfinite(l) || l < 0 || l > 100)
            return fail(
                QStringLiteral("held_out_loss.points[%1] (revision %2): the loss is missing or outside [0, 100]")
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
    auto header = readCurveHeader(heldOutValue.toObject(), QStringLiteral("held_out"), QStringLiteral("problems"),
                                  QStringLiteral("curve"));
    if (!header)
        return fail(header.error());
    progress.problems = header->count;
    progress.better = header->better;
    const QJsonArray &curve = header->points;
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
