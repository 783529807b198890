#pragma once
// The evidence behind DiLoCo credit (docs/CREDIT.md). After each outer step a node commits to the hub what it started
// from and what it contributed (SHA-256 digests); when the hub audits that step, the node uploads the material the
// digests cover, and the hub replays the node's H inner steps from it (diloco/DilocoReplay.h) — a node that sent
// zeros, noise or another node's work cannot produce material that both matches its commitment and replays.
//
// The material is everything the replay needs that the hub does not know: the shared weights the step started from
// (their digest, with the momentum's, is the hub's signed record of that revision), the node's AdamW state then, and
// the pseudo-gradient it contributed. The data batches follow from the node's id (dataSeedFor), which the hub knows.
// Qt and collectives only (no LibTorch): the hub's parsers and the fuzz targets use it as is.
#include "core/Expected.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <vector>

namespace cohort::diloco {

// The node's data stream: its own (so the nodes' pseudo-gradients differ), stable across restarts, and known to the
// hub (it is a function of the node id alone), so an audit replays the batches the node trained on.
uint64_t dataSeedFor(const QString &nodeId);

struct AuditMaterial {
    uint64_t step = 0;               // the outer step (the all-reduce's tag): from revision step - 1 to step
    std::vector<float> global;       // the shared weights at revision step - 1
    QByteArray momentumDigest;       // tensorDigest of the outer momentum then (the record covers both)
    std::vector<float> adamM, adamV; // the node's inner AdamW moments at the step's start
    uint64_t adamStep = 0;
    std::vector<float> delta; // the pseudo-gradient the node contributed (after clipping)
};

struct Commitment {
    uint64_t step = 0;
    QByteArray startDigest; // stateDigestOf(global, momentum): must be the hub's record of revision step - 1
    QByteArray adamDigest;  // adamStateDigest
    QByteArray deltaDigest; // tensorDigest(delta)
    double deltaNorm = 0;

    QJsonObject toJson() const;
    // Strict: a step of at least 1 and three 32-byte digests in hex; the norm finite and not negative.
    static Expected<Commitment> fromJson(const QJsonObject &json);
    bool operator==(const Commitment &) const = default;
};

QByteArray adamStateDigest(const std::vector<float> &m, const std::vector<float> &v, uint64_t step);
Commitment commitmentOf(const AuditMaterial &material);

// The upload: "CDA1", u64 step, u64 weights n, u64 adamStep, 32-byte momentum digest, then global, m, v, delta as
// n little-endian f32 each. Decoding refuses anything else (wrong magic, sizes, a count above maxWeights, bytes
// left over) with a reason; values are not judged here (the replay does).
inline constexpr qsizetype kAuditHeaderBytes = 4 + 8 + 8 + 8 + 32;
QByteArray encodeAuditMaterial(const AuditMaterial &material);
// The size a whole upload must have, from its first kAuditHeaderBytes; -1 when those are no header (or n > maxWeights).
qint64 auditMaterialSize(QByteArrayView header, uint64_t maxWeights);
Expected<AuditMaterial> decodeAuditMaterial(QByteArrayView bytes, uint64_t maxWeights);

} // namespace cohort::diloco
