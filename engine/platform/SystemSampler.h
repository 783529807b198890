#pragma once
// Reads whole-machine CPU utilisation and memory, and this process's resident memory, from the OS.
#include "core/EngineSnapshot.h"

#include <memory>

namespace cohort {

class SystemSampler {
public:
    virtual ~SystemSampler() = default;
    // CPU percent is the utilisation since the previous call (so the first call reports -1).
    virtual SystemSample sample() = 0;
};

std::unique_ptr<SystemSampler> createSystemSampler();

} // namespace cohort
