#pragma once
// Rings whose peers are threads of the test process (with a MasterInThread): join, run a body per peer, compare.
#include "collectives/Communicator.h"

#include <QDeadlineTimer>

#include <cstring>
#include <functional>
#include <thread>
#include <vector>

namespace cohort::test {

// Connects and waits until the ring holds `world` peers.
inline Status joinRing(collectives::Communicator &comm, int world)
{
    using collectives::Code;
    Status r = comm.connect();
    const QDeadlineTimer deadline(30'000);
    while (r && comm.worldSize() < world && !deadline.hasExpired())
        r = comm.updateTopology();
    if (r && comm.worldSize() != world)
        return cohort::fail(QStringLiteral("ring of %1, not %2").arg(comm.worldSize()).arg(world), Code::Timeout);
    return r;
}

// Runs `body(peerIndex)` on `n` threads and joins them.
inline void onPeers(int n, const std::function<void(int)> &body)
{
    std::vector<std::thread> threads;
    for (int i = 0; i < n; ++i)
        threads.emplace_back(body, i);
    for (std::thread &t : threads)
        t.join();
}

// The same floats, bit for bit (NaNs and signed zeros included).
inline bool bitIdentical(const std::vector<float> &a, const std::vector<float> &b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

} // namespace cohort::test
