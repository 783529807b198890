// The DiLoCo audit's formats come from nodes (network): the uploaded material (binary) and the commitment (JSON).
// Input starting with '{' is a commitment, anything else material. Strict parsing; what is accepted round-trips
// exactly, and a material's size from its header agrees with what decoding accepts.
#include "core/JsonReader.h"
#include "diloco/DilocoAudit.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace cohort::diloco;
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    if (bytes.startsWith('{')) {
        auto object = cohort::parseJsonObject(bytes, 4096);
        if (!object)
            return 0;
        auto c = Commitment::fromJson(*object);
        if (!c)
            return 0;
        auto again = Commitment::fromJson(c->toJson());
        if (!again || !(*again == *c))
            __builtin_trap();
        return 0;
    }
    constexpr uint64_t kMaxWeights = 1 << 16;
    const qint64 expected = auditMaterialSize(bytes, kMaxWeights);
    auto material = decodeAuditMaterial(bytes, kMaxWeights);
    if (!material)
        return 0;
    if (expected != bytes.size() || encodeAuditMaterial(*material) != bytes)
        __builtin_trap();
    (void)commitmentOf(*material);
    return 0;
}
