#pragma once
// The tasks tst_rl_e2e's hub serves: small RL models, so the warm-up and every trainer step take a moment, not
// minutes ("mini-rl" for the flow and credit, "kill-rl" for the kill matrix, "long-rl" for long generations).
namespace cohort::test {
inline constexpr char kRlE2eCatalogue[] =
    R"({"tasks":[{"id":"mini-rl","kind":"rl","title":"Mini sorting","reward_rate":2.0,
  "rl":{"environments":["sort-digits","reverse"],"prompts_per_batch":4,"samples_per_prompt":4,"max_new_tokens":10,
        "batches_per_step":1,"steps_per_version":2,"warmup_steps":40,"warmup_batch":16,"async_level":2,
        "model":{"d_model":32,"n_layers":1,"n_heads":2,"d_ff":64,"max_seq_len":48}}},
  {"id":"kill-rl","kind":"rl","title":"Kill matrix","reward_rate":1.0,
  "rl":{"environments":["reverse"],"prompts_per_batch":4,"samples_per_prompt":4,"max_new_tokens":48,
        "batches_per_step":1,"steps_per_version":1000,"warmup_steps":2,"warmup_batch":4,"async_level":2,
        "model":{"d_model":32,"n_layers":1,"n_heads":2,"d_ff":64,"max_seq_len":96}}},
  {"id":"long-rl","kind":"rl","title":"Long generations","reward_rate":1.0,
  "rl":{"environments":["reverse"],"prompts_per_batch":8,"samples_per_prompt":8,"max_new_tokens":200,
        "batches_per_step":1,"steps_per_version":1000,"warmup_steps":2,"warmup_batch":4,"async_level":2,
        "model":{"d_model":64,"n_layers":2,"n_heads":2,"d_ff":128,"max_seq_len":256}}}]})";
} // namespace cohort::test
