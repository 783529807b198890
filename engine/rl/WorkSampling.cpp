#include "rl/WorkSampling.h"

#include <cmath>

namespace cohort::rl {

uint64_t workSeed(std::string_view nodeId, int64_t step, int64_t batchCounter)
{
    uint64_t h = 0xcbf29ce484222325ull; // FNV-1a 64
    for (unsigned char c : nodeId) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    SeedStream s(h ^ (uint64_t(step) * 0x9E3779B97F4A7C15ull));
    SeedStream t(s.next() ^ (uint64_t(batchCounter) * 0xD1B54A32D192ED03ull));
    return t.next();
}

std::vector<Problem> problemsForWork(const std::vector<std::string> &environments, uint64_t seed, int prompts)
{
    std::vector<const Environment *> envs;
    for (const std::string &id : environments)
        if (const Environment *e = findEnvironment(id))
            envs.push_back(e);
    std::vector<Problem> problems;
    if (envs.empty() || prompts <= 0)
        return problems;
    SeedStream s(seed);
    problems.reserve(size_t(prompts));
    for (int i = 0; i < prompts; ++i) {
        const Environment *env = envs[size_t(s.range(0, int64_t(envs.size()) - 1))];
        problems.push_back(env->generate(s.next()));
    }
    return problems;
}

std::vector<double> groupAdvantages(const std::vector<double> &rewards)
{
    std::vector<double> advantages(rewards.size(), 0.0);
    if (rewards.size() < 2)
        return advantages;
    double mean = 0;
    for (double r : rewards)
        mean += r;
    mean /= double(rewards.size());
    double var = 0;
    for (double r : rewards)
        var += (r - mean) * (r - mean);
    const double stddev = std::sqrt(var / double(rewards.size() - 1));
    if (stddev < 1e-9)
        return advantages;
    for (size_t i = 0; i < rewards.size(); ++i)
        advantages[i] = (rewards[i] - mean) / (stddev + 1e-6);
    return advantages;
}

} // namespace cohort::rl

#include "rl/Tokenizer.h"

namespace cohort::rl {
std::vector<int32_t> promptTokens(const Problem &problem)
{
    std::vector<int32_t> ids;
    ids.reserve(problem.prompt.size() + 1);
    ids.push_back(ByteTokenizer::kBos);
    for (unsigned char c : problem.prompt)
        ids.push_back(int32_t(c));
    return ids;
}
} // namespace cohort::rl
