#include "rl/OnPolicy.h"

#include "rl/Tokenizer.h"
#include "rl/WorkSampling.h"

namespace cohort::rl {

double ScoredRollouts::meanReward() const
{
    double sum = 0;
    for (double r : rewards)
        sum += r;
    return rewards.empty() ? 0 : sum / double(rewards.size());
}

long long ScoredRollouts::tokens() const
{
    long long n = 0;
    for (const Completion &c : completions)
        n += (long long)c.tokens.size();
    return n;
}

Result<ScoredRollouts> sampleAndScore(Policy &policy, const std::vector<Problem> &problems, int samplesPerPrompt,
                                      const SamplingConfig &sampling, const std::atomic<bool> *cancel)
{
    ScoredRollouts out;
    out.problems = problems;
    out.samplesPerPrompt = samplesPerPrompt;
    std::vector<std::vector<int32_t>> prompts;
    for (const Problem &p : problems)
        for (int g = 0; g < samplesPerPrompt; ++g)
            prompts.push_back(promptTokens(p));
    auto generated = policy.generate(prompts, sampling, cancel);
    if (!generated)
        return Result<ScoredRollouts>::failure(generated.error);
    out.completions = std::move(*generated);
    size_t row = 0;
    for (const Problem &p : problems) {
        const Environment *env = findEnvironment(p.environment);
        std::vector<double> group;
        for (int g = 0; g < samplesPerPrompt; ++g, ++row) {
            const Completion &c = out.completions[row];
            std::string text;
            for (int32_t id : c.tokens)
                if (id < 256)
                    text.push_back(char(id));
            group.push_back(env ? env->score(p, text, c.finished).total : 0.0);
        }
        const std::vector<double> adv = groupAdvantages(group);
        out.rewards.insert(out.rewards.end(), group.begin(), group.end());
        out.advantages.insert(out.advantages.end(), adv.begin(), adv.end());
    }
    return Result<ScoredRollouts>::success(std::move(out));
}

Result<HeldOutScore> scoreProblems(Policy &policy, const std::vector<Problem> &problems, const SamplingConfig &sampling,
                                   const std::atomic<bool> *cancel)
{
    HeldOutScore score;
    if (problems.empty())
        return Result<HeldOutScore>::success(score);
    std::vector<std::vector<int32_t>> prompts;
    for (const Problem &p : problems)
        prompts.push_back(promptTokens(p));
    auto generated = policy.generate(prompts, sampling, cancel);
    if (!generated)
        return Result<HeldOutScore>::failure(generated.error);
    for (size_t i = 0; i < problems.size(); ++i) {
        const Environment *env = findEnvironment(problems[i].environment);
        const Completion &c = (*generated)[i];
        std::string text;
        for (int32_t id : c.tokens)
            if (id < 256)
                text.push_back(char(id));
        const Reward r = env ? env->score(problems[i], text, c.finished) : Reward{};
        score.reward += r.total;
        score.correctness += r.correctness;
        score.format += r.format;
    }
    score.problems = int(problems.size());
    score.reward /= double(score.problems);
    score.correctness /= double(score.problems);
    score.format /= double(score.problems);
    return Result<HeldOutScore>::success(score);
}

std::vector<RolloutSample> toRolloutSamples(const ScoredRollouts &rollouts)
{
    std::vector<RolloutSample> samples;
    size_t row = 0;
    for (const Problem &p : rollouts.problems) {
        const std::vector<int32_t> prompt = promptTokens(p);
        for (int g = 0; g < rollouts.samplesPerPrompt; ++g, ++row) {
            RolloutSample s;
            s.prompt = prompt;
            s.completion = rollouts.completions[row].tokens;
            s.oldLogProbs = rollouts.completions[row].logProbs;
            s.advantage = float(rollouts.advantages[row]);
            samples.push_back(std::move(s));
        }
    }
    return samples;
}

std::vector<SupervisedSample> supervisedSamples(const std::vector<Problem> &problems)
{
    std::vector<SupervisedSample> out;
    for (const Problem &p : problems) {
        SupervisedSample s;
        s.prompt = promptTokens(p);
        s.completion = ByteTokenizer::encode(p.answer);
        s.completion.push_back(ByteTokenizer::kEos);
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace cohort::rl
