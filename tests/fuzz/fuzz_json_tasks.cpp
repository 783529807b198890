// Task catalogues and task lists arrive from hubs (network) and operators (disk).
#include "core/JsonReader.h"
#include "core/TaskInfo.h"
#include "hub/TaskCatalogue.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    if (auto object = cohort::parseJsonObject(bytes)) {
        // Strict as a hub reads its catalogue, lenient as a node reads a (newer) hub's list.
        for (const auto mode : {cohort::UnknownKinds::Refuse, cohort::UnknownKinds::Keep}) {
            if (auto tasks = cohort::parseTaskList(*object, mode)) {
                for (const cohort::TaskInfo &t : *tasks) {
                    auto again = cohort::TaskInfo::fromJson(t.toJson(), mode);
                    if (!again || !(*again == t))
                        __builtin_trap(); // what we accept must round-trip
                }
            }
        }
    }
    (void)cohort::TaskCatalogue::fromJson(bytes);
    return 0;
}
