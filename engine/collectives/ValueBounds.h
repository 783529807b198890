#pragma once
// What a peer accepts from the ring. Every value that arrives is a partial or full sum of k peers' contributions; with
// the operation's norm bound C (each contribution's L2 norm is at most C, so each of its values at most C in size):
//   * every value, and every quantization header's min and max, is finite and within k * C (times kSlack);
//   * the L2 norm of a chunk's values after one step is at most k * C (times kSlack), since the norm of a sum is at
//     most the sum of the norms (the chunk is a part of each contribution, so its part of each norm is at most C).
// Without a bound (C = 0) values must still be finite. A peer that sends anything else is named and the operation
// aborted: one out-of-bound contribution never reaches a model, and the damage an in-bound one can do is bounded by
// C (ROBUSTNESS.md in docs/ says why that is the part of robust aggregation a ring can afford).
#include <cstddef>
#include <cstdint>

namespace cohort::collectives {

// Slack for float rounding and the quantization error of the hops (at most half a step per hop, tiny next to C for
// anything a real bound lets through): 5 %.
inline constexpr double kBoundSlack = 1.05;

// The largest size a value of a sum of `contributions` contributions may have; infinity for no bound (C = 0).
double valueLimit(float normBound, int contributions);

struct ScanResult {
    bool withinLimit = true; // every value finite and |x| <= limit
    double sumSquares = 0;
};
// One pass over values just received (hot in cache), vectorized.
ScanResult scanValues(const float *values, size_t count, double limit);

// The norm of a contribution, and whether its values are all finite (a peer checks its own input before sending).
struct NormResult {
    bool finite = true;
    double norm = 0;
};
NormResult l2Norm(const float *values, size_t count);

} // namespace cohort::collectives
