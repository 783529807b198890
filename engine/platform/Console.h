#pragma once
// Console facts for cohortd's progress output.
namespace cohort {

bool stdoutIsTerminal();

} // namespace cohort
