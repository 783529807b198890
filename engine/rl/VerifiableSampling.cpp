#include "rl/VerifiableSampling.h"

#include "rl/Tokenizer.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace cohort::rl {

uint64_t samplingSeedForWork(uint64_t workSeed)
{
    SamplingStream s(workSeed ^ 0x53414d504c494e47ull /* "SAMPLING" */, 0);
    return s.next();
}

double samplingGap(const float *logits, int vocab, double temperature, double topP, int chosen, double u)
{
    if (chosen < 0 || chosen >= vocab || !(temperature > 0) || !(u >= 0 && u < 1))
        return 1;
    // The same arithmetic as generate()'s sampler: double logits / temperature, exp(logit - max).
    // Called for every verified token: the buffers stay with the thread instead of being allocated each time.
    thread_local std::vector<double> scaled, expo;
    thread_local std::vector<int> order;
    scaled.resize(size_t(vocab));
    expo.resize(size_t(vocab));
    double mx = -INFINITY;
    for (int i = 0; i < vocab; ++i) {
        if (!std::isfinite(logits[i]))
            return 1;
        const bool never = vocab == ByteTokenizer::kVocabSize && (i == ByteTokenizer::kBos || i == ByteTokenizer::kPad);
        scaled[size_t(i)] = (never ? kNeverLogit : double(logits[i])) / temperature;
        mx = std::max(mx, scaled[size_t(i)]);
    }
    double sum = 0;
    for (int i = 0; i < vocab; ++i) {
        expo[size_t(i)] = std::exp(scaled[size_t(i)] - mx);
        sum += expo[size_t(i)];
    }
    const double own = expo[size_t(chosen)];
    const auto outside = [](double x, double lo, double hi) { return x < lo ? lo - x : x >= hi ? x - hi : 0.0; };
    if (topP >= 1.0) {
        double before = 0;
        for (int i = 0; i < chosen; ++i)
            before += expo[size_t(i)];
        return outside(u, before / sum, (before + own) / sum);
    }
    // Nucleus: descending logits (ties by id), the smallest prefix whose mass reaches topP * sum; u scales its mass.
    order.resize(size_t(vocab));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return scaled[size_t(a)] > scaled[size_t(b)] || (scaled[size_t(a)] == scaled[size_t(b)] && a < b);
    });
    const double target = topP * sum;
    double nucleus = 0;
    size_t keep = 0;
    while (keep < order.size()) {
        nucleus += expo[size_t(order[keep++])];
        if (nucleus >= target)
            break;
    }
    double before = 0;
    size_t at = 0;
    while (order[at] != chosen)
        before += expo[size_t(order[at++])];
    if (at < keep)
        return outside(u, before / nucleus, (before + own) / nucleus);
    // Beyond the nucleus: another machine's nucleus reaches this token only if its edge lay that much further on;
    // then the token is its nucleus's last and owns the top of the scaled interval.
    return (before - nucleus) / sum + outside(u, before / (before + own), 1.0);
}

} // namespace cohort::rl
