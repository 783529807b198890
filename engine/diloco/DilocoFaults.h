#pragma once
// Testing only (the hub's audit suite, tst_diloco_audit): COHORT_TEST_DILOCO_ATTACK makes this node's DiLoCo training
// one of the cheats the hub must catch. Read once from the environment; None in every real run. Kept out of
// DilocoRunnerOptions, so the runner's interface is the production one.
#include <QtGlobal>

namespace cohort::diloco {

enum class DilocoCheat {
    None,
    Idle,  // "idle": trains nothing and averages what it has
    Noise, // "noise": contributes noise of the honest norm, sent and committed alike
    Copy,  // "copy": trains on another node's batches (one computation for several identities)
};

DilocoCheat testingDilocoCheat();

} // namespace cohort::diloco
