#include "diloco/DilocoAudit.h"

#include "collectives/Communicator.h"
#include "collectives/Wire.h"
#include "core/JsonReader.h"
#include "core/Sha256.h"

#include <QtEndian>

#include <climits>
#include <cmath>
#include <cstring>

namespace cohort::diloco {

namespace {

constexpr char kMagic[4] = {'C', 'D', 'A', '1'};

std::span<const uint8_t> bytesOf(const std::vector<float> &values)
{
    return {reinterpret_cast<const uint8_t *>(values.data()), values.size() * sizeof(float)};
}

void appendU64(QByteArray &out, uint64_t value)
{
    char le[8];
    qToLittleEndian(value, le);
    out.append(le, 8);
}

void appendFloats(QByteArray &out, const std::vector<float> &values)
{
    static_assert(Q_BYTE_ORDER == Q_LITTLE_ENDIAN, "the audit upload is little-endian f32, as the ring's blocks");
    out.append(reinterpret_cast<const char *>(values.data()), qsizetype(values.size() * sizeof(float)));
}

std::vector<float> readFloats(const char *at, uint64_t count)
{
    std::vector<float> values(count);
    std::memcpy(values.data(), at, count * sizeof(float));
    return values;
}

Expected<QByteArray> hexDigest(JsonReader &r, const QString &key)
{
    const QString text = r.string(key, 64);
    if (!r.ok())
        return fail(r.error());
    const QByteArray digest = QByteArray::fromHex(text.toLatin1());
    if (digest.size() != 32 || digest.toHex() != text.toLatin1().toLower())
        return fail(QStringLiteral("field '%1': expected a SHA-256 digest in 64 hex digits").arg(key));
    return digest;
}

} // namespace

uint64_t dataSeedFor(const QString &nodeId)
{
    const QByteArray digest = Sha256::hash(nodeId.toUtf8());
    uint64_t seed = 0;
    for (int i = 0; i < 8; ++i)
        seed = (seed << 8) | uint8_t(digest[i]);
    return seed;
}

QJsonObject Commitment::toJson() const
{
    return QJsonObject{{QStringLiteral("step"), qint64(step)},
                       {QStringLiteral("start_digest"), QString::fromLatin1(startDigest.toHex())},
                       {QStringLiteral("adam_digest"), QString::fromLatin1(adamDigest.toHex())},
                       {QStringLiteral("delta_digest"), QString::fromLatin1(deltaDigest.toHex())},
                       {QStringLiteral("delta_norm"), deltaNorm}};
}

Expected<Commitment> Commitment::fromJson(const QJsonObject &json)
{
    JsonReader r(json, QStringLiteral("commitment"));
    Commitment c;
    c.step = uint64_t(r.integer(QStringLiteral("step"), 1, qint64(1) << 52));
    c.deltaNorm = r.optionalNumber(QStringLiteral("delta_norm"), 0, 0, 1e30);
    if (!r.ok())
        return fail(r.error());
    auto start = hexDigest(r, QStringLiteral("start_digest"));
    auto adam = hexDigest(r, QStringLiteral("adam_digest"));
    auto delta = hexDigest(r, QStringLiteral("delta_digest"));
    for (const auto *d : {&start, &adam, &delta})
        if (!*d)
            return fail(d->error());
    c.startDigest = *start;
    c.adamDigest = *adam;
    c.deltaDigest = *delta;
    return c;
}

QByteArray adamStateDigest(const std::vector<float> &m, const std::vector<float> &v, uint64_t step)
{
    QByteArray stepBytes;
    appendU64(stepBytes, step);
    return collectives::stateDigestOf(
        {collectives::tensorDigest(bytesOf(m)), collectives::tensorDigest(bytesOf(v)), Sha256::hash(stepBytes)});
}

Commitment commitmentOf(const AuditMaterial &material)
{
    Commitment c;
    c.step = material.step;
    c.startDigest =
        collectives::stateDigestOf({collectives::tensorDigest(bytesOf(material.global)), material.momentumDigest});
    c.adamDigest = adamStateDigest(material.adamM, material.adamV, material.adamStep);
    c.deltaDigest = collectives::tensorDigest(bytesOf(material.delta));
    double sum = 0;
    for (float x : material.delta)
        sum += double(x) * double(x);
    c.deltaNorm = std::sqrt(sum);
    return c;
}

QByteArray encodeAuditMaterial(const AuditMaterial &m)
{
    const uint64_t n = m.global.size();
    QByteArray out;
    out.reserve(kAuditHeaderBytes + qsizetype(4 * n * sizeof(float)));
    out.append(kMagic, 4);
    appendU64(out, m.step);
    appendU64(out, n);
    appendU64(out, m.adamStep);
    out.append(m.momentumDigest.leftJustified(32, '\0', true));
    for (const std::vector<float> *t : {&m.global, &m.adamM, &m.adamV, &m.delta})
        appendFloats(out, *t);
    return out;
}

qint64 auditMaterialSize(QByteArrayView header, uint64_t maxWeights)
{
    if (header.size() < kAuditHeaderBytes || std::memcmp(header.data(), kMagic, 4) != 0)
        return -1;
    const uint64_t n = qFromLittleEndian<quint64>(header.data() + 12);
    if (n == 0 || n > maxWeights || n > uint64_t(INT64_MAX - kAuditHeaderBytes) / 16)
        return -1;
    return kAuditHeaderBytes + qint64(4 * n * sizeof(float));
}

Expected<AuditMaterial> decodeAuditMaterial(QByteArrayView bytes, uint64_t maxWeights)
{
    const qint64 size = auditMaterialSize(bytes, maxWeights);
    if (size < 0)
        return fail(QStringLiteral("the audit material has no valid header (or more than %1 weights)").arg(maxWeights));
    if (bytes.size() != size)
        return fail(
            QStringLiteral("the audit material holds %1 bytes; its header says %2").arg(bytes.size()).arg(size));
    AuditMaterial m;
    m.step = qFromLittleEndian<quint64>(bytes.data() + 4);
    const uint64_t n = qFromLittleEndian<quint64>(bytes.data() + 12);
    m.adamStep = qFromLittleEndian<quint64>(bytes.data() + 20);
    m.momentumDigest = QByteArray(bytes.data() + 28, 32);
    const char *at = bytes.data() + kAuditHeaderBytes;
    for (std::vector<float> *t : {&m.global, &m.adamM, &m.adamV, &m.delta}) {
        *t = readFloats(at, n);
        at += n * sizeof(float);
    }
    if (m.step == 0)
        return fail(QStringLiteral("the audit material names outer step 0"));
    return m;
}

} // namespace cohort::diloco
