#pragma once
// How a DiLoCo task trains (prime-stack.md §1.9): the language model's shape, the inner AdamW steps each node takes
// locally, the outer Nesterov step applied to the averaged pseudo-gradient, and where the collectives master listens.
// Part of the task's JSON ("diloco": {...}); strict because it arrives over the network.
#include "core/Expected.h"
#include "core/RlTaskConfig.h"

#include <QJsonObject>

namespace cohort {

struct DilocoTaskConfig {
    int innerSteps = 20; // H: local AdamW steps between all-reduces
    double innerLearningRate = 1e-3;
    double innerWeightDecay = 0.01;
    double outerLearningRate = 0.7; // DiLoCo's outer Nesterov SGD
    double outerMomentum = 0.9;
    int batchSize = 8;                              // sequences per inner step
    int sequenceLength = 48;                        // tokens per sequence (<= model.maxSeqLen)
    QString quantization = QStringLiteral("uint8"); // pseudo-gradient on the wire: none, uint8, uint16
    quint64 seed = 1;                               // the initial weights (every node starts from the same model)
    // A ring smaller than this earns nothing (docs/CREDIT.md): one identity averaging with itself moves no data,
    // and identities are free, so the task's operator sets how many peers make an average worth paying for.
    int minRingSize = 2;
    // The L2 norm bound of one node's pseudo-gradient (diloco/DilocoRunner.h, pseudoGradientBound): every node clips
    // to it before sending, peers refuse (and the master excludes) a contribution beyond it, and the averaged step is
    // kept within it. 0: 2 x inner_steps x inner_learning_rate x sqrt(parameters), the most H AdamW steps move.
    double maxDeltaNorm = 0;
    // Audits (docs/CREDIT.md): the share of committed outer steps the hub replays (a node's first is always
    // replayed); the relative L2 difference between the replayed and the committed pseudo-gradient that still passes;
    // how many outer steps a credit stays pending (and needs a passed audit of that node at or after its step).
    double auditRate = 0.05;
    double auditTolerance = 1e-3;
    int confirmAfterSteps = 40;
    // What the ring's links carry between members (collectives/LinkCipher.h): "none", "integrity" (a Poly1305 tag on
    // every block: nothing on the path can change what is averaged) or "encryption" (ChaCha20-Poly1305: nor read it).
    // Every member uses the task's setting. Integrity by default: it costs a uint8 ring 27-43 % of its loopback rate
    // on this 2-core machine (bench_allreduce --compare-sealed), far below what a real network's bandwidth hides.
    QString linkProtection = QStringLiteral("integrity");
    quint16 masterPort = 0; // set by the hub: where its collectives master listens (same host as the hub)
    RlModelShape model{64, 2, 4, 256, 64};

    QJsonObject toJson() const;
    static Expected<DilocoTaskConfig> fromJson(const QJsonObject &json);
    bool operator==(const DilocoTaskConfig &) const = default;
};

} // namespace cohort
