#pragma once
// The inputs cohort-collective-peer reduces, so tests can recompute the exact sum: peer `seed`, operation `op`.
// splitmix64 per element: fast enough that peers spend their time in the all-reduce, not making data.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cohort::test {

inline std::vector<float> collectiveInput(uint64_t seed, int op, size_t count, bool integers)
{
    std::vector<float> v(count);
    uint64_t state = seed * 0x9e3779b97f4a7c15ull + uint64_t(op) * 0xd1b54a32d192ed03ull + 1;
    for (float &x : v) {
        uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        const float u = float(z >> 40) * (1.0f / 16777216.0f) * 2.0f - 1.0f; // [-1, 1), 24 random bits
        x = integers ? std::round(u * 1000.0f) : u * 4.0f;
    }
    return v;
}

} // namespace cohort::test
