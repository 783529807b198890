// The collectives' wire format (engine/collectives/Wire.h): every byte a master or a peer reads from the network.
// The first input byte picks the channel; the rest is the stream. Frames that parse must re-encode into frames
// that parse again to the same message.
#include "collectives/Wire.h"

#include <cstdint>

using namespace cohort::collectives;

namespace {

template <typename Parse>
void roundTrip(const Frame &frame, Channel channel, Parse parse)
{
    const auto message = parse(frame.payload);
    if (!message)
        return;
    FrameDecoder again(channel);
    again.feed(encode(*message));
    Frame out;
    if (again.next(out) != FrameDecoder::Result::Frame || out.type != frame.type || !parse(out.payload))
        __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const Channel channel = Channel(data[0] % 3);
    FrameDecoder decoder(channel);
    // Feed in two pieces so truncated frames are exercised too.
    const size_t half = (size - 1) / 2;
    decoder.feed(reinterpret_cast<const char *>(data + 1), half);
    Frame frame;
    bool fedRest = false;
    for (;;) {
        const auto r = decoder.next(frame);
        if (r == FrameDecoder::Result::Error)
            break;
        if (r == FrameDecoder::Result::NeedMore) {
            if (fedRest)
                break;
            decoder.feed(reinterpret_cast<const char *>(data + 1 + half), size - 1 - half);
            fedRest = true;
            continue;
        }
        // A frame never exceeds its type's cap.
        const auto cap = payloadCap(channel, uint16_t(frame.type));
        if (!cap || size_t(frame.payload.size()) > *cap)
            __builtin_trap();
        (void)parseAny(frame);
        switch (frame.type) {
        case Type::Hello: roundTrip(frame, channel, parseHello); break;
        case Type::Topology: roundTrip(frame, channel, parseTopology); break;
        case Type::Begin: roundTrip(frame, channel, parseBegin); break;
        case Type::Done: roundTrip(frame, channel, parseDone); break;
        case Type::Outcome: roundTrip(frame, channel, parseOutcome); break;
        case Type::Ready: roundTrip(frame, channel, parseReady); break;
        case Type::Commence: roundTrip(frame, channel, parseCommence); break;
        case Type::PeerHello: roundTrip(frame, channel, parsePeerHello); break;
        case Type::SyncState: roundTrip(frame, channel, parseSyncState); break;
        case Type::SyncPlan: roundTrip(frame, channel, parseSyncPlan); break;
        case Type::SyncComplete: roundTrip(frame, channel, parseSyncComplete); break;
        case Type::StateRequest: roundTrip(frame, channel, parseStateRequest); break;
        default: break;
        }
    }
    return 0;
}
