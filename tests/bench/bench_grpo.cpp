// Tuning and evidence for the RL recipe, in one process: supervised warm-up, then on-policy GRPO steps, printing
// the mean reward on a fixed evaluation set as it goes. Not a ctest; the multi-process learning curve (hub + nodes)
// is tests/bench/learning_curve.sh.
//   bench_grpo [envs=add-sub,linear-eq] [warmup=120] [steps=200] [lr=5e-4] [warmup_lr=2e-3] [prompts=16] [g=8]
//              [d=128] [layers=3] [threads=2] [temp=1.0] [seed=1]
#include "rl/OnPolicy.h"
#include "rl/WorkSampling.h"

#include <ATen/Parallel.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>

using namespace cohort::rl;

int main(int argc, char **argv)
{
    std::map<std::string, std::string> a{{"envs", "add-sub,linear-eq"},
                                         {"warmup", "120"},
                                         {"steps", "200"},
                                         {"lr", "5e-4"},
                                         {"warmup_lr", "2e-3"},
                                         {"prompts", "16"},
                                         {"g", "8"},
                                         {"d", "128"},
                                         {"layers", "3"},
                                         {"threads", "2"},
                                         {"temp", "1.0"},
                                         {"seed", "1"},
                                         {"max_new", "8"},
                                         {"every", "20"}};
    for (int i = 1; i < argc; ++i) {
        const std::string s = argv[i];
        const auto eq = s.find('=');
        if (eq == std::string::npos || !a.count(s.substr(0, eq))) {
            std::fprintf(stderr, "unknown argument %s\n", argv[i]);
            return 2;
        }
        a[s.substr(0, eq)] = s.substr(eq + 1);
    }
    std::vector<std::string> envs;
    std::stringstream ss(a["envs"]);
    for (std::string e; std::getline(ss, e, ',');)
        envs.push_back(e);
    at::set_num_threads(std::stoi(a["threads"]));
    PolicyConfig config;
    config.dModel = std::stoi(a["d"]);
    config.nLayers = std::stoi(a["layers"]);
    config.nHeads = 4;
    config.dFF = 4 * config.dModel;
    config.maxSeqLen = 48;
    const uint64_t seed = std::stoull(a["seed"]);
    auto created = Policy::create(config, seed);
    if (!created) {
        std::fprintf(stderr, "%s\n", created.error.c_str());
        return 1;
    }
    Policy policy = std::move(*created);
    const auto start = std::chrono::steady_clock::now();
    const auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    SeedStream stream(seed);
    {
        GrpoConfig wc;
        wc.learningRate = std::stof(a["warmup_lr"]);
        Trainer warmup(policy, wc);
        for (int i = 0; i < std::stoi(a["warmup"]); ++i)
            if (auto s = warmup.supervisedStep(supervisedSamples(problemsForWork(envs, stream.next(), 32))); !s) {
                std::fprintf(stderr, "%s\n", s.error.c_str());
                return 1;
            }
    }
    const auto evalProblems = problemsForWork(envs, 0xE7A1ull, 128);
    SamplingConfig sampling;
    sampling.temperature = std::stof(a["temp"]);
    sampling.maxNewTokens = std::stoi(a["max_new"]);
    const auto evaluate = [&] {
        SamplingConfig s = sampling;
        s.seed = 777;
        auto r = sampleAndScore(policy, evalProblems, 4, s);
        return r ? r->meanReward() : -1.0;
    };
    std::printf("warm-up done in %.1f s; eval mean reward %.3f\n", elapsed(), evaluate());
    GrpoConfig gc;
    gc.learningRate = std::stof(a["lr"]);
    gc.temperature = sampling.temperature;
    Trainer trainer(policy, gc);
    double trainReward = 0;
    const int every = std::stoi(a["every"]);
    for (int step = 1; step <= std::stoi(a["steps"]); ++step) {
        SamplingConfig s = sampling;
        s.seed = stream.next();
        auto rollouts =
            sampleAndScore(policy, problemsForWork(envs, stream.next(), std::stoi(a["prompts"])), std::stoi(a["g"]), s);
        if (!rollouts) {
            std::fprintf(stderr, "%s\n", rollouts.error.c_str());
            return 1;
        }
        trainReward += rollouts->meanReward();
        auto stats = trainer.grpoStep(toRolloutSamples(*rollouts));
        if (!stats) {
            std::fprintf(stderr, "%s\n", stats.error.c_str());
            return 1;
        }
        if (step % every == 0) {
            std::printf("step %4d  %6.1f s  train reward %.3f  eval %.3f  entropy %.3f  clip %.3f\n", step, elapsed(),
                        trainReward / every, evaluate(), stats->entropy, stats->clipFraction);
            std::fflush(stdout);
            trainReward = 0;
        }
    }
    return 0;
}
