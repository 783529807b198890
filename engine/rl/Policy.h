#pragma once
// The policy: a decoder-only, pre-norm transformer over bytes (learned positions, causal self-attention, GELU MLP,
// final LayerNorm, untied output head). Qt-free; LibTorch is hidden behind a pimpl so includers stay fast to compile.
// The same code runs on CPU and CUDA; a fused CPU path makes batch-1..32 generation cheap on a 2-core machine.
//
// Threads: a Policy is used by one thread at a time (the compute thread). `cancel` is polled between tokens.
#include "base/Result.h"
#include "rl/PolicyConfig.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cohort::rl {

struct SamplingConfig {
    float temperature = 1.0f; // > 0; logits are divided by it before softmax
    float topP = 1.0f;        // nucleus sampling, (0, 1]
    bool greedy = false;      // the most likely token every time (evaluation); logProbs still at `temperature`
    int maxNewTokens = 32;    // generation stops at kEos or after this many tokens
    uint64_t seed = 0;        // same seed, same prompts, same weights, same device -> same tokens
    // Row b draws from the random stream of row firstRow + b: a batch generated in several passes (to fit a GPU
    // memory cap) samples what it would have sampled in one.
    uint64_t firstRow = 0;
    bool captureHidden = false; // keep the final-norm hidden state of every generated token (TOPLOC proofs)
    // When set (with captureHidden), receives the seconds generate() spent copying hidden states: the capture's
    // share of generation, measured where the machine's noise cannot hide it (bench_toploc_detection).
    double *captureSeconds = nullptr;
    // Called on the generating thread before each decoding step with the tokens generated so far per row (0: before
    // the first). For tests that must stop a node at an exact token (cohortd's COHORT_TESTING_HALT_AT).
    std::function<void(int)> beforeToken;
};

struct Completion {
    std::vector<int32_t> tokens; // generated ids, ending with kEos when `finished`
    std::vector<float> logProbs; // log p(token) under the temperature-scaled distribution, one per token
    bool finished = false;       // emitted kEos
    // With captureHidden: tokens.size() x dModel floats, row i is the final-norm state that produced tokens[i].
    std::vector<float> hidden;
};

class Policy {
public:
    Policy(Policy &&) noexcept;
    Policy &operator=(Policy &&) noexcept;
    ~Policy();

    // Fresh weights from a seed (deterministic on one device). device: "cpu", "cuda", "cuda:1".
    static Result<Policy> create(const PolicyConfig &config, uint64_t seed, const std::string &device = "cpu");
    // Reads a safetensors checkpoint written by save(): config from metadata, every tensor present with the right
    // shape and dtype (F32 or BF16), nothing extra. A damaged file is an error, never a crash.
    static Result<Policy> load(const std::string &path, const std::string &device = "cpu");
    // Atomic write (temp + rename); extraMetadata is merged into the file's metadata (keys must not start
    // "cohort.model.").
    Outcome save(const std::string &path, const std::map<std::string, std::string> &extraMetadata = {}) const;
    // The metadata of the file this policy was loaded from (empty for create()).
    const std::map<std::string, std::string> &metadata() const;

    const PolicyConfig &config() const;
    std::string device() const;
    Result<Policy> clone() const; // deep copy of the weights (the hub keeps old versions for staleness checks)
    // Multiplies every weight by (1 + relative * N(0,1)), seeded: a node running modified weights, for the tests and
    // benches that check the hub catches one (TOPLOC). Never called in normal operation.
    Outcome perturbWeights(double relative, uint64_t seed);

    // Samples one completion per prompt (rows may have different lengths; each prompt must be non-empty and
    // prompt + maxNewTokens <= maxSeqLen). To get G samples of one prompt, pass it G times. Returns "cancelled"
    // when *cancel became true.
    Result<std::vector<Completion>> generate(const std::vector<std::vector<int32_t>> &prompts,
                                             const SamplingConfig &sampling, const std::atomic<bool> *cancel = nullptr);

    // Teacher-forced log-probabilities of each completion token given prompt + preceding completion tokens,
    // with logits divided by `temperature`. Used by the hub to score rollouts; matches generate()'s logProbs.
    // With `entropies`, also the entropy of the distribution each token was drawn from (same shape): an honest
    // sample's log-probabilities average about minus that entropy. With `hiddenStates`, the final-norm state that
    // produced each completion token (tokens x dModel per completion, as generate()'s captureHidden): the
    // verifier's side of a TOPLOC proof.
    // With `visitLogits`, it is called for every completion token with the untempered logits it was drawn from
    // (row, token index, vocab floats): the verifier's side of verifiable sampling (rl/VerifiableSampling.h).
    using LogitsVisitor = std::function<void(size_t row, size_t token, const float *logits, int vocab)>;
    Result<std::vector<std::vector<float>>> scoreCompletions(const std::vector<std::vector<int32_t>> &prompts,
                                                             const std::vector<std::vector<int32_t>> &completions,
                                                             float temperature = 1.0f,
                                                             std::vector<std::vector<float>> *entropies = nullptr,
                                                             std::vector<std::vector<float>> *hiddenStates = nullptr,
                                                             const LogitsVisitor &visitLogits = {});

    // The fused CPU decoder (on by default; only used on CPU). Off = the LibTorch reference path, for tests and
    // benchmarks; both give the same log-probabilities to float rounding.
    void setFastDecode(bool enabled);
    bool fastDecode() const;
    // Intra-op CPU threads for LibTorch and the fused decoder (process-wide; OpenMP pool shared with OpenBLAS).
    static void setComputeThreads(int threads);
    static int computeThreads();
    // body(0) .. body(n - 1) on the compute threads, dynamically scheduled (the same OpenMP team generation used:
    // a helper thread of our own would compete with that team's workers, which spin a while after each step).
    static void parallelFor(size_t n, const std::function<void(size_t)> &body);

    class Impl;
    Impl &impl() { return *m_impl; } // for the trainer (same library)
    const Impl &impl() const { return *m_impl; }

private:
    explicit Policy(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace cohort::rl
