#pragma once
// How much GPU memory generating with an RL policy takes, and how many rows (sequences) fit in the share of a GPU's
// memory the user allows (Settings → Compute, "GPU memory"). The engine sizes its generation batches with it (a
// batch that does not fit is generated in several passes, same tokens), and the Tasks page uses it to say whether
// a task fits here. Float32 weights and KV cache; conservative on purpose: LibTorch's caching allocator rounds
// blocks up and keeps freed ones.
#include "core/RlTaskConfig.h"

#include <QString>

namespace cohort {

struct GenerationFootprint {
    qint64 weightBytes = 0; // the policy's parameters
    qint64 perRowBytes = 0; // one sequence: KV cache for max_seq_len tokens, activations, logits, hidden states
    qint64 fixedBytes = 0;  // workspace that does not grow with rows (GEMM workspaces, allocator slack)
    qint64 bytesFor(int rows) const { return weightBytes + fixedBytes + qint64(rows) * perRowBytes; }
};

GenerationFootprint generationFootprint(const RlModelShape &model);

// The most rows that fit in `budgetBytes` (0 when not even one does), at most `wanted`.
int rowsWithin(const GenerationFootprint &footprint, qint64 budgetBytes, int wanted);

// The budget on a GPU of `totalBytes` when Cohort may use `percent` of it; CUDA's own context (~300 MiB, outside
// LibTorch's allocator) comes off first.
qint64 gpuBudgetBytes(qint64 totalBytes, int percent);

// "needs 1.4 GB of GPU memory for one sequence; Cohort may use 0.9 GB of this GPU (Settings → Compute)", or empty
// when it fits.
QString whyItDoesNotFit(const GenerationFootprint &footprint, qint64 budgetBytes);

} // namespace cohort
