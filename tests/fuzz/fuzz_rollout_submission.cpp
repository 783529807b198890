// Rollout submissions arrive from untrusted nodes: the intake must refuse anything malformed with a reason and
// never crash. The input is used as the request body against a fixed task and work item.
#include "core/JsonReader.h"
#include "hub/RolloutIntake.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const cohort::TaskInfo task = [] {
        cohort::TaskInfo t;
        t.id = QStringLiteral("arith-rl");
        t.kind = QStringLiteral("rl");
        t.title = QStringLiteral("fuzz");
        t.rewardRate = 1;
        cohort::RlTaskConfig c;
        c.environments = {QStringLiteral("add-sub"), QStringLiteral("sort-digits")};
        c.promptsPerBatch = 2;
        c.samplesPerPrompt = 2;
        c.maxNewTokens = 8;
        t.rl = c;
        return t;
    }();
    cohort::WorkRecord work;
    work.workId = QStringLiteral("w-1");
    work.nodeId = QStringLiteral("n-00000000000000000000");
    work.taskId = task.id;
    work.seed = 7;
    work.status = QStringLiteral("open");
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    auto body = cohort::parseJsonObject(bytes, 1 << 20);
    if (!body)
        return 0;
    (void)cohort::submissionIdOf(*body);
    const cohort::IntakeResult r = cohort::checkSubmission(*body, work.nodeId, task, work, 3);
    if (!r.batch && (r.code.isEmpty() || r.message.isEmpty()))
        __builtin_trap(); // every refusal has a reason
    if (r.batch) {
        for (const auto &g : r.batch->groups)
            for (const auto &s : g.samples)
                if (s.tokens.empty() || s.tokens.size() > 8 || s.reward < 0 || s.reward > 1)
                    __builtin_trap(); // accepted means within the task's limits
    }
    return 0;
}
