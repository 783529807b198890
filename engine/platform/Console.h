#pragma once
// Console facts for cohortd's progress output.
namespace cohort {

bool stdoutIsTerminal();
// The terminal's width in columns, or 0 when unknown (not a terminal, or it does not say).
int terminalColumns();

} // namespace cohort
