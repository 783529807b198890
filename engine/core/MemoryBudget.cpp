#include "core/MemoryBudget.h"

#include <QCoreApplication>
#include <algorithm>

namespace cohort {

namespace {
constexpr qint64 kFloat = 4;
constexpr qint64 kVocabulary = 259; // byte-level tokenizer: 256 bytes + BOS, EOS, PAD
constexpr qint64 kCudaContextBytes = 320LL << 20;
constexpr qint64 kFixedBytes = 64LL << 20; // cuBLAS workspace and allocator rounding

QString gigabytes(qint64 bytes)
{
    return QString::number(double(bytes) / double(1LL << 30), 'f', 1);
}
} // namespace

GenerationFootprint generationFootprint(const RlModelShape &m)
{
    const qint64 d = m.dModel, layers = m.nLayers, ff = m.dFF, seq = m.maxSeqLen;
    GenerationFootprint f;
    // Fused QKV (3d² + 3d), output projection (d² + d), MLP (2·d·ff + ff + d), two LayerNorms (4d) per layer;
    // embeddings, positions, final LayerNorm and head.
    const qint64 perLayer = 4 * d * d + 2 * d * ff + 9 * d + ff;
    f.weightBytes = kFloat * (layers * perLayer + kVocabulary * d + seq * d + 2 * d + kVocabulary * d + kVocabulary);
    // KV cache (2 · layers · seq · d), the prompt's prefill activations (seq · (4d + ff)), logits over the sequence for
    // scoring (seq · vocab), captured hidden states for TOPLOC (seq · d); doubled for the allocator's slack.
    const qint64 row = 2 * layers * seq * d + seq * (4 * d + ff) + seq * kVocabulary + seq * d;
    f.perRowBytes = 2 * kFloat * row;
    f.fixedBytes = kFixedBytes;
    return f;
}

int rowsWithin(const GenerationFootprint &f, qint64 budgetBytes, int wanted)
{
    const qint64 room = budgetBytes - f.weightBytes - f.fixedBytes;
    if (room < f.perRowBytes || wanted <= 0)
        return 0;
    return int(std::min<qint64>(wanted, room / std::max<qint64>(1, f.perRowBytes)));
}

qint64 gpuBudgetBytes(qint64 totalBytes, int percent)
{
    const qint64 share = totalBytes / 100 * std::clamp(percent, 0, 100);
    return std::max<qint64>(0, std::min(share, totalBytes - kCudaContextBytes));
}

QString whyItDoesNotFit(const GenerationFootprint &f, qint64 budgetBytes)
{
    if (rowsWithin(f, budgetBytes, 1) > 0)
        return {};
    return QCoreApplication::translate(
               "MemoryBudget",
               "needs %1 GB of GPU memory for one sequence; Cohort may use %2 GB of this GPU (Settings, Compute)")
        .arg(gigabytes(f.bytesFor(1)), gigabytes(budgetBytes));
}

} // namespace cohort
