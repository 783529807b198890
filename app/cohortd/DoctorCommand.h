#pragma once
// cohortd --doctor: checks this computer against what Cohort needs (engine/doctor) and prints each finding with its
// fix; --json prints the report as one JSON object (what the desktop app's Help › Check this computer reads).
#include "api/EngineController.h"

namespace cohort {

// Returns the process exit code: 0 nothing failed (warnings allowed), 1 something failed.
int runDoctorCommand(const EngineOptions &options, bool json);

} // namespace cohort
