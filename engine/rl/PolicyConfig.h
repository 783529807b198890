#pragma once
// Shape of the policy transformer. Stored in the checkpoint's safetensors "__metadata__" as one string per field
// ("cohort.model.d_model" = "256", ...), so a checkpoint describes itself. Qt-free.
#include "base/Result.h"

#include <map>
#include <string>

namespace cohort::rl {

struct PolicyConfig {
    int vocabSize = 259; // ByteTokenizer::kVocabSize
    int dModel = 256;
    int nLayers = 4;
    int nHeads = 4;
    int dFF = 1024;      // MLP hidden width (4 x dModel by default)
    int maxSeqLen = 256; // prompt + completion, positions are learned embeddings of this length
    float normEps = 1e-5f;

    // Empty string when usable; otherwise why not (dModel % nHeads, ranges, hostile sizes > 1e9 parameters...).
    std::string validate() const;
    long long parameterCount() const;

    std::map<std::string, std::string> toMetadata() const; // keys "cohort.model.*"
    static Result<PolicyConfig> fromMetadata(const std::map<std::string, std::string> &metadata);
    bool operator==(const PolicyConfig &) const = default;
};

} // namespace cohort::rl
