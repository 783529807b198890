#pragma once
// Who stalled an aborted ring operation, from what its members said when they stopped (Done: starved, blocked,
// and how far each had received). Standard library only: the master's bookkeeping around it lives in Master.
//
// The ring is pipelined block by block: a member can send block b of step s once it has received block b of step
// s - 1 (step 0 is its own input: always). So each report is a claim about one link. Link p -> i is *disputed* when
// the two ends' claims cannot both be true of an honest pair on a working path:
//   * i starved (waited half its I/O timeout) for block (s, b) while p says it held what that block needs — p had
//     received past (s - 1, b), or s is 0, or p finished the operation, or p never reported at all;
//   * p was blocked (waited half its I/O timeout for i to read) — an honest member reads whatever arrives.
// Either end may be the liar (a staller that claims it starved frames its predecessor), or the path between them
// failed. A stall upstream of a member shows up as a consistent chain (each member waits on a block its predecessor
// did not yet have), so honest members downstream of a staller are never in a dispute.
#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace cohort::collectives {

// Where a member's receiving stood: the next block it waited for (step, block within that step's chunk).
struct RingCursor {
    uint32_t step = 0;
    uint32_t block = 0;
    // Plain comparisons, not <=>: moc 6.4 cannot read <compare>, and Master.h includes this header.
    bool operator==(const RingCursor &o) const { return step == o.step && block == o.block; }
    bool operator<(const RingCursor &o) const { return step != o.step ? step < o.step : block < o.block; }
    bool operator>(const RingCursor &o) const { return o < *this; }
};

// The ring schedule's send rule (CommunicatorRing's txReady): block `wanted` can go out once the sender has
// received past block `wanted.block` of step `wanted.step - 1`.
inline bool senderHeld(RingCursor senderReceived, RingCursor wanted)
{
    return wanted.step == 0 || senderReceived > RingCursor{wanted.step - 1, wanted.block};
}

struct StallReport {
    bool completed = false; // it sent Done with no abort: it received and sent everything
    bool starved = false;
    bool blocked = false;
    RingCursor received; // the next block it waited for
};

struct Link {
    uint32_t from = 0;
    uint32_t to = 0;
    bool operator==(const Link &o) const { return from == o.from && to == o.to; }
    bool operator<(const Link &o) const { return from != o.from ? from < o.from : to < o.to; }
};

// The disputed links of one aborted operation run on `order` (ring order: order[k] sends to order[k + 1]); members
// missing from `reports` said nothing.
std::vector<Link> disputedLinks(const std::vector<uint32_t> &order, const std::map<uint32_t, StallReport> &reports);

// A ring order of `members` in which no link of `avoid` is used, as close to `members` as it can find (the given
// order when it already avoids them); when every order uses one (a ring of two), the one that uses fewest.
std::vector<uint32_t> orderAvoiding(const std::vector<uint32_t> &members, const std::set<Link> &avoid);

} // namespace cohort::collectives
