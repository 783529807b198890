#pragma once
// The engine's fault-injection hooks, all in one place: switches only the integration tests set (environment
// variables read once), which let a test run a real cohortd at exactly the moment or on the devices it needs. Unset in
// every real run, where each costs a relaxed load or a string compare. Kept out of the headers of the parts that call
// them, so their interfaces are the production ones.
#include <QtGlobal>

namespace cohort {

// Testing only (tst_rl_e2e's kill matrix): COHORT_TESTING_HALT_AT="<point>[@<index>][#<n>]" parks the calling
// thread for good the n-th time (default 1) the named point is reached with that index, after printing
// "COHORT_TESTING_HALT_AT: halted at <spec> (t=<epoch ms>)" to stderr, so that a test can kill -9 the node at
// exactly that moment instead of guessing from timing. Points: work-received, token@<tokens generated so far>,
// rollout@<samples finished>, batch-saved, ack-received (the hub's answer to a submission, not yet handled),
// bundle-part (an engine bundle written but not yet renamed into place). Unset: a relaxed atomic load per call.
bool testingHaltArmed();
void testingHaltPoint(const char *point, int index = -1);

// Testing only (tst_compute_fleet, tst_cohortd_gpus): COHORT_TESTING_GPUS_ON_CPU=1 lets NVML's GPUs (the fake NVML's)
// stand in for CUDA devices on a machine without CUDA: each gets its worker, named "cuda:k" as a real one would be,
// whose policy runs on the CPU. Unset in every real run.
bool testingGpusOnCpu();

} // namespace cohort
