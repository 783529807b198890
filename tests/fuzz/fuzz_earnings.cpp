// Earnings reports come from the hub (network) and from the node's cache: strict parsing, and what is accepted
// round-trips exactly.
#include "core/EarningsReport.h"
#include "core/JsonReader.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    auto object = cohort::parseJsonObject(bytes, 1 << 20);
    if (!object)
        return 0;
    auto report = cohort::EarningsReport::fromJson(*object);
    if (!report)
        return 0;
    auto again = cohort::EarningsReport::fromJson(report->toJson());
    if (!again || !(*again == *report))
        __builtin_trap();
    (void)cohort::toCsv(*report);
    return 0;
}
