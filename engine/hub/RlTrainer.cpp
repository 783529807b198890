#include "hub/RlTrainer.h"

#include "core/Logging.h"
#include "rl/OnPolicy.h"
#include "rl/Policy.h"
#include "rl/Tokenizer.h"
#include "rl/Trainer.h"
#include "rl/VerifiableSampling.h"
#include "rl/WorkSampling.h"
#include "toploc/Verify.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <cmath>

namespace cohort {

namespace {
rl::PolicyConfig policyConfigFor(const RlModelShape &shape)
{
    rl::PolicyConfig c;
    c.dModel = shape.dModel;
    c.nLayers = shape.nLayers;
    c.nHeads = shape.nHeads;
    c.dFF = shape.dFF;
    c.maxSeqLen = shape.maxSeqLen;
    return c;
}

rl::GrpoConfig grpoConfigFor(const RlTaskConfig &config, double learningRate)
{
    rl::GrpoConfig g;
    g.learningRate = float(learningRate);
    g.temperature = float(config.temperature);
    return g;
}

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

// Versions kept beyond the staleness window for batches still waiting in the trainer's queue.
constexpr int kVerificationSlack = 4;

// A single sample is refused only when its tokens average this many margins below their entropy.
constexpr double kSampleMarginFactor = 20;
} // namespace

RlTrainer::RlTrainer(QString taskId, RlTaskConfig config, QString stateDir, QObject *parent)
    : QObject(parent),
      m_taskId(std::move(taskId)),
      m_config(std::move(config)),
      m_stateDir(std::move(stateDir))
{}

RlTrainer::~RlTrainer() = default;

QString RlTrainer::versionPath(int version) const
{
    return QDir(m_stateDir).filePath(QStringLiteral("v%1.safetensors").arg(version));
}

void RlTrainer::bootstrap(int latestPublished)
{
    if (!QDir().mkpath(m_stateDir)) {
        Q_EMIT failed(m_taskId, QStringLiteral("cannot create the trainer folder %1").arg(m_stateDir));
        return;
    }
    // Resume from the newest own copy when there is one.
    int newest = 0;
    static const QRegularExpression re(QStringLiteral("^v(\\d+)\\.safetensors$"));
    for (const QString &name : QDir(m_stateDir).entryList({QStringLiteral("v*.safetensors")}, QDir::Files))
        if (auto m = re.match(name); m.hasMatch())
            newest = std::max(newest, m.captured(1).toInt());
    if (newest > 0) {
        auto loaded = rl::Policy::load(versionPath(newest).toStdString());
        if (loaded) {
            m_policy = std::make_unique<rl::Policy>(std::move(*loaded));
            m_trainer = std::make_unique<rl::Trainer>(*m_policy, grpoConfigFor(m_config, m_config.learningRate));
            if (newest == latestPublished) {
                auto copy = m_policy->clone();
                if (copy)
                    m_versions[newest] = std::make_unique<rl::Policy>(std::move(*copy));
                m_latestVersion = newest;
                m_ready = true;
                qCInfo(lcHub) << "trainer" << m_taskId << "resumed at version" << newest;
                Q_EMIT versionReady(m_taskId, versionPath(newest), newest,
                                    QStringLiteral("resumed at version %1").arg(newest));
                return;
            }
            // Our newest copy is not what the tree serves (the tree was reset): publish it as a new version.
            auto copy = m_policy->clone();
            m_unpublished = copy ? std::make_unique<rl::Policy>(std::move(*copy)) : nullptr;
            m_ready = true;
            m_publishing = true;
            Q_EMIT versionReady(m_taskId, versionPath(newest), 0,
                                QStringLiteral("republishing the trainer's version %1").arg(newest));
            return;
        }
        qCWarning(lcHub) << "trainer" << m_taskId << "cannot resume from" << versionPath(newest) << ":"
                         << qs(loaded.error) << "- starting a new policy";
    }

    // A new task: random weights, then a short supervised warm-up on the environments' own problems.
    QElapsedTimer clock;
    clock.start();
    const uint64_t seed = rl::workSeed(m_taskId.toStdString(), 0, 0);
    auto created = rl::Policy::create(policyConfigFor(m_config.model), seed);
    if (!created) {
        Q_EMIT failed(m_taskId, QStringLiteral("cannot create the policy: %1").arg(qs(created.error)));
        return;
    }
    m_policy = std::make_unique<rl::Policy>(std::move(*created));
    {
        rl::Trainer warmup(*m_policy, grpoConfigFor(m_config, m_config.warmupLearningRate));
        rl::SeedStream stream(seed ^ 0x5741524d5550ull);
        // A finite set of worked examples is drawn once, from its own seed; each step then picks its batch from it.
        const int demonstrations = m_config.warmupDemonstrations;
        const std::vector<rl::Problem> examples =
            demonstrations > 0 ? rl::problemsForWork(m_config.environmentIds(), stream.next(), demonstrations)
                               : std::vector<rl::Problem>{};
        double firstLoss = -1, lastLoss = 0;
        for (int step = 0; step < m_config.warmupSteps; ++step) {
            if (m_cancel)
                return;
            const auto problems = rl::warmupProblems(m_config.environmentIds(), stream, m_config.warmupBatch, examples);
            std::vector<rl::SupervisedSample> batch;
            for (const rl::Problem &p : problems) {
                rl::SupervisedSample s;
                s.prompt = rl::promptTokens(p);
                s.completion = rl::ByteTokenizer::encode(p.answer);
                s.completion.push_back(rl::ByteTokenizer::kEos);
                batch.push_back(std::move(s));
            }
            auto stats = warmup.supervisedStep(batch, &m_cancel);
            if (!stats) {
                if (m_cancel)
                    return;
                Q_EMIT failed(m_taskId, QStringLiteral("warm-up step %1 failed: %2").arg(step).arg(qs(stats.error)));
                return;
            }
            if (firstLoss < 0)
                firstLoss = stats->loss;
            lastLoss = stats->loss;
        }
        const QString summary =
            QStringLiteral("warm-up: %1 supervised steps of %2 problems%6, loss %3 -> %4, %5 s")
                .arg(m_config.warmupSteps)
                .arg(m_config.warmupBatch)
                .arg(firstLoss, 0, 'f', 3)
                .arg(lastLoss, 0, 'f', 3)
                .arg(clock.elapsed() / 1000.0, 0, 'f', 1)
                .arg(demonstrations > 0 ? QStringLiteral(" from %1 worked examples").arg(demonstrations) : QString());
        qCInfo(lcHub) << "trainer" << m_taskId << summary;
        m_trainer = std::make_unique<rl::Trainer>(*m_policy, grpoConfigFor(m_config, m_config.learningRate));
        const QString pending = QDir(m_stateDir).filePath(QStringLiteral("pending.safetensors"));
        if (auto saved = m_policy->save(pending.toStdString(), {{"cohort.task", m_taskId.toStdString()}}); !saved) {
            Q_EMIT failed(m_taskId, QStringLiteral("cannot save the warm-up policy: %1").arg(qs(saved.error)));
            return;
        }
        auto copy = m_policy->clone();
        m_unpublished = copy ? std::make_unique<rl::Policy>(std::move(*copy)) : nullptr;
        m_ready = true;
        m_publishing = true;
        Q_EMIT versionReady(m_taskId, pending, 0, summary);
    }
}

void RlTrainer::notifyPublished(const QString &path, int version)
{
    {
        QMutexLocker lock(&m_publishedMutex);
        m_publishedPath = path;
        m_publishedVersion = version;
    }
    QMetaObject::invokeMethod(this, &RlTrainer::applyPublished, Qt::QueuedConnection);
}

void RlTrainer::applyPublished()
{
    QString path;
    int version = 0;
    {
        QMutexLocker lock(&m_publishedMutex);
        std::swap(path, m_publishedPath);
        std::swap(version, m_publishedVersion);
    }
    if (version == 0)
        return;
    m_publishing = false;
    const QString target = versionPath(version);
    if (path != target) {
        QFile::remove(target);
        if (!QFile::rename(path, target) && !QFile::copy(path, target))
            qCWarning(lcHub) << "trainer" << m_taskId << "cannot keep its copy of version" << version << "at" << target;
    }
    if (m_unpublished)
        m_versions[version] = std::move(m_unpublished);
    m_latestVersion = version;
    evaluate(version);
    // Versions older than the staleness window can no longer be submitted against: forget them (memory and disk).
    // A few more are kept because batches accepted just before this version appeared may still be in the queue.
    for (auto it = m_versions.begin(); it != m_versions.end();) {
        if (it->first < version - m_config.asyncLevel - kVerificationSlack) {
            QFile::remove(versionPath(it->first));
            it = m_versions.erase(it);
        } else {
            ++it;
        }
    }
}

void RlTrainer::evaluate(int version)
{
    // The held-out problems no work item contains (rl/WorkSampling.h): what "the model got better" is measured on.
    // At most ~5 % of the trainer's time: after an evaluation of t ms the next waits 19 t (a version published
    // meanwhile is not scored; the next one after the wait is). A small task publishes a version a second.
    if (m_sinceEvaluation.isValid() && m_sinceEvaluation.elapsed() < 19 * m_lastEvaluationMs)
        return;
    // A copy of its own, read from the trainer's file of the version: generating leaves caches in a policy (the
    // fused decoder's packed weights), and the instance that verifies the nodes' proofs must not be touched by it.
    auto loaded = rl::Policy::load(versionPath(version).toStdString());
    if (!loaded) {
        qCWarning(lcHub) << "trainer" << m_taskId << "cannot evaluate version" << version << ":" << qs(loaded.error);
        return;
    }
    rl::Policy *policy = &*loaded;
    const auto &problems = rl::heldOutProblems(m_config.environmentIds());
    QElapsedTimer timer;
    timer.start();
    for (const bool greedy : {true, false}) {
        rl::SamplingConfig sampling;
        sampling.temperature = float(m_config.temperature);
        sampling.topP = float(m_config.topP);
        sampling.maxNewTokens = m_config.maxNewTokens;
        sampling.greedy = greedy;
        sampling.seed = rl::heldOutSeed(m_config.environmentIds()); // the same draws for every version
        const auto scored = rl::scoreProblems(*policy, problems, sampling, &m_cancel);
        if (!scored) {
            qCWarning(lcHub) << "trainer" << m_taskId << "evaluation of version" << version
                             << "failed:" << qs(scored.error);
            return;
        }
        Q_EMIT evaluated(m_taskId, version, greedy ? QStringLiteral("greedy") : QStringLiteral("sampled"),
                         scored->problems, scored->reward, scored->correctness, scored->format);
    }
    m_lastEvaluationMs = timer.elapsed();
    m_sinceEvaluation.start();
    qCInfo(lcHub) << "trainer" << m_taskId << "evaluated version" << version << "on" << problems.size()
                  << "held-out problems in" << m_lastEvaluationMs << "ms";
}

rl::Policy *RlTrainer::policyForVersion(int version, QString *error)
{
    if (auto it = m_versions.find(version); it != m_versions.end())
        return it->second.get();
    auto loaded = rl::Policy::load(versionPath(version).toStdString());
    if (!loaded) {
        *error = QStringLiteral("the hub has no copy of version %1: %2").arg(version).arg(qs(loaded.error));
        return nullptr;
    }
    auto &slot = m_versions[version];
    slot = std::make_unique<rl::Policy>(std::move(*loaded));
    return slot.get();
}

void RlTrainer::submit(const ValidatedBatch &batch)
{
    applyPublished();
    VerificationStats stats;
    if (!m_ready) {
        Q_EMIT verdict(batch.submissionId, false, QStringLiteral("the trainer is not ready"), stats);
        return;
    }
    QString error;
    rl::Policy *claimed = policyForVersion(batch.version, &error);
    if (!claimed) {
        Q_EMIT verdict(batch.submissionId, false, error, stats);
        return;
    }
    std::vector<std::vector<int32_t>> prompts, completions;
    for (const RolloutGroupData &g : batch.groups)
        for (const RolloutSampleData &s : g.samples) {
            prompts.push_back(g.promptTokens);
            completions.push_back(s.tokens);
        }
    stats.rollouts = int(completions.size());
    // One prefill serves the trainer (old log-probs), the plausibility check and TOPLOC (hidden states).
    std::vector<std::vector<float>> entropies, hidden;
    // Verifiable sampling: every token's uniform comes from the hub's own stream for this work item, so the
    // claimed version's logits say which token the sampler had to pick. The same prefill measures the gap.
    const uint64_t samplingSeed = rl::samplingSeedForWork(batch.workSeed);
    std::vector<rl::SamplingStream> streams;
    for (size_t row = 0; row < completions.size(); ++row)
        streams.emplace_back(samplingSeed, row);
    SamplingFinding sampling;
    const auto visit = [&](size_t row, size_t token, const float *logits, int vocab) {
        const double u = streams[row].uniform(); // tokens arrive in order per row: one uniform each, as generated
        const double gap =
            rl::samplingGap(logits, vocab, m_config.temperature, m_config.topP, completions[row][token], u);
        if (gap > sampling.worstGap) {
            sampling.worstGap = gap;
            sampling.worstRow = row;
            sampling.worstToken = token;
        }
        if (gap > m_config.samplingTolerance)
            ++sampling.offSample;
    };
    auto scored = claimed->scoreCompletions(prompts, completions, float(m_config.temperature), &entropies,
                                            m_config.toploc ? &hidden : nullptr, visit);
    if (!scored) {
        Q_EMIT verdict(batch.submissionId, false, QStringLiteral("scoring failed: %1").arg(qs(scored.error)), stats);
        return;
    }
    stats.worstSamplingGap = sampling.worstGap;
    stats.offSampleTokens = sampling.offSample;
    if (sampling.offSample > 0) {
        stats.failedVerification = true;
        const size_t g = sampling.worstRow / size_t(std::max(1, m_config.samplesPerPrompt));
        const size_t i = sampling.worstRow % size_t(std::max(1, m_config.samplesPerPrompt));
        Q_EMIT verdict(
            batch.submissionId, false,
            QStringLiteral("%1 tokens were not sampled by version %2 with the work item's randomness (worst: "
                           "group %3 sample %4 token %5, %6 of probability mass away; tolerance %7)")
                .arg(sampling.offSample)
                .arg(batch.version)
                .arg(g)
                .arg(i)
                .arg(sampling.worstToken)
                .arg(sampling.worstGap, 0, 'g', 3)
                .arg(m_config.samplingTolerance, 0, 'g', 3),
            stats);
        return;
    }
    if (QString refused = checkPlausibility(*scored, entropies, batch.version, &stats); !refused.isEmpty()) {
        stats.failedVerification = true;
        Q_EMIT verdict(batch.submissionId, false, refused, stats);
        return;
    }
    QString toplocSummary;
    if (m_config.toploc) {
        if (QString refused = checkProofs(batch, hidden, size_t(claimed->config().dModel), &stats);
            !refused.isEmpty()) {
            Q_EMIT verdict(batch.submissionId, false, refused, stats);
            return;
        }
        toplocSummary = QStringLiteral("; TOPLOC: %1 of %2 rollouts checked, %3 chunks, worst %4/%5 exponent matches, "
                                       "worst mantissa mean %6")
                            .arg(stats.rolloutsChecked)
                            .arg(stats.rollouts)
                            .arg(stats.chunks)
                            .arg(stats.worstExpMatches)
                            .arg(stats.worstPoints)
                            .arg(stats.worstMantissaMean, 0, 'f', 2);
    }
    Q_EMIT verdict(batch.submissionId, true,
                   QStringLiteral("verified against version %1 (sampling: worst gap %2)%3")
                       .arg(batch.version)
                       .arg(stats.worstSamplingGap, 0, 'g', 3)
                       .arg(toplocSummary),
                   stats);
    m_buffer.push_back(batch);
    m_bufferLogProbs.push_back(std::move(*scored));
    if (int(m_buffer.size()) >= m_config.batchesPerStep)
        trainStep();
}

QString RlTrainer::checkPlausibility(const std::vector<std::vector<float>> &logProbs,
                                     const std::vector<std::vector<float>> &entropies, int version,
                                     VerificationStats *stats) const
{
    // A token sampled from a distribution has E[log p] = -entropy, so honest batches have a mean (log p + entropy)
    // near 0. Text the claimed version would not produce (hand-written answers, another model, another version)
    // falls well below; text picked for being likely (a greedy or low-temperature sampler) lies well above. Two-sided,
    // a backstop behind verifiable sampling, which decides token by token; TOPLOC then checks the computation.
    double excess = 0;
    qint64 count = 0;
    double worstSample = 0;
    for (size_t i = 0; i < logProbs.size(); ++i) {
        double sum = 0;
        for (size_t j = 0; j < logProbs[i].size(); ++j)
            sum += double(logProbs[i][j]) + double(entropies[i][j]);
        excess += sum;
        count += qint64(logProbs[i].size());
        if (!logProbs[i].empty())
            worstSample = std::min(worstSample, sum / double(logProbs[i].size()));
    }
    stats->meanLogProb = count ? excess / double(count) : 0;
    // Per sample only tokens the version could essentially never sample count: short samples with one unlucky token
    // run several nats below their entropy honestly (a 6-nat limit refused 0.55% of honest batches in a 15-minute run).
    if (stats->meanLogProb < -m_config.plausibilityMargin ||
        worstSample < -kSampleMarginFactor * m_config.plausibilityMargin)
        return QStringLiteral("version %1 would not plausibly produce these rollouts (log-prob %2 nats/token below "
                              "its entropy, worst sample %3)")
            .arg(version)
            .arg(-stats->meanLogProb, 0, 'f', 2)
            .arg(-worstSample, 0, 'f', 2);
    if (stats->meanLogProb > m_config.plausibilityMargin)
        return QStringLiteral("these rollouts are more likely under version %1 than its sampling allows (log-prob %2 "
                              "nats/token above its entropy): they were picked, not sampled")
            .arg(version)
            .arg(stats->meanLogProb, 0, 'f', 2);
    return {};
}

QString RlTrainer::checkProofs(const ValidatedBatch &batch, const std::vector<std::vector<float>> &hidden, size_t dim,
                               VerificationStats *stats)
{
    // TOPLOC: the claimed version's own prefill must reproduce the committed top-128 hidden values of every 32-token
    // chunk (prime-stack.md §3.2), under the task's thresholds. With verify_fraction < 1 each rollout is checked with
    // that probability (at least one per batch); the node cannot know which, so cheating on any rollout still risks
    // the whole batch's credit and, repeated, the flag.
    const RlToplocPolicy &policy = m_config.toplocPolicy;
    const toploc::VerifyThresholds thresholds{policy.minExpMatches, policy.maxMantissaMean, policy.maxMantissaMedian};
    std::vector<char> check(size_t(stats->rollouts), 1);
    if (policy.verifyFraction < 1.0 && !check.empty()) {
        bool any = false;
        for (char &c : check) {
            c = m_random.generateDouble() < policy.verifyFraction;
            any = any || c;
        }
        if (!any)
            check[m_random.bounded(quint32(check.size()))] = 1;
    }
    double worstRatio = 2;
    size_t row = 0;
    for (size_t g = 0; g < batch.groups.size(); ++g) {
        for (size_t i = 0; i < batch.groups[g].samples.size(); ++i, ++row) {
            if (!check[row])
                continue;
            ++stats->rolloutsChecked;
            const RolloutSampleData &sample = batch.groups[g].samples[i];
            const toploc::VerifyReport report =
                toploc::verifyProofs(sample.proofs, hidden[row].data(), sample.tokens.size(), dim, thresholds);
            if (!report.accepted && report.chunks.empty()) {
                stats->failedVerification = true;
                return QStringLiteral("TOPLOC proof for group %1 sample %2 refused: %3")
                    .arg(g)
                    .arg(i)
                    .arg(qs(report.error));
            }
            for (size_t c = 0; c < report.chunks.size(); ++c) {
                const toploc::ChunkVerdict &v = report.chunks[c];
                ++stats->chunks;
                const double ratio = v.points > 0 ? double(v.expMatches) / v.points : 0;
                if (ratio < worstRatio) {
                    worstRatio = ratio;
                    stats->worstExpMatches = v.expMatches;
                    stats->worstPoints = v.points;
                }
                stats->worstMantissaMean = std::max(stats->worstMantissaMean, std::min(v.mantissaMean, 128.0));
                stats->worstMantissaMedian = std::max(stats->worstMantissaMedian, std::min(v.mantissaMedian, 128.0));
                if (!v.accepted) {
                    stats->failedVerification = true;
                    return QStringLiteral("TOPLOC proof failed for group %1 sample %2 chunk %3 against version %4: "
                                          "%5/%6 exponent matches (need %7), mantissa error mean %8 (max %9), median "
                                          "%10 (max %11)")
                        .arg(g)
                        .arg(i)
                        .arg(c)
                        .arg(batch.version)
                        .arg(v.expMatches)
                        .arg(v.points)
                        .arg(thresholds.minExpMatches)
                        .arg(std::min(v.mantissaMean, 128.0), 0, 'f', 2)
                        .arg(thresholds.maxMantissaMean)
                        .arg(std::min(v.mantissaMedian, 128.0), 0, 'f', 2)
                        .arg(thresholds.maxMantissaMedian);
                }
            }
        }
    }
    return {};
}

void RlTrainer::trainStep()
{
    std::vector<rl::RolloutSample> samples;
    double rewardSum = 0;
    int rewardCount = 0;
    for (size_t b = 0; b < m_buffer.size(); ++b) {
        size_t row = 0;
        for (const RolloutGroupData &g : m_buffer[b].groups)
            for (const RolloutSampleData &s : g.samples) {
                rewardSum += s.reward;
                ++rewardCount;
                rl::RolloutSample r;
                r.prompt = g.promptTokens;
                r.completion = s.tokens;
                r.oldLogProbs = m_bufferLogProbs[b][row++];
                r.advantage = float(s.advantage);
                samples.push_back(std::move(r));
            }
    }
    m_buffer.clear();
    m_bufferLogProbs.clear();
    auto stats = m_trainer->grpoStep(samples, &m_cancel);
    if (!stats) {
        qCWarning(lcHub) << "trainer" << m_taskId << "GRPO step failed:" << qs(stats.error);
        return;
    }
    ++m_steps;
    ++m_stepsSinceVersion;
    const double meanReward = rewardCount ? rewardSum / rewardCount : 0;
    qCInfo(lcHub).nospace() << "trainer " << m_taskId << " step " << m_steps << ": loss " << stats->loss << ", entropy "
                            << stats->entropy << ", clipped " << stats->clipFraction << ", " << stats->samples
                            << " samples, mean reward " << meanReward;
    Q_EMIT stepDone(m_taskId, m_steps, stats->loss, meanReward, stats->samples);
    if (m_stepsSinceVersion < m_config.stepsPerVersion || m_publishing)
        return;
    const QString pending = QDir(m_stateDir).filePath(QStringLiteral("pending.safetensors"));
    if (auto saved = m_policy->save(pending.toStdString(), {{"cohort.task", m_taskId.toStdString()}}); !saved) {
        qCWarning(lcHub) << "trainer" << m_taskId << "cannot save a new version:" << qs(saved.error);
        return;
    }
    auto copy = m_policy->clone();
    if (!copy) {
        qCWarning(lcHub) << "trainer" << m_taskId << "cannot snapshot the policy:" << qs(copy.error);
        return;
    }
    m_unpublished = std::make_unique<rl::Policy>(std::move(*copy));
    m_stepsSinceVersion = 0;
    m_publishing = true;
    Q_EMIT versionReady(m_taskId, pending, 0, QStringLiteral("after trainer step %1").arg(m_steps));
}

} // namespace cohort
