// The built-in environments. Prompts are short byte strings ending in '=' so the policy learns "answer, then EOS".
#include "rl/Environment.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace cohort::rl {
namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Partial credit by place value: digits compared from the right (units with units, tens with tens, the sign last),
// so "332" for 342 earns 2/3 and a missing leading digit costs one place, not everything.
double placeValueMatch(std::string_view expected, std::string_view got)
{
    return positionalMatch(std::string(expected.rbegin(), expected.rend()), std::string(got.rbegin(), got.rend()));
}

// "47+285=" -> "332", "12-345=" -> "-333". Operands have 1 to 3 digits.
class AddSub final : public Environment {
public:
    std::string_view id() const override { return "add-sub"; }
    std::string_view description() const override { return "add or subtract two numbers of up to three digits"; }
    size_t maxAnswerLength() const override { return 5; }
    Problem generate(uint64_t seed) const override
    {
        SeedStream s(seed);
        const int64_t a = randomNumber(s), b = randomNumber(s);
        const bool add = s.next() & 1;
        const int64_t result = add ? a + b : a - b;
        return {std::string(id()), std::to_string(a) + (add ? "+" : "-") + std::to_string(b) + "=",
                std::to_string(result)};
    }

protected:
    bool allowedChar(char c) const override { return isDigit(c) || c == '-'; }
    double correctness(const Problem &p, std::string_view answer) const override
    {
        return placeValueMatch(p.answer, answer);
    }

private:
    static int64_t randomNumber(SeedStream &s)
    {
        const int64_t digits = s.range(1, 3);
        return s.range(digits == 1 ? 0 : digits == 2 ? 10 : 100, digits == 1 ? 9 : digits == 2 ? 99 : 999);
    }
};

// "sort:52817=" -> "12578". 3 to 8 digits.
class SortDigits final : public Environment {
public:
    std::string_view id() const override { return "sort-digits"; }
    std::string_view description() const override { return "sort 3 to 8 digits ascending"; }
    size_t maxAnswerLength() const override { return 8; }
    Problem generate(uint64_t seed) const override
    {
        SeedStream s(seed);
        std::string digits(size_t(s.range(3, 8)), '0');
        for (char &c : digits)
            c = char('0' + s.range(0, 9));
        std::string sorted = digits;
        std::sort(sorted.begin(), sorted.end());
        return {std::string(id()), "sort:" + digits + "=", sorted};
    }

protected:
    bool allowedChar(char c) const override { return isDigit(c); }
    double correctness(const Problem &p, std::string_view answer) const override
    {
        return positionalMatch(p.answer, answer);
    }
};

// "rev:abcde=" -> "edcba". 3 to 8 lowercase letters.
class Reverse final : public Environment {
public:
    std::string_view id() const override { return "reverse"; }
    std::string_view description() const override { return "reverse 3 to 8 lowercase letters"; }
    size_t maxAnswerLength() const override { return 8; }
    Problem generate(uint64_t seed) const override
    {
        SeedStream s(seed);
        std::string word(size_t(s.range(3, 8)), 'a');
        for (char &c : word)
            c = char('a' + s.range(0, 25));
        return {std::string(id()), "rev:" + word + "=", std::string(word.rbegin(), word.rend())};
    }

protected:
    bool allowedChar(char c) const override { return c >= 'a' && c <= 'z'; }
    double correctness(const Problem &p, std::string_view answer) const override
    {
        return positionalMatch(p.answer, answer);
    }
};

// "3x+4=19;x=" -> "5". a in 2..9, x in -9..9, b in -9..9: small linear equations with an integer solution.
class LinearEquation final : public Environment {
public:
    std::string_view id() const override { return "linear-eq"; }
    std::string_view description() const override { return "solve a*x+b=c for an integer x"; }
    size_t maxAnswerLength() const override { return 2; }
    // Right or wrong: x is one digit and a sign, so place-value credit would mostly reward guessing the sign.
    Problem generate(uint64_t seed) const override
    {
        SeedStream s(seed);
        const int64_t a = s.range(2, 9), x = s.range(-9, 9), b = s.range(-9, 9);
        const int64_t c = a * x + b;
        const std::string bPart = b < 0 ? "-" + std::to_string(-b) : "+" + std::to_string(b);
        return {std::string(id()),
                std::to_string(a) + "x" + bPart + "=" + std::to_string(c) + ";x=", std::to_string(x)};
    }

protected:
    bool allowedChar(char c) const override { return isDigit(c) || c == '-'; }
    double correctness(const Problem &p, std::string_view answer) const override
    {
        return answer == p.answer ? 1.0 : 0.0;
    }
};

const AddSub kAddSub;
const SortDigits kSortDigits;
const Reverse kReverse;
const LinearEquation kLinearEquation;
const std::array<const Environment *, 4> kAll{&kAddSub, &kSortDigits, &kReverse, &kLinearEquation};

} // namespace

const Environment *findEnvironment(std::string_view id)
{
    for (const Environment *e : kAll)
        if (e->id() == id)
            return e;
    return nullptr;
}

std::vector<std::string> environmentIds()
{
    std::vector<std::string> ids;
    for (const Environment *e : kAll)
        ids.emplace_back(e->id());
    return ids;
}

} // namespace cohort::rl
