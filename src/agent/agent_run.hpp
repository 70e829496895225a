#pragma once
// kforge agent's loop over a set of problems, one search per problem side by side: each round, the
// search policy proposes attempts; the models answer them (as many calls at once as each model's
// concurrency allows, across all the searches); every answer becomes a node in the store at once,
// its candidate a file in the run folder; the round's candidates are then built and evaluated on
// leased warm workers, and each node gets its verdict and feedback digest. While one search waits
// for its models, another's candidates run on the GPU. Budgets and stopping rules end each
// problem's search; the best of each is re-verified on fresh seeds and written out.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "agent/search_policy.hpp"
#include "agent/stopping.hpp"
#include "generate/prompt_builder.hpp"
#include "llm/model_config.hpp"
#include "planner/executor.hpp"
#include "planner/plan.hpp"
#include "store/store.hpp"

namespace kforge::agent {

struct AgentModel {
  llm::ModelConfig config;
  std::string key;  // never stored or printed
};

struct AgentOptions {
  std::vector<AgentModel> models;  // several: attempts go to each in turn, in one search
  // The planner: before each refinement it reads the parent and its digest and writes the plan the
  // refiner is given (prompts/agent_plan.md). Optional; it may be another model.
  std::optional<AgentModel> planner;
  std::string policy = "serial";
  PolicyOptions policy_options;
  generate::PromptOptions prompt;  // prompt.format is the candidates' format
  double debugger_temperature = 0.2;
  Budgets budgets;
  uint64_t seed = 1;                // the policy's draws
  std::filesystem::path out_dir;    // candidates, and best/ at the end
  EvalSettings eval;
  ExecutorConfig workers;
  bool reverify = true;             // the best of each problem evaluated again on fresh seeds at the end
  // Nsight Compute (agent/kernel_profile.hpp): after each round, a problem's new best kernel win
  // gets its slowest own kernel profiled on a leased GPU, the digest added to its feedback.
  // Empty: never profiled.
  std::filesystem::path ncu;
  bool profile_confined = true;  // the candidate sandbox around the profiled candidate's code
  std::chrono::seconds profile_timeout{600};
};

struct AgentSummary {
  int attempts = 0;  // made in this invocation
  int64_t input_tokens = 0, output_tokens = 0;
  double cost_usd = 0;  // this invocation's
  int profiles = 0;     // Nsight Compute runs, and their seconds (agent/kernel_profile.hpp)
  double profile_s = 0;
  bool budget_exhausted = false, out_of_time = false, cancelled = false;
};

// `searches` holds each problem's nodes so far (empty, or a resumed run's); `run_id` the run they
// belong to, in the store at `db` (each problem's search has a connection of its own; they run
// side by side). `options.workers` should be warm (agent/warm_workers.hpp): each round leases from
// them. `on_line` gets a line per attempt and per stop, from one thread at a time.
AgentSummary run_agent(std::vector<ProblemSearch>& searches, const AgentOptions& options, const std::filesystem::path& db,
                       int64_t run_id, const std::atomic<bool>& cancel,
                       const std::function<void(const std::string&)>& on_line);

// The end of a run: each problem's best re-verified on fresh seeds (a new evaluation, whatever the
// store holds; with options.reverify) and copied to OUT/best/level<L>/<id>_<Name>/best.<ext>.
// A best that does not hold up is said so, and not copied.
void finish_searches(const std::vector<ProblemSearch>& searches, const AgentOptions& options, Store& store,
                     int64_t run_id, const std::function<void(const std::string&)>& on_line);

// The file a node's candidate goes to: OUT/level<L>/<id>_<Name>/attempt<round>_<k>_<model>.<py|cu|cpp>.
std::filesystem::path attempt_path(const std::filesystem::path& out_dir, const Problem& problem, int round, int k,
                                   const std::string& model, const std::string& format);

}  // namespace kforge::agent
