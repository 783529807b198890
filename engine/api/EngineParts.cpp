#include "api/EngineParts.h"

#include <atomic>

namespace cohort {

namespace {
std::atomic<const EngineParts *> g_parts{nullptr};
} // namespace

void registerEngineParts(const EngineParts *parts)
{
    g_parts.store(parts);
}

const EngineParts *registeredEngineParts()
{
    return g_parts.load();
}

} // namespace cohort
