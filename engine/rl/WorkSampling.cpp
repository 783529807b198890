#include "rl/WorkSampling.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_set>

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

namespace {

struct HeldOutSet {
    std::vector<Problem> problems;
    std::unordered_set<std::string> prompts;
};

std::vector<const Environment *> knownEnvironments(const std::vector<std::string> &environments)
{
    std::vector<const Environment *> envs;
    for (const std::string &id : environments)
        if (const Environment *e = findEnvironment(id))
            envs.push_back(e);
    return envs;
}

// Built once per environment list (node and hub call this for every batch), kept for the process's life: a task
// has one list, a hub a handful.
const HeldOutSet &heldOutSet(const std::vector<std::string> &environments)
{
    static std::mutex mutex;
    static std::map<std::vector<std::string>, std::unique_ptr<const HeldOutSet>> sets;
    const std::lock_guard lock(mutex);
    auto &slot = sets[environments];
    if (!slot) {
        auto set = std::make_unique<HeldOutSet>();
        const std::vector<const Environment *> envs = knownEnvironments(environments);
        SeedStream s(heldOutSeed(environments));
        // Distinct prompts; a small problem space (linear-eq has 2,888) still fills the set, a tiny one stops short.
        for (int tries = 0;
             !envs.empty() && int(set->problems.size()) < kHeldOutProblems && tries < 16 * kHeldOutProblems; ++tries) {
            const Environment *env = envs[size_t(s.range(0, int64_t(envs.size()) - 1))];
            Problem p = env->generate(s.next());
            if (set->prompts.insert(p.prompt).second)
                set->problems.push_back(std::move(p));
        }
        slot = std::move(set);
    }
    return *slot;
}

} // namespace

uint64_t heldOutSeed(const std::vector<std::string> &environments)
{
    uint64_t h = 0xcbf29ce484222325ull; // FNV-1a 64 over "cohort held-out", then each id and a separator
    const auto mix = [&h](std::string_view bytes) {
        for (unsigned char c : bytes) {
            h ^= c;
            h *= 0x100000001b3ull;
        }
    };
    mix("cohort held-out");
    for (const std::string &id : environments) {
        mix("\n");
        mix(id);
    }
    return SeedStream(h).next();
}

const std::vector<Problem> &heldOutProblems(const std::vector<std::string> &environments)
{
    return heldOutSet(environments).problems;
}

bool isHeldOut(const std::vector<std::string> &environments, std::string_view prompt)
{
    return heldOutSet(environments).prompts.count(std::string(prompt)) > 0;
}

std::vector<Problem> problemsForWork(const std::vector<std::string> &environments, uint64_t seed, int prompts)
{
    const std::vector<const Environment *> envs = knownEnvironments(environments);
    std::vector<Problem> problems;
    if (envs.empty() || prompts <= 0)
        return problems;
    SeedStream s(seed);
    problems.reserve(size_t(prompts));
    const HeldOutSet &heldOut = heldOutSet(environments);
    for (int i = 0; i < prompts; ++i) {
        const Environment *env = envs[size_t(s.range(0, int64_t(envs.size()) - 1))];
        Problem problem = env->generate(s.next());
        for (int redraw = 0; redraw < kHeldOutRedraws && heldOut.prompts.count(problem.prompt); ++redraw)
            problem = env->generate(s.next());
        problems.push_back(std::move(problem));
    }
    return problems;
}

std::vector<Problem> warmupProblems(const std::vector<std::string> &environments, SeedStream &stream, int batch,
                                    const std::vector<Problem> &examples)
{
    if (examples.empty())
        return problemsForWork(environments, stream.next(), batch);
    std::vector<Problem> problems;
    problems.reserve(size_t(std::max(batch, 0)));
    for (int i = 0; i < batch; ++i)
        problems.push_back(examples[size_t(stream.range(0, int64_t(examples.size()) - 1))]);
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
