// The messages the collectives sign or digest (Wire.h): what a peer signs to be admitted, what the hub signs for a
// recorded shared state, a ring hello, a shared-state request, and the state digest. Each starts with its own context
// string, so a signature made for one can never pass for another.
#include "collectives/Wire.h"

#include "collectives/WireCodec.h"
#include "core/Sha256.h"

#include <algorithm>

namespace cohort::collectives {

using wire::Writer;

QByteArray admissionMessage(QByteArrayView nonce, QByteArrayView publicKey)
{
    QByteArray m("cohort-collectives/1 admission\n");
    m.append(nonce);
    m.append(publicKey);
    return m;
}

QByteArray recordMessage(QByteArrayView context, uint64_t revision, QByteArrayView stateDigest)
{
    QByteArray m("cohort-collectives-state-record-v1");
    m.append('\0');
    Writer w;
    w.u16(uint16_t(std::min<qsizetype>(context.size(), 0xffff)));
    w.bytes(context.first(std::min<qsizetype>(context.size(), 0xffff)));
    w.u64(revision);
    w.bytes(stateDigest);
    return m + w.take();
}

QByteArray helloMessage(QByteArrayView ringToken, uint64_t epoch, uint32_t from, uint32_t to, uint16_t link,
                        uint8_t protection, QByteArrayView ephemeral)
{
    QByteArray m("cohort-collectives ring hello v2");
    m.append('\0');
    Writer w;
    w.bytes(ringToken);
    w.u64(epoch);
    w.u32(from);
    w.u32(to);
    w.u16(link);
    w.u8(protection);
    w.bytes(QByteArray(ephemeral.data(), std::min<qsizetype>(ephemeral.size(), qsizetype(kEphemeralKeyBytes)))
                .leftJustified(qsizetype(kEphemeralKeyBytes), '\0'));
    return m + w.take();
}

QByteArray stateRequestMessage(QByteArrayView ringToken, uint64_t revision, uint32_t from,
                               const std::vector<uint16_t> &indices)
{
    QByteArray m("cohort-collectives state request v1");
    m.append('\0');
    Writer w;
    w.bytes(ringToken);
    w.u64(revision);
    w.u32(from);
    w.u16(uint16_t(indices.size()));
    for (const uint16_t i : indices)
        w.u16(i);
    return m + w.take();
}

QByteArray stateDigestOf(const std::vector<QByteArray> &tensorDigests)
{
    Sha256 sha;
    for (const QByteArray &d : tensorDigests)
        sha.addData(d);
    return sha.result();
}

} // namespace cohort::collectives
