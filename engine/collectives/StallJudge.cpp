#include "collectives/StallJudge.h"

#include <algorithm>
#include <functional>

namespace cohort::collectives {

std::vector<Link> disputedLinks(const std::vector<uint32_t> &order, const std::map<uint32_t, StallReport> &reports)
{
    std::vector<Link> disputed;
    const size_t n = order.size();
    if (n < 2)
        return disputed;
    for (size_t k = 0; k < n; ++k) {
        const uint32_t from = order[k], to = order[(k + 1) % n];
        const auto sender = reports.find(from), receiver = reports.find(to);
        const bool senderBlocked = sender != reports.end() && sender->second.blocked;
        bool receiverStarvedOfHeld = false;
        if (receiver != reports.end() && receiver->second.starved) {
            // A sender that said nothing (or finished) claims nothing it could be held to: it had everything.
            receiverStarvedOfHeld = sender == reports.end() || sender->second.completed ||
                                    senderHeld(sender->second.received, receiver->second.received);
        }
        if (senderBlocked || receiverStarvedOfHeld)
            disputed.push_back(Link{from, to});
    }
    return disputed;
}

namespace {

size_t linksUsed(const std::vector<uint32_t> &order, const std::set<Link> &avoid)
{
    size_t used = 0;
    for (size_t k = 0; k < order.size() && order.size() > 1; ++k)
        used += avoid.count(Link{order[k], order[(k + 1) % order.size()]});
    return used;
}

} // namespace

std::vector<uint32_t> orderAvoiding(const std::vector<uint32_t> &members, const std::set<Link> &avoid)
{
    if (members.size() < 3 || avoid.empty() || linksUsed(members, avoid) == 0)
        return members; // a ring of two uses both directions whatever the order
    // Depth-first from the first member, trying the others in their given order: the first ring found keeps as much
    // of the given order as the disputes allow. Bounded, so a crowd of disputes cannot make formation slow.
    const size_t n = members.size();
    std::vector<uint32_t> path{members.front()};
    std::vector<bool> placed(n, false);
    placed[0] = true;
    size_t budget = 20'000;
    std::function<bool()> extend = [&]() -> bool {
        if (path.size() == n)
            return !avoid.count(Link{path.back(), path.front()});
        for (size_t i = 1; i < n; ++i) {
            if (placed[i] || avoid.count(Link{path.back(), members[i]}))
                continue;
            if (budget == 0)
                return false;
            --budget;
            placed[i] = true;
            path.push_back(members[i]);
            if (extend())
                return true;
            path.pop_back();
            placed[i] = false;
        }
        return false;
    };
    if (extend())
        return path;
    // Every order uses a disputed link (or the search gave up): the rotation-free order using fewest of them,
    // between the given order and its reverse.
    std::vector<uint32_t> reversed(members.rbegin(), members.rend());
    return linksUsed(reversed, avoid) < linksUsed(members, avoid) ? reversed : members;
}

} // namespace cohort::collectives
