#pragma once
// What the benchmarks report of repeated samples: the median and the range (min-max), never a best-of.
#include <algorithm>
#include <vector>

namespace cohort::bench {

struct Spread {
    double median = 0, min = 0, max = 0;
};

inline Spread spreadOf(std::vector<double> v)
{
    if (v.empty())
        return {};
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return {n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, v.front(), v.back()};
}

} // namespace cohort::bench
