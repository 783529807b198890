#pragma once
// Environments with verifiable rewards: a deterministic prompt generator plus a reward function.
// Pure C++ (no Qt, no LibTorch): the node scores its own rollouts with this code and the hub re-scores every
// submission with the very same code, never trusting the node's numbers.
//
// Rewards are in [0, 1]: kFormatWeight for a well-formed answer (the allowed characters, terminated by EOS within
// the length limit) plus (1 - kFormatWeight) x correctness. Equations are right or wrong; arithmetic gives credit per
// correct digit by place value, sorting and reversal per position, which gives the policy a gradient to climb.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cohort::rl {

struct Problem {
    std::string environment; // id of the environment that made it
    std::string prompt;      // e.g. "47+285="
    std::string answer;      // e.g. "332"
};

struct Reward {
    double format = 0;      // 0 or 1
    double correctness = 0; // [0, 1]
    double total = 0;       // kFormatWeight * format + (1 - kFormatWeight) * correctness
    std::string note;       // "correct", "wrong answer", "no EOS", "bad characters", ...
};

inline constexpr double kFormatWeight = 0.2;

class Environment {
public:
    virtual ~Environment() = default;
    virtual std::string_view id() const = 0;
    virtual std::string_view description() const = 0;
    // Same seed, same problem, on every platform (own integer mixing, no std:: distributions).
    virtual Problem generate(uint64_t seed) const = 0;
    // completion: the decoded text before EOS; finished: EOS was emitted.
    Reward score(const Problem &problem, std::string_view completion, bool finished) const;
    // Longest well-formed answer this environment produces (for max_new_tokens sanity).
    virtual size_t maxAnswerLength() const = 0;

protected:
    // Characters a well-formed answer may contain.
    virtual bool allowedChar(char c) const = 0;
    // Correctness in [0, 1] of a well-formed answer.
    virtual double correctness(const Problem &problem, std::string_view answer) const = 0;
};

// The built-in environments by id: "add-sub", "sort-digits", "reverse", "linear-eq". nullptr if unknown.
const Environment *findEnvironment(std::string_view id);
std::vector<std::string> environmentIds();

// A deterministic stream of 64-bit values (SplitMix64): the only randomness environments and seeds use.
class SeedStream {
public:
    explicit SeedStream(uint64_t seed)
        : m_state(seed)
    {}
    uint64_t next();
    // Uniform-enough integer in [lo, hi] (modulo of a 64-bit value; the bias is < 2^-40 for our ranges).
    int64_t range(int64_t lo, int64_t hi);

private:
    uint64_t m_state;
};

// Position-wise partial credit: matches / max(len(a), len(b)); 1 only for equal strings.
double positionalMatch(std::string_view expected, std::string_view got);

} // namespace cohort::rl
