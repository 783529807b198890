// The four signing headers and the body come from anyone on the network.
#include "net/ReplayGuard.h"
#include "net/RequestSigning.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // Fields separated by '\n': key, timestamp, nonce, signature, method, path, then the body.
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    QList<QByteArray> parts = bytes.split('\n');
    while (parts.size() < 7)
        parts.append(QByteArray());
    const QByteArray body = bytes.mid(qsizetype(parts[0].size() + parts[1].size() + parts[2].size() + parts[3].size() +
                                                parts[4].size() + parts[5].size() + 6));
    static cohort::ReplayGuard replays(cohort::signing::kDefaultWindowMs, 10000);
    cohort::RequestVerifier verifier(replays);
    const auto header = [&parts](const QByteArray &name) -> QByteArray {
        if (name == cohort::signing::kKeyHeader)
            return parts[0];
        if (name == cohort::signing::kTimestampHeader)
            return parts[1];
        if (name == cohort::signing::kNonceHeader)
            return parts[2];
        if (name == cohort::signing::kSignatureHeader)
            return parts[3];
        return {};
    };
    cohort::VerifiedRequest out;
    cohort::VerificationError error;
    if (verifier.verify(parts[4], parts[5], header, body, parts[1].toLongLong(), &out, &error) &&
        out.publicKey.size() != 32)
        __builtin_trap();
    return 0;
}
