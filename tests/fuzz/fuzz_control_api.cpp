// The local control API reads control.json (clients, at every command) and, in the node, the Authorization header
// and the snooze and pause/resume bodies of every request. Input: a selector byte, then the bytes for that parser.
// Each must give a value or an error, never crash, and what it accepts must satisfy the rules the callers rely on.
#include "node/ControlApi.h"

#include <QUrl>
#include <algorithm>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const QByteArray bytes(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    switch (data[0] % 4) {
    case 0: { // control.json
        auto endpoint = cohort::ControlEndpoint::parse(bytes);
        if (endpoint) {
            const QUrl url(endpoint->url);
            // Clients send the token only to this machine.
            if (url.host() != QLatin1String("127.0.0.1") || url.scheme() != QLatin1String("http") ||
                endpoint->token.size() > 128)
                __builtin_trap();
        }
        break;
    }
    case 1: { // Authorization header against a fixed token: only "Bearer <that token>" passes
        static const QByteArray token("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
        if (cohort::controlAuthorized(bytes, token) && bytes.mid(7).trimmed() != token)
            __builtin_trap();
        break;
    }
    case 2: { // POST /v1/snooze body
        auto seconds = cohort::parseSnoozeBody(bytes);
        if (seconds && (*seconds < 0 || *seconds > 7 * 24 * 3600))
            __builtin_trap();
        break;
    }
    default: { // POST /v1/pause and /v1/resume body: the whole node, or one GPU's worker by a printable UUID
        auto gpu = cohort::parseGpuBody(bytes);
        if (gpu && (gpu->size() > 96 ||
                    std::any_of(gpu->begin(), gpu->end(), [](QChar c) { return !c.isPrint() || c.isSpace(); })))
            __builtin_trap();
        break;
    }
    }
    return 0;
}
