#pragma once
// The hostile behaviours a test peer puts on (tests/support/CollectivePeer.cpp and the collectives' attack tests): a
// member that cannot prove its key, sends unchecked input, lies about its neighbours, stalls, forges hellos or served
// state, or rewrites what it sends. Kept out of CommunicatorOptions: production code never includes this header, and
// a communicator without faults (options.faults null, every program but the tests) does none of it.
#include "quant/Quantize.h"

#include <QByteArray>
#include <functional>

namespace cohort::collectives {

struct CommunicatorFaults {
    QByteArray challengeKeyOverride; // sign the challenge with this key instead (a peer that cannot prove its key)
    // Send this peer's own input without checking it against the bound, and check nothing received (so a hostile
    // input is all it does wrong).
    bool unchecked = false;
    bool blameAlways = false; // accuse the ring predecessor of every operation (a liar)
    bool fakeReady = false;   // answer Ready without linking to the neighbours
    bool stallRing = false;   // take part in operations without sending or reading anything on the ring
    // A staller that frames its predecessor: it sends its own step-0 blocks, reads everything, passes nothing on, and
    // says it starved waiting for its predecessor's very first block.
    bool frameStall = false;
    // At each formation, first open links to the member two places on, claiming to be its predecessor (the hellos
    // signed with this peer's own key: forged).
    bool forgeHello = false;
    bool serveForged = false; // serve shared state with every piece's first byte flipped
    int linkDelayMs = 0; // for the honest side of a test: wait this long before linking to the successor (a slow path)
    std::function<void(quant::QuantParams &)> tamperParams; // rewrite the header of each block of its own input
    bool rewriteSealed = false; // flip a bit of every sealed block after sealing it (a path rewriting a protected link)
};

} // namespace cohort::collectives
