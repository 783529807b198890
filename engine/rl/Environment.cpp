#include "rl/Environment.h"

#include <algorithm>

namespace cohort::rl {

Reward Environment::score(const Problem &problem, std::string_view completion, bool finished) const
{
    Reward reward;
    if (!finished) {
        reward.note = "no EOS within the token limit";
    } else if (completion.empty()) {
        reward.note = "empty answer";
    } else if (completion.size() > maxAnswerLength()) {
        reward.note = "answer too long";
    } else if (!std::all_of(completion.begin(), completion.end(), [this](char c) { return allowedChar(c); })) {
        reward.note = "characters outside the answer format";
    } else {
        reward.format = 1.0;
        reward.correctness = std::clamp(correctness(problem, completion), 0.0, 1.0);
        reward.note =
            reward.correctness >= 1.0 ? "correct" : (reward.correctness > 0 ? "partly correct" : "wrong answer");
    }
    reward.total = kFormatWeight * reward.format + (1.0 - kFormatWeight) * reward.correctness;
    return reward;
}

uint64_t SeedStream::next()
{
    // SplitMix64 (Steele, Lea, Flood 2014): a bijective mix of a Weyl sequence; fully portable.
    uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int64_t SeedStream::range(int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return lo;
    const uint64_t span = uint64_t(hi - lo) + 1;
    return lo + int64_t(next() % span);
}

double positionalMatch(std::string_view expected, std::string_view got)
{
    const size_t longest = std::max(expected.size(), got.size());
    if (longest == 0)
        return 1.0;
    size_t matches = 0;
    for (size_t i = 0; i < std::min(expected.size(), got.size()); ++i)
        matches += expected[i] == got[i];
    return double(matches) / double(longest);
}

} // namespace cohort::rl
