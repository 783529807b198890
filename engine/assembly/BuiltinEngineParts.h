#pragma once
// The engine parts linked into this program: node/Engine and the embedded hub (hub/EmbeddedHub). cohortd, cohort-hub
// and the tests register them at start; the desktop app's engine module exports them (app/cohort/EngineModule.cpp).
#include "api/EngineParts.h"

namespace cohort {

const EngineParts &builtinEngineParts();

} // namespace cohort
