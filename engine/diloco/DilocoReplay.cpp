#include "diloco/DilocoReplay.h"

#include "diloco/DilocoRunner.h"
#include "diloco/SyntheticText.h"
#include "rl/LanguageModel.h"
#include "rl/Policy.h"

#include <QElapsedTimer>

#include <cmath>

namespace cohort::diloco {

namespace {

double normOf(std::span<const float> values)
{
    double sum = 0;
    for (float x : values)
        sum += double(x) * double(x);
    return std::sqrt(sum);
}

} // namespace

rl::PolicyConfig policyConfigOf(const DilocoTaskConfig &c)
{
    rl::PolicyConfig pc;
    pc.dModel = c.model.dModel;
    pc.nLayers = c.model.nLayers;
    pc.nHeads = c.model.nHeads;
    pc.dFF = c.model.dFF;
    pc.maxSeqLen = c.model.maxSeqLen;
    return pc;
}

void clipToNorm(std::span<float> values, double norm, double bound)
{
    const float factor = float(bound / norm * (1 - 1e-6));
    for (float &x : values)
        x *= factor;
}

Expected<double> innerStep(rl::Policy &model, std::vector<float> &local, AdamWState &adam, std::vector<float> &gradient,
                           const DilocoTaskConfig &c, uint64_t dataSeed, uint64_t revision, int inner,
                           const std::atomic<bool> *cancel)
{
    // Batches are a function of (node seed, outer step, inner step): a resumed node trains on what it would have,
    // and an audit replays exactly them.
    const uint64_t step = (revision << 20) + uint64_t(inner);
    const auto batch = SyntheticText::batch(dataSeed, step, c.batchSize, c.sequenceLength);
    auto loss = rl::languageModelLoss(model, batch, gradient, cancel);
    if (!loss)
        return fail(loss);
    AdamWOptions options;
    options.learningRate = c.innerLearningRate;
    options.weightDecay = c.innerWeightDecay;
    adamWStep(local, gradient, adam, options);
    if (Outcome w = rl::writeFlatParameters(model, local); !w)
        return fail(w);
    return *loss;
}

Expected<ReplayVerdict> replayOuterStep(const DilocoTaskConfig &config, uint64_t dataSeed, const AuditMaterial &m,
                                        const std::atomic<bool> &cancel, const std::string &device)
{
    QElapsedTimer clock;
    clock.start();
    auto created = rl::Policy::create(policyConfigOf(config), config.seed, device);
    if (!created)
        return fail(QStringLiteral("the task's model: %1").arg(QString::fromStdString(created.error)));
    rl::Policy &model = *created;
    const size_t n = rl::flatParameterCount(model);
    if (m.global.size() != n || m.adamM.size() != n || m.adamV.size() != n || m.delta.size() != n)
        return fail(
            QStringLiteral("the material holds %1 weights; the task's model has %2").arg(m.global.size()).arg(n));
    std::vector<float> local = m.global;
    AdamWState adam{m.adamM, m.adamV, m.adamStep};
    std::vector<float> gradient(n, 0.0f);
    if (Outcome w = rl::writeFlatParameters(model, local); !w)
        return fail(w);
    const uint64_t revision = m.step - 1;
    for (int inner = 0; inner < config.innerSteps; ++inner) {
        if (cancel.load())
            return fail(QStringLiteral("cancelled"));
        auto loss = innerStep(model, local, adam, gradient, config, dataSeed, revision, inner, &cancel);
        if (!loss)
            return fail(QStringLiteral("inner step %1: %2").arg(inner).arg(loss.error()));
    }
    std::vector<float> delta(n);
    for (size_t i = 0; i < n; ++i)
        delta[i] = m.global[i] - local[i];
    ReplayVerdict verdict;
    verdict.replayedNorm = normOf(delta);
    const double bound = pseudoGradientBound(config, n);
    if (verdict.replayedNorm > bound)
        clipToNorm(delta, verdict.replayedNorm, bound);
    double diff = 0;
    bool finite = true;
    for (size_t i = 0; i < n; ++i) {
        finite = finite && std::isfinite(m.delta[i]);
        const double d = double(delta[i]) - double(m.delta[i]);
        diff += d * d;
    }
    const double reference = std::max(normOf(delta), 1e-30);
    verdict.relativeError = finite ? std::sqrt(diff) / reference : INFINITY;
    verdict.passed = finite && verdict.relativeError <= config.auditTolerance;
    if (!verdict.passed)
        verdict.reason =
            finite ? QStringLiteral("the replayed pseudo-gradient differs from the committed one by %1 of its norm "
                                    "(tolerance %2): not the work of %3 inner steps on this node's batches")
                         .arg(verdict.relativeError, 0, 'g', 3)
                         .arg(config.auditTolerance, 0, 'g', 3)
                         .arg(config.innerSteps)
                   : QStringLiteral("the committed pseudo-gradient is not finite");
    verdict.seconds = double(clock.nsecsElapsed()) / 1e9;
    return verdict;
}

Expected<double> heldOutLoss(const DilocoTaskConfig &config, std::span<const float> weights,
                             const std::atomic<bool> &cancel, const std::string &device)
{
    auto created = rl::Policy::create(policyConfigOf(config), config.seed, device);
    if (!created)
        return fail(QStringLiteral("the task's model: %1").arg(QString::fromStdString(created.error)));
    rl::Policy &model = *created;
    if (weights.size() != rl::flatParameterCount(model))
        return fail(QStringLiteral("%1 weights; the task's model has %2")
                        .arg(weights.size())
                        .arg(rl::flatParameterCount(model)));
    if (Outcome w = rl::writeFlatParameters(model, weights); !w)
        return fail(w);
    // Four batches of eight, so that a model shape's memory for one batch is all it takes.
    constexpr int kBatches = 4;
    double sum = 0;
    for (int b = 0; b < kBatches; ++b) {
        const auto batch =
            SyntheticText::batch(kHeldOutDataSeed, uint64_t(b), kHeldOutSequences / kBatches, config.sequenceLength);
        auto loss = rl::languageModelLoss(model, batch, {}, &cancel);
        if (!loss)
            return fail(loss);
        sum += *loss;
    }
    const double mean = sum / kBatches;
    if (!std::isfinite(mean))
        return fail(QStringLiteral("the held-out loss is not finite"));
    return mean;
}

} // namespace cohort::diloco
