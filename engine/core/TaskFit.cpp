#include "core/TaskFit.h"

#include "core/MemoryBudget.h"

#include <QCoreApplication>
#include <algorithm>

namespace cohort {

namespace {
constexpr qint64 kMiB = 1024 * 1024;
constexpr int kVocabulary = 259; // the byte-level tokenizer: 256 bytes + BOS, EOS, PAD

QString gigabytes(qint64 mb)
{
    return QString::number(double(mb) / 1024.0, 'f', mb % 1024 == 0 ? 0 : 1);
}
} // namespace

double flopsPerToken(const RlModelShape &m)
{
    const double d = m.dModel, layers = m.nLayers, ff = m.dFF;
    const double perLayer = 4 * d * d + 2 * d * ff; // fused QKV + output projection, two MLP matrices
    const double parameters = layers * perLayer + 2 * kVocabulary * d + m.maxSeqLen * d;
    return 2 * parameters;
}

QString TaskFit::summary() const
{
    if (!canRun)
        return QCoreApplication::translate("TaskFit", "Cannot run: %1").arg(reasons.join(QStringLiteral("; ")));
    if (creditsPerHour)
        return QCoreApplication::translate("TaskFit", "Fits: about %1 credits/h (%2 tokens/s)")
            .arg(*creditsPerHour, 0, 'f', *creditsPerHour < 10 ? 2 : 0)
            .arg(*tokensPerSecond, 0, 'f', 0);
    return QCoreApplication::translate("TaskFit", "Fits (speed not measured yet)");
}

TaskFit assessTask(const TaskInfo &task, const EngineSnapshot &s)
{
    TaskFit fit;
    const TaskRequirements &r = task.requirements;
    if (!task.isRunnableKind())
        fit.reasons.append(
            QCoreApplication::translate("TaskFit", "this version of Cohort cannot run %1 tasks yet").arg(task.kind));
    if (s.system.cpuCores > 0 && s.system.cpuCores < r.minCpuCores)
        fit.reasons.append(QCoreApplication::translate("TaskFit", "needs %1 CPU cores, this computer has %2")
                               .arg(r.minCpuCores)
                               .arg(s.system.cpuCores));
    if (s.system.memTotalBytes > 0 && r.minRamMb > 0 && s.system.memTotalBytes < r.minRamMb * kMiB)
        fit.reasons.append(QCoreApplication::translate("TaskFit", "needs %1 GB of memory, this computer has %2")
                               .arg(gigabytes(r.minRamMb), gigabytes(s.system.memTotalBytes / kMiB)));
    qint64 largestVram = 0;
    for (const GpuSample &g : s.gpus)
        largestVram = std::max(largestVram, g.memoryTotalBytes.value_or(0));
    if (r.gpuRequired && s.gpus.isEmpty())
        fit.reasons.append(QCoreApplication::translate("TaskFit", "needs an NVIDIA GPU"));
    else if (r.minVramMb > 0 && !s.gpus.isEmpty() && largestVram < r.minVramMb * kMiB)
        fit.reasons.append(
            QCoreApplication::translate("TaskFit", "needs %1 GB of GPU memory, the largest GPU here has %2")
                .arg(gigabytes(r.minVramMb), gigabytes(largestVram / kMiB)));
    // On a GPU, the policy and its batch must fit in the share of memory the user allows.
    if (task.rl && s.gpuMemoryBudgetBytes > 0)
        if (const QString why = whyItDoesNotFit(generationFootprint(task.rl->model), s.gpuMemoryBudgetBytes);
            !why.isEmpty())
            fit.reasons.append(why);
    fit.canRun = fit.reasons.isEmpty();
    if (!fit.canRun || task.kind != QLatin1String("rl") || !task.rl)
        return fit;
    // A measured speed on the task in hand, scaled to this task's policy by compute per token.
    const double measured = s.rollouts.tokensPerSecond;
    const TaskInfo *current = nullptr;
    for (const TaskInfo &t : s.tasks)
        if (t.id == s.joinedTaskId)
            current = &t;
    if (measured > 0 && current && current->rl) {
        fit.tokensPerSecond = measured * flopsPerToken(current->rl->model) / flopsPerToken(task.rl->model);
        fit.creditsPerHour = *fit.tokensPerSecond * 3600.0 / 1000.0 * task.rewardRate;
    }
    return fit;
}

QString automaticTaskChoice(const QList<TaskInfo> &tasks, const EngineSnapshot &snapshot, QString *whyNone)
{
    QStringList reasons;
    for (const TaskInfo &task : tasks) {
        const TaskFit fit = assessTask(task, snapshot);
        if (fit.canRun)
            return task.id;
        reasons.append(QStringLiteral("%1: %2").arg(task.id, fit.reasons.join(QStringLiteral(", "))));
    }
    if (whyNone)
        *whyNone = tasks.isEmpty() ? QStringLiteral("the hub offers no tasks") : reasons.join(QStringLiteral("; "));
    return {};
}

} // namespace cohort
