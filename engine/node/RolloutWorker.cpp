#include "node/RolloutWorker.h"

#include "core/Logging.h"
#include "node/TestingHooks.h"
#include "rl/Policy.h"
#include "rl/Tokenizer.h"
#include "rl/WorkSampling.h"
#include "toploc/Proof.h"

#include <QElapsedTimer>

#include <iterator>

namespace cohort {

RolloutWorker::RolloutWorker(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<cohort::RolloutJob>();
    qRegisterMetaType<cohort::RolloutJobResult>();
}

RolloutWorker::~RolloutWorker() = default;

void RolloutWorker::unload()
{
    m_policy.reset();
    m_loadedPath.clear();
}

void RolloutWorker::run(const RolloutJob &job)
{
    RolloutJobResult result;
    result.job = job;
    if (m_cancel) { // cancelled while it waited in the queue: nothing to load or generate
        result.error = QStringLiteral("cancelled");
        Q_EMIT finished(result);
        return;
    }
    QElapsedTimer clock;
    clock.start();
    if (!m_policy || m_loadedPath != job.modelPath || QString::fromStdString(m_policy->device()) != job.device) {
        m_policy.reset();
        auto loaded = rl::Policy::load(job.modelPath.toStdString(), job.device.toStdString());
        if (!loaded) {
            result.error = QStringLiteral("cannot load the policy %1: %2")
                               .arg(job.modelPath, QString::fromStdString(loaded.error));
            Q_EMIT finished(result);
            return;
        }
        m_policy = std::make_unique<rl::Policy>(std::move(*loaded));
        m_loadedPath = job.modelPath;
        // Testing only (tst_rl_e2e): act as a node whose weights were modified, which the hub's TOPLOC check must
        // catch. Loud in the log so it can never go unnoticed.
        if (const double noise = qEnvironmentVariable("COHORT_TESTING_WEIGHT_NOISE").toDouble(); noise > 0) {
            qCWarning(lcEngine) << "COHORT_TESTING_WEIGHT_NOISE: running with weights perturbed by" << noise;
            if (auto perturbed = m_policy->perturbWeights(noise, 1); !perturbed)
                qCWarning(lcEngine) << perturbed.error.c_str();
        }
    }
    // One batch of problems x G rows: the policy batches rows with different prompt lengths.
    std::vector<std::vector<int32_t>> prompts;
    for (const rl::Problem &p : job.problems) {
        const std::vector<int32_t> ids = rl::promptTokens(p);
        for (int g = 0; g < job.samplesPerPrompt; ++g)
            prompts.push_back(ids);
    }
    rl::SamplingConfig sampling;
    sampling.temperature = float(job.temperature);
    sampling.topP = float(job.topP);
    sampling.maxNewTokens = job.maxNewTokens;
    sampling.seed = job.samplingSeed;
    sampling.captureHidden = job.toploc;
    if (testingHaltArmed())
        sampling.beforeToken = [](int generated) { testingHaltPoint("token", generated); };
    // Under a GPU memory cap the rows go in passes; each row keeps its own random stream (firstRow), so the
    // samples are the ones a single pass would draw.
    const size_t passRows = job.maxRows > 0 ? size_t(job.maxRows) : prompts.size();
    auto generated = Result<std::vector<rl::Completion>>::success({});
    for (size_t first = 0; first < prompts.size() && generated; first += passRows) {
        const std::vector<std::vector<int32_t>> pass(prompts.begin() + qsizetype(first),
                                                     prompts.begin() +
                                                         qsizetype(std::min(prompts.size(), first + passRows)));
        sampling.firstRow = first;
        auto part = m_policy->generate(pass, sampling, &m_cancel);
        if (!part)
            generated = std::move(part);
        else
            std::move(part->begin(), part->end(), std::back_inserter(*generated));
    }
    if (!generated) {
        result.error = QString::fromStdString(generated.error);
        Q_EMIT finished(result);
        return;
    }
    // Proofs for all completions at once, on as many threads as generation used.
    std::vector<std::vector<toploc::ChunkProof>> proofs;
    if (job.toploc) {
        QElapsedTimer proofClock;
        proofClock.start();
        std::vector<toploc::CompletionStates> states;
        states.reserve(generated->size());
        for (const rl::Completion &c : *generated)
            states.push_back({c.hidden.data(), c.tokens.size()});
        proofs = toploc::buildProofsForAll(states, size_t(m_policy->config().dModel), &rl::Policy::parallelFor);
        result.proofSeconds = double(proofClock.nsecsElapsed()) / 1e9;
    }
    double rewardSum = 0;
    size_t row = 0;
    for (const rl::Problem &p : job.problems) {
        const rl::Environment *env = rl::findEnvironment(p.environment);
        std::vector<RolloutSampleResult> group;
        for (int g = 0; g < job.samplesPerPrompt; ++g, ++row) {
            const rl::Completion &c = (*generated)[row];
            RolloutSampleResult s;
            s.tokens = c.tokens;
            s.finished = c.finished;
            std::string text;
            for (int32_t id : c.tokens)
                if (id < 256)
                    text.push_back(char(id));
            s.reward = env ? env->score(p, text, c.finished).total : 0.0;
            if (job.toploc) {
                const std::string bytes = toploc::serialize(proofs[row]);
                s.proof = QByteArray(bytes.data(), qsizetype(bytes.size()));
            }
            rewardSum += s.reward;
            result.tokens += qint64(c.tokens.size());
            group.push_back(std::move(s));
            testingHaltPoint("rollout", int(row) + 1);
        }
        result.groups.push_back(std::move(group));
    }
    result.seconds = clock.elapsed() / 1000.0;
    result.meanReward = row ? rewardSum / double(row) : 0;
    Q_EMIT finished(result);
}

} // namespace cohort
