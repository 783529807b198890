#pragma once
// What the trainer's verification of one batch found, stored with the submission in the ledger: the plausibility
// figure and the TOPLOC statistics (the worst chunk of the rollouts whose proofs were checked).
#include <QMetaType>

namespace cohort {

struct VerificationStats {
    double meanLogProb = 0;   // mean (log p + entropy) per token under the claimed version
    int rollouts = 0;         // samples in the batch
    int rolloutsChecked = 0;  // samples whose TOPLOC proofs were compared (verify_fraction of them)
    int chunks = 0;           // proof chunks compared
    int worstExpMatches = -1; // of worstPoints; -1 when nothing was compared
    int worstPoints = 0;
    double worstMantissaMean = -1;
    double worstMantissaMedian = -1;
    // Verifiable sampling: the largest distance (probability mass) between a token's uniform and the interval the
    // claimed version gives that token, over every token of the batch (-1: not checked); tokens beyond tolerance.
    double worstSamplingGap = -1;
    int offSampleTokens = 0;
    // The node's work was refused on evidence (sampling, plausibility, TOPLOC): counts towards flagging the node.
    // Refusals that are not the node's doing (the hub lost a version, the trainer is not ready) do not.
    bool failedVerification = false;
};

} // namespace cohort

Q_DECLARE_METATYPE(cohort::VerificationStats)
