#pragma once
// kforge generate's work: one model call per (problem, sample), as many at once as the model's
// concurrency allows, each recorded in the store as it finishes (prompt, answer, tokens, cost,
// outcome) and its candidate written into a run folder kforge eval reads. A sample that already
// has a candidate is skipped, so a stopped run goes on where it stopped.
#include <atomic>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "generate/prompt_builder.hpp"
#include "llm/model_config.hpp"
#include "store/store.hpp"
#include "suite/problem.hpp"

namespace kforge::generate {

struct GenerateOptions {
  llm::ModelConfig model;
  std::string key;           // the API key (never stored or printed)
  PromptOptions prompt;      // the format is prompt.format
  int samples = 1;
  int concurrency = 0;       // a global limit on calls at once, under the model's own (0: the model's alone)
  std::filesystem::path out_dir;
  bool dry_run = false;      // prompts and the estimated cost only
  bool force = false;        // call again for samples the store already has answers for
};

struct GenerateSummary {
  int planned = 0, skipped = 0, ok = 0, no_code = 0, failed = 0, cancelled = 0;
  int64_t input_tokens = 0, output_tokens = 0;
  double cost_usd = 0;
  // The skipped samples' recorded calls: what an earlier, resumed batch paid for them.
  int64_t earlier_input_tokens = 0, earlier_output_tokens = 0;
  double earlier_cost_usd = 0;
  double estimated_max_usd = 0;  // dry run: prompts at ~4 characters a token, plus max_tokens out
  // Why the batch stopped before its end: a call the provider refused for every call alike (a
  // refused key, an unknown model), after which no other call is started. Empty otherwise.
  std::string stopped;
  // The samples this batch asked for that got no candidate (a failed call, an answer without
  // code): `kforge run` records them with its run, where fast_p counts them as failures.
  struct Missing {
    std::string problem;  // its display name
    int level = 0, problem_id = 0, sample = 0;
    std::string outcome, message;
  };
  std::vector<Missing> missing;
  int answered() const { return ok + no_code; }  // calls the model answered, with code or not
};

// The file a sample's candidate is written to: for the Python formats (kernelbench, triton)
// upstream's OUT/level_<L>_problem_<P>_sample_<k>_kernel.py, for the native ones
// OUT/level<L>/<id>_<Name>/<model>_sample<k>.<cu|cpp>; kforge eval OUT reads both.
std::filesystem::path candidate_path(const std::filesystem::path& out_dir, const Problem& problem,
                                     const std::string& model, const std::string& format, int sample);

// `on_line` gets one line per finished call (and per skipped sample), from one thread at a time.
GenerateSummary generate_candidates(const std::vector<Problem>& problems, const GenerateOptions& options, Store& store,
                                    const std::atomic<bool>& cancel,
                                    const std::function<void(const std::string&)>& on_line);

}  // namespace kforge::generate
