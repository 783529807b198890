#pragma once
// cohortd --control COMMAND: one request to the node running on a data folder, its answer printed.
#include <QString>

namespace cohort {

// Returns the process exit code: 0 done, 1 the node refused or is not running, 2 a bad command.
int runControlCommand(const QString &dataDir, const QString &command);

} // namespace cohort
