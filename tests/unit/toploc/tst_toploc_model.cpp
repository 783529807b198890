// TOPLOC with the real policy: proofs built from generate()'s captured hidden states verify against the same
// version's teacher-forced prefill (scoreCompletions), and fail against another model. The full detection table
// (noise, precision, changed prompts) is the TOPLOC issue's bench.
#include "rl/Policy.h"
#include "rl/Tokenizer.h"
#include "toploc/Proof.h"
#include "toploc/Verify.h"

#include <ATen/Parallel.h>
#include <QTest>

using namespace cohort;

namespace {
rl::PolicyConfig smallConfig()
{
    rl::PolicyConfig c;
    c.dModel = 64;
    c.nLayers = 2;
    c.nHeads = 4;
    c.dFF = 256;
    c.maxSeqLen = 96;
    return c;
}

struct Verdicts {
    int chunks = 0;
    int accepted = 0;
};

// Generates with `prover`, verifies with `verifier`.
Verdicts proveAndVerify(rl::Policy &prover, rl::Policy &verifier)
{
    std::vector<std::vector<int32_t>> prompts;
    for (int i = 0; i < 8; ++i)
        prompts.push_back(rl::ByteTokenizer::encode("prompt number " + std::to_string(i) + ":", true));
    rl::SamplingConfig sampling;
    sampling.maxNewTokens = 70; // 32 + 32 + 6: two full chunks and a partial one
    sampling.seed = 5;
    sampling.captureHidden = true;
    auto generated = prover.generate(prompts, sampling);
    if (!generated)
        qFatal("%s", generated.error.c_str());
    std::vector<std::vector<int32_t>> completions;
    for (const rl::Completion &c : *generated)
        completions.push_back(c.tokens);
    std::vector<std::vector<float>> hidden;
    auto scored = verifier.scoreCompletions(prompts, completions, 1.0f, nullptr, &hidden);
    if (!scored)
        qFatal("%s", scored.error.c_str());
    Verdicts v;
    const size_t dim = size_t(prover.config().dModel);
    for (size_t i = 0; i < generated->size(); ++i) {
        const rl::Completion &c = (*generated)[i];
        const auto proofs = toploc::buildProofs(c.hidden.data(), c.tokens.size(), dim);
        const auto bytes = toploc::serialize(proofs);
        auto decoded = toploc::decode(bytes, toploc::chunkCount(c.tokens.size()));
        if (!decoded)
            qFatal("%s", decoded.error.c_str());
        const toploc::VerifyReport report =
            toploc::verifyProofs(*decoded.value, hidden[i].data(), c.tokens.size(), dim);
        for (const toploc::ChunkVerdict &chunk : report.chunks) {
            ++v.chunks;
            v.accepted += chunk.accepted ? 1 : 0;
        }
    }
    return v;
}
} // namespace

class TestToplocModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { at::set_num_threads(1); }

    void honestRolloutsVerify()
    {
        auto policy = rl::Policy::create(smallConfig(), 3);
        QVERIFY(policy.ok());
        auto verifierCopy = policy->clone();
        QVERIFY(verifierCopy.ok());
        policy->setFastDecode(true); // the node's path: generation on the fused CPU decoder
        const Verdicts v = proveAndVerify(*policy, *verifierCopy);
        QVERIFY(v.chunks >= 8);
        QCOMPARE(v.accepted, v.chunks); // the fused decoder's states match the reference prefill
    }

    void anotherModelIsCaught()
    {
        auto claimed = rl::Policy::create(smallConfig(), 3);
        auto actual = rl::Policy::create(smallConfig(), 4);
        QVERIFY(claimed.ok() && actual.ok());
        const Verdicts v = proveAndVerify(*actual, *claimed);
        QVERIFY(v.chunks >= 8);
        QCOMPARE(v.accepted, 0);
    }
};

QTEST_GUILESS_MAIN(TestToplocModel)
#include "tst_toploc_model.moc"
